/**
 * The typed event bus with a resumable per-session log. In-process by
 * default; with REDIS_URL, a Redis stream per session holds the log (ids from
 * XADD, trimmed to the retention) and pub/sub fans events out to every server
 * process. A subscriber that passes `after` gets the gap replayed exactly
 * once, in order, then the live stream.
 */
import { FixedBuffer, Repeater } from '@repeaterjs/repeater';
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
 * A Repeater, so a client that unsubscribes releases its listener at once.
 */
export function sessionEventStream(
  bus: EventBus,
  sessionId: string,
  after: string | null | undefined,
  bufferSize = 8192,
): AsyncIterableIterator<SessionEvent> {
  // The buffer holds a whole replay plus a burst; a subscriber that falls
  // further behind is closed with an error (it resumes with `after`) instead
  // of slowing the turn or dropping events silently.
  return new Repeater<SessionEvent>(async (push, stop) => {
    let last: string | null = after ?? null;
    let replaying = true;
    const buffered: SessionEvent[] = [];
    const deliver = (event: SessionEvent) => {
      if (last !== null && compareEventIds(event.eventId, last) <= 0) return;
      last = event.eventId;
      try {
        void push(event).catch(() => undefined);
      } catch {
        stop(new Error('Subscriber fell too far behind: resubscribe with `after` to resume'));
      }
    };
    const unsubscribe = bus.onSession(sessionId, (event) => (replaying ? buffered.push(event) : deliver(event)));
    try {
      if (bus instanceof RedisEventBus) await bus.ready();
      if (after) for (const event of await bus.replay(sessionId, after)) deliver(event);
      for (const event of buffered) deliver(event);
      replaying = false;
    } catch (error) {
      unsubscribe();
      stop(error);
      return;
    }
    await stop;
    unsubscribe();
  }, new FixedBuffer(bufferSize));
}

export function createEventBus(options: { redisUrl?: string; retention: number }): EventBus {
  return options.redisUrl ? new RedisEventBus(options.redisUrl, options.retention) : new MemoryEventBus(options.retention);
}
