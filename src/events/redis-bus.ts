/**
 * The event bus over Redis (REDIS_URL): a Redis stream per session holds the
 * log (ids from XADD, trimmed to the retention) and pub/sub fans events out to
 * every server process.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Redis as RedisClient } from 'ioredis';
import { compareEventIds, type Endable, type EventBus, type Listener, Listeners, type LogGap } from './bus.js';
import type { SessionEvent, SessionEventBody, SessionListEvent } from './types.js';

/** ioredis is loaded with REDIS_URL only, not at every start (idle memory, docs/performance.md). */
const loadRedis = (): typeof RedisClient =>
  (createRequire(import.meta.url)('ioredis') as typeof import('ioredis')).Redis;

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
  private readonly pub: RedisClient;
  private readonly sub: RedisClient;
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
    this.pub = new (loadRedis())(url, options);
    this.sub = new (loadRedis())(url, options);
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

  private onReady(conn: RedisClient) {
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
