/**
 * The typed event bus with a resumable per-session log. In-process by
 * default; with REDIS_URL, a Redis stream per session holds the log (ids from
 * XADD, trimmed to the retention) and pub/sub fans events out to every server
 * process. A subscriber that passes `after` gets the gap replayed exactly
 * once, in order, then the live stream.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { SessionEvent, SessionEventBody, SessionListEvent } from './types.js';

type Listener<T> = (event: T) => void;

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

const LIST_CHANNEL = 'session-list-events';
const streamKey = (sessionId: string) => `session-events:${sessionId}`;
const channelKey = (sessionId: string) => `session-events-live:${sessionId}`;
/** per session, the last sequence number each publishing process wrote there (makes a resent command a no-op) */
const publishedKey = (sessionId: string) => `session-events-pub:${sessionId}`;

/**
 * XADD and PUBLISH in one atomic step, so an event is in the log if and only
 * if it was fanned out, and a command that ioredis resends after a broken
 * connection (it ran, the reply was lost) is not written twice. The live
 * message is the payload with the stream id spliced in as `eventId`.
 */
const PUBLISH_SCRIPT = `
local last = tonumber(redis.call('HGET', KEYS[3], ARGV[3]) or '-1')
local seq = tonumber(ARGV[4])
if seq <= last then return false end
redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[3], 86400)
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'e', ARGV[2])
redis.call('PUBLISH', KEYS[2], '{"eventId":"' .. id .. '",' .. string.sub(ARGV[2], 2))
return id`;

/**
 * How long a caller waits for Redis to acknowledge a publish before it is answered and the write goes on in the
 * background.
 */
const ACK_WAIT_MS = 1_000;

export interface BusLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
const silent: BusLogger = { warn: () => undefined, info: () => undefined, error: () => undefined };

/**
 * Redis blips delay, never fail: both connections retry forever (commands
 * wait in ioredis' offline queue, in order, and unanswered ones are resent
 * on reconnect), a publish still unacknowledged after ACK_WAIT_MS answers
 * its caller anyway, and when the subscriber connection comes back every
 * session listened to here is caught up from its stream (XRANGE after the
 * last id delivered) before live messages flow again.
 */
export class RedisEventBus implements EventBus {
  readonly openStreams = new Set<Endable>();
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly sessions = new Listeners<SessionEvent>();
  private readonly lists = new Listeners<SessionListEvent>();
  private listSubscribed = false;
  private readonly publisherId = randomUUID();
  /** increases with every publish of this process; per session the script keeps the last one written */
  private sequence = 0;
  /** last event id passed to this process' listeners, per listened session */
  private readonly seen = new Map<string, string>();
  /** the stream's newest id when the session was first listened to: where a catch-up starts before anything was seen */
  private readonly baseline = new Map<string, string>();
  /** live messages held while a session is being caught up from its stream */
  private readonly catchingUp = new Map<string, SessionEvent[]>();
  /** an ack wait ran out: Redis is not answering, so further publishes answer at once */
  private stalled = false;
  private outage = false;
  private closing = false;

  constructor(
    url: string,
    private readonly retention: number,
    private readonly log: BusLogger = silent,
  ) {
    const options = {
      maxRetriesPerRequest: null,
      lazyConnect: false,
      retryStrategy: (attempt: number) => Math.min(attempt * 100, 2_000),
    };
    this.pub = new Redis(url, options);
    this.sub = new Redis(url, options);
    for (const [name, conn] of [
      ['publisher', this.pub],
      ['subscriber', this.sub],
    ] as const) {
      // Without a listener every reconnect attempt is an "Unhandled error event".
      conn.on('error', (err: Error) => this.onConnectionError(name, err));
      conn.on('ready', () => this.onReady(conn));
    }
    this.sub.on('message', (channel: string, raw: string) => {
      if (channel === LIST_CHANNEL) this.lists.emit('all', JSON.parse(raw) as SessionListEvent);
      else this.receive(JSON.parse(raw) as SessionEvent);
    });
  }

  private onConnectionError(connection: string, err: Error) {
    if (this.closing || this.outage) return;
    this.outage = true;
    this.log.warn({ err, connection }, 'redis.unavailable: events are buffered and delivered once it is back');
  }

  private onReady(conn: Redis) {
    if (this.outage && this.pub.status === 'ready' && this.sub.status === 'ready') {
      this.outage = false;
      this.log.info({}, 'redis.recovered');
    }
    if (conn === this.sub) void this.catchUp();
  }

  private receive(event: SessionEvent) {
    const held = this.catchingUp.get(event.sessionId);
    if (held) held.push(event);
    else this.emitSession(event);
  }

  /** Passes each event once and in id order, whether it came live or from a catch-up. */
  private emitSession(event: SessionEvent) {
    const seen = this.seen.get(event.sessionId);
    if (seen !== undefined && compareEventIds(event.eventId, seen) <= 0) return;
    if (!this.sessions.has(event.sessionId)) return;
    this.seen.set(event.sessionId, event.eventId);
    this.sessions.emit(event.sessionId, event);
  }

  /** After the subscriber (re)connected: what was published meanwhile, read from the streams. */
  private async catchUp() {
    const ids = [...this.seen.keys(), ...this.baseline.keys()].filter(
      (id, i, all) => all.indexOf(id) === i && !this.catchingUp.has(id),
    );
    if (ids.length === 0) return;
    for (const id of ids) this.catchingUp.set(id, []);
    try {
      // ioredis resubscribes right after 'ready': a PING queued behind those
      // SUBSCRIBEs answers once live messages flow again.
      await new Promise((resolve) => process.nextTick(resolve));
      await this.sub.ping();
      for (const id of ids) {
        const from = this.seen.get(id) ?? this.baseline.get(id);
        if (from && this.sessions.has(id)) for (const event of await this.replay(id, from)) this.emitSession(event);
        this.release(id);
      }
    } catch (err) {
      // Lost again: the next 'ready' starts over from what was seen.
      if (!this.closing) this.log.warn({ err }, 'redis.catch_up_failed');
    } finally {
      for (const id of ids) this.release(id);
    }
  }

