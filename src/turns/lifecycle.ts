/**
 * The only writer of a turn's status and the only publisher of turn events
 * (TurnStarted, TurnEnded, TurnFailed, TurnInterrupted). Every write asks the
 * pure lifecycle (src/domain/turn-lifecycle.ts) whether the transition is
 * legal and guards the row by the statuses it may come from; every
 * announcement checks that the turn's status is one its event belongs to.
 * test/unit/turn-lifecycle.test.ts scans src/ so that no other module does
 * either.
 */
import { assertTransition, type TurnEventType, TURN_TRANSITIONS } from '../domain/turn-lifecycle.js';
import { ACTIVE_TURN_STATUSES, TURN_STATUSES, TurnStatus } from '../domain/turn-status.js';
import type { ErrorCode } from '../domain/error-codes.js';
import { oneOf } from '../domain/one-of.js';
import type { Usage } from '../domain/types.js';
import type { EventBus } from '../events/bus.js';
import type { TurnJson } from '../events/types.js';
import { messageJson } from '../sessions/service.js';
import type { StoredMessage } from '../store/rows.js';
import type { Tx } from '../store/sessions.js';
import type { StoredToolCall, TurnRow, TurnStore } from '../store/turns.js';
import type { PendingToolCall } from './types.js';

export function turnJson(turn: TurnRow): TurnJson {
  return {
    id: turn.id,
    sessionId: turn.sessionId,
    status: oneOf(TURN_STATUSES, turn.status, 'turn status'),
    startedAt: turn.startedAt.toISOString(),
    endedAt: turn.endedAt?.toISOString() ?? null,
    error: turn.error,
    pendingToolCalls: ((turn.pendingToolCalls ?? []) as unknown as PendingToolCall[])
      .filter((c) => c.clientSide && !c.result)
      .map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
  };
}

/** Who owns a RUNNING turn: its process, and the instance it is recognised by after a restart. */
export interface TurnOwner {
  ownerProcess: string;
  ownerInstance: string | null;
}

type EndStatus = Exclude<
  TurnStatus,
  typeof TurnStatus.QUEUED | typeof TurnStatus.RUNNING | typeof TurnStatus.WAITING_FOR_TOOL
>;

export class TurnLifecycle {
  constructor(
    private readonly turns: TurnStore,
    private readonly bus: EventBus,
  ) {}

  /** NEW → RUNNING: a door's turn, written in the door's transaction with its user message. */
  create(
    tx: Tx,
    data: { id: string; sessionId: string; userSequence: number; idempotencyKey?: string | null } & TurnOwner,
  ): Promise<TurnRow> {
    assertTransition('NEW', TurnStatus.RUNNING);
    return this.turns.insertTurn({ ...data, status: TurnStatus.RUNNING }, tx);
  }

  /** NEW → QUEUED: a QUEUE message's turn, owned by nobody and without a user message until it is dispatched. */
  createQueued(tx: Tx, data: { id: string; sessionId: string; idempotencyKey: string | null }): Promise<TurnRow> {
    assertTransition('NEW', TurnStatus.QUEUED);
    return this.turns.insertTurn(
      { ...data, userSequence: null, ownerProcess: null, ownerInstance: null, status: TurnStatus.QUEUED },
      tx,
    );
  }

  /** QUEUED → RUNNING inside the dispatching transaction; null when it is no longer QUEUED. */
  startQueued(tx: Tx, id: string, data: { userSequence: number } & TurnOwner): Promise<TurnRow | null> {
    const now = new Date();
    return this.move(id, [TurnStatus.QUEUED], TurnStatus.RUNNING, { ...data, startedAt: now, heartbeatAt: now }, tx);
  }

  /** QUEUED → CANCELLED with its queue entry (no turn event: QueuedMessageCancelled says it). */
  cancelQueued(id: string, tx?: Tx): Promise<TurnRow | null> {
    return this.move(id, [TurnStatus.QUEUED], TurnStatus.CANCELLED, { endedAt: new Date() }, tx);
  }

