/**
 * The doors of pending entries: a message sent with whileRunning QUEUE or
 * STEER waits as a queue entry (QUEUE with its QUEUED turn) until it is
 * dispatched, cancelled or (STEER) taken by the running turn; a due recall
 * fires. Dispatching and firing start their turns through
 * TurnService.startTurn, like every door.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { isTransientDbError } from '../db/faults.js';
import type { Viewer } from '../domain/policy.js';
import { oneOf } from '../domain/one-of.js';
import { QUEUED_MESSAGE_KINDS, QUEUED_MESSAGE_STATUSES } from '../domain/queued-message.js';
import { makeMessage, type NewMessage } from '../domain/types.js';
import type { EventBus } from '../events/bus.js';
import type { QueuedMessageJson } from '../events/types.js';
import type { SessionAccess } from '../sessions/access.js';
import { Conflict, NotFound } from '../store/errors.js';
import type { QueuedMessage, QueuedStore } from '../store/queued.js';
import type { Recall, RecallStore } from '../store/recalls.js';
import type { StoredMessage } from '../store/rows.js';
import type { SessionStore } from '../store/sessions.js';
import type { TurnRow as Turn, TurnStore } from '../store/turns.js';
import type { TurnLifecycle } from './lifecycle.js';
import { isStopping, recallMessage, type StartedTurn, TurnAlreadyRunning, type TurnStarting } from './start.js';
import type { ClientToolDefinition } from './types.js';

export function queuedJson(row: QueuedMessage, position: number | null): QueuedMessageJson {
  return {
    id: row.id,
    sessionId: row.sessionId,
    kind: oneOf(QUEUED_MESSAGE_KINDS, row.kind, 'queued message kind'),
    status: oneOf(QUEUED_MESSAGE_STATUSES, row.status, 'queued message status'),
    content: row.content,
    createdAt: row.createdAt.toISOString(),
    position,
    turnId: row.turnId,
    failureReason: row.failureReason,
  };
}

/** Thrown before a dispatch whose stored payload is not a message: the entry is parked after its attempts. */
export class MalformedEntry extends Error {}

/** The reason stored with a failed dispatch (bounded: a database error can be long). */
export function failureReason(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}

function checkPayload(row: QueuedMessage): void {
  const m = row.message as unknown;
  if (typeof m !== 'object' || m === null || Array.isArray(m)) {
    throw new MalformedEntry(`queued entry ${row.id}: its message is not an object`);
  }
  const { role, content } = m as { role?: unknown; content?: unknown };
  if (role !== 'user' || typeof content !== 'string') {
    throw new MalformedEntry(`queued entry ${row.id}: its message is not a user message with text content`);
  }
  if (!Array.isArray(row.clientTools ?? []))
    throw new MalformedEntry(`queued entry ${row.id}: clientTools is not a list`);
}

/** A queued message as sendMessage answers it before it is stored: not in the history yet, sequenceNumber -1. */
export function provisionalMessage(row: QueuedMessage): StoredMessage {
  const draft = row.message as unknown as NewMessage;
  return {
    ...makeMessage({ ...draft, createdAt: row.createdAt }),
    // Not stored yet: its id is the queue entry's (stable across reads, never a stored message's).
    messageId: row.id,
    sequenceNumber: -1,
    metadata: { ...(draft.metadata ?? {}), queuedMessageId: row.id },
    sessionId: row.sessionId,
    displayIndex: null,
    archived: false,
  };
}

/** What sendMessage answers: the turn that answers the message, the message, and its queue entry if it waits. */
export interface SendResult {
  turn: Turn;
  /** stored, or (queued) the message as it will be stored, sequenceNumber -1 */
  userMessage: StoredMessage;
  queued: QueuedMessage | null;
}

export interface PendingTurnsDeps {
  store: SessionStore;
  turns: TurnStore;
  lifecycle: TurnLifecycle;
  queued: QueuedStore;
  sessions: Pick<SessionAccess, 'writable'>;
  bus: EventBus;
  log: Logger;
  starter: TurnStarting;
}

export class PendingTurns {
  private readonly store: SessionStore;
  private readonly turns: TurnStore;
  private readonly lifecycle: TurnLifecycle;
  private readonly queued: QueuedStore;
  private readonly sessions: PendingTurnsDeps['sessions'];
  private readonly bus: EventBus;
  private readonly log: Logger;
  private readonly starter: TurnStarting;

  constructor(deps: PendingTurnsDeps) {
    this.store = deps.store;
    this.turns = deps.turns;
    this.lifecycle = deps.lifecycle;
    this.queued = deps.queued;
    this.sessions = deps.sessions;
    this.bus = deps.bus;
    this.log = deps.log;
    this.starter = deps.starter;
  }

