/**
 * The first request of each page, started by main.ts while the page's chunk
 * is still downloading: the newest page of messages is the critical path.
 */
import { gql } from './api.js';

export const SHARE_PAGE = 30;
export const CHAT_PAGE = 30;

export const MESSAGE_FIELDS = `fragment Msg on Message {
  id role content thinking isPlan isCompression isSummary isDisplay name createdAt files images elapsedSeconds
  toolCalls { name arguments }
}`;

export const SHARED = `query Shared($token: String!, $last: Int!, $before: String) {
  sharedSession(token: $token) {
    name profileName createdAt lastActive
    history(last: $last, before: $before) {
      pageInfo { hasPreviousPage startCursor }
      edges { node { role content isPlan name createdAt toolCalls { name arguments } } }
    }
  }
}`;

export const HISTORY = `pageInfo { hasPreviousPage hasNextPage startCursor endCursor } edges { cursor displayIndex node { ...Msg } }`;

export const OPEN_SESSION = `query OpenSession($id: ID!, $last: Int!) {
  session(id: $id) {
    id name createdAt
    profile { name model }
    activeTurn { id status }
    history(last: $last) { ${HISTORY} }
  }
}
${MESSAGE_FIELDS}`;


/** The request itself; the caller keeps the promise (errors surface where it is awaited). */
export function firstPage(hash: string): { share: string | null; session: string | null; data: Promise<unknown> | undefined } {
  const share = /(?:^#|&)share=([^&]+)/.exec(hash)?.[1];
  const session = /(?:^#|&)session=([^&]+)/.exec(hash)?.[1];
  const token = share ? decodeURIComponent(share) : null;
  const id = session ? decodeURIComponent(session) : null;
  const data = token
    ? gql(SHARED, { token, last: SHARE_PAGE, before: null })
    : id
      ? gql(OPEN_SESSION, { id, last: CHAT_PAGE })
      : undefined;
  data?.catch(() => undefined); // handled by whoever awaits it
  return { share: token, session: id, data };
}
