/**
 * What the MCP tools and resources do, as plain functions of the app and the
 * request's viewer (no MCP SDK here: src/protocols/mcp/server.ts wires these
 * to the SDK). Every call goes through the service or shared code the
 * GraphQL resolvers use: the session list and search (listSessions), the
 * history page (historyPage after SessionAccess.readable), the turn service's
 * sendMessage, the forced compaction (compactSession). No rule is decided
 * here: limits, idempotency, whileRunning and the access policy are theirs.
 */
import type { App } from '../../app.js';
import type { Viewer } from '../../domain/policy.js';
import type { CompressionStrategy } from '../../domain/compression-kinds.js';
import { isActiveTurnStatus, TurnStatus } from '../../domain/turn-status.js';
import type { SessionEvent } from '../../events/types.js';
import { parseGlobalId, sessionGlobalId, turnGlobalId } from '../../schema/ids.js';
import { compactSession } from '../../compression/compact.js';
import { historyPage } from '../../sessions/history-page.js';
import { DEFAULT_SESSION_PAGE, listSessions } from '../../sessions/list.js';
import type { MessageShape } from '../../store/rows.js';
import type { WhileRunning } from '../../turns/service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A session id as GraphQL returns it (the Session global id), or its raw UUID. */
export function sessionIdOf(id: string): string {
  return UUID.test(id) ? id.toLowerCase() : parseGlobalId(id, 'Session');
}

/** A message of the display history, as the tools show it (GraphQL's Message ids). */
function messageView(m: MessageShape) {
  return {
    id: Buffer.from(`Message:${m.sessionId}:${m.sequenceNumber}`).toString('base64'),
    displayIndex: m.displayIndex,
    role: m.role,
    content: m.content,
    ...(m.thinking ? { thinking: m.thinking } : {}),
    ...(m.toolCalls.length > 0 ? { toolCalls: m.toolCalls } : {}),
    ...(m.toolCallId ? { toolCallId: m.toolCallId } : {}),
    ...((m.metadata as { cancelled?: unknown } | null)?.cancelled === true ? { stopped: true } : {}),
    createdAt: m.createdAt instanceof Date ? m.createdAt.toISOString() : m.createdAt,
  };
}

export interface ListInput {
  first?: number;
  after?: string;
  search?: string;
}

/** One page of the viewer's session list (`sessions`), or of a search (`sessions(search:)`) with its matches. */
export async function sessionPage(app: App, viewer: Viewer, input: ListInput) {
  const { store, search, config } = app;
  const page = await listSessions(
    { store, search, maxPageSize: config.maxPageSize },
    viewer,
    {
      first: input.first ?? DEFAULT_SESSION_PAGE,
      firstGiven: input.first !== undefined,
      after: input.after,
      search: input.search,
      orderBy: 'LAST_ACTIVE',
      direction: 'DESC',
      count: true,
    },
    {},
  );
  return {
    totalCount: page.totalCount,
    totalCountIsExact: page.totalCountIsExact,
    sessions: page.edges.map(({ node, matches }) => ({
      id: sessionGlobalId(node.id),
      name: node.name,
      preview: (node as { preview?: string | null }).preview ?? null,
      displayMessageCount: node.displayCount,
      pinned: node.pinned,
      createdAt: node.createdAt.toISOString(),
      lastActive: node.lastActive.toISOString(),
      ...(matches ? { matches } : {}),
    })),
    pageInfo: { hasNextPage: page.pageInfo.hasNextPage, endCursor: page.pageInfo.endCursor },
  };
}

export interface HistoryInput {
  sessionId: string;
  first?: number;
  after?: string;
  last?: number;
  before?: string;
}

/** One page of a session's display history (Session.history): without arguments the newest page. */
export async function historyOf(app: App, viewer: Viewer, input: HistoryInput) {
  const session = await app.sessions.readable(viewer, sessionIdOf(input.sessionId));
  const page = await historyPage(app.store, session, input, app.config.maxPageSize);
  return {
    sessionId: sessionGlobalId(session.id),
    name: session.name,
    totalCount: page.totalCount,
    messages: page.edges.map((e) => messageView(e.node)),
    pageInfo: page.pageInfo,
  };
}

export interface SendInput {
  sessionId: string;
  content: string;
  idempotencyKey?: string;
  whileRunning?: WhileRunning;
}

/** How a send ended for the caller: the answer, or the turn still running (read it later). */
export type SendOutcome = Record<string, unknown> & { turnId: string; status: string };

