/**
 * The typed event bus with a resumable per-session log: its contract, and the
 * in-process implementation (the default). With REDIS_URL, RedisEventBus
 * (./redis-bus.ts) holds the log in a Redis stream per session; createEventBus
 * (./create-bus.ts) picks one. Subscribers read through sessionEventStream
 * (./stream.ts). A subscriber that passes `after` gets the gap replayed
 * exactly once, in order, then the live stream.
 */
import type { SessionEvent, SessionEventBody, SessionListEvent } from './types.js';

export type Listener<T> = (event: T) => void;

/** Why a resume cannot be exact; `floor` is the cursor that means "from the start of the current log". */
export interface LogGap {
  reason: 'RESTARTED' | 'TRIMMED';
  floor: string;
}

export interface EventBus {
  publish(sessionId: string, body: SessionEventBody): Promise<SessionEvent>;
  /** Events with id > after, oldest first (bounded by retention). */
  replay(sessionId: string, after: string): Promise<SessionEvent[]>;
  /**
   * Whether events after `after` may be missing from the log (a restart of
   * the log, or trimmed past the retention), checked after the replay: a
   * trim in between only costs the client a needless refetch.
   */
  gap(sessionId: string, after: string): Promise<LogGap | null>;
  onSession(sessionId: string, listener: Listener<SessionEvent>): () => void;
  publishList(event: SessionListEvent): Promise<void>;
  onList(listener: Listener<SessionListEvent>): () => void;
  close(): Promise<void>;
  /** Answers when the shared log (Redis) does; absent without one (readiness, src/http/health.ts). */
  ping?(): Promise<void>;
  /** Answers once the live feed is subscribed (Redis' subscriber connection); absent when it always is. */
  ready?(): Promise<void>;
  /** the subscription streams open on this bus, which a graceful shutdown ends */
  readonly openStreams: Set<Endable>;
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

/** Listeners by key (a session id, or the list); shared by both buses. */
export class Listeners<T> {
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

interface MemoryLog {
  events: SessionEvent[];
  /** the newest id published before this log was created: older cursors point into an evicted log */
  createdAfter: string;
  /** the newest id trimmed from this log */
  dropped: string | null;
}

export class MemoryEventBus implements EventBus {
  readonly openStreams = new Set<Endable>();
  private readonly logs = new Map<string, MemoryLog>();
  /**
   * Ids are "<epoch>-<n>": the epoch (start time in ms) tells this process's
   * ids from a previous one's, so a cursor from before a restart is seen as
   * such; within a process they compare in publication order.
   */
  readonly epoch = String(Date.now());
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
    if (log)
      this.logs.delete(sessionId); // re-inserted below: the map stays in least-recently-published order
    else log = { events: [], createdAfter: `${this.epoch}-${this.nextId - 1}`, dropped: null };
    this.logs.set(sessionId, log);
    this.evictIdleLogs();
    const event = {
      ...body,
      eventId: `${this.epoch}-${this.nextId++}`,
      sessionId,
      at: new Date().toISOString(),
    } as SessionEvent;
    log.events.push(event);
    if (log.events.length > this.retention) {
      const removed = log.events.splice(0, log.events.length - this.retention);
      log.dropped = removed.at(-1)!.eventId;
    }
    this.sessions.emit(sessionId, event);
    return event;
  }

  async replay(sessionId: string, after: string): Promise<SessionEvent[]> {
    const events = this.logs.get(sessionId)?.events ?? [];
    return events.filter((e) => compareEventIds(e.eventId, after) > 0);
  }

  async gap(sessionId: string, after: string): Promise<LogGap | null> {
    const floor = `${this.epoch}-0`;
    if (after.split('-')[0] !== this.epoch || !after.includes('-')) return { reason: 'RESTARTED', floor };
    const log = this.logs.get(sessionId);
    if (after === floor) return log?.dropped ? { reason: 'TRIMMED', floor } : null;
    if (!log) return { reason: 'TRIMMED', floor };
    if (log.dropped && compareEventIds(after, log.dropped) < 0) return { reason: 'TRIMMED', floor };
    if (compareEventIds(after, log.createdAfter) < 0) return { reason: 'TRIMMED', floor };
    return null;
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

export interface Endable {
  end(): void;
}

/** Another subscription stream (the session list) that a graceful shutdown ends too; returns its removal. */
export function registerStream(bus: EventBus, stream: Endable): () => void {
  bus.openStreams.add(stream);
  return () => void bus.openStreams.delete(stream);
}

/** Ends every session event stream of the bus once its queued events are read (graceful shutdown). */
export function endSessionStreams(bus: EventBus): number {
  const streams = [...bus.openStreams];
  for (const stream of streams) stream.end();
  return streams.length;
}
