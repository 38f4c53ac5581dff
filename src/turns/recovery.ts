/**
 * Recovery: turns whose runner is gone. A crashed process's turns (their
 * heartbeat went stale) are ended by any process's sweep; this instance's
 * previous incarnation's turns at start, or when a door meets one; a
 * graceful shutdown's from their checkpoint. A turn whose final answer was
 * saved ends COMPLETED, any other INTERRUPTED with its partial answer kept.
 */
import type { Logger } from 'pino';
import { ErrorCode, type TurnEndCode } from '../domain/error-codes.js';
import { TurnStatus } from '../domain/turn-status.js';
import { type NewMessage, type Usage, ZERO_USAGE } from '../domain/types.js';
import type { EventBus } from '../events/bus.js';
import { messageJson } from '../sessions/service.js';
import type { SessionStore } from '../store/sessions.js';
import type { TurnRow as Turn, TurnStore } from '../store/turns.js';
import type { TurnLifecycle } from './lifecycle.js';
import { closingToolResults, openToolCalls, TOOL_RESULT_SERVER_STOPPED } from './tool-pairing.js';

/**
 * The crash-recovery clock: a turn is left by a dead process once its heartbeat (every PARTIAL_FLUSH_MS) is
 * older than `staleMs`, and every process looks every `sweepMs`. From a kill -9 to the turn's end is then at most
 * staleMs + sweepMs plus the ending's own writes (3 s + 0.75 s by default; docs/reliability.md).
 */
export function recoveryTimes(config: { partialFlushMs: number; turnStaleMs: number }): {
  staleMs: number;
  sweepMs: number;
} {
  // Three missed beats at least: a live process that is merely slow (a busy event loop, a slow write) keeps its turn.
  const staleMs = Math.max(config.turnStaleMs, config.partialFlushMs * 3);
  return { staleMs, sweepMs: Math.min(1_000, Math.max(100, Math.round(staleMs / 4))) };
}

export const SHUTDOWN_MESSAGE =
  'The server shut down while this turn was running; the partial answer is saved. Send the message again.';
export const INTERRUPTED_MESSAGE = 'The server stopped while this turn was running';

export interface TurnRecoveryDeps {
  store: SessionStore;
  turns: TurnStore;
  lifecycle: TurnLifecycle;
  bus: EventBus;
  log: Logger;
  processId: string;
  instanceId: string | null;
  /** the embedded database: every active turn this process does not run was left by a previous one */
  exclusiveStore: boolean;
  /** the turn's runner is in this process */
  isLocal(turnId: string): boolean;
  /** a turn of the session was ended here: what waits for the session (queue, recalls) looks again */
  ended(sessionId: string): void;
}

export class TurnRecovery {
  private readonly store: SessionStore;
  private readonly turns: TurnStore;
  private readonly lifecycle: TurnLifecycle;
  private readonly bus: EventBus;
  private readonly log: Logger;
  private readonly processId: string;
  private readonly instanceId: string | null;
  private readonly exclusiveStore: boolean;
  private readonly isLocal: (turnId: string) => boolean;
  private readonly ended: (sessionId: string) => void;

  constructor(deps: TurnRecoveryDeps) {
    this.store = deps.store;
    this.turns = deps.turns;
    this.lifecycle = deps.lifecycle;
    this.bus = deps.bus;
    this.log = deps.log;
    this.processId = deps.processId;
    this.instanceId = deps.instanceId;
    this.exclusiveStore = deps.exclusiveStore;
    this.isLocal = deps.isLocal;
    this.ended = deps.ended;
  }

  /** Turns whose owner stopped beating (a crashed process) become INTERRUPTED with their partial text saved. */
  async recoverOrphans(staleMs: number): Promise<number> {
    const stale = await this.turns.staleActive(staleMs);
    let recovered = 0;
    for (const turn of stale) {
      if (this.isLocal(turn.id)) continue;
      if (await this.endLeftTurn(turn, ErrorCode.INTERRUPTED)) recovered++;
    }
    return recovered;
  }