/**
 * sendMessage as the GraphQL mutation calls it, then waits up to `waitMs`
 * (MCP_SEND_WAIT_MS) for the turn's end on the session's event log. A turn
 * still running then (or queued behind another) is answered with its id and
 * how to read the answer; the turn goes on either way (an abort only stops
 * the waiting).
 */
export async function sendAndWait(
  app: App,
  viewer: Viewer,
  input: SendInput,
  waitMs: number,
  signal?: AbortSignal,
): Promise<SendOutcome> {
  const sessionId = sessionIdOf(input.sessionId);
  // Listening before the send: an ending published before sendMessage returns is not missed.
  const ending = turnEnding(app, sessionId);
  try {
    const sent = await app.turns.sendMessage(viewer, {
      sessionId,
      content: input.content,
      idempotencyKey: input.idempotencyKey ?? null,
      whileRunning: input.whileRunning ?? 'REJECT',
    });
    const turnId = sent.turn.id;
    const event = await ending.wait(viewer, turnId, waitMs, signal);
    if (event) return endedOutcome(sessionId, event);
    const turn = await app.turns.readable(viewer, turnId);
    const running = isActiveTurnStatus(turn.status) || turn.status === TurnStatus.QUEUED;
    const where = `read_history (sessionId ${sessionGlobalId(sessionId)}) or the session's history resource`;
    return {
      turnId: turnGlobalId(turnId),
      sessionId: sessionGlobalId(sessionId),
      status: turn.status,
      ...(sent.queued ? { queuedMessageId: sent.queued.id } : {}),
      note: running
        ? `The answer is not ready yet; the turn goes on. Read it with ${where} once the turn has ended.`
        : `The turn has ended; read its answer with ${where}.`,
    };
  } finally {
    ending.close();
  }
}

type Ending = Extract<SessionEvent, { type: 'TurnEnded' | 'TurnFailed' }>;

function endedOutcome(sessionId: string, event: Ending): SendOutcome {
  const base = {
    turnId: turnGlobalId(event.turn.id),
    sessionId: sessionGlobalId(sessionId),
    status: event.turn.status,
  };
  if (event.type === 'TurnFailed') return { ...base, error: { code: event.code, message: event.message } };
  const answer = event.assistantMessage;
  return {
    ...base,
    answer: answer?.content ?? null,
    ...(answer
      ? { messageId: Buffer.from(`Message:${answer.sessionId}:${answer.sequenceNumber}`).toString('base64') }
      : {}),
    ...(event.turn.error ? { error: { message: event.turn.error } } : {}),
    usage: event.usage,
  };
}

/** How often the turn's row is read while waiting, besides the live events (a missed event costs at most this). */
const RECHECK_MS = 1_000;

/**
 * The end of a turn in `sessionId`, heard on the event bus (every process's
 * turns reach it, through Redis when there are several); the turn's row is
 * re-read now and then, and an ending the live listener missed is found in
 * the session's retained log.
 */
function turnEnding(app: App, sessionId: string) {
  const endings = new Map<string, Ending>();
  let wake: (() => void) | null = null;
  const stop = app.bus.onSession(sessionId, (event) => {
    if (event.type !== 'TurnEnded' && event.type !== 'TurnFailed') return;
    endings.set(event.turn.id, event);
    wake?.();
  });
  return {
    close: stop,
    async wait(viewer: Viewer, turnId: string, waitMs: number, signal?: AbortSignal): Promise<Ending | null> {
      const deadline = Date.now() + waitMs;
      while (!signal?.aborted) {
        const heard = endings.get(turnId);
        if (heard) return heard;
        const left = deadline - Date.now();
        if (left <= 0) return null;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => wake?.(), Math.min(left, RECHECK_MS));
          wake = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', wake!);
            wake = null;
            resolve();
          };
          signal?.addEventListener('abort', wake, { once: true });
        });
        if (endings.has(turnId)) continue;
        const turn = await app.turns.readable(viewer, turnId);
        if (isActiveTurnStatus(turn.status) || turn.status === TurnStatus.QUEUED) continue;
        const logged = (await app.bus.replay(sessionId, '0')).find(
          (e): e is Ending => (e.type === 'TurnEnded' || e.type === 'TurnFailed') && e.turn.id === turnId,
        );
        if (logged) return logged;
        return null;
      }
      return null;
    },
  };
}

/** The forced compaction (compactSession). */
export async function compact(app: App, viewer: Viewer, id: string, strategy: CompressionStrategy) {
  const result = await compactSession(app, viewer, sessionIdOf(id), strategy);
  return {
    sessionId: sessionGlobalId(result.session.id),
    summary: result.summary,
    messagesBefore: result.messagesBefore,
    messagesAfter: result.messagesAfter,
  };
}
