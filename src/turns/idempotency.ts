/**
 * Idempotency keys: the answer a key already gave (a turn with its message,
 * a QUEUED turn with its queue entry, or a STEER entry) while it is inside
 * IDEMPOTENCY_WINDOW_HOURS; past it the key is released for a new turn.
 */
import type { Config } from '../config.js';
import { TurnStatus } from '../domain/turn-status.js';
import type { QueuedStore } from '../store/queued.js';
import type { StoredMessage } from '../store/rows.js';
import type { SessionStore } from '../store/sessions.js';
import type { TurnRow as Turn, TurnStore } from '../store/turns.js';
import { provisionalMessage, type SendResult } from './pending.js';

export class IdempotentAnswers {
  constructor(
    private readonly turns: TurnStore,
    private readonly queued: QueuedStore,
    private readonly store: SessionStore,
    private readonly config: Pick<Config, 'idempotencyWindowHours'>,
  ) {}

  /**
   * The answer an idempotency key already gave (see turnForKey): a turn with
   * its message, a QUEUED turn with its queue entry, or a STEER entry.
   */
  async resultForKey(sessionId: string, key: string, expire: boolean): Promise<SendResult | null> {
    const windowMs = this.config.idempotencyWindowHours * 3_600_000;
    const previous = await this.turns.forIdempotencyKey(sessionId, key);
    if (previous && previous.status === TurnStatus.QUEUED && Date.now() - previous.startedAt.getTime() < windowMs) {
      const row = await this.queued.forTurn(previous.id);
      if (row) return { turn: previous, userMessage: provisionalMessage(row), queued: row };
    }
    if (previous) {
      const found = await this.turnForKey(sessionId, key, expire);
      return found && { ...found, queued: null };
    }
    const row = await this.queued.forIdempotencyKey(sessionId, key);
    if (!row) return null;
    const turn = row.turnId ? await this.turns.get(row.turnId) : null;
    if (turn && Date.now() - row.createdAt.getTime() < windowMs) {
      const message = row.messageSequence === null ? null : await this.store.message(sessionId, row.messageSequence);
      if (message || row.messageSequence === null)
        return { turn, userMessage: message ?? provisionalMessage(row), queued: row };
    }
    if (expire) await this.queued.releaseIdempotencyKey(row.id);
    return null;
  }

  /**
   * The turn an idempotency key already started, with its user message. With
   * `expire`, a key past the window (or whose message is gone) is released so
   * the request starts a new turn; a racing request never releases it.
   */
  private async turnForKey(
    sessionId: string,
    key: string,
    expire: boolean,
  ): Promise<{ turn: Turn; userMessage: StoredMessage } | null> {
    const previous = await this.turns.forIdempotencyKey(sessionId, key);
    if (!previous) return null;
    const fresh = Date.now() - previous.startedAt.getTime() < this.config.idempotencyWindowHours * 3_600_000;
    if (fresh && previous.userSequence !== null) {
      const message = await this.store.message(sessionId, previous.userSequence);
      if (message) return { turn: previous, userMessage: message };
    }
    if (expire) await this.turns.releaseIdempotencyKey(previous.id);
    return null;
  }
}
