/**
 * The typed event bus with a resumable per-session log. In-process by
 * default; with REDIS_URL, a Redis stream per session holds the log (ids from
 * XADD, trimmed to the retention) and pub/sub fans events out to every server
 * process. A subscriber that passes `after` gets the gap replayed exactly
 * once, in order, then the live stream.
 */
import { Redis } from 'ioredis';
import type { SessionEvent, SessionEventBody, SessionListEvent } from './types.js';

type Listener<T> = (event: T) => void;

export interface EventBus {
  publish(sessionId: string, body: SessionEventBody): Promise<SessionEvent>;
  /** Events with id > after, oldest first (bounded by retention). */
  replay(sessionId: string, after: string): Promise<SessionEvent[]>;
  onSession(sessionId: string, listener: Listener<SessionEvent>): () => void;
  publishList(event: SessionListEvent): Promise<void>;
  onList(listener: Listener<SessionListEvent>): () => void;
  close(): Promise<void>;
}

/** Orders "12" and Redis' "1700000000000-3" ids alike. */
export function compareEventIds(a: string, b: string): number {
  if (a === b) return 0;
  // In-process ids are plain integers: compare them without allocating.
  if (!a.includes('-') && !b.includes('-')) return Number(a) - Number(b);
  const pa = a.split('-').map(Number);
  const pb = b.split('-').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

class Listeners<T> {
  private readonly byKey = new Map<string, Set<Listener<T>>>();
  add(key: string, listener: Listener<T>): { first: boolean; remove: () => boolean } {
    let set = this.byKey.get(key);
    const first = !set;
    if (!set) this.byKey.set(key, (set = new Set()));
    set.add(listener);
    return {
      first,
      remove: () => {
        set!.delete(listener);
        if (set!.size === 0) {
          this.byKey.delete(key);
          return true;
        }
        return false;
      },
    };
  }
  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** One listener's failure never reaches the publisher or the other listeners. */
  emit(key: string, event: T) {
    for (const listener of this.byKey.get(key) ?? []) {
      try {
        listener(event);
      } catch {
        /* a closed or overflowing subscriber: its own stream reports it */
      }
    }
  }
}

export class MemoryEventBus implements EventBus {
  private readonly logs = new Map<string, { events: SessionEvent[] }>();
  /** One counter for the bus: ids increase per session even after a log was evicted and restarted. */
  private nextId = 1;
  private readonly sessions = new Listeners<SessionEvent>();
  private readonly lists = new Listeners<SessionListEvent>();

  constructor(
    private readonly retention: number,
    /** logs kept at most; the least recently active ones without listeners go first */
    private readonly maxSessions = 10_000,
  ) {}

  private evictIdleLogs() {
    if (this.logs.size <= this.maxSessions) return;
    for (const id of this.logs.keys()) {
      if (this.logs.size <= this.maxSessions) break;
      if (!this.sessions.has(id)) this.logs.delete(id);
    }
  }

  async publish(sessionId: string, body: SessionEventBody): Promise<SessionEvent> {
    let log = this.logs.get(sessionId);
    if (log) this.logs.delete(sessionId); // re-inserted below: the map stays in least-recently-published order
    else log = { events: [] };
    this.logs.set(sessionId, log);
    this.evictIdleLogs();
    const event = { ...body, eventId: String(this.nextId++), sessionId, at: new Date().toISOString() } as SessionEvent;
    log.events.push(event);
    if (log.events.length > this.retention) log.events.splice(0, log.events.length - this.retention);
    this.sessions.emit(sessionId, event);
    return event;
  }

  async replay(sessionId: string, after: string): Promise<SessionEvent[]> {
    const events = this.logs.get(sessionId)?.events ?? [];
    return events.filter((e) => compareEventIds(e.eventId, after) > 0);
  }

  onSession(sessionId: string, listener: Listener<SessionEvent>) {
    const { remove } = this.sessions.add(sessionId, listener);
    return () => void remove();
  }

  async publishList(event: SessionListEvent) {
    if (event.kind === 'deleted') this.logs.delete(event.sessionId);
    this.lists.emit('all', event);
  }

  onList(listener: Listener<SessionListEvent>) {
    const { remove } = this.lists.add('all', listener);
    return () => void remove();
  }

  async close() {}
}

const LIST_CHANNEL = 'session-list-events';
const streamKey = (sessionId: string) => `session-events:${sessionId}`;
const channelKey = (sessionId: string) => `session-events-live:${sessionId}`;

export class RedisEventBus implements EventBus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly sessions = new Listeners<SessionEvent>();
  private readonly lists = new Listeners<SessionListEvent>();
  private listSubscribed = false;

  constructor(
    url: string,
    private readonly retention: number,
  ) {
    this.pub = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: false });
    this.sub = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: false });
    this.sub.on('message', (channel: string, raw: string) => {
      if (channel === LIST_CHANNEL) this.lists.emit('all', JSON.parse(raw) as SessionListEvent);
      else {
        const event = JSON.parse(raw) as SessionEvent;
        this.sessions.emit(event.sessionId, event);
      }
    });
  }

  async publish(sessionId: string, body: SessionEventBody): Promise<SessionEvent> {
    const at = new Date().toISOString();
    const payload = JSON.stringify({ ...body, sessionId, at });
    const id = await this.pub.xadd(streamKey(sessionId), 'MAXLEN', '~', String(this.retention), '*', 'e', payload);
    const event = { ...body, sessionId, at, eventId: id! } as SessionEvent;
    await this.pub.publish(channelKey(sessionId), JSON.stringify(event));
    return event;
  }

  async replay(sessionId: string, after: string): Promise<SessionEvent[]> {
    const entries = await this.pub.xrange(streamKey(sessionId), `(${after}`, '+');
    return entries.map(([id, fields]) => ({ ...(JSON.parse(fields[1]!) as object), eventId: id }) as SessionEvent);
  }

  onSession(sessionId: string, listener: Listener<SessionEvent>) {
    const { first, remove } = this.sessions.add(sessionId, listener);
    if (first) void this.sub.subscribe(channelKey(sessionId));
    return () => {
      if (remove()) void this.sub.unsubscribe(channelKey(sessionId));
    };
  }

  /** Resolves once this process receives live events for the session (tests, replay handoff). */
  ready(): Promise<void> {
    return this.sub.ping().then(() => undefined);
  }

  async publishList(event: SessionListEvent) {
    if (event.kind === 'deleted') await this.pub.del(streamKey(event.sessionId));
    await this.pub.publish(LIST_CHANNEL, JSON.stringify(event));
  }

  onList(listener: Listener<SessionListEvent>) {
    const { first, remove } = this.lists.add('all', listener);
    if (first && !this.listSubscribed) {
      this.listSubscribed = true;
      void this.sub.subscribe(LIST_CHANNEL);
    }
    return () => void remove();
  }

  async close() {
    this.pub.disconnect();
    this.sub.disconnect();
  }
}

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
    return new Promise((resolve, reject) => this.readers.push({ resolve, reject }));
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
    this.unsubscribe = this.bus.onSession(this.sessionId, (event) => (this.replaying ? this.buffered.push(event) : this.deliver(event)));
    void (async () => {
      try {
        if (this.bus instanceof RedisEventBus) await this.bus.ready();
        if (this.after) for (const event of await this.bus.replay(this.sessionId, this.after)) this.deliver(event);
        for (const event of this.buffered) this.deliver(event);
        this.buffered = [];
        this.replaying = false;
      } catch (error) {
        this.close({ error });
      }
    })();
  }

  private deliver(event: SessionEvent) {
    if (this.closed) return;
    if (this.last !== null && compareEventIds(event.eventId, this.last) <= 0) return;
    this.last = event.eventId;
    const reader = this.readers.shift();
    if (reader) reader.resolve({ value: event, done: false });
    else if (this.queue.length - this.head >= this.bufferSize) this.close({ error: new Error(FELL_BEHIND) });
    else this.queue.push(event);
  }

  /** Stops listening; pending readers get the failure (the first) or the end. */
  private close(failure: { error: unknown } | null) {
    if (this.closed) return;
    this.closed = true;
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

export function createEventBus(options: { redisUrl?: string; retention: number }): EventBus {
  return options.redisUrl ? new RedisEventBus(options.redisUrl, options.retention) : new MemoryEventBus(options.retention);
}
