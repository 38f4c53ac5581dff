/**
 * The one dispatcher of pending turns (queued messages, steers no turn took, scheduled recalls): each process runs
 * one. It claims the head of every session that has no active turn (src/store/pending-turns.ts: one statement, one
 * lease of PENDING_LEASE_MS), starts each through the turn service (a queued message's or a recall's door in
 * pending.ts) and parks, after PENDING_MAX_ATTEMPTS, an entry whose dispatch keeps failing. It looks at start,
 * whenever a local turn ends or an entry is added here, when the next recall is due, and at least every
 * PENDING_POLL_MS (a turn that ended in another process, an entry added there, a claim whose process died).
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { PendingStore, PendingTurn } from '../store/pending-turns.js';
import { recallOf, type RecallStore } from '../store/recalls.js';
import type { TurnService } from './service.js';

/** Heads claimed per look at most. */
const CLAIM_BATCH = 20;
const MAX_TIMER_MS = 2_147_000_000;

export class PendingDispatcher {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private stopListening: (() => void) | null = null;
  private started = false;
  private stopped = false;

  constructor(
    readonly store: PendingStore,
    private readonly recalls: RecallStore,
    private readonly turns: TurnService,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.stopListening = this.turns.onTurnDone(() => this.kick());
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Looks for dispatchable heads now (again after the current look, if one is running). */
  kick(): void {
    if (!this.started || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.dispatchDue();
        } catch (error) {
          this.log.warn({ err: error }, 'pending.dispatch_failed');
        }
      } while (this.again && !this.stopped);
      await this.armNext();
    })().finally(() => {
      this.running = null;
    });
  }

  /** Looks at `at` (a recall scheduled for then) unless a look is already due sooner. */
  wakeAt(at: number): void {
    if (!this.started || this.stopped) return;
    if (this.running) {
      if (at <= Date.now()) this.again = true;
      else if (at < this.timerAt) this.arm(at);
      return;
    }
    if (at < this.timerAt) this.arm(at);
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.kick(), Math.min(Math.max(0, at - Date.now()), MAX_TIMER_MS));
    this.timer.unref();
  }

  /** The next look: at the next recall's time, at most PENDING_POLL_MS away. */
  private async armNext(): Promise<void> {
    if (this.stopped) return;
    let next: number | null = null;
    try {
      next = await this.store.nextDueInMs(this.config.pendingLeaseMs);
    } catch (error) {
      this.log.warn({ err: error }, 'pending.next_failed');
    }
    const poll = Date.now() + this.config.pendingPollMs;
    // An overdue row we could not claim (another process's transaction holds it) is looked at again shortly, not in
    // a spin.
    const at = next === null ? poll : next <= 0 ? Math.min(poll, Date.now() + 250) : Math.min(poll, Date.now() + next);
    if (at < this.timerAt) this.arm(at);
  }

  /** Tests: one look now, awaited. */
  async dispatchNow(): Promise<void> {
    await this.running;
    this.kick();
    await this.running;
  }

  private async dispatchDue(): Promise<void> {
    for (;;) {
      const claimant = this.turns.processId;
      const claimed = await this.store.claimHeads(
        claimant,
        this.config.pendingLeaseMs,
        CLAIM_BATCH,
        this.turns.exclusiveStore,
      );
      let progressed = false;
      for (const row of claimed) {
        if (this.stopped) {
          await this.store.release(row.id, claimant).catch(() => undefined);
          continue;
        }
        if (await this.dispatch(row, claimant)) progressed = true;
      }
      // Each dispatched head started a turn: its session's next entry waits for that turn.
      if (!progressed || claimed.length < CLAIM_BATCH || this.stopped) return;
    }
  }

  /** One claimed head through its door; a failure is counted (transient ones are not) and the claim given back. */
  private async dispatch(row: PendingTurn, claimant: string): Promise<boolean> {
    const max = this.config.pendingMaxAttempts;
    if (row.kind === 'RECALL') {
      const recall = recallOf(row);
      try {
        return (await this.turns.fireRecall(recall, claimant, this.recalls)) === 'fired';
      } catch (error) {
        await this.turns.pending
          .recallFailed(recall, claimant, error, max, this.recalls)
          // The claim stays: it is tried again once its lease expires (here or in another process).
          .catch((failure: unknown) =>
            this.log.warn({ err: failure, recallId: row.id }, 'recall.record_failure_failed'),
          );
        return false;
      }
    }
    try {
      return (await this.turns.dispatchQueued(row, claimant)) === 'dispatched';
    } catch (error) {
      await this.turns.pending
        .queuedFailed(row, claimant, error, max)
        .catch((failure: unknown) => this.log.warn({ err: failure, queuedId: row.id }, 'queue.record_failure_failed'));
      return false;
    }
  }
}
