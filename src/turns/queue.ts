/**
 * Double-texting's dispatcher: the messages sent with whileRunning QUEUE (and
 * STEER messages no turn took) start their turns, one at a time per session,
 * in order, exactly once across processes and restarts (src/store/queued.ts
 * says how). Each process runs one: it looks at start, whenever a local turn
 * ends or a message is queued, and every PENDING_POLL_MS (a turn that ended in
 * another process, a claim whose process died and whose lease expired).
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { QueuedStore } from '../store/queued.js';
import type { TurnService } from './service.js';

/** Queue heads claimed per look at most. */
const CLAIM_BATCH = 20;

export class QueueDispatcher {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopListening: (() => void) | null = null;
  private stopped = false;

  constructor(
    private readonly store: QueuedStore,
    private readonly turns: TurnService,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.timer || this.stopped) return;
    this.stopListening = this.turns.onTurnDone(() => this.kick());
    this.timer = setInterval(() => this.kick(), this.config.pendingPollMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Looks for dispatchable heads now (again after the current look, if one is running). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.dispatchDue();
        } catch (error) {
          this.log.warn({ err: error }, 'queue.dispatch_failed');
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = null;
    });
  }

  /** Tests: one look now, awaited. */
  async dispatchNow(): Promise<void> {
    await this.running;
    this.kick();
    await this.running;
  }

  private async dispatchDue(): Promise<void> {
    for (;;) {
      const claimed = await this.store.claimHeads(
        this.turns.processId,
        this.config.pendingLeaseMs,
        CLAIM_BATCH,
        this.turns.exclusiveStore,
      );
      if (claimed.length === 0) return;
      for (const row of claimed) {
        if (this.stopped) {
          await this.store.release(row.id, this.turns.processId).catch(() => undefined);
          continue;
        }
        try {
          await this.turns.dispatchQueued(row, this.turns.processId);
        } catch (error) {
          // Counted and given back (tried again at the next look); parked FAILED at PENDING_MAX_ATTEMPTS.
          await this.turns.pending
            .queuedFailed(row, this.turns.processId, error, this.config.pendingMaxAttempts)
            .catch((failure: unknown) =>
              // The claim stays: it is taken again once its lease expires (here or in another process).
              this.log.warn({ err: failure, queuedId: row.id }, 'queue.record_failure_failed'),
            );
        }
      }
      // Each dispatched head started a turn: its session's next entry waits for that turn. One pass is enough.
      return;
    }
  }
}
