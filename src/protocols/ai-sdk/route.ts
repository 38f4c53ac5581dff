/**
 * The AI SDK's chat protocol (docs/api.md, "AI SDK chat stream"): `POST /api/chat` as `DefaultChatTransport` sends
 * it, answered with the UI message stream (SSE), and `GET /api/chat/{id}/stream`, which resumes the chat's running
 * turn from its beginning (204 when none runs). The turn is started through the service methods the GraphQL
 * mutations call and streamed from the durable session event log the GraphQL subscriptions read; a client that
 * goes away stops only its stream, never the turn (cancelTurn stops it).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import type { App } from '../../app.js';
import type { Viewer } from '../../domain/policy.js';
import { ErrorCode } from '../../domain/error-codes.js';
import { isActiveTurnStatus, TurnStatus } from '../../domain/turn-status.js';
import { compareEventIds } from '../../events/bus.js';
import { sessionEventStream } from '../../events/stream.js';
import type { SessionEvent } from '../../events/types.js';
import { DEFAULT_MAX_OTHER_BODY_BYTES } from '../../files/multipart.js';
import { passesCsrfCheck } from '../../http/origin.js';
import type { RouteHandler } from '../../server.js';
import { DomainError, NotFound, Unauthenticated } from '../../store/errors.js';
import type { PendingToolCall } from '../../turns/service.js';
import { TurnChunks, type TurnTarget, type UIChunk } from './chunks.js';
import { chatSession, parseChatRequest, startChatAction } from './request.js';

const CHAT = '/api/chat';
const RESUME = /^\/api\/chat\/([^/]+)\/stream$/;

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

class HttpError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** An error before the stream opened: its HTTP status and `{ error: { code, message } }` (the client shows it). */
function sendError(res: ServerResponse, code: string, message: string) {
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

async function viewerOf(app: App, req: IncomingMessage): Promise<Viewer> {
  const viewer = await app.auth.viewerFor(req.headers.authorization ?? null);
  if (!viewer) throw new Unauthenticated();
  return viewer;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
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
async function lastEventId(app: App, sessionId: string): Promise<string> {
  return (await app.bus.replay(sessionId, '0')).at(-1)?.eventId ?? '0';
}

const turnOf = (event: SessionEvent): string | null =>
  event.type === 'TurnStarted' || event.type === 'TurnEnded' || event.type === 'TurnFailed'
    ? event.turn.id
    : 'turnId' in event
      ? event.turnId
      : null;

/**
 * Writes the turn's UI message stream: the turn's events already in the log (from `cursor` on, else all of them),
 * then live ones, until the turn ends or waits for the client's tools. Ends early when the client goes away.
 */
async function streamTurn(app: App, viewer: Viewer, res: ServerResponse, target: TurnTarget, cursor: string | null) {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-vercel-ai-ui-message-stream': 'v1',
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
  });
  const write = (chunks: UIChunk[]) => {
    for (const chunk of chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  };
  const chunks = new TurnChunks(target);
  write(chunks.start());
  const { sessionId, turnId } = target;
  const log = await app.bus.replay(sessionId, '0');
  const live = sessionEventStream(app.bus, sessionId, log.at(-1)?.eventId ?? '0');
  const gone = () => void live.return?.();
  res.once('close', gone);
  const handle = async (event: SessionEvent): Promise<boolean> => {
    if (res.destroyed) return true;
    if (turnOf(event) !== turnId || (cursor !== null && compareEventIds(event.eventId, cursor) <= 0)) return false;
    if (event.type === 'ToolCallRequested' && event.clientSide && !chunks.waitsForClient) {
      // The calls were stored as pending before their events: the stream ends once each of them is sent.
      const turn = await app.turns.readable(viewer, turnId);
      const pending = ((turn.pendingToolCalls ?? []) as unknown as PendingToolCall[]).filter(
        (c) => c.clientSide && !c.result,
      );
      if (pending.length > 0) chunks.waitFor(pending.map((c) => c.id));
    }
    const { chunks: out, done } = chunks.push(event);
    write(out);
    return done;
  };
  try {
    let done = false;
    for (const event of log) if ((done = await handle(event))) break;
    if (!done) done = await endedOutsideLog(app, viewer, target, log.at(-1)?.eventId ?? '0', handle, write, chunks);
    if (!done) for await (const event of live) if (await handle(event)) break;
    if (!res.destroyed) res.end('data: [DONE]\n\n');
  } catch (error) {
    app.log.warn({ err: error, sessionId, turnId }, 'ai_sdk.stream_failed');
    if (!res.destroyed) res.end(`data: ${JSON.stringify({ type: 'error', errorText: errorText(error) })}\n\n`);
  } finally {
    res.off('close', gone);
    await live.return?.();
  }
}

/**
 * A turn that has ended although the log holds no end for it (its events were trimmed past EVENT_RETENTION, or an
 * idempotent retry of an old message): the events published since `after` are sent, and if its end is not among
 * them the stream ends with a `finish` carrying its stored status, instead of waiting for an event that never comes.
 */
async function endedOutsideLog(
  app: App,
  viewer: Viewer,
  target: TurnTarget,
  after: string,
  handle: (event: SessionEvent) => Promise<boolean>,
  write: (chunks: UIChunk[]) => void,
  chunks: TurnChunks,
): Promise<boolean> {
  const turn = await app.turns.readable(viewer, target.turnId);
  if (isActiveTurnStatus(turn.status) || turn.status === TurnStatus.QUEUED) return false;
  for (const event of await app.bus.replay(target.sessionId, after)) if (await handle(event)) return true;
  write(chunks.ended(turn.status));
  return true;
}

function codeOf(error: unknown): { code: string; message: string } | null {
  if (error instanceof DomainError || error instanceof HttpError) return { code: error.code, message: error.message };
  if (error instanceof GraphQLError && typeof error.extensions?.code === 'string')
    return { code: error.extensions.code, message: error.message };
  return null;
}

function errorText(error: unknown): string {
  const known = codeOf(error);
  return known ? `${known.code}: ${known.message}` : `${ErrorCode.INTERNAL_SERVER_ERROR}: Unexpected error`;
}

/**
 * The same per-user stream limit a GraphQL SSE subscription takes; the slot is held while the stream is open and
 * given back once: when the stream ends, or the moment the client goes away (the response closes), not when the
 * stream next wakes up.
 */
function streamSlot(app: App, viewer: Viewer, res: ServerResponse): () => void {
  const slot = app.subscriptions.acquire(viewer.userId ?? '(no user)', 'sse');
  if (slot instanceof GraphQLError) throw slot;
  res.once('close', slot);
  return () => {
    res.off('close', slot);
    slot();
  };
}

async function postChat(req: IncomingMessage, res: ServerResponse, app: App) {
  if (!passesCsrfCheck((name) => req.headers[name] as string | undefined))
    throw new HttpError(ErrorCode.CSRF_HEADER_REQUIRED, 'Send Content-Type: application/json');
  const viewer = await viewerOf(app, req);
  const request = parseChatRequest(await readJson(req));
  const session = await chatSession(app, viewer, request.id, true);
  if (!session) throw new NotFound();
  const release = streamSlot(app, viewer, res);
  try {
    const { target, cursor } = await startChatAction(app, viewer, session, request, () => lastEventId(app, session.id));
    await streamTurn(app, viewer, res, target, cursor);
  } finally {
    release();
  }
}

async function resumeChat(res: ServerResponse, app: App, viewer: Viewer, chatId: string) {
  const session = await chatSession(app, viewer, chatId, false);
  const turn = session ? await app.turns.activeTurn(session.id) : null;
  if (!session || !turn) {
    res.writeHead(204, { 'cache-control': 'no-store' });
    res.end();
    return;
  }
  const release = streamSlot(app, viewer, res);
  try {
    await streamTurn(
      app,
      viewer,
      res,
      { sessionId: session.id, turnId: turn.id, userSequence: turn.userSequence },
      null,
    );
  } finally {
    release();
  }
}

export const aiSdkChatRoute: RouteHandler = async (req, res, app) => {
  const path = (req.url ?? '/').split('?')[0]!;
  const resume = path === CHAT ? null : RESUME.exec(path);
  if (path !== CHAT && !resume) return false;
  try {
    if (resume) {
      if (req.method !== 'GET') throw new HttpError('METHOD_NOT_ALLOWED', 'Use GET');
      let chatId: string;
      try {
        chatId = decodeURIComponent(resume[1]!);
      } catch {
        throw new HttpError(ErrorCode.BAD_USER_INPUT, 'Malformed chat id');
      }
      await resumeChat(res, app, await viewerOf(app, req), chatId);
    } else {
      if (req.method !== 'POST') throw new HttpError('METHOD_NOT_ALLOWED', 'Use POST');
      await postChat(req, res, app);
    }
  } catch (error) {
    const known = codeOf(error);
    if (!known) throw error;
    if (res.headersSent) res.end();
    else if (known.code === 'METHOD_NOT_ALLOWED') {
      res.writeHead(405, { allow: resume ? 'GET' : 'POST', 'content-type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed');
    } else sendError(res, known.code, known.message);
  }
  return true;
};
