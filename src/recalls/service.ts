/**
 * Scheduled recalls: `scheduleRecall` (and the model's `schedule_recall`
 * tool) stores a row; at its time any server process on the database claims
 * it and fires it — the text appended as an is_recall user message and
 * answered by a turn, exactly once (src/store/recalls.ts says how).
 *
 * Each process runs one scheduler: a timer for the nearest due time, capped
 * at PENDING_POLL_MS so rows scheduled by another process (or a lease that
 * expires) are seen; a recall scheduled here, or a local turn that ends,
 * wakes it early. A session whose turn is running waits: its due recall is
 * claimed once that turn has ended.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { SessionService } from '../sessions/service.js';
import { BadInput, Conflict, NotFound } from '../store/errors.js';
import type { Recall, RecallStore } from '../store/recalls.js';
import type { Viewer } from '../domain/policy.js';
import { checkMessageText } from '../sessions/intake.js';
import type { TurnService } from '../turns/service.js';

/** Recalls claimed per wake-up at most. */
const CLAIM_BATCH = 20;
const MAX_TIMER_MS = 2_147_000_000;

export interface ScheduleInput {
  sessionId: string;
  at: Date;
  text: string;
}

export class RecallService {
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private ticking: Promise<void> | null = null;
  /** a wake-up asked for while one was running: the earliest time asked */
  private wantedAt = Infinity;
  private started = false;
  private stopped = false;
  private stopListening: (() => void) | null = null;

  constructor(
    readonly store: RecallStore,
    private readonly sessions: SessionService,
    private readonly turns: TurnService,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  /** Checks text and time, and the session's pending count; throws BAD_USER_INPUT. */
  private validate(at: Date, text: string, now = Date.now()): string {
    if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw new BadInput('at must be a valid DateTime');
    if (at.getTime() <= now) throw new BadInput('at must be in the future');
    const maxMs = this.config.recallMaxAheadDays * 86_400_000;
    if (at.getTime() - now > maxMs)
      throw new BadInput(`at must be at most ${this.config.recallMaxAheadDays} days ahead`);
    // Blank is blank whatever the spaces: Unicode white space, zero-width and format characters (U+200B, U+2060…).
    const trimmed = text.replace(/[\p{White_Space}\p{Cf}]/gu, '');
    if (trimmed === '') throw new BadInput('Recall text must not be empty');
    checkMessageText(text, this.config, 'Recall text');
    return text;
  }

  /** scheduleRecall: the session must be the viewer's to write (NOT_FOUND otherwise). */
  async schedule(viewer: Viewer, input: ScheduleInput): Promise<Recall> {
    const session = await this.sessions.writable(viewer, input.sessionId);
    const text = this.validate(input.at, input.text);
    return this.create(session.id, viewer.userId, 'USER', input.at, text);
  }

  /** The model's tool: the turn's own session, owned by the session's owner. */
  async scheduleFromTool(sessionId: string, at: Date, text: string): Promise<Recall> {
    const session = await this.sessions.store.get(sessionId);
    if (!session) throw new NotFound();
    return this.create(session.id, session.userId, 'MODEL', at, this.validate(at, text));
  }

  private async create(
    sessionId: string,
    owner: string | null,
    source: string,
    at: Date,
    text: string,
  ): Promise<Recall> {
    if ((await this.store.countActive(sessionId)) >= this.config.recallMaxPendingPerSession) {
      throw new BadInput(`A session holds at most ${this.config.recallMaxPendingPerSession} pending recalls`);
    }
    const recall = await this.store.create({ sessionId, owner, source, dueAt: at, text });
    this.log.info({ recallId: recall.id, sessionId, dueAt: at.toISOString(), source }, 'recall.scheduled');
    this.wakeAt(at.getTime());
    return recall;
  }

  /**
   * cancelRecall: PENDING → CANCELLED. Cancelling a cancelled recall answers
   * it again; a fired one answers CONFLICT (its message is in the history).
   */
  async cancel(viewer: Viewer, id: string): Promise<Recall> {
    const recall = await this.store.get(id);
    if (!recall) throw new NotFound('Recall');
    await this.sessions.writable(viewer, recall.sessionId).catch(() => {
      throw new NotFound('Recall');
    });
    const cancelled = await this.store.cancel(id);
    if (cancelled) {
      this.log.info({ recallId: id, sessionId: recall.sessionId }, 'recall.cancelled');
      return cancelled;
    }
    const now = await this.store.get(id);
    if (!now) throw new NotFound('Recall');
    if (now.status === 'CANCELLED') return now;
    throw new Conflict('The recall has already fired; its message is in the history');
  }

  /** The recall if the viewer may read its session; null otherwise. */
  async findReadable(viewer: Viewer, id: string): Promise<Recall | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const recall = await this.store.get(id);
    if (!recall) return null;
    return (await this.sessions.findReadable(viewer, recall.sessionId)) ? recall : null;
  }