  /** RUNNING → WAITING_FOR_TOOL with the calls the client must answer; false when the turn is no longer running. */
  async waitForTools(id: string, pending: readonly StoredToolCall[]): Promise<boolean> {
    const data = { pendingToolCalls: pending as unknown as object[] };
    return (await this.move(id, [TurnStatus.RUNNING], TurnStatus.WAITING_FOR_TOOL, data)) !== null;
  }

  /** WAITING_FOR_TOOL → RUNNING once the results are in. */
  async resumeAfterTools(id: string): Promise<boolean> {
    const data = { pendingToolCalls: [] };
    return (await this.move(id, [TurnStatus.WAITING_FOR_TOOL], TurnStatus.RUNNING, data)) !== null;
  }

  /**
   * active → CANCELLED, written for a turn this process does not run (or whose
   * runner is slow to stop): its runner sees it at its next checkpoint and
   * announces the ending (endOwn); null when it was no longer active.
   */
  cancelActive(id: string): Promise<TurnRow | null> {
    return this.move(id, ACTIVE_TURN_STATUSES, TurnStatus.CANCELLED, { endedAt: new Date() });
  }

  /**
   * active → `status`, clearing what only a running turn holds (the partial
   * answer too, unless `keepPartial`: an answer still to be stored); null
   * when someone else ended it first.
   */
  end(
    id: string,
    status: EndStatus,
    error: string | null,
    options: { keepPartial?: boolean; tx?: Tx } = {},
  ): Promise<TurnRow | null> {
    const data = {
      error,
      endedAt: new Date(),
      pendingToolCalls: [],
      ...(!options.keepPartial && { partialText: '', partialThinking: '' }),
    };
    return this.move(id, ACTIVE_TURN_STATUSES, status, data, options.tx);
  }

  /**
   * A runner's own ending: as `end`, and a turn already ended the same way by
   * another process (a cancel written there) is still this runner's to announce.
   */
  async endOwn(id: string, status: EndStatus, error: string | null, keepPartial = false): Promise<TurnRow | null> {
    const ended = await this.end(id, status, error, { keepPartial }).catch(() => null);
    if (ended) return ended;
    const row = await this.turns.get(id);
    return row?.status === status ? row : null;
  }

  async started(turn: TurnRow, userMessage: StoredMessage): Promise<void> {
    this.check(turn, 'TurnStarted');
    await this.bus.publish(turn.sessionId, {
      type: 'TurnStarted',
      turn: turnJson(turn),
      userMessage: messageJson(userMessage),
    });
  }

  /** COMPLETED or CANCELLED: TurnEnded with the answer (the partial one when cancelled) and the usage. */
  async ended(turn: TurnRow, assistantMessage: StoredMessage | null, usage: Usage): Promise<void> {
    this.check(turn, 'TurnEnded');
    await this.bus.publish(turn.sessionId, {
      type: 'TurnEnded',
      turn: turnJson(turn),
      assistantMessage: assistantMessage ? messageJson(assistantMessage) : null,
      usage,
    });
  }

  /** FAILED or INTERRUPTED: TurnFailed with the cause's code. */
  async failed(turn: TurnRow, code: ErrorCode, message: string): Promise<void> {
    this.check(turn, 'TurnFailed');
    await this.bus.publish(turn.sessionId, { type: 'TurnFailed', turn: turnJson(turn), code, message });
  }

  /** INTERRUPT: `turnId` was CANCELLED (its TurnEnded came before) and `byTurnId` started in its place. */
  async interrupted(sessionId: string, turnId: string, byTurnId: string): Promise<void> {
    await this.bus.publish(sessionId, { type: 'TurnInterrupted', turnId, byTurnId });
  }

  private move(
    id: string,
    from: readonly TurnStatus[],
    to: TurnStatus,
    data: Record<string, unknown>,
    tx?: Tx,
  ): Promise<TurnRow | null> {
    for (const source of from) assertTransition(source, to);
    return this.turns.transition(id, from, { ...data, status: to }, tx);
  }

  /** An announcement belongs to a transition into the turn's current status. */
  private check(turn: TurnRow, event: TurnEventType): void {
    if (!TURN_TRANSITIONS.some((t) => t.to === turn.status && t.event === event))
      throw new Error(`${event} cannot announce a ${turn.status} turn`);
  }
}
