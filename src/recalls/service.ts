/**
 * Scheduled recalls: `scheduleRecall` (and the model's `schedule_recall`
 * tool) stores a row; at its time any server process on the database claims
 * it and fires it — the text appended as an is_recall user message and
 * answered by a turn, exactly once (src/store/recalls.ts says how).
 *
 * The one dispatcher of pending turns (src/turns/dispatcher.ts) fires them with the queued messages: it looks when
 * the next recall is due (a recall scheduled here wakes it), at least every PENDING_POLL_MS, and when a local turn
 * ends. A session whose turn is running waits: its due recall is claimed once that turn has ended.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { SessionService } from '../sessions/service.js';
import { BadInput, Conflict, NotFound } from '../store/errors.js';
import type { Recall, RecallStore } from '../store/recalls.js';
import type { Viewer } from '../domain/policy.js';
import { checkMessageText } from '../sessions/intake.js';
import type { TurnService } from '../turns/service.js';

export interface ScheduleInput {
  sessionId: string;
  at: Date;
  text: string;
}

export class RecallService {
  private dispatcher: { wakeAt(at: number): void; dispatchNow(): Promise<void> } | null = null;

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
    this.dispatcher?.wakeAt(at.getTime());
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

  // ---- firing: the one dispatcher of pending turns (src/turns/dispatcher.ts) ------------------------------------

  /** The dispatcher that fires due recalls (with the queued messages): woken for a recall scheduled here. */
  useDispatcher(dispatcher: { wakeAt(at: number): void; dispatchNow(): Promise<void> }): void {
    this.dispatcher = dispatcher;
  }

  /** Tests: one look of the dispatcher now, awaited. */
  async fireDue(): Promise<void> {
    await this.dispatcher?.dispatchNow();
  }
}