  list(sessionId: string, options: { includeFinished: boolean; first: number }) {
    return this.store.list(sessionId, options);
  }

  // ---- the scheduler ------------------------------------------------------

  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopListening = this.turns.onTurnDone(() => this.wakeAt(Date.now()));
    this.wakeAt(Date.now());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.ticking;
  }

  /** Arms the timer for `at` unless it is already armed sooner (or a wake-up is running: it runs again). */
  private wakeAt(at: number): void {
    if (!this.started || this.stopped) return;
    if (this.ticking) {
      this.wantedAt = Math.min(this.wantedAt, at);
      return;
    }
    if (at >= this.timerAt) return;
    this.arm(at);
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => void this.tick(), Math.min(Math.max(0, at - Date.now()), MAX_TIMER_MS));
    this.timer.unref();
  }

  /** One wake-up: claim what is due, fire it, arm the timer for the next one (at most PENDING_POLL_MS away). */
  private async tick(): Promise<void> {
    if (this.stopped || this.ticking) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
    let next: number | null = null;
    this.ticking = (async () => {
      do {
        this.wantedAt = Infinity;
        try {
          await this.runDue();
        } catch (error) {
          this.log.warn({ err: error }, 'recall.tick_failed');
        }
      } while (this.wantedAt <= Date.now() && !this.stopped);
      try {
        next = await this.store.nextDueInMs(this.config.pendingLeaseMs);
      } catch (error) {
        this.log.warn({ err: error }, 'recall.next_failed');
      }
    })();
    await this.ticking;
    this.ticking = null;
    if (this.stopped) return;
    const poll = Date.now() + this.config.pendingPollMs;
    const due = next === null ? poll : Math.min(poll, Date.now() + Math.max(next, 0));
    // An overdue row we could not claim (another process's transaction holds it) is looked at again shortly, not in a
    // spin.
    const at = next !== null && next <= 0 ? Math.min(poll, Date.now() + 250) : due;
    this.wakeAt(Math.min(at, this.wantedAt));
    this.wantedAt = Infinity;
  }

  /** Claims and fires due recalls until none is left. */
  private async runDue(): Promise<void> {
    for (;;) {
      const claimed = await this.store.claimDue(
        this.turns.processId,
        this.config.pendingLeaseMs,
        CLAIM_BATCH,
        this.turns.exclusiveStore,
      );
      if (claimed.length === 0) return;
      let progressed = false;
      for (const recall of claimed) {
        if (this.stopped) {
          await this.store.release(recall.id, this.turns.processId).catch(() => undefined);
          continue;
        }
        try {
          const outcome = await this.turns.fireRecall(recall, this.turns.processId, this.store);
          if (outcome === 'fired') progressed = true;
        } catch (error) {
          // Counted and given back (tried again at the next wake-up); parked FAILED at PENDING_MAX_ATTEMPTS.
          await this.turns.pending
            .recallFailed(recall, this.turns.processId, error, this.config.pendingMaxAttempts, this.store)
            .catch((failure: unknown) =>
              // The claim stays: it is tried again once its lease expires (here or in another process).
              this.log.warn({ err: failure, recallId: recall.id }, 'recall.record_failure_failed'),
            );
        }
      }
      if (!progressed || claimed.length < CLAIM_BATCH || this.stopped) return;
    }
  }

  /** Tests: one wake-up now, awaited. */
  async fireDue(): Promise<void> {
    await this.ticking;
    await this.tick();
  }
}