  /**
   * QUEUE: a QUEUED turn and its queue entry, written together; STEER: the
   * entry alone, naming the running turn it joins. Nothing is appended to the
   * history until the message is dispatched (or steered).
   */
  async enqueue(
    sessionId: string,
    draft: NewMessage,
    clientTools: ClientToolDefinition[],
    key: string | null,
    steerInto: Turn | null,
  ): Promise<SendResult> {
    const { row, turn } = await this.store.transaction(async (tx) => {
      await this.queued.lockSession(tx, sessionId);
      const turn =
        steerInto ?? (await this.lifecycle.createQueued(tx, { id: randomUUID(), sessionId, idempotencyKey: key }));
      const row = await this.queued.create(
        {
          id: randomUUID(),
          sessionId,
          kind: steerInto ? 'STEER' : 'QUEUE',
          content: draft.content,
          message: draft,
          clientTools,
          idempotencyKey: steerInto ? key : null,
          turnId: turn.id,
        },
        tx,
      );
      return { row, turn };
    });
    const position = await this.queued.position(row);
    await this.bus.publish(sessionId, { type: 'MessageQueued', queued: queuedJson(row, position) });
    this.log.info({ sessionId, queuedId: row.id, kind: row.kind, position }, 'queue.added');
    // The running turn may have ended meanwhile: the dispatcher looks now.
    this.starter.notify(sessionId);
    return { turn, userMessage: provisionalMessage(row), queued: row };
  }

  /** The session's waiting messages, in the order they will run. */
  async queuedMessages(sessionId: string, first?: number): Promise<QueuedMessage[]> {
    return this.queued.waiting(sessionId, first);
  }

