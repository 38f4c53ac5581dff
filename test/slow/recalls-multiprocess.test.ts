/**
 * Two server processes (src/main.ts in child processes) on one PostgreSQL
 * database, both running the recall scheduler: every recall fires exactly
 * once — one is_recall message and one turn per recall — whichever process
 * scheduled it and however their wake-ups interleave. Needs a PostgreSQL
 * server (TEST_DATABASE_URL): an embedded data directory admits one process
 * only, so on PGlite this is skipped.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from '../support/child-server.js';
import { createServerDatabase } from '../support/durability.js';
import { type FakeProvider, messagesOf, startFakeProvider } from '../support/fake-provider.js';
import { eventually, serverUrl } from '../support/harness.js';
import {
  RecallsMultiCreateSessionDocument,
  RecallsMultiScheduleDocument,
  RecallsMultiSessionDocument,
} from '../generated/graphql.js';
import { needsServer, skipping } from '../support/skips.js';

const SESSIONS = 6;
const PER_SESSION = 3;

const skipped = skipping('recalls with two processes', needsServer('two processes share one PostgreSQL database'));
describe.skipIf(skipped)('scheduled recalls with two processes on one PostgreSQL database', () => {
  let fake: FakeProvider;
  let dir: string;
  let db: { url: string; drop(): Promise<void> };
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    fake = await startFakeProvider();
    fake.responder = (call) => {
      const users = messagesOf(call.body).filter((m) => m.role === 'user');
      return { text: `answer to ${String(users.at(-1)?.content ?? '').split('\n')[0]}` };
    };
    dir = await mkdtemp(join(tmpdir(), 'recall-multi-'));
    db = await createServerDatabase(serverUrl!);
    const env = (name: string) => ({
      DATABASE_URL: db.url,
      INSTANCE_ID: name,
      SESSION_FILES_DIR: join(dir, 'files'),
      OLLAMA_HOST: fake.url,
      PARTIAL_FLUSH_MS: '100',
      RECALL_POLL_MS: '100',
    });
    // One after the other: the first applies the migrations.
    servers.push(await startChildServer(env('recall-a'), { timeoutMs: 180_000 }));
    servers.push(await startChildServer(env('recall-b'), { timeoutMs: 180_000 }));
  }, 400_000);

  afterAll(async () => {
    for (const s of servers) s.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await fake?.stop();
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  const until = <T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 240_000) => eventually(fn, ok, timeoutMs);

  it(`${SESSIONS * PER_SESSION} recalls due together fire exactly once each`, async () => {
    const [a, b] = servers as [ChildServer, ChildServer];
    // Far enough ahead that every row is scheduled before the first is due (a slow machine included).
    const dueAt = new Date(Date.now() + 20_000).toISOString();
    const sessions: { id: string; texts: string[] }[] = [];
    for (let s = 0; s < SESSIONS; s++) {
      const owner = s % 2 === 0 ? a : b;
      const id = (await owner.gql(RecallsMultiCreateSessionDocument, {})).data!.createSession.id;
      const texts: string[] = [];
      for (let r = 0; r < PER_SESSION; r++) {
        // Scheduled on either process: each sees the other's rows through the database.
        const via = (s + r) % 2 === 0 ? a : b;
        const text = `recall ${s}.${r}`;
        const res = await via.gql(RecallsMultiScheduleDocument, { s: id, at: dueAt, t: text });
        expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
        texts.push(text);
      }
      sessions.push({ id, texts });
    }

    const QUERY = RecallsMultiSessionDocument;
    for (const { id, texts } of sessions) {
      // Read through one process, then checked through the other: one database.
      const final = await until(
        () => b.gql(QUERY, { id }),
        (r) =>
          r.data?.session?.activeTurn === null &&
          r.data.session.recalls.length === PER_SESSION &&
          r.data.session.recalls.every((x) => x.status === 'FIRED' && x.turn?.status === 'COMPLETED') &&
          // One request's fields are not read in one snapshot: the history may predate the last answer's save.
          r.data.session.history.edges.length >= 2 * PER_SESSION,
      );
      const rows = final.data!.session!.history.edges.map((e) => e.node);
      const recalled = rows.filter((m) => m.isRecall).map((m) => m.content);
      expect([...recalled].sort()).toEqual(texts);
      // Each recall answered by its own turn, right after it.
      for (let i = 0; i < rows.length; i += 2) {
        expect(rows[i]).toMatchObject({ role: 'USER', isRecall: true });
        expect(rows[i + 1]).toEqual({ role: 'ASSISTANT', content: `answer to ${rows[i].content}`, isRecall: false });
      }
      expect(rows).toHaveLength(2 * PER_SESSION);
      expect((await a.gql(QUERY, { id })).data!.session!.history.edges).toHaveLength(2 * PER_SESSION);
    }
    // One model call per recall, across both processes.
    expect(fake.calls.filter((c) => c.path === '/api/chat')).toHaveLength(SESSIONS * PER_SESSION);
  }, 600_000);
});
