/**
 * Crash recovery across processes (docs/reliability.md, "Recovery of interrupted turns"): two servers
 * (src/main.ts in child processes, the default TURN_STALE_MS and PARTIAL_FLUSH_MS) on one PostgreSQL database.
 * A turn streams on A, a message waits in its session's queue, A dies by kill -9: B ends the turn INTERRUPTED
 * with the streamed part kept, then runs the queued message, without a restart of A. How long it takes is
 * printed by bench/recovery.ts, never asserted here. Needs a PostgreSQL server (TEST_DATABASE_URL); on PGlite
 * (one process per data directory) the restarted process ends such turns before it listens
 * (test/slow/faults-resume.test.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TurnRecoveryCreateSessionDocument,
  TurnRecoverySendDocument,
  TurnRecoverySessionDocument,
  TurnRecoveryTurnDocument,
} from '../generated/graphql.js';
import { type ChildServer, startChildServer } from '../support/child-server.js';
import { createServerDatabase } from '../support/durability.js';
import { type FakeProvider, gate, messagesOf, startFakeProvider } from '../support/fake-provider.js';
import { eventually, serverUrl } from '../support/harness.js';
import { needsServer, skipping } from '../support/skips.js';

const skipped = skipping('turn recovery across processes', needsServer('two processes share one PostgreSQL database'));
describe.skipIf(skipped)('a turn of a killed process is ended by another process', () => {
  let fake: FakeProvider;
  let dir: string;
  let db: { url: string; drop(): Promise<void> };
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    fake = await startFakeProvider();
    fake.responder = (call) => {
      const users = messagesOf(call.body).filter((m) => m.role === 'user');
      return {
        text: String(users.at(-1)?.content ?? '').includes('question two') ? 'answer to question two' : 'other',
      };
    };
    dir = await mkdtemp(join(tmpdir(), 'turn-recovery-'));
    db = await createServerDatabase(serverUrl!);
    const env = (name: string) => ({
      DATABASE_URL: db.url,
      INSTANCE_ID: name,
      SESSION_FILES_DIR: join(dir, `files-${name}`),
      OLLAMA_HOST: fake.url,
    });
    // One after the other: the first applies the migrations.
    servers.push(await startChildServer(env('recovery-a'), { timeoutMs: 180_000 }));
    servers.push(await startChildServer(env('recovery-b'), { timeoutMs: 180_000 }));
  }, 400_000);

  afterAll(async () => {
    for (const s of servers) s.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await fake?.stop();
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('B ends the streaming turn INTERRUPTED with its partial kept, then runs the queued message', async () => {
    const [a, b] = servers as [ChildServer, ChildServer];
    const sessionId = (await b.gql(TurnRecoveryCreateSessionDocument, {})).data!.createSession.id;
    const held = gate();
    fake.enqueue({ text: ['The first half ', 'and the rest'], hold: held.promise, holdBeforeChunk: 1 });
    const sent = await a.gql(TurnRecoverySendDocument, { input: { sessionId, content: 'question one' } });
    expect(sent.errors, JSON.stringify(sent.errors)).toBeUndefined();
    const turnId = sent.data!.sendMessage.turn!.id;
    await fake.waitForRequests(1);
    const queued = await b.gql(TurnRecoverySendDocument, {
      input: { sessionId, content: 'question two', whileRunning: 'QUEUE' },
    });
    expect(queued.errors, JSON.stringify(queued.errors)).toBeUndefined();
    expect(queued.data!.sendMessage.queued).not.toBeNull();
    // Wait until A's heartbeat has checkpointed the streamed part, so that there is something to keep.
    const pgClient = new pg.Client({ connectionString: db.url });
    await pgClient.connect();
    try {
      await eventually(
        () => pgClient.query<{ partial_text: string }>(`SELECT partial_text FROM turns WHERE status = 'RUNNING'`),
        (r) => r.rows[0]?.partial_text === 'The first half ',
      );
    } finally {
      await pgClient.end();
    }
    a.kill('SIGKILL');
    expect((await a.exited).signal).toBe('SIGKILL');
    held.open();

    const ended = await eventually(
      () => b.gql(TurnRecoveryTurnDocument, { id: turnId }),
      (r) => r.data?.turn?.status !== 'RUNNING',
      120_000,
    );
    expect(ended.data!.turn!.status).toBe('INTERRUPTED');
    const final = await eventually(
      () => b.gql(TurnRecoverySessionDocument, { id: sessionId }),
      (r) =>
        r.data?.session?.activeTurn === null &&
        r.data.session.history.edges.at(-1)?.node.role === 'ASSISTANT' &&
        r.data.session.history.edges.at(-1)?.node.content === 'answer to question two',
      120_000,
    );
    const history = final.data!.session!.history.edges.map((e) => e.node);
    const users = history.filter((m) => m.role === 'USER').map((m) => m.content);
    expect(users).toEqual(['question one', 'question two']);
    // The streamed part is kept, before the queued message; the queued one is answered once.
    const partialAt = history.findIndex((m) => m.role === 'ASSISTANT' && m.content.startsWith('The first half'));
    expect(partialAt).toBeGreaterThan(0);
    expect(partialAt).toBeLessThan(history.findIndex((m) => m.content === 'question two'));
    expect(history.filter((m) => m.content === 'answer to question two')).toHaveLength(1);
    expect(final.data!.session!.queuedMessages).toEqual([]);
    expect(b.lines.some((l) => l.includes('"msg":"turn.interrupted"'))).toBe(true);
  }, 300_000);
});
