/**
 * Scheduled recalls across kill -9 and restarts, the real server in a child
 * process (src/main.ts) on an on-disk store: the embedded database under a
 * temp DATA_DIR, or a fresh PostgreSQL database with TEST_DATABASE_URL.
 *
 *  - A recall scheduled before a kill -9 and due while the server is down
 *    fires exactly once after the restart, answered by a turn.
 *  - A recall a dead process had claimed but not fired (the crash between
 *    claim and commit) is taken over after the restart — at once on the
 *    embedded store (which is this process's alone), after RECALL_LEASE_MS on
 *    a shared server — and fires once; the first one does not fire again.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { type ChildServer, startChildServer } from '../support/child-server.js';
import { createServerDatabase } from '../support/durability.js';
import { type FakeProvider, messagesOf, startFakeProvider } from '../support/fake-provider.js';
import { eventually, serverUrl } from '../support/harness.js';
import {
  RecallsRestartCreateSessionDocument,
  RecallsRestartRecallsDocument,
  RecallsRestartScheduleDocument,
} from '../generated/graphql.js';

let fake: FakeProvider;
let dir: string;
let dbUrl: string | null = null;
let dropDb: (() => Promise<void>) | null = null;
let server: ChildServer | null = null;

const env = () => ({
  ...(dbUrl
    ? { DATABASE_URL: dbUrl, INSTANCE_ID: `recall-restart-${randomBytes(4).toString('hex')}` }
    : { DATA_DIR: join(dir, 'data') }),
  SESSION_FILES_DIR: join(dir, 'files'),
  OLLAMA_HOST: fake.url,
  PARTIAL_FLUSH_MS: '100',
  RECALL_POLL_MS: '200',
  RECALL_LEASE_MS: '2000',
});

beforeAll(async () => {
  fake = await startFakeProvider();
  fake.responder = (call) => {
    const users = messagesOf(call.body).filter((m) => m.role === 'user');
    const last = String(users.at(-1)?.content ?? '');
    return { text: `answer to ${last.split('\n')[0]}` };
  };
  dir = await mkdtemp(join(tmpdir(), 'recall-restart-'));
  if (serverUrl) {
    const db = await createServerDatabase(serverUrl);
    dbUrl = db.url;
    dropDb = db.drop;
  }
});
afterAll(async () => {
  server?.kill('SIGKILL');
  await server?.exited;
  await fake.stop();
  await dropDb?.();
  await rm(dir, { recursive: true, force: true });
});

const until = <T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 180_000) => eventually(fn, ok, timeoutMs);

const RECALLS = RecallsRestartRecallsDocument;

const chats = () => fake.calls.filter((c) => c.path === '/api/chat').length;

async function killHard(): Promise<void> {
  server!.kill('SIGKILL');
  await server!.exited;
  server = null;
}

describe('scheduled recalls across kill -9 and restarts (child process)', () => {
  it('a recall due while the server is down fires once after ' +
    'the restart; a dead claim is taken over and fires once', async () => {
    server = await startChildServer(env(), { timeoutMs: 180_000 });
    const sessionId = (await server.gql(RecallsRestartCreateSessionDocument, {})).data!.createSession.id;
    const rawSessionId = Buffer.from(sessionId, 'base64')
      .toString()
      .replace(/^Session:/, '');
    const dueAt = Date.now() + 3_000;
    const scheduled = await server.gql(RecallsRestartScheduleDocument, {
      s: sessionId,
      at: new Date(dueAt).toISOString(),
    });
    expect(scheduled.data!.scheduleRecall.status).toBe('PENDING');
    await killHard();
    // Nothing fired before the kill (the due time was not reached).
    expect(chats()).toBe(0);

    // Wait for the due time to pass while the server is down.
    await until(
      async () => Date.now(),
      (now) => now > dueAt + 200,
      30_000,
    );
    server = await startChildServer(env(), { timeoutMs: 180_000 });
    const afterRestart = await until(
      () => server!.gql(RECALLS, { id: sessionId }),
      (r) =>
        r.data?.session?.recalls?.[0]?.status === 'FIRED' &&
        r.data.session.recalls[0].turn?.status === 'COMPLETED' &&
        // The fields of one request are read one after the other, not in one snapshot: the history read before
        // the turn's status may predate the answer's save, so the answer is waited for too.
        r.data.session.history.edges.length >= 2,
    );
    const rows = afterRestart.data!.session!.history.edges.map((e) => e.node);
    expect(rows).toEqual([
      { role: 'USER', content: 'while you were down', isRecall: true },
      { role: 'ASSISTANT', content: 'answer to while you were down', isRecall: false },
    ]);

    // The crash between claim and commit: a row claimed by a process that is gone, never fired.
    await killHard();
    const db = await openDatabase(dbUrl ? { url: dbUrl } : { dataDir: join(dir, 'data') });
    try {
      await db.prisma.pendingTurn.create({
        data: {
          sessionId: rawSessionId,
          owner: null,
          dueAt: new Date(Date.now() - 1_000),
          kind: 'RECALL',
          content: 'claimed by the dead',
          status: 'CLAIMED',
          claimedBy: 'a-process-that-died',
          claimedAt: new Date(),
          attempts: 1,
        },
      });
    } finally {
      await db.close();
    }
    server = await startChildServer(env(), { timeoutMs: 180_000 });
    const taken = await until(
      () => server!.gql(RECALLS, { id: sessionId }),
      (r) =>
        r.data?.session?.recalls?.every((x) => x.status === 'FIRED' && x.turn?.status === 'COMPLETED') === true &&
        r.data.session.recalls.length === 2 &&
        r.data.session.history.edges.length >= 4,
    );
    const recalled = taken
      .data!.session!.history.edges.map((e) => e.node)
      .filter((m) => m.isRecall)
      .map((m) => m.content);
    expect(recalled).toEqual(['while you were down', 'claimed by the dead']);
    // One model call per recall: neither fired twice.
    expect(chats()).toBe(2);
  }, 900_000);
});
