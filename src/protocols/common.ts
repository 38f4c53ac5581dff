/**
 * What the frontend protocol adapters (/api/chat, /ag-ui) share: the caller's viewer, the JSON body, errors as
 * HTTP answers, the chat's session from a session id or a client-made chat id, the per-user stream slot, and
 * `followTurn`, which reads one turn from the durable session event log (what is stored, then live) and hands
 * each event to the protocol's translator. Turns start through the service methods the GraphQL mutations call.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import type { App } from '../app.js';
import type { Viewer } from '../domain/policy.js';
import { ErrorCode } from '../domain/error-codes.js';
import { isActiveTurnStatus, TurnStatus } from '../domain/turn-status.js';
import { compareEventIds } from '../events/bus.js';
import { sessionEventStream } from '../events/stream.js';
import type { SessionEvent } from '../events/types.js';
import { DEFAULT_MAX_OTHER_BODY_BYTES } from '../files/multipart.js';
import { passesCsrfCheck } from '../http/origin.js';
import { decodeGlobalID } from '@pothos/plugin-relay';
import { BadInput, DomainError, NotFound, Unauthenticated } from '../store/errors.js';
import type { SessionRow } from '../store/sessions.js';
import type { PendingToolCall } from '../turns/service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A client-made chat id: what a URL path segment and the external id column carry without surprises. */
const CHAT_ID = /^[A-Za-z0-9_.:~-]{1,200}$/;

const STATUS: Partial<Record<string, number>> = {
  [ErrorCode.BAD_USER_INPUT]: 400,
  [ErrorCode.BAD_REQUEST]: 400,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.CSRF_HEADER_REQUIRED]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ErrorCode.TOO_MANY_SUBSCRIPTIONS]: 429,
  [ErrorCode.SERVICE_UNAVAILABLE]: 503,
};

export class HttpError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** An error before the stream opened: its HTTP status and `{ error: { code, message } }` (the client shows it). */
export function sendError(res: ServerResponse, code: string, message: string) {
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(STATUS[code] ?? 500, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    ...(code === ErrorCode.UNAUTHENTICATED ? { 'www-authenticate': 'Bearer' } : {}),
  });
  res.end(body);
}

export async function viewerOf(app: App, req: IncomingMessage): Promise<Viewer> {
  const viewer = await app.auth.viewerFor(req.headers.authorization ?? null);
  if (!viewer) throw new Unauthenticated();
  return viewer;
}

/** GraphQL's CSRF rule (a body a cross-site form could send is refused), before anything is read. */
export function requireCsrfSafe(req: IncomingMessage) {
  if (!passesCsrfCheck((name) => req.headers[name] as string | undefined))
    throw new HttpError(ErrorCode.CSRF_HEADER_REQUIRED, 'Send Content-Type: application/json');
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > DEFAULT_MAX_OTHER_BODY_BYTES) throw new HttpError(ErrorCode.PAYLOAD_TOO_LARGE, 'The body is too large');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(ErrorCode.BAD_USER_INPUT, 'The body is not JSON');
  }
}

/** The newest event id of the session's log ('0' when it has none): a cursor for "what comes after now". */
export async function lastEventId(app: App, sessionId: string): Promise<string> {
  return (await app.bus.replay(sessionId, '0')).at(-1)?.eventId ?? '0';
}

export function codeOf(error: unknown): { code: string; message: string } | null {
  if (error instanceof DomainError || error instanceof HttpError) return { code: error.code, message: error.message };
  if (error instanceof GraphQLError && typeof error.extensions?.code === 'string')
    return { code: error.extensions.code, message: error.message };
  return null;
}

/** The error's code and message, or INTERNAL_SERVER_ERROR for one not meant for the client. */
export function publicError(error: unknown): { code: string; message: string } {
  return codeOf(error) ?? { code: ErrorCode.INTERNAL_SERVER_ERROR, message: 'Unexpected error' };
}

/**
 * The same per-user stream limit a GraphQL SSE subscription takes; the slot is held while the stream is open and
 * given back once: when the stream ends, or the moment the client goes away (the response closes), not when the
 * stream next wakes up.
 */
export function streamSlot(app: App, viewer: Viewer, res: ServerResponse): () => void {
  const slot = app.subscriptions.acquire(viewer.userId ?? '(no user)', 'sse');
  if (slot instanceof GraphQLError) throw slot;
  res.once('close', slot);
  return () => {
    res.off('close', slot);
    slot();
  };
}

/**
 * What a reconnect follows (GET /api/chat/{id}/stream, an AG-UI run that brings no new message): the session's
 * running turn, streamed from its beginning in the durable log; null when none runs (the reconnect gets nothing).
 */
export async function runningTurn(
  app: App,
  sessionId: string,
): Promise<{ sessionId: string; turnId: string; userSequence: number | null } | null> {
  const turn = await app.turns.activeTurn(sessionId);
  return turn && { sessionId, turnId: turn.id, userSequence: turn.userSequence };
}

