/**
 * AG-UI at `POST /ag-ui` (docs/api.md, "AG-UI"): a `RunAgentInput` as `@ag-ui/client`'s HttpAgent posts it,
 * answered with AG-UI events over SSE (`data: <json>` frames, no `[DONE]`). Built on the same core door as
 * /api/chat (src/protocols/common.ts): the caller's key, GraphQL's CSRF rule, the session from the thread id, the
 * turn started by the service methods the GraphQL mutations call and read from the durable session event log.
 * Errors once the caller is known are a RUN_ERROR `{ message, code }` after RUN_STARTED (HttpAgent rejects a
 * non-2xx answer without telling its subscribers); no credentials answer 401, a cross-site form 403.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../../app.js';
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
  sendError,
  streamSlot,
  viewerOf,
} from '../common.js';
import { type AgUiEvent, TurnEvents } from './events.js';
import { differs, storedMessages } from './messages.js';
import { parseRunInput, startRun } from './request.js';

const PATH = '/ag-ui';

async function run(req: IncomingMessage, res: ServerResponse, app: App) {
  requireCsrfSafe(req);
  const viewer = await viewerOf(app, req);
  const body = await readJson(req);
  const ids = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const runIds = { threadId: String(ids.threadId ?? ''), runId: String(ids.runId ?? '') };
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
  });
  const write = (events: AgUiEvent[]) => {
    for (const event of events) if (!res.destroyed) res.write(`data: ${JSON.stringify(event)}\n\n`);
  };
  let events: TurnEvents | null = null;
  write([{ type: 'RUN_STARTED', ...runIds }]);
  let release: (() => void) | null = null;
  try {
    const input = parseRunInput(body);
    const session = await chatSession(app, viewer, input.threadId, true);
    if (!session) throw new NotFound();
    release = streamSlot(app, viewer, res);
    const { turnId, cursor, upTo } = await startRun(app, viewer, session, input, () => lastEventId(app, session.id));
    const stored = await storedMessages(app, session.id, upTo);
    if (differs(input.messages, stored)) write([{ type: 'MESSAGES_SNAPSHOT', messages: stored }]);
    if (turnId === null) {
      write([{ type: 'RUN_FINISHED', ...runIds }]);
      return;
    }
    events = new TurnEvents(turnId, runIds, session.id);
    await followTurn(app, viewer, res, { sessionId: session.id, turnId }, cursor, events, write);
  } catch (error) {
    if (!codeOf(error)) app.log.warn({ err: error }, 'ag_ui.run_failed');
    const { code, message } = publicError(error);
    write(events ? events.runError(code, message) : [{ type: 'RUN_ERROR', message, code }]);
  } finally {
    release?.();
    if (!res.destroyed) res.end();
  }
}

export const agUiRoute: RouteHandler = async (req, res, app) => {
  if ((req.url ?? '/').split('?')[0] !== PATH) return false;
  try {
    if (req.method !== 'POST') throw new HttpError('METHOD_NOT_ALLOWED', 'Use POST');
    await run(req, res, app);
  } catch (error) {
    const known = codeOf(error);
    if (!known) throw error;
    if (res.headersSent) res.end();
    else if (known.code === 'METHOD_NOT_ALLOWED') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed');
    } else sendError(res, known.code, known.message);
  }
  return true;
};