  /** The queue entry if the viewer may write its session; null otherwise. */
  async findQueued(viewer: Viewer, id: string): Promise<QueuedMessage | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const row = await this.queued.get(id);
    if (!row) return null;
    return (await this.sessions.writable(viewer, row.sessionId).then(
      () => true,
      () => false,
    ))
      ? row
      : null;
  }

  /**
   * cancelQueuedMessage: a waiting entry → CANCELLED (its QUEUED turn too, in
   * the same transaction). Again: the same answer; one already dispatched
   * answers CONFLICT (its message is in the history).
   */
  async cancelQueued(viewer: Viewer, id: string): Promise<QueuedMessage> {
    const row = await this.findQueued(viewer, id);
    if (!row) throw new NotFound('QueuedMessage');
    const cancelled = await this.store.transaction(async (tx) => {
      const done = await this.queued.cancel(id, tx);
      if (done?.kind === 'QUEUE' && done.turnId) await this.lifecycle.cancelQueued(done.turnId, tx);
      return done;
    });
    if (cancelled) {
      await this.bus.publish(row.sessionId, { type: 'QueuedMessageCancelled', queuedId: id });
      this.log.info({ sessionId: row.sessionId, queuedId: id }, 'queue.cancelled');
      return cancelled;
    }
    const now = await this.queued.get(id);
    if (!now) throw new NotFound('QueuedMessage');
    if (now.status === 'CANCELLED') return now;
    throw new Conflict('The queued message has already been sent; it is in the history');
  }

  /**
   * Dispatches a queue head this process claimed, like fireRecall: in one
   * transaction the row is locked (still CLAIMED by `claimant`, or nothing
   * happens: 'lost'), the user message appended, its turn started (the QUEUED
   * turn of a QUEUE entry; a new one for a STEER entry no turn took) and the
   * row marked DISPATCHED. A session with a running turn gives the claim back
   * ('busy'): the entry waits for that turn to end.
   */
  async dispatchQueued(row: QueuedMessage, claimant: string): Promise<'dispatched' | 'busy' | 'lost'> {
    checkPayload(row);
    if (this.starter.isHeld(row.sessionId) || !(await this.starter.sessionFree(row.sessionId))) {
      await this.queued.release(row.id, claimant);
      return 'busy';
    }
    let dispatched: StartedTurn | null;
    try {
      dispatched = await this.starter.startTurn({
        clientTools: (row.clientTools ?? []) as unknown as ClientToolDefinition[],
        write: (door) =>
          this.store.transaction(async (tx) => {
            const locked = await this.queued.lockClaimed(tx, row.id, claimant);
            if (!locked) return null;
            const [message] = await this.store.append(locked.sessionId, [locked.message as unknown as NewMessage], tx);
            const userSequence = message!.sequenceNumber;
            const turn =
              locked.kind === 'QUEUE' && locked.turnId
                ? await door.startQueued(tx, locked.turnId, userSequence)
                : await door.create(tx, { sessionId: locked.sessionId, userSequence });
            await this.queued.markDispatched(tx, locked.id, turn.id, userSequence);
            return { turn, userMessage: message! };
          }),
        announce: async (turn) => {
          await this.bus.publish(turn.sessionId, {
            type: 'QueuedMessageDispatched',
            queuedId: row.id,
            turnId: turn.id,
            steered: false,
          });
          this.log.info({ queuedId: row.id, sessionId: turn.sessionId, turnId: turn.id }, 'queue.dispatched');
        },
      });
    } catch (error) {
      if (!(error instanceof TurnAlreadyRunning) && !isStopping(error)) throw error;
      // A turn started between the check and the write: wait for it.
      await this.queued.release(row.id, claimant);
      return 'busy';
    }
    return dispatched ? 'dispatched' : 'lost';
  }

  /**
   * A dispatch of a claimed queue entry threw: counted and given back; the
   * `maxFailures`-th failure parks it FAILED (its QUEUED turn CANCELLED with
   * it, so the entries behind it move on), tells subscribers
   * (QueuedMessageFailed) and logs once. Earlier failures log at debug only.
   */
  async queuedFailed(row: QueuedMessage, claimant: string, error: unknown, maxFailures: number): Promise<void> {
    if (isTransientDbError(error)) {
      // The database failed, not the entry: given back uncounted (or, if that fails too, its lease expires).
      this.log.warn({ err: error, queuedId: row.id, sessionId: row.sessionId }, 'queue.dispatch_transient');
      await this.queued.release(row.id, claimant);
      return;
    }
    const reason = failureReason(error);
    const now = await this.store.transaction(async (tx) => {
      const updated = await this.queued.recordFailure(row.id, claimant, reason, maxFailures, tx);
      if (updated?.status === 'FAILED' && updated.kind === 'QUEUE' && updated.turnId) {
        await this.lifecycle.cancelQueued(updated.turnId, tx);
      }
      return updated;
    });
    if (now?.status !== 'FAILED') {
      this.log.debug({ queuedId: row.id, failures: now?.failures, reason }, 'queue.dispatch_retry');
      return;
    }
    await this.bus.publish(row.sessionId, { type: 'QueuedMessageFailed', queuedId: row.id, failureReason: reason });
    this.log.error({ err: error, queuedId: row.id, sessionId: row.sessionId, failures: now.failures }, 'queue.parked');
    this.starter.notify(row.sessionId);
  }

  /** A recall's firing threw: like queuedFailed (RecallFailed, one log line when parked). */
  async recallFailed(
    recall: Recall,
    claimant: string,
    error: unknown,
    maxFailures: number,
    recalls: RecallStore,
  ): Promise<void> {
    if (isTransientDbError(error)) {
      this.log.warn({ err: error, recallId: recall.id, sessionId: recall.sessionId }, 'recall.fire_transient');
      await recalls.release(recall.id, claimant);
      return;
    }
    const reason = failureReason(error);
    const now = await recalls.recordFailure(recall.id, claimant, reason, maxFailures);
    if (now?.status !== 'FAILED') {
      this.log.debug({ recallId: recall.id, failures: now?.failures, reason }, 'recall.fire_retry');
      return;
    }
    await this.bus.publish(recall.sessionId, { type: 'RecallFailed', recallId: recall.id, failureReason: reason });
    this.log.error({ err: error, recallId: recall.id, sessionId: recall.sessionId }, 'recall.parked');
  }

  /**
   * Fires a recall this process claimed: in one transaction the row is
   * locked (still CLAIMED by `claimant`, or nothing happens: 'lost'), the
   * is_recall user message appended, its turn created and the row marked
   * FIRED. So the message exists exactly when the recall is FIRED, and a
   * crash before the commit leaves only the claim, which expires. A session
   * whose turn is running gives the claim back ('busy'): the recall waits
   * for that turn to end, then fires.
   */
  async fireRecall(recall: Recall, claimant: string, recalls: RecallStore): Promise<'fired' | 'busy' | 'lost'> {
    if (!(await this.starter.sessionFree(recall.sessionId))) {
      await recalls.release(recall.id, claimant);
      return 'busy';
    }
    let fired: StartedTurn | null;
    try {
      fired = await this.starter.startTurn({
        write: (door) =>
          this.store.transaction(async (tx) => {
            const row = await recalls.lockClaimed(tx, recall.id, claimant);
            if (!row) return null;
            const [message] = await this.store.append(row.sessionId, [recallMessage(row)], tx);
            const turn = await door.create(tx, { sessionId: row.sessionId, userSequence: message!.sequenceNumber });
            await recalls.markFired(tx, row.id, message!.sequenceNumber, turn.id);
            return { turn, userMessage: message! };
          }),
        // Lost around the commit: committed means FIRED with this turn; otherwise the claim stands and expires.
        committed: async (turnId) => {
          const row = await recalls.get(recall.id);
          if (row?.status !== 'FIRED' || row.turnId !== turnId || row.messageSequence === null) return null;
          const turn = await this.turns.get(turnId);
          const message = await this.store.message(row.sessionId, row.messageSequence);
          return turn && message ? { turn, userMessage: message } : null;
        },
        announce: async (turn) =>
          this.log.info({ recallId: recall.id, sessionId: turn.sessionId, turnId: turn.id }, 'recall.fired'),
      });
    } catch (error) {
      if (!(error instanceof TurnAlreadyRunning) && !isStopping(error)) throw error;
      // A turn started between the check and the write (or the server began stopping): wait for it.
      await recalls.release(recall.id, claimant);
      return 'busy';
    }
    return fired ? 'fired' : 'lost';
  }
}
