/**
 * How a door starts a turn through TurnService.startTurn: the spec it gives
 * (its transaction, its announcements), the handle its write creates the
 * turn with, and the error a second active turn in the session meets.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { isConnectionError, RETRY_DELAYS_MS } from '../db/faults.js';
import { ErrorCode } from '../domain/error-codes.js';
import type { NewMessage } from '../domain/types.js';
import type { EventBus } from '../events/bus.js';
import { Conflict, DomainError } from '../store/errors.js';
import type { Recall } from '../store/recalls.js';
import type { StoredMessage } from '../store/rows.js';
import type { SessionStore, Tx } from '../store/sessions.js';
import type { TurnRow as Turn, TurnStore } from '../store/turns.js';
import type { TurnLifecycle } from './lifecycle.js';
import type { ClientToolDefinition } from './types.js';

/** A turn and the user message it answers, as a door started it. */
export interface StartedTurn {
  turn: Turn;
  userMessage: StoredMessage;
}

/** What a door's write may do to start its turn (TurnService.startTurn). */
export interface TurnDoor {
  /** a new RUNNING turn owned by this process, answering the message at `userSequence` */
  create(tx: Tx, data: { sessionId: string; userSequence: number; idempotencyKey?: string | null }): Promise<Turn>;
  /** the QUEUED turn `id` becomes RUNNING with its message */
  startQueued(tx: Tx, id: string, userSequence: number): Promise<Turn>;
}

export interface TurnStartSpec {
  /** the door's transaction: its user message and, through `door`, its turn; null: nothing to start */
  write(door: TurnDoor): Promise<StartedTurn | null>;
  /** run the write again after a connection lost before the commit (the turn's id tells committed apart) */
  retry?: boolean;
  /** after a connection lost around the commit: what the door committed with turn `turnId`, or null */
  committed?(turnId: string): Promise<StartedTurn | null>;
  clientTools?: ClientToolDefinition[];
  /** the door's own announcements, after TurnStarted and before the runner starts */
  announce?(turn: Turn): Promise<void>;
  /** the session's owner for the list's activity event (looked up when absent); false: the door announced it */
  userId?: string | null | false;
}

/** A turn is already active in the session (the one-active-turn index refused the new one). */
export class TurnAlreadyRunning extends Conflict {
  constructor() {
    super('A turn is already running in this session');
  }
}

/** Inside a start's transaction: entries wait in the session (the door refuses, or queues behind them). */
export class EntriesWait extends Error {}

export function isStopping(error: unknown): boolean {
  return error instanceof DomainError && error.code === ErrorCode.SERVICE_UNAVAILABLE;
}

export function recallMessage(row: Recall): NewMessage {
  return {
    role: 'user',
    content: row.text,
    isRecall: true,
    metadata: {
      recallId: row.id,
      recallSource: row.source,
      dueAt: row.dueAt.toISOString(),
      contextNotice: `[Scheduled recall: this message was scheduled at ${row.createdAt.toISOString()} ${
        row.source === 'MODEL' ? 'by you (schedule_recall)' : 'by the user'
      } to arrive at ${row.dueAt.toISOString()}; it is arriving now. Act on it.]`,
    },
  };
}

export function isUniqueViolation(error: unknown): boolean {
  const text = `${(error as { code?: string }).code ?? ''} ${(error as Error).message ?? ''}`;
  return /P2002|23505|unique constraint/i.test(text);
}

/** What the doors of pending entries (queued messages, steers no turn took, recalls) need from the turn service. */
export interface TurnStarting {
  startTurn(spec: TurnStartSpec): Promise<StartedTurn | null>;
  /** no active turn in the session (one a previous incarnation left is ended first), and the server is not stopping */
  sessionFree(sessionId: string): Promise<boolean>;
  /** an INTERRUPT is starting a turn in the session: the queue does not dispatch into it meanwhile */
  isHeld(sessionId: string): boolean;
  /** something may now start in the session: the queue and the recall scheduler look again */
  notify(sessionId: string): void;
}

/**
 * Runs the write that creates turn `turnId`. A connection lost before the
 * answer arrived is retried only when the turn was not committed; when it
 * was, the committed turn is the answer. So a write that committed never
 * answers an error, and one that did not is not lost to a blip.
 */
export async function writeOnce(
  turnId: string,
  write: () => Promise<StartedTurn | null>,
  deps: { turns: TurnStore; store: SessionStore; log: Logger },
): Promise<StartedTurn | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isConnectionError(error) || attempt >= RETRY_DELAYS_MS.length) throw error;
      deps.log.warn({ err: error, turnId, attempt }, 'turn.write_connection_lost');
      const committed = await deps.turns.get(turnId);
      if (committed && committed.userSequence !== null) {
        const message = await deps.store.message(committed.sessionId, committed.userSequence);
        if (message) return { turn: committed, userMessage: message };
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
    }
  }
}

export interface StartContext {
  lifecycle: TurnLifecycle;
  store: SessionStore;
  turns: TurnStore;
  bus: EventBus;
  log: Logger;
  owner: { ownerProcess: string; ownerInstance: string | null };
  launch(turn: Turn, clientTools: ClientToolDefinition[]): void;
}

/** TurnService.startTurn's work, once the server accepts turns. */
export async function startTurn(spec: TurnStartSpec, ctx: StartContext): Promise<StartedTurn | null> {
  const turnId = randomUUID();
  const { owner } = ctx;
  const door: TurnDoor = {
    create: (tx, data) => ctx.lifecycle.create(tx, { ...data, id: turnId, ...owner }),
    startQueued: async (tx, id, userSequence) => {
      const turn = await ctx.lifecycle.startQueued(tx, id, { userSequence, ...owner });
      // A QUEUED turn is cancelled only with its entry, which the door's lock found waiting.
      if (!turn) throw new Error(`Queued turn ${id} is no longer QUEUED`);
      return turn;
    },
  };
  let started: StartedTurn | null;
  try {
    started = spec.retry ? await writeOnce(turnId, () => spec.write(door), ctx) : await spec.write(door);
  } catch (error) {
    if (isUniqueViolation(error)) throw new TurnAlreadyRunning();
    if (!isConnectionError(error) || !spec.committed) throw error;
    // Lost around the commit: the door says whether it committed (then that is the answer).
    started = await spec.committed(turnId);
    if (!started) throw error;
  }
  if (!started) return null;
  const { turn, userMessage } = started;
  await ctx.lifecycle.started(turn, userMessage);
  await spec.announce?.(turn);
  if (spec.userId !== false) {
    const userId = spec.userId !== undefined ? spec.userId : ((await ctx.store.get(turn.sessionId))?.userId ?? null);
    await ctx.bus.publishList({ kind: 'activity', sessionId: turn.sessionId, userId });
  }
  ctx.launch(turn, spec.clientTools ?? []);
  return started;
}
