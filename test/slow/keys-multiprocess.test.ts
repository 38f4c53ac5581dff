/**
 * Revocation across processes (docs/security.md "Managing keys and users"): two server processes on one PostgreSQL
 * database and one Redis, each reusing its key checks; the admin CLI, a third process, revokes a key and disables a
 * user: both servers refuse them at once (through Redis pub/sub; a remembered check would last 30 s), without a
 * restart. Needs a PostgreSQL server (TEST_DATABASE_URL) and REDIS_URL. Fast sibling: test/keys.test.ts
 * ("revocation on another process").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, spawnTsx, startChildServer } from '../support/child-server.js';
import { createServerDatabase, runToEnd } from '../support/durability.js';
import { codeOf, serverUrl } from '../support/harness.js';
import { KeysWhoAmIDocument } from '../generated/graphql.js';

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!serverUrl || !redisUrl)('key revocation with two server processes and Redis', () => {
  let dir: string;
  let db: { url: string; drop(): Promise<void> };
  let env: Record<string, string>;
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keys-multi-'));
    db = await createServerDatabase(serverUrl!);
    env = {
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl!,
      AUTH_ENABLED: 'true',
      SESSION_FILES_DIR: join(dir, 'files'),
      TITLE_GENERATION_ENABLED: 'false',
    };
    // One after the other: the first applies the migrations.
    servers.push(await startChildServer({ ...env, INSTANCE_ID: 'keys-a' }, { timeoutMs: 180_000 }));
    servers.push(await startChildServer({ ...env, INSTANCE_ID: 'keys-b' }, { timeoutMs: 180_000 }));
  }, 400_000);

  afterAll(async () => {
    for (const s of servers) s.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  const admin = (...args: string[]) => runToEnd(spawnTsx('scripts/admin.ts', args, env));
  const keyOf = (output: string) => /API key \(shown once\): (\S+)/.exec(output)![1]!;
  const whoAmI = async (server: ChildServer, key: string) => {
    const r = await server.gql(KeysWhoAmIDocument, {}, key);
    return r.data?.viewer.user?.name ?? codeOf(r);
  };

  it('a key revoked and a user disabled by the CLI are refused by both servers at once', async () => {
    const made = await admin('create-user', 'mallory');
    expect(made.code, made.stderr).toBe(0);
    const key = keyOf(made.stdout);
    const other = await admin('create-user', 'nina');
    const ninaKey = keyOf(other.stdout);
    // Each server has checked (and now remembers) both keys.
    for (const server of servers) {
      expect(await whoAmI(server, key)).toBe('mallory');
      expect(await whoAmI(server, ninaKey)).toBe('nina');
    }

    const revoked = await admin('revoke-key', key.slice(0, 10));
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).not.toContain('warning');
    for (const server of servers)
      await expect.poll(() => whoAmI(server, key), { timeout: 5_000, interval: 50 }).toBe('UNAUTHENTICATED');

    const disabled = await admin('disable-user', 'nina');
    expect(disabled.code, disabled.stderr).toBe(0);
    for (const server of servers)
      await expect.poll(() => whoAmI(server, ninaKey), { timeout: 5_000, interval: 50 }).toBe('UNAUTHENTICATED');
  }, 300_000);
});