  private release(sessionId: string) {
    const held = this.catchingUp.get(sessionId);
    if (!held) return;
    this.catchingUp.delete(sessionId);
    for (const event of held) this.emitSession(event);
  }

  /** The command's answer, or `fallback` once Redis took too long (the command still completes in order). */
  private acknowledged<T>(command: Promise<T>, fallback: T, what: string): Promise<T> {
    const settled = command.then(
      (value) => {
        this.stalled = false;
        return value;
      },
      (err: unknown) => {
        if (!this.closing) this.log.error({ err }, `redis.${what}_failed`);
        return fallback;
      },
    );
    // During an outage (or while acks stall) answer at once; a first connection still being made is waited for.
    if (this.stalled || (this.outage && this.pub.status !== 'ready')) return Promise.resolve(fallback);
    return new Promise<T>((resolve) => {
      const timer = setTimeout(() => {
        this.stalled = true;
        resolve(fallback);
      }, ACK_WAIT_MS);
      void settled.then((value) => {
        clearTimeout(timer);
        resolve(value);
      });
    });
  }

  async publish(sessionId: string, body: SessionEventBody): Promise<SessionEvent> {
    const at = new Date().toISOString();
    const payload = JSON.stringify({ ...body, sessionId, at });
    const seq = this.sequence++;
    const written = this.pub.eval(
      PUBLISH_SCRIPT,
      3,
      streamKey(sessionId),
      channelKey(sessionId),
      publishedKey(sessionId),
      String(this.retention),
      payload,
      this.publisherId,
      String(seq),
    ) as Promise<string | null>;
    // While Redis is away the id is not known yet: the event is delivered with it later.
    const id = await this.acknowledged(written, null, 'publish');
    return { ...body, sessionId, at, eventId: id ?? '' } as SessionEvent;
  }

  async replay(sessionId: string, after: string): Promise<SessionEvent[]> {
    const entries = await this.pub.xrange(streamKey(sessionId), `(${after}`, '+');
    return entries.map(([id, fields]) => ({ ...(JSON.parse(fields[1]!) as object), eventId: id }) as SessionEvent);
  }

  /**
   * XADD ids survive a server restart with the stream, so only a trim, or a
   * stream Redis lost (or a cursor from one it no longer holds), is a gap: a
   * cursor the stream still holds is never older than its first entry.
   * (MAXLEN trimming does not move max-deleted-entry-id; entries-added does.)
   */
  async gap(sessionId: string, after: string): Promise<LogGap | null> {
    const floor = '0-0';
    const info = (await this.pub.call('XINFO', 'STREAM', streamKey(sessionId)).catch((error: Error) => {
      if (/no such key/i.test(error.message)) return null;
      throw error;
    })) as unknown[] | null;
    if (!info) return after === floor ? null : { reason: 'RESTARTED', floor };
    const field = (name: string) => info[info.indexOf(name) + 1];
    const first = (field('first-entry') as [string, string[]] | null)?.[0] ?? null;
    // MAXLEN trims from the head: entries were dropped exactly when more were added than remain.
    const trimmed = Number(field('entries-added')) > Number(field('length'));
    if (first === null || compareEventIds(after, first) >= 0) return null;
    if (trimmed) return { reason: 'TRIMMED', floor };
    return after === floor ? null : { reason: 'RESTARTED', floor };
  }

  onSession(sessionId: string, listener: Listener<SessionEvent>) {
    const { first, remove } = this.sessions.add(sessionId, listener);
    if (first) {
      void this.sub.subscribe(channelKey(sessionId)).catch(() => undefined);
      void this.pub
        .xrevrange(streamKey(sessionId), '+', '-', 'COUNT', 1)
        .then((entries) => {
          if (this.sessions.has(sessionId)) this.baseline.set(sessionId, entries[0]?.[0] ?? '0-0');
        })
        .catch(() => undefined);
    }
    return () => {
      if (!remove()) return;
      this.seen.delete(sessionId);
      this.baseline.delete(sessionId);
      void this.sub.unsubscribe(channelKey(sessionId)).catch(() => undefined);
    };
  }

  async ping(): Promise<void> {
    if (this.pub.status === 'end') throw new Error('Redis connection closed');
    await this.pub.ping();
  }

  /** Resolves once this process receives live events for the session (tests, replay handoff). */
  ready(): Promise<void> {
    return this.sub.ping().then(() => undefined);
  }

  async publishList(event: SessionListEvent) {
    if (event.kind === 'deleted') {
      await this.acknowledged(this.pub.del(streamKey(event.sessionId), publishedKey(event.sessionId)), 0, 'delete');
    }
    await this.acknowledged(this.pub.publish(LIST_CHANNEL, JSON.stringify(event)), 0, 'publish_list');
  }

  onList(listener: Listener<SessionListEvent>) {
    const { first, remove } = this.lists.add('all', listener);
    if (first && !this.listSubscribed) {
      this.listSubscribed = true;
      void this.sub.subscribe(LIST_CHANNEL).catch(() => undefined);
    }
    return () => void remove();
  }

  async close() {
    this.closing = true;
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
        if (this.bus instanceof RedisEventBus) await this.bus.ready();
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

export function createEventBus(options: { redisUrl?: string; retention: number; log?: BusLogger }): EventBus {
  return options.redisUrl
    ? new RedisEventBus(options.redisUrl, options.retention, options.log)
    : new MemoryEventBus(options.retention);
}
