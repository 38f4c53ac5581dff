/**
 * A Redis blip delays, never fails: a private redis-server is killed (or
 * stopped) in the middle of a streaming turn and brought back on the same
 * port, while two app processes share one database and the events.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type App, createApp } from '../src/app.js';
import { startServer } from '../src/server.js';
import {
  FaultsRedisCreateSessionDocument,
  FaultsRedisRecordDocument,
  FaultsRedisRenameDocument,
  FaultsRedisSendDocument,
} from './generated/graphql.js';
import { createTestServer, queryText, SESSION_EVENTS, testConfig, type ServerContext } from './support/harness.js';
import { skipping } from './support/skips.js';

const hasRedis = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A throwaway redis-server without persistence: a kill loses everything it held. */
class PrivateRedis {
  process: ChildProcess | null = null;
  constructor(readonly port: number) {}
  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }
  start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.process = child;
    return new Promise((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out.slice(-500)}`)));
    });
  }
  async kill(): Promise<void> {
    const child = this.process!;
    this.process = null;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  signal(signal: NodeJS.Signals) {
    this.process!.kill(signal);
  }
}

/** A session event as EVENTS_SUBSCRIPTION selects it, with the fields this file reads. */
interface SessionEvent {
  __typename: string;
  eventId: string;
  text?: string;
  message?: { content: string };
}

interface Subscriber {
  events: SessionEvent[];
  errors: unknown[];
  waitFor(predicate: (events: SessionEvent[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  dispose(): Promise<void>;
}

function subscribe(wsUrl: string, sessionId: string): Subscriber {
  const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0 });
  const events: SessionEvent[] = [];
  const errors: unknown[] = [];
  const waiters = new Set<() => void>();
  client.subscribe(
    { query: queryText(SESSION_EVENTS), variables: { sessionId } },
    {
      next: (value) => {
        if (value.errors) errors.push(...value.errors);
        if (value.data) events.push(value.data.sessionEvents as SessionEvent);
        for (const w of [...waiters]) w();
      },
      error: (error) => {
        errors.push(error);
        for (const w of [...waiters]) w();
      },
      complete: () => undefined,
    },
  );
  return {
    events,
    errors,
    waitFor: (predicate, what, timeoutMs = 60_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `timed out waiting for ${what}; got ` +
                `${events.map((e) => e.__typename).join(',')} errors ${JSON.stringify(errors)}`,
            ),
          );
        }, timeoutMs);
        const check = () => {
          if (errors.length > 0 || predicate(events)) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
      }),
    dispose: () => client.dispose() as Promise<void>,
  };
}

const SEND = FaultsRedisSendDocument;
const RECORD = FaultsRedisRecordDocument;
const RENAME = FaultsRedisRenameDocument;
const CHUNKS = Array.from({ length: 30 }, (_, i) => `w${i} `);

const ids = (events: SessionEvent[]) => events.map((e) => e.eventId);
const text = (events: SessionEvent[]) =>
  events
    .filter((e) => e.__typename === 'TextDelta')
    .map((e) => e.text)
    .join('');
const deltas = (n: number) => (events: SessionEvent[]) =>
  events.filter((e) => e.__typename === 'TextDelta').length >= n;
const ended = (events: SessionEvent[]) =>
  events.some((e) => e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed');

/** Every event once, in the order the log holds them: ids strictly increasing. */
function expectInOrderNoDup(events: SessionEvent[]) {
  const list = ids(events);
  expect(new Set(list).size).toBe(list.length);
  const numeric = list.map((id) => id.split('-').map(Number) as [number, number]);
  for (let i = 1; i < numeric.length; i++) {
    const [a, b] = [numeric[i - 1]!, numeric[i]!];
    expect(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]), `${list[i - 1]} before ${list[i]}`).toBe(true);
  }
}

const skipped = skipping(
  'Redis faults',
  hasRedis ? null : 'needs redis-server on the PATH (apt-get install redis-server)',
);
describe.skipIf(skipped)('Redis faults', () => {
  let redis: PrivateRedis;
  let a: ServerContext;
  let bApp: App;
  let b: Awaited<ReturnType<typeof startServer>>;
  let bWs: string;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  let consoleError: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    redis = new PrivateRedis(await freePort());
    await redis.start();
    process.on('unhandledRejection', onUnhandled);
    consoleError = vi.spyOn(console, 'error');
    a = await createTestServer({ redisUrl: redis.url, titleGenerationEnabled: false });
    bApp = await createApp(testConfig({ redisUrl: redis.url, ollamaHost: a.fake.url, titleGenerationEnabled: false }), {
      db: a.app.db,
    });
    b = await startServer(bApp);
    bWs = `${b.url.replace('http', 'ws')}/graphql`;
  }, 120_000);

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    consoleError?.mockRestore();
    await b?.close();
    await bApp?.close();
    await a?.close();
    if (redis?.process) await redis.kill();
  });

  afterEach(() => {
    // ioredis reports an error event nobody listens to through console.error.
    const printed = consoleError.mock.calls
      .map((c: unknown[]) => c.map(String).join(' '))
      .filter((l: string) => /ioredis|Unhandled error/i.test(l));
    expect(printed).toEqual([]);
    expect(unhandled).toEqual([]);
  });

  /** Two subscribers, one per process, both proven live by an event they receive. */
  async function liveSession(name: string) {
    const created = await a.http(FaultsRedisCreateSessionDocument, {});
    const sessionId = created.data!.createSession.id;
    const onA = subscribe(a.wsUrl, sessionId);
    const onB = subscribe(bWs, sessionId);
    // Renames until both see one: the first may land before a subscription is live.
    const seen = (events: SessionEvent[]) => events.some((e) => e.__typename === 'SessionRenamed');
    for (let i = 0; !(seen(onA.events) && seen(onB.events)); i++) {
      expect((await a.http(RENAME, { id: sessionId, name: `${name} ${i}` })).errors).toBeUndefined();
      await Promise.all([onA.waitFor(seen, 'rename', 1_000), onB.waitFor(seen, 'rename', 1_000)]).catch(
        () => undefined,
      );
    }
    return { sessionId, onA, onB };
  }

  it('a kill and restart mid-turn: the turn completes, both ' +
    'processes get every event once and in order, mutations answer', async () => {
    const { sessionId, onA, onB } = await liveSession('kill');
    const other = (await a.http(FaultsRedisCreateSessionDocument, {})).data!.createSession.id;
    a.fake.enqueue({ text: CHUNKS, chunkDelayMs: 40 });
    const sent = await a.http(SEND, { input: { sessionId, content: 'stream through the outage' } });
    expect(sent.errors).toBeUndefined();
    await Promise.all([onA.waitFor(deltas(3), '3 deltas on A'), onB.waitFor(deltas(3), '3 deltas on B')]);

    await redis.kill();
    // Mutations whose rows are saved answer success while their events wait for Redis.
    const recorded = await a.http(RECORD, {
      input: { sessionId, source: 'task_note', text: 'noted during the outage' },
    });
    expect(recorded.errors).toBeUndefined();
    expect(recorded.data!.recordSessionEvent.content).toBe('noted during the outage');
    a.fake.enqueue({ text: 'second turn', chunkDelayMs: 10 });
    const second = await a.http(SEND, { input: { sessionId: other, content: 'sent during the outage' } });
    expect(second.errors).toBeUndefined();
    await redis.start();

    await Promise.all([onA.waitFor(ended, 'turn end on A'), onB.waitFor(ended, 'turn end on B')]);
    for (const s of [onA, onB]) {
      expect(s.errors).toEqual([]);
      expect(s.events.some((e) => e.__typename === 'TurnEnded')).toBe(true);
      expect(text(s.events)).toBe(CHUNKS.join(''));
      expect(
        s.events.some((e) => e.__typename === 'MessageSaved' && e.message!.content === 'noted during the outage'),
      ).toBe(true);
      expectInOrderNoDup(s.events);
    }
    // Both processes saw the same events from the turn on: the same log, in the same order. (Before the
    // turn, one may have missed a probing rename sent while its subscription was not yet live.)
    const fromTurn = (events: SessionEvent[]) =>
      events
        .slice(events.findIndex((e) => e.__typename === 'TurnStarted'))
        .map((e) => `${e.__typename}:${e.text ?? ''}`);
    expect(fromTurn(onA.events)[0]).toBe('TurnStarted:');
    expect(fromTurn(onB.events)).toEqual(fromTurn(onA.events));
    const turnId = sent.data!.sendMessage.turn.id;
    const rawTurnId = Buffer.from(turnId, 'base64').toString().split(':')[1]!;
    expect((await a.app.db.prisma.turn.findUnique({ where: { id: rawTurnId } }))?.status).toBe('COMPLETED');
    const secondId = Buffer.from(second.data!.sendMessage.turn.id, 'base64').toString().split(':')[1]!;
    await expect
      .poll(async () => (await a.app.db.prisma.turn.findUnique({ where: { id: secondId } }))?.status, {
        timeout: 30_000,
      })
      .toBe('COMPLETED');
    await Promise.all([onA.dispose(), onB.dispose()]);
  }, 120_000);

  it('a stopped (unresponsive) Redis mid-turn: mutations still ' +
    'answer, and everything arrives once it answers again', async () => {
    const { sessionId, onA, onB } = await liveSession('stop');
    a.fake.enqueue({ text: CHUNKS, chunkDelayMs: 40 });
    const sent = await a.http(SEND, { input: { sessionId, content: 'stream through the stall' } });
    expect(sent.errors).toBeUndefined();
    await Promise.all([onA.waitFor(deltas(3), '3 deltas on A'), onB.waitFor(deltas(3), '3 deltas on B')]);

    redis.signal('SIGSTOP');
    try {
      const recorded = await a.http(RECORD, {
        input: { sessionId, source: 'task_note', text: 'noted during the stall' },
      });
      expect(recorded.errors).toBeUndefined();
      // The turn keeps running while Redis does not answer: its rows reach the database.
      await expect
        .poll(
          async () =>
            (
              await a.app.db.prisma.turn.findFirst({
                where: { sessionId: Buffer.from(sessionId, 'base64').toString().split(':')[1]! },
              })
            )?.status,
          {
            timeout: 60_000,
          },
        )
        .toBe('COMPLETED');
    } finally {
      redis.signal('SIGCONT');
    }

    await Promise.all([onA.waitFor(ended, 'turn end on A'), onB.waitFor(ended, 'turn end on B')]);
    for (const s of [onA, onB]) {
      expect(s.errors).toEqual([]);
      expect(s.events.some((e) => e.__typename === 'TurnEnded')).toBe(true);
      expect(text(s.events)).toBe(CHUNKS.join(''));
      expect(
        s.events.some((e) => e.__typename === 'MessageSaved' && e.message!.content === 'noted during the stall'),
      ).toBe(true);
      expectInOrderNoDup(s.events);
    }
    await Promise.all([onA.dispose(), onB.dispose()]);
  }, 120_000);
});
