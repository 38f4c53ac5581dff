/**
 * Nothing acknowledged is lost: a real server in a child process answers a
 * scripted set of writes (one of them a user created by the admin CLI while
 * the server runs), is killed with SIGKILL, restarts, and every answered write
 * is read back through the API. On PGlite (a temp DATA_DIR) by default, on a
 * fresh PostgreSQL database with TEST_DATABASE_URL. Plus: one process per
 * embedded DATA_DIR.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, spawnTsx, startChildServer } from '../support/child-server.js';
import {
  createServerDatabase,
  newLedger,
  replyResponder,
  runToEnd,
  verifyLedger,
  writeRound,
} from '../support/durability.js';
import { type FakeProvider, startFakeProvider } from '../support/fake-provider.js';
import { FaultsDurabilityCreateNamedDocument, FaultsDurabilityViewerDocument } from '../generated/graphql.js';
import { needsPglite, skipping } from '../support/skips.js';
import { migratedDataDir } from '../support/databases.js';

const serverUrl = process.env.TEST_DATABASE_URL;
const onPglite = !serverUrl;

let fake: FakeProvider;
const dirs: string[] = [];
const children: ChildServer[] = [];
const drops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  fake = await startFakeProvider();
  fake.responder = replyResponder;
}, 300_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  await fake?.stop();
  for (const drop of drops) await drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chat-durability-'));
  dirs.push(dir);
  return dir;
}

async function serverEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const dir = tempDir();
  const env: Record<string, string> = {
    DATA_DIR: join(dir, 'data'),
    SESSION_FILES_DIR: join(dir, 'files'),
    OLLAMA_HOST: fake.url,
    DATABASE_URL: '',
    ...extra,
  };
  // A migrated data directory, written from a dump: the server neither initialises a cluster nor migrates.
  if (onPglite) await migratedDataDir(env.DATA_DIR!);
  if (serverUrl) {
    const db = await createServerDatabase(serverUrl);
    drops.push(db.drop);
    env.DATABASE_URL = db.url;
  }
  return env;
}

async function start(env: Record<string, string>) {
  const server = await startChildServer(env, { timeoutMs: 240_000 });
  children.push(server);
  return server;
}

async function kill9(server: ChildServer) {
  server.kill('SIGKILL');
  const exit = await server.exited;
  expect(exit.signal).toBe('SIGKILL');
}

function admin(env: Record<string, string>, ...args: string[]) {
  return runToEnd(spawnTsx('scripts/admin.ts', args, env));
}

function keyOf(output: string): string {
  const key = /API key \(shown once\): (\S+)/.exec(output)?.[1];
  if (!key) throw new Error(`no key in admin output: ${output}`);
  return key;
}

describe(`durable writes (${onPglite ? 'PGlite' : 'PostgreSQL'})`, () => {
  it('every write the server answered, and a user the admin CLI created while it ran, survive kill -9', async () => {
    const env = await serverEnv({ AUTH_ENABLED: 'true' });
    const first = await start(env);

    // The natural order: the server is running, then the admin creates a user.
    const created = await admin(env, 'create-user', 'alice');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const key = keyOf(created.stdout);
    expect((await first.gql(FaultsDurabilityViewerDocument, {}, key)).data?.viewer.user?.name).toBe('alice');

    const ledger = newLedger();
    for (let round = 0; round < 3; round++) await writeRound(first.url, ledger, `r${round}`, key);
    expect(ledger.acknowledged).toBe(18);
    expect(await verifyLedger(first.url, ledger, key)).toEqual({ lost: [], duplicates: [] });

    await kill9(first);
    // With nobody running, the admin CLI opens the database itself (taking over the dead server's lock).
    const second = await admin(env, 'create-key', 'alice');
    expect(second.code).toBe(0);
    const key2 = keyOf(second.stdout);

    const restarted = await start(env);
    expect((await restarted.gql(FaultsDurabilityViewerDocument, {}, key)).data?.viewer.user?.name).toBe('alice');
    expect((await restarted.gql(FaultsDurabilityViewerDocument, {}, key2)).data?.viewer.user?.name).toBe('alice');
    expect(await verifyLedger(restarted.url, ledger, key)).toEqual({ lost: [], duplicates: [] });
    await kill9(restarted);
  }, 600_000);
});

const skipped = skipping('one process per embedded DATA_DIR', needsPglite());
describe.skipIf(skipped)('one process per embedded DATA_DIR', () => {
  it('a second server on the same DATA_DIR exits at once with one clear line; the first keeps serving', async () => {
    const env = await serverEnv();
    const first = await start(env);
    const lock = join(env.DATA_DIR!, 'datadir.lock');
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(first.pid));

    const second = await startChildServer(env, { expectExit: true });
    const exit = await second.exited;
    expect(exit.code).toBe(1);
    expect(second.lines.filter((l) => l.trim() !== '')).toEqual([
      `DATA_DIR ${env.DATA_DIR} is in use by another process (pid ${first.pid}): one process at a ` +
        'time opens an embedded database; stop it first, or set DATABASE_URL to share a PostgreSQL server',
    ]);

    // The first one still answers and writes, and still owns the lock.
    const ledger = newLedger();
    await writeRound(first.url, ledger, 'after-refusal');
    expect(await verifyLedger(first.url, ledger)).toEqual({ lost: [], duplicates: [] });
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(first.pid));
    await kill9(first);
  }, 600_000);

  it('a lock left by a dead process is taken over; a clean stop releases it', async () => {
    const env = await serverEnv();
    // A pid that certainly belonged to a process that has exited.
    const dead = spawn(process.execPath, ['-e', '']);
    const deadPid = dead.pid!;
    await new Promise((r) => dead.once('exit', r));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(env.DATA_DIR!, { recursive: true });
    const lock = join(env.DATA_DIR!, 'datadir.lock');
    writeFileSync(lock, `${deadPid}\n`);

    const server = await start(env);
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(server.pid));
    expect((await server.gql(FaultsDurabilityCreateNamedDocument, {})).data?.createSession.name).toBe('x');

    server.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    expect(() => readFileSync(lock)).toThrow(/ENOENT/);
  }, 600_000);
});