  /**
   * At start: the turns this instance's previous incarnation left running end at once, without waiting for staleness.
   */
  async recoverOwn(): Promise<number> {
    if (!this.exclusiveStore && this.instanceId === null) return 0;
    const left = await this.turns.activeNotOwnedBy(this.processId, this.exclusiveStore ? null : this.instanceId);
    let recovered = 0;
    for (const turn of left)
      if (this.leftByPreviousIncarnation(turn) && (await this.endLeftTurn(turn, ErrorCode.INTERRUPTED))) recovered++;
    return recovered;
  }

  leftByPreviousIncarnation(turn: Turn): boolean {
    if (this.isLocal(turn.id) || turn.ownerProcess === this.processId) return false;
    return this.exclusiveStore || (this.instanceId !== null && turn.ownerInstance === this.instanceId);
  }

  /**
   * Ends a turn whose runner is gone (crash) or stopped (shutdown), from what
   * the database holds. A turn whose final answer is saved completed: it ends
   * COMPLETED with that answer, and nothing is added. Otherwise it ends
   * INTERRUPTED: the checkpointed partial answer is saved unless the last
   * saved message already holds it, and a note tells the model. False when
   * someone else ended it first.
   */
  async endLeftTurn(turn: Turn, code: TurnEndCode): Promise<boolean> {
    const own = (
      turn.userSequence === null ? [] : await this.store.messagesAfter(turn.sessionId, turn.userSequence)
    ).filter((m) => (m.role === 'assistant' && !m.isPlan && m.isDisplay) || m.role === 'tool');
    const last = own.at(-1);
    const final =
      last?.role === 'assistant' &&
      last.toolCalls.length === 0 &&
      !last.metadata.interrupted &&
      !last.metadata.cancelled &&
      !last.metadata.partial
        ? last
        : null;
    if (final) {
      const ended = await this.lifecycle.end(turn.id, TurnStatus.COMPLETED, null);
      if (!ended) return false;
      const usage: Usage = { ...ZERO_USAGE, ...(turn.usage as Partial<Usage>) };
      await this.lifecycle.ended(ended, final, usage);
      this.log.warn({ turnId: turn.id, sessionId: turn.sessionId }, 'turn.completed_on_recovery');
      return true;
    }
    const message = code === ErrorCode.SHUTDOWN ? SHUTDOWN_MESSAGE : INTERRUPTED_MESSAGE;
    const partialSaved =
      last?.role === 'assistant' &&
      (turn.partialText
        ? last.content.startsWith(turn.partialText)
        : (last.thinking ?? '').startsWith(turn.partialThinking));
    // A call the dead process left open gets its result first, so the session's next turn is not refused.
    const open = openToolCalls(
      (await this.store.context(turn.sessionId)).filter((m) => m.sequenceNumber > (turn.userSequence ?? -1)),
    );
    const messages: NewMessage[] = [
      ...(open.length > 0 ? closingToolResults(open, TOOL_RESULT_SERVER_STOPPED, 'interrupted') : []),
      ...((turn.partialText || turn.partialThinking) && !partialSaved
        ? [
            {
              role: 'assistant' as const,
              content: turn.partialText,
              thinking: turn.partialThinking || null,
              metadata: { interrupted: true },
            },
          ]
        : []),
      {
        role: 'user',
        isAgentNote: true,
        isDisplay: false,
        content:
          '[The previous answer was interrupted by a server restart; ' +
          'the partial text above is all that was produced. ' +
          'Continue from it if the user asks.]',
        metadata: { kind: 'recovery_hint', turnId: turn.id },
      },
    ];
    // The ending and what it saves commit together: no turn (a queued message, a recall) can start in the
    // session between them, so the interrupted answer always comes before the next message.
    const done = await this.store.transaction(async (tx) => {
      const row = await this.lifecycle.end(turn.id, TurnStatus.INTERRUPTED, message, { tx });
      return row && { row, saved: await this.store.append(turn.sessionId, messages, tx, { turnId: turn.id }) };
    });
    if (!done) return false;
    const { row: ended, saved } = done;
    for (const m of saved)
      await this.bus.publish(turn.sessionId, { type: 'MessageSaved', turnId: turn.id, message: messageJson(m) });
    await this.lifecycle.failed(ended, code, message);
    this.log.warn({ turnId: turn.id, sessionId: turn.sessionId, code }, 'turn.interrupted');
    return true;
  }
}
