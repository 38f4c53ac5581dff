/**
 * The first request of each page, started by main.ts while the page's chunk
 * is still downloading: the newest page of messages is the critical path.
 */
import { gql, readResult } from './api.js';

export const SHARE_PAGE = 30;
export const CHAT_PAGE = 30;

export const MESSAGE_FIELDS = `fragment Msg on Message {
  id role content thinking isPlan isCompression isSummary isRecall isDisplay name createdAt files images elapsedSeconds
  toolCalls { name arguments } siblings { index count } stopped contextMode turn { id status error }
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

export const HISTORY = `pageInfo { hasPreviousPage hasNextPage startCursor endCursor }
  edges { cursor displayIndex node { ...Msg } }`;

export const OPEN_SESSION = `query OpenSession($id: ID!, $last: Int!) {
  session(id: $id) {
    id name createdAt
    profile { name model }
    activeTurn { id status }
    history(last: $last) { ${HISTORY} }
  }
}
${MESSAGE_FIELDS}`;

/** What the page at `hash` asks first: the share viewer's or a deep-linked conversation's newest page. */
export function firstRequest(
  hash: string,
): { share: string | null; session: string | null; query: string; variables: Record<string, unknown> } | null {
  const share = /(?:^#|&)share=([^&]+)/.exec(hash)?.[1];
  const session = /(?:^#|&)session=([^&]+)/.exec(hash)?.[1];
  if (share) {
    const token = decodeURIComponent(share);
    return { share: token, session: null, query: SHARED, variables: { token, last: SHARE_PAGE, before: null } };
  }
  if (session) {
    const id = decodeURIComponent(session);
    return { share: null, session: id, query: OPEN_SESSION, variables: { id, last: CHAT_PAGE } };
  }
  return null;
}

/** Set by the inline boot script (boot.ts) when it has already sent the first request for `hash`. */
export interface BootRequest {
  hash: string;
  response: Promise<Response>;
}
declare global {
  interface Window {
    __firstPage?: BootRequest;
  }
}

/**
 * The first page's data. The inline boot script normally sent the request
 * while the HTML was still being parsed; its response is taken over here
 * (once). Otherwise, or when the hash changed meanwhile, it is sent now.
 */
export function firstPage(hash: string): {
  share: string | null;
  session: string | null;
  data: Promise<unknown> | undefined;
} {
  const request = firstRequest(hash);
  if (!request) return { share: null, session: null, data: undefined };
  const boot = window.__firstPage;
  window.__firstPage = undefined;
  const data =
    boot && boot.hash === hash ? boot.response.then((r) => readResult(r)) : gql(request.query, request.variables);
  data.catch(() => undefined); // handled by whoever awaits it
  return { share: request.share, session: request.session, data };
}