/** The client tool calls a turn row waits for (no result yet). */
export function pendingClientCalls(turn: { pendingToolCalls?: unknown }): PendingToolCall[] {
  return ((turn.pendingToolCalls ?? []) as PendingToolCall[]).filter((c) => c.clientSide && !c.result);
}

const turnOf = (event: SessionEvent): string | null =>
  event.type === 'TurnStarted' || event.type === 'TurnEnded' || event.type === 'TurnFailed'
    ? event.turn.id
    : 'turnId' in event
      ? event.turnId
      : null;

/** What a protocol makes of one turn's events: each event's output, and whether the stream is over. */
export interface TurnTranslator<T> {
  push(event: SessionEvent): { chunks: T[]; done: boolean };
  /** the client tool calls the turn waits for: the stream ends once all of them are sent */
  waitFor(ids: Iterable<string>): void;
  readonly waitsForClient: boolean;
  /** the end of a turn whose end event the log no longer holds, with its stored status */
  ended(status: string): T[];
}

/**
 * Follows one turn: its events already in the log (after `cursor`, else all of them), then live ones, until the
 * turn ends or waits for the client's tools, handing each to `translator` and its output to `write`. Stops early
 * when `res` closes (the client went away; the turn runs on).
 */
export async function followTurn<T>(
  app: App,
  viewer: Viewer,
  res: ServerResponse,
  target: { sessionId: string; turnId: string },
  cursor: string | null,
  translator: TurnTranslator<T>,
  write: (chunks: T[]) => void,
): Promise<void> {
  const { sessionId, turnId } = target;
  const log = await app.bus.replay(sessionId, '0');
  const live = sessionEventStream(app.bus, sessionId, log.at(-1)?.eventId ?? '0');
  const gone = () => void live.return?.();
  res.once('close', gone);
  const handle = async (event: SessionEvent): Promise<boolean> => {
    if (res.destroyed) return true;
    if (turnOf(event) !== turnId || (cursor !== null && compareEventIds(event.eventId, cursor) <= 0)) return false;
    if (event.type === 'ToolCallRequested' && event.clientSide && !translator.waitsForClient) {
      // The calls were stored as pending before their events: the stream ends once each of them is sent.
      const pending = pendingClientCalls(await app.turns.readable(viewer, turnId));
      if (pending.length > 0) translator.waitFor(pending.map((c) => c.id));
    }
    const { chunks, done } = translator.push(event);
    write(chunks);
    return done;
  };
  try {
    let done = false;
    for (const event of log) if ((done = await handle(event))) break;
    if (!done) {
      // A turn that ended although the log holds no end for it (its events were trimmed past EVENT_RETENTION, or
      // an idempotent retry of an old message): the events since the replay, then its stored status, instead of
      // waiting for an event that never comes.
      const turn = await app.turns.readable(viewer, turnId);
      if (!isActiveTurnStatus(turn.status) && turn.status !== TurnStatus.QUEUED) {
        const after = log.at(-1)?.eventId ?? '0';
        for (const event of await app.bus.replay(sessionId, after)) if ((done = await handle(event))) break;
        if (!done) {
          write(translator.ended(turn.status));
          return;
        }
      }
    }
    if (!done) for await (const event of live) if (await handle(event)) break;
  } finally {
    res.off('close', gone);
    await live.return?.();
  }
}

/** The session id an id names outright: a raw UUID or a Session global id (as GraphQL returns it). */
function namedSessionId(id: string): { id: string; global: boolean } | null {
  if (UUID.test(id)) return { id: id.toLowerCase(), global: false };
  try {
    const decoded = decodeGlobalID(id);
    if (decoded.typename === 'Session' && UUID.test(decoded.id)) return { id: decoded.id.toLowerCase(), global: true };
  } catch {
    // not a global id: a client-made chat id
  }
  return null;
}

/**
 * The chat's session. A session id (raw or global) the viewer may not read answers NOT_FOUND, like a missing one.
 * Any other id (and a raw UUID naming no session) is a client-made chat id: the viewer's session keeping it as its
 * external id; with `create`, made on first use (as createSession makes it). Null: no such chat (`create` false).
 */
export async function chatSession(app: App, viewer: Viewer, id: string, create: boolean): Promise<SessionRow | null> {
  const named = namedSessionId(id);
  if (named) {
    const readable = await app.sessions.findReadable(viewer, named.id);
    if (readable) return readable;
    if (named.global || (await app.sessions.store.get(named.id))) throw new NotFound();
  }
  if (!CHAT_ID.test(id)) throw new BadInput('A chat id is 1 to 200 letters, digits or any of _.:~-');
  if (viewer.userId === null) throw new BadInput('A client-made chat id needs a user');
  const found = await app.sessions.store.byExternalId(viewer.userId, id);
  if (found || !create) return found && (await app.sessions.findReadable(viewer, found.id));
  try {
    return await app.sessions.create(viewer, { externalId: id });
  } catch (error) {
    // Two first requests of one chat at once: the unique (owner, external id) index keeps one session.
    const winner = await app.sessions.store.byExternalId(viewer.userId, id);
    if (winner) return winner;
    throw error;
  }
}
