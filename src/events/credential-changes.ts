/**
 * Credential changes (a key revoked or rotated, a user disabled) told to every server process, so that a process
 * that remembers credential checks forgets them at once. In one process it is a local call; with REDIS_URL a Redis
 * pub/sub channel carries it to every process (its own two connections: the event bus's are busy with sessions).
 *
 * Remembering checks is safe only while this process would hear a change: `live` is true only while the
 * subscriber connection is up and subscribed. Every loss and every return of that connection is itself reported as
 * a change (what was remembered may have been revoked meanwhile).
 */
import { createRequire } from 'node:module';
import type { Redis as RedisClient } from 'ioredis';

/** ioredis is loaded with REDIS_URL only, not at every start (idle memory, docs/performance.md). */
const loadRedis = (): typeof RedisClient =>
  (createRequire(import.meta.url)('ioredis') as typeof import('ioredis')).Redis;

const CHANNEL = 'chat:credentials';
/** How long an announcement waits for Redis before its caller is told it may not have reached every process. */
const ANNOUNCE_WAIT_MS = 2_000;

export interface CredentialChanges {
  /** whether changes made by other processes reach this one (Redis) */
  readonly shared: boolean;
  /** whether they reach it right now: the subscriber connection is up and subscribed */
  readonly live: boolean;
  /** Tells every process (this one at once); false when Redis did not confirm in time (it is sent when it can). */
  announce(): Promise<boolean>;
  onChange(listener: () => void): () => void;
  close(): Promise<void>;
}

class Listeners {
  private readonly set = new Set<() => void>();
  add(listener: () => void): () => void {
    this.set.add(listener);
    return () => void this.set.delete(listener);
  }
  emit(): void {
    for (const listener of this.set) {
      try {
        listener();
      } catch {
        // one listener's failure reaches neither the announcer nor the others
      }
    }
  }
}

/** One process: the announcement is the change. */
export function localCredentialChanges(): CredentialChanges {
  const listeners = new Listeners();
  return {
    shared: false,
    live: true,
    announce: async () => {
      listeners.emit();
      return true;
    },
    onChange: (listener) => listeners.add(listener),
    close: async () => undefined,
  };
}

interface ChangeLogger {
  warn(obj: object, msg: string): void;
}

/** Every process on the same Redis. */
export function redisCredentialChanges(url: string, log?: ChangeLogger): CredentialChanges {
  const options = {
    maxRetriesPerRequest: null,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 2_000),
  };
  const pub = new (loadRedis())(url, options);
  const sub = new (loadRedis())(url, options);
  const listeners = new Listeners();
  let live = false;
  let closing = false;
  let warned = false;
  const lost = () => {
    if (closing) return;
    if (live) listeners.emit();
    live = false;
  };
  for (const conn of [pub, sub]) {
    conn.on('error', (err: Error) => {
      if (!warned && !closing) log?.warn({ err }, 'redis.credentials_unavailable: every request checks its key');
      warned = true;
    });
  }
  sub.on('close', lost);
  sub.on('end', lost);
  sub.on('ready', () => {
    // ioredis resubscribes after 'ready'; live once this SUBSCRIBE (queued behind that) is answered.
    void sub
      .subscribe(CHANNEL)
      .then(() => {
        if (closing) return;
        warned = false;
        live = true;
        listeners.emit();
      })
      .catch(() => undefined);
  });
  sub.on('message', (channel: string) => {
    if (channel === CHANNEL) listeners.emit();
  });
  return {
    shared: true,
    get live() {
      return live;
    },
    announce: async () => {
      listeners.emit();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), ANNOUNCE_WAIT_MS);
      });
      try {
        return await Promise.race([pub.publish(CHANNEL, String(Date.now())).then(() => true), timeout]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    onChange: (listener) => listeners.add(listener),
    close: async () => {
      closing = true;
      live = false;
      pub.disconnect();
      sub.disconnect();
    },
  };
}
