/**
 * A queued message (sendMessage whileRunning QUEUE) survives kill -9: the
 * real server in a child process (src/main.ts) on an on-disk store (the
 * embedded database under a temp DATA_DIR, or a fresh PostgreSQL database
 * with TEST_DATABASE_URL). The turn running at the kill ends INTERRUPTED
 * after the restart, and the queued message then runs exactly once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DoubleTextingRestartCreateSessionDocument,
  DoubleTextingRestartHistoryDocument,
  DoubleTextingRestartSendDocument,
  DoubleTextingRestartTurnDocument,
} from '../generated/graphql.js';
import { type ChildServer, startChildServer } from '../support/child-server.js';
import { createServerDatabase } from '../support/durability.js';
import { type FakeProvider, gate, messagesOf, startFakeProvider } from '../support/fake-provider.js';
import { dbKind, eventually, serverUrl } from '../support/harness.js';

let fake: FakeProvider;
let dir: string;
let dbUrl: string | null = null;
let dropDb: (() => Promise<void>) | null = null;
let server: ChildServer | null = null;
const instanceId = `queue-restart-${randomBytes(4).toString('hex')}`;

const env = () => ({
  ...(dbUrl ? { DATABASE_URL: dbUrl, INSTANCE_ID: instanceId } : { DATA_DIR: join(dir, 'data') }),
  SESSION_FILES_DIR: join(dir, 'files'),
  OLLAMA_HOST: fake.url,
  PARTIAL_FLUSH_MS: '100',
  RECALL_POLL_MS: '200',
  RECALL_LEASE_MS: '2000',
});

const lastUser = (body: unknown) =>
  String(
    messagesOf(body)
      .filter((m) => m.role === 'user')
      .at(-1)?.content ?? '',
  ).split('\n')[0];

beforeAll(async () => {
  fake = await startFakeProvider();
  fake.responder = (call) => ({ text: `answer to ${lastUser(call.body)}` });
  dir = await mkdtemp(join(tmpdir(), 'queue-restart-'));
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

const HISTORY = DoubleTextingRestartHistoryDocument;
const SEND = DoubleTextingRestartSendDocument;
const TURN = DoubleTextingRestartTurnDocument;

describe(`queued messages across kill -9 (child process, ${dbKind})`, () => {
  it('a message queued behind a running turn runs exactly once after the restart', async () => {
    server = await startChildServer(env(), { timeoutMs: 180_000 });
    const sessionId = (await server.gql(DoubleTextingRestartCreateSessionDocument, {})).data!.createSession.id;
    const held = gate();
    fake.enqueue({ text: ['never ', 'finished'], hold: held.promise, holdBeforeChunk: 1 });
    const first = await server.gql(SEND, { input: { sessionId, content: 'one' } });
    expect(first.errors).toBeUndefined();
    await eventually(
      async () => fake.requests.length,
      (n) => n === 1,
      60_000,
    );
    const queued = await server.gql(SEND, { input: { sessionId, content: 'queued', whileRunning: 'QUEUE' } });
    expect(queued.data!.sendMessage).toMatchObject({ turn: { status: 'QUEUED' }, queued: { position: 1 } });
    server.kill('SIGKILL');
    await server.exited;
    server = null;
    held.open();

    server = await startChildServer(env(), { timeoutMs: 180_000 });
    const done = await eventually(
      () => server!.gql(TURN, { id: queued.data!.sendMessage.turn.id }),
      (r) => r.data?.turn?.status === 'COMPLETED',
      180_000,
    );
    expect(done.data!.turn!.status).toBe('COMPLETED');
    const first_ = await server.gql(TURN, { id: first.data!.sendMessage.turn.id });
    expect(first_.data!.turn!.status).toBe('INTERRUPTED');
    const h = await server.gql(HISTORY, { id: sessionId });
    expect(h.data!.session!.queuedMessages).toEqual([]);
    const rows = h.data!.session!.history.edges.map((e) => e.node);
    expect(rows.filter((m) => m.content === 'queued')).toHaveLength(1);
    expect(rows.filter((m) => m.content === 'answer to queued')).toHaveLength(1);
    // One model call for the queued message: it was dispatched once.
    expect(fake.requests.filter((b) => lastUser(b) === 'queued')).toHaveLength(1);
  }, 600_000);
});
