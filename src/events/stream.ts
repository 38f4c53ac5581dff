/**
 * A subscriber's view of the bus: the live events of one session after an
 * optional cursor, replayed gap first (sessionEventStream).
 */
import { compareEventIds, type EventBus, type LogGap } from './bus.js';
import type { SessionEvent } from './types.js';

/**
 * Live events after an optional cursor: subscribes first (buffering), replays
 * the gap, then passes buffered and live events whose id is past the last
 * one delivered, so nothing is missed or repeated across the handoff.
 * Starts on the first next(); return() releases the listener at once. A
 * plain queue rather than a Repeater: this sits on every delta of every
 * subscriber, and a Repeater push costs several promises.
 */
export function sessionEventStream(
  bus: EventBus,
  sessionId: string,
  after: string | null | undefined,
  bufferSize = 8192,
): AsyncIterableIterator<SessionEvent> {
  return new SessionEventStream(bus, sessionId, after ?? null, bufferSize);
}

/** Events made for one subscriber (an EventsReset), never delivered to another. */
const privateEvents = new WeakSet<object>();

/** Whether the event was made for one subscriber only, so executing it once for many is pointless. */
export const isPrivateEvent = (event: unknown): boolean =>
  typeof event === 'object' && event !== null && privateEvents.has(event);

const FELL_BEHIND = 'Subscriber fell too far behind: resubscribe with `after` to resume';

class SessionEventStream implements AsyncIterableIterator<SessionEvent> {
  /** delivered but not yet read; read from `head` on */
  private queue: (SessionEvent | undefined)[] = [];
  private head = 0;
  private readers: { resolve: (r: IteratorResult<SessionEvent>) => void; reject: (e: unknown) => void }[] = [];
  private started = false;
  /** no more events will be queued (returned, failed or overflowed) */
  private closed = false;
  /** reported once, after what was queued before it */
  private failure: { error: unknown } | null = null;
  private last: string | null;
  private replaying = true;
  private buffered: SessionEvent[] = [];
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly bus: EventBus,
    private readonly sessionId: string,
    private readonly after: string | null,
    // The buffer holds a whole replay plus a burst; a subscriber that falls
    // further behind is closed with an error (it resumes with `after`) instead
    // of slowing the turn or dropping events silently.
    private readonly bufferSize: number,
  ) {
    this.last = after;
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  next(): Promise<IteratorResult<SessionEvent>> {
    if (!this.started) this.start();
    if (this.head < this.queue.length) return Promise.resolve({ value: this.take(), done: false });
    if (this.failure) {
      const { error } = this.failure;
      this.failure = null;
      return Promise.reject(error);
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    // A new array of exactly the readers: push would grow the backing store to 17 slots, kept for as long as the
    // subscriber stays idle.
    return new Promise((resolve, reject) => {
      this.readers = this.readers.length === 0 ? [{ resolve, reject }] : [...this.readers, { resolve, reject }];
    });
  }

  return(): Promise<IteratorResult<SessionEvent>> {
    this.close(null);
    this.queue = [];
    this.head = 0;
    this.failure = null;
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<SessionEvent>> {
    void this.return();
    return Promise.reject(error);
  }

  private take(): SessionEvent {
    const event = this.queue[this.head]!;
    this.queue[this.head++] = undefined;
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return event;
  }

  private start() {
    this.started = true;
    this.bus.openStreams.add(this);
    this.unsubscribe = this.bus.onSession(this.sessionId, (event) =>
      this.replaying ? this.buffered.push(event) : this.deliver(event),
    );
    void (async () => {
      try {
        await this.bus.ready?.();
        if (this.after) {
          const events = await this.bus.replay(this.sessionId, this.after);
          const gap = await this.bus.gap(this.sessionId, this.after);
          if (gap) this.announceReset(gap);
          for (const event of events) this.deliver(event);
        }
        for (const event of this.buffered) this.deliver(event);
        this.buffered = [];
        this.replaying = false;
      } catch (error) {
        this.close({ error });
      }
    })();
  }

  /**
   * The log no longer holds everything after the cursor: the client is told
   * so first (it refetches history), and from then on gets no fragments of a
   * turn whose TurnStarted it did not see, only that turn's end.
   */
  private announceReset(gap: LogGap) {
    this.startedTurns = new Set();
    const event = {
      type: 'EventsReset',
      reason: gap.reason,
      eventId: gap.floor,
      sessionId: this.sessionId,
      at: new Date().toISOString(),
    } as SessionEvent;
    this.last = null;
    // This subscriber's alone: its result is not kept for sharing (useSharedSubscriptionExecution's `shareable`).
    privateEvents.add(event);
    this.deliver(event);
  }

  private startedTurns: Set<string> | null = null;

  private isOrphanFragment(event: SessionEvent): boolean {
    if (!this.startedTurns) return false;
    if (event.type === 'TurnStarted') {
      this.startedTurns.add(event.turn.id);
      return false;
    }
    const turnId = 'turnId' in event ? event.turnId : null;
    return turnId !== null && !this.startedTurns.has(turnId);
  }

  /** Ends the stream after what is already queued (graceful shutdown): the client sees `complete`. */
  end() {
    this.close(null);
  }

  private deliver(event: SessionEvent) {
    if (this.closed) return;
    if (this.last !== null && compareEventIds(event.eventId, this.last) <= 0) return;
    this.last = event.eventId;
    if (this.isOrphanFragment(event)) return;
    const reader = this.readers.shift();
    if (reader) reader.resolve({ value: event, done: false });
    else if (this.queue.length - this.head >= this.bufferSize) this.close({ error: new Error(FELL_BEHIND) });
    else this.queue.push(event);
  }

  /** Stops listening; pending readers get the failure (the first) or the end. */
  private close(failure: { error: unknown } | null) {
    if (this.closed) return;
    this.closed = true;
    this.bus.openStreams.delete(this);
    this.replaying = false;
    this.buffered = [];
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.failure = failure;
    for (const reader of this.readers.splice(0)) {
      if (this.failure) {
        this.failure = null;
        reader.reject(failure!.error);
      } else reader.resolve({ value: undefined, done: true });
    }
  }
}
