/** Helpers for the issue-6 tests: GraphQL multipart requests, turn completion, raw session ids. */
import { decodeGlobalID } from '@pothos/plugin-relay';
import { expect } from 'vitest';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  SendMessageWithFilesDocument,
  UploadsCreateSessionDocument,
  UploadSessionFilesDocument,
} from '../generated/graphql.js';
import {
  type GqlResult,
  queryText,
  rawSessionId,
  SESSION_EVENTS,
  type SessionEvent,
  type ServerContext,
} from './harness.js';

export interface UploadPart {
  name: string;
  bytes: Uint8Array | string;
  type?: string;
}

/** POST a GraphQL multipart request (operations, map, files); `paths[i]` is where file i goes in the variables. */
export async function multipart<R, V>(
  t: ServerContext,
  query: TypedDocumentNode<R, V>,
  // the multipart spec's variables: each file's place holds null
  variables: Record<string, unknown>,
  files: UploadPart[],
  paths: string[],
  token?: string,
): Promise<{ status: number; body: GqlResult<R>; headers: Headers }> {
  const fd = new FormData();
  fd.set('operations', JSON.stringify({ query: queryText(query), variables }));
  fd.set('map', JSON.stringify(Object.fromEntries(files.map((_, i) => [String(i), [paths[i]]]))));
  files.forEach((f, i) => {
    const data = typeof f.bytes === 'string' ? new TextEncoder().encode(f.bytes) : f.bytes;
    fd.set(String(i), new Blob([data as BlobPart], { type: f.type ?? 'application/octet-stream' }), f.name);
  });
  const response = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'x-graphql-yoga-csrf': '1', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: fd,
  });
  const text = await response.text();
  let body: GqlResult<R>;
  try {
    body = JSON.parse(text) as GqlResult<R>;
  } catch {
    // not JSON: the text as the one error, so `body.errors` says what came back
    body = { errors: [{ message: text }] };
  }
  return { status: response.status, body, headers: response.headers };
}

export const UPLOAD = UploadSessionFilesDocument;

export function upload(t: ServerContext, sessionId: string, files: UploadPart[], token?: string) {
  return multipart(
    t,
    UPLOAD,
    { sessionId, files: files.map(() => null) },
    files,
    files.map((_, i) => `variables.files.${i}`),
    token,
  );
}

export const SEND = SendMessageWithFilesDocument;

/**
 * Subscribes from the session's newest event on: what is published before the
 * socket is live is replayed, not lost, and nothing older is seen (no sleep).
 */
async function subscribeFromNow(t: ServerContext, sessionId: string, token?: string) {
  const last = (await t.app.bus.replay(rawSessionId(sessionId), '0')).at(-1)?.eventId;
  if (last) return t.subscribe(SESSION_EVENTS, { sessionId, after: last }, token);
  // An empty log: wait until the server listens (or refused the subscription, for a session the caller may not read).
  const before = t.listenerCount(sessionId);
  const sub = t.subscribe(SESSION_EVENTS, { sessionId }, token);
  const refused = (async () => {
    while (sub.errors.length === 0 && t.listenerCount(sessionId) <= before) await new Promise((r) => setTimeout(r, 20));
  })();
  await Promise.race([t.listening(sessionId, before + 1).catch(() => undefined), refused]);
  return sub;
}

/** sendMessage as multipart with `images` and `files`; waits for the turn to end. */
export async function sendWithAttachments(
  t: ServerContext,
  input: { sessionId: string; content: string; hidden?: boolean },
  attachments: { images?: UploadPart[]; files?: UploadPart[] },
  token?: string,
) {
  const images = attachments.images ?? [];
  const files = attachments.files ?? [];
  const sub = await subscribeFromNow(t, input.sessionId, token);
  const result = await multipart(
    t,
    SEND,
    { input: { ...input, images: images.map(() => null), files: files.map(() => null) } },
    [...images, ...files],
    [...images.map((_, i) => `variables.input.images.${i}`), ...files.map((_, i) => `variables.input.files.${i}`)],
    token,
  );
  if (result.body?.errors) {
    sub.dispose();
    return { result, events: [] as SessionEvent[] };
  }
  const events = await sub.waitFor((es) =>
    es.some((e) => e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed'),
  );
  sub.dispose();
  return { result, events };
}

/** JSON sendMessage; waits for the turn to end. */
export async function sendText(t: ServerContext, sessionId: string, content: string, token?: string) {
  const sub = await subscribeFromNow(t, sessionId, token);
  const sent = await t.http(SEND, { input: { sessionId, content } }, token);
  expect(sent.errors).toBeUndefined();
  const events = await sub.waitFor((es) =>
    es.some((e) => e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed'),
  );
  sub.dispose();
  return events;
}

export const rawId = (globalId: string) => decodeGlobalID(globalId).id;

export async function newSession(t: ServerContext, token?: string, profileId?: string) {
  const r = await t.http(UploadsCreateSessionDocument, { p: profileId ?? null }, token);
  expect(r.errors).toBeUndefined();
  return r.data!.createSession.id;
}
