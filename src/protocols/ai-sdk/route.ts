/**
 * The AI SDK's chat protocol (docs/api.md, "AI SDK chat stream"): `POST /api/chat` as `DefaultChatTransport` sends
 * it, answered with the UI message stream (SSE), and `GET /api/chat/{id}/stream`, which resumes the chat's running
 * turn from its beginning (204 when none runs). The turn is started through the service methods the GraphQL
 * mutations call and streamed from the durable session event log the GraphQL subscriptions read; a client that
 * goes away stops only its stream, never the turn (cancelTurn stops it).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../../app.js';
import { ErrorCode } from '../../domain/error-codes.js';
import type { Viewer } from '../../domain/policy.js';
import type { RouteHandler } from '../../server.js';
import { NotFound } from '../../store/errors.js';
import {
  chatSession,
  codeOf,
  followTurn,
  HttpError,
  lastEventId,
  publicError,
  readJson,
  requireCsrfSafe,
  runningTurn,
  sendError,
  streamSlot,
  viewerOf,
} from '../common.js';
import { TurnChunks, type TurnTarget, type UIChunk } from './chunks.js';
import { parseChatRequest, startChatAction } from './request.js';

const CHAT = '/api/chat';
const RESUME = /^\/api\/chat\/([^/]+)\/stream$/;

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
  try {
    await followTurn(app, viewer, res, target, cursor, chunks, write);
    if (!res.destroyed) res.end('data: [DONE]\n\n');
  } catch (error) {
    app.log.warn({ err: error, sessionId: target.sessionId, turnId: target.turnId }, 'ai_sdk.stream_failed');
    const { code, message } = publicError(error);
    if (!res.destroyed) res.end(`data: ${JSON.stringify({ type: 'error', errorText: `${code}: ${message}` })}\n\n`);
  }
}

async function postChat(req: IncomingMessage, res: ServerResponse, app: App) {
  requireCsrfSafe(req);
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
  const turn = session ? await runningTurn(app, session.id) : null;
  if (!turn) {
    res.writeHead(204, { 'cache-control': 'no-store' });
    res.end();
    return;
  }
  const release = streamSlot(app, viewer, res);
  try {
    await streamTurn(app, viewer, res, turn, null);
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
