/**
 * Key management (docs/security.md "Managing keys and users"), on both databases: admins list users and their keys,
 * create keys with an expiry, revoke, rotate (the old key works for the grace period, then is refused) and disable
 * users, through GraphQL and through the admin commands; keys stay stored hashed; a revocation is refused on every
 * process (another app on the same database: at once without Redis; through Redis pub/sub with REDIS_URL).
 */
import { createHash } from 'node:crypto';
import { createClient } from 'graphql-ws';
import { SignJWT } from 'jose';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { requestFromArgv, runAdminCommand } from '../src/admin/commands.js';
import { can } from '../src/domain/policy.js';
import { anonymousViewer } from '../src/auth/auth.js';
import {
  KeysCreateKeyDocument,
  KeysCreateUserDocument,
  KeysDisableDocument,
  KeysNodeDocument,
  KeysOwnerFieldsDocument,
  KeysRevokeDocument,
  KeysRotateDocument,
  KeysUsersDocument,
  KeysViewerDocument,
  KeysWhoAmIDocument,
} from './generated/graphql.js';
import { codeOf, createTestServer, dbKind, gqlFor, type ServerContext, testConfig } from './support/harness.js';

const SECRET = 'key-management-test-secret-of-32-chars!';
const DAY = 86_400_000;

let t: ServerContext;
let root: string;

beforeAll(async () => {
  t = await createTestServer({ authEnabled: true, jwtSecret: SECRET, titleGenerationEnabled: false });
  root = (await t.app.auth.createUser('root', { admin: true })).key;
});
afterAll(async () => {
  await t?.close();
});

/** A new user of API keys (through GraphQL, as an admin would) and their first key. */
async function newUser(name: string) {
  const made = await t.gql(KeysCreateUserDocument, { input: { name } }, root);
  expect(made.errors).toBeUndefined();
  const { key, apiKey } = made.data!.createUser;
  return { key, keyId: apiKey.id, userId: apiKey.user.id };
}

/** The name the key authenticates as, or the error code it gets. */
async function whoAmI(key: string): Promise<string> {
  const r = await t.gql(KeysWhoAmIDocument, {}, key);
  return r.data?.viewer.user?.name ?? `${codeOf(r)}: ${r.errors?.[0]?.message}`;
}

/** Moves a key's expiry into the past, as the passing of its time would. */
async function expireNow(keyGlobalId: string) {
  const id = Buffer.from(keyGlobalId, 'base64').toString('utf8').split(':')[1]!;
  await t.app.db.prisma.apiKey.update({
    where: { id },
    data: { expiresAt: new Date(Date.now() - 1000).toISOString() },
  });
}

describe(`key management through GraphQL (${dbKind})`, () => {
  it('lists users and keys (prefix, created, last used, expiry) to admins only; keys are stored hashed', async () => {
    const alice = await newUser('alice');
    expect(await whoAmI(alice.key)).toBe('alice');
    // The last use is written after the answer (one write a minute per key at most).
    await expect
      .poll(
        async () => (await t.app.db.prisma.apiKey.findFirst({ where: { prefix: alice.key.slice(0, 10) } }))?.lastUsedAt,
      )
      .not.toBeNull();

    const listed = await t.gql(KeysUsersDocument, {}, root);
    expect(listed.errors).toBeUndefined();
    const row = listed.data!.users.edges.find((e) => e.node.name === 'alice')!.node;
    expect(row).toMatchObject({ isAdmin: false, disabled: false });
    expect(row.apiKeys).toEqual([
      expect.objectContaining({ prefix: alice.key.slice(0, 10), status: 'ACTIVE', expiresAt: null, revokedAt: null }),
    ]);
    expect(row.apiKeys[0]!.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(alice.key);

    // Not for a user: FORBIDDEN, and their own keys only through viewer.
    expect(codeOf(await t.gql(KeysUsersDocument, {}, alice.key))).toBe('FORBIDDEN');
    const own = await t.gql(KeysViewerDocument, {}, alice.key);
    expect(own.data!.viewer.user!.apiKeys).toEqual([
      { id: alice.keyId, prefix: alice.key.slice(0, 10), status: 'ACTIVE' },
    ]);
    const other = await t.gql(
      KeysOwnerFieldsDocument,
      { id: listed.data!.users.edges.find((e) => e.node.name === 'root')!.node.id },
      alice.key,
    );
    expect(other.data?.node ?? null).toBeNull();
    // In local mode nobody manages keys through the API (the admin CLI does).
    expect(can(anonymousViewer, 'manageUsers')).toBe(false);

    // Stored as the sha256 of the key: no column holds the key itself.
    const rows = await t.app.db.prisma.$queryRawUnsafe<Record<string, unknown>[]>('SELECT * FROM api_keys');
    expect(JSON.stringify(rows)).not.toContain(alice.key);
    expect(rows.map((r) => r.key_hash)).toContain(createHash('sha256').update(alice.key).digest('hex'));
  });

  it('a key made with an expiry works until then and is refused after; an expiry in the past is refused', async () => {
    const bob = await newUser('bob');
    const expiresAt = new Date(Date.now() + 7 * DAY);
    const made = await t.gql(KeysCreateKeyDocument, { userId: bob.userId, expiresAt: expiresAt.toISOString() }, root);
    expect(made.data!.createApiKey.apiKey.expiresAt).toBe(expiresAt.toISOString());
    const key = made.data!.createApiKey.key;
    expect(await whoAmI(key)).toBe('bob');
    await expireNow(made.data!.createApiKey.apiKey.id);
    expect(await whoAmI(key)).toBe('UNAUTHENTICATED: This API key has expired');
    expect(await whoAmI(bob.key)).toBe('bob');

    const past = await t.gql(
      KeysCreateKeyDocument,
      { userId: bob.userId, expiresAt: new Date(Date.now() - 1000).toISOString() },
      root,
    );
    expect(codeOf(past)).toBe('BAD_USER_INPUT');
  });

  it('revoking refuses the key at the next request and closes the sockets it opened', async () => {
    const carol = await newUser('carol');
    const closed = new Promise<number>((resolve) => {
      const client = createClient({
        url: t.wsUrl,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${carol.key}` },
        retryAttempts: 0,
        on: { closed: (event) => resolve((event as { code: number }).code) },
      });
      client.subscribe(
        { query: 'subscription { sessionListEvents { kind } }' },
        {
          next: () => undefined,
          error: () => undefined,
          complete: () => undefined,
        },
      );
    });
    await t.listening('list');

    const revoked = await t.gql(KeysRevokeDocument, { id: carol.keyId }, root);
    expect(revoked.data!.revokeApiKey).toMatchObject({ status: 'REVOKED' });
    expect(await whoAmI(carol.key)).toBe('UNAUTHENTICATED: This API key was revoked');
    expect(await closed).toBe(4403);
    // Revoking again changes nothing.
    const again = await t.gql(KeysRevokeDocument, { id: carol.keyId }, root);
    expect(again.data!.revokeApiKey.revokedAt).toBe(revoked.data!.revokeApiKey.revokedAt);
  });

  it('rotation: the new key works, the old one until its grace period ends, then is refused', async () => {
    const dave = await newUser('dave');
    const before = Date.now();
    const rotated = await t.gql(KeysRotateDocument, { id: dave.keyId }, root);
    expect(rotated.errors).toBeUndefined();
    const { key, apiKey, previous } = rotated.data!.rotateApiKey;
    expect(previous).toMatchObject({ status: 'ROTATED', replacedBy: { id: apiKey.id } });
    // The default grace period: API_KEY_ROTATION_GRACE_MINUTES (24 h).
    const graceEnds = new Date(previous.expiresAt as string).getTime();
    expect(graceEnds).toBeGreaterThanOrEqual(before + DAY);
    expect(graceEnds).toBeLessThanOrEqual(Date.now() + DAY);
    expect(apiKey).toMatchObject({ status: 'ACTIVE', expiresAt: null });
    expect(await whoAmI(key)).toBe('dave');
    expect(await whoAmI(dave.key)).toBe('dave');

    // A rotated key is not rotated twice (its replacement is).
    expect(codeOf(await t.gql(KeysRotateDocument, { id: dave.keyId }, root))).toBe('CONFLICT');

    await expireNow(dave.keyId);
    expect(await whoAmI(dave.key)).toBe('UNAUTHENTICATED: This API key has expired');
    expect(await whoAmI(key)).toBe('dave');

    // No grace: the old key stops at once. A key with a lifetime passes it on to its replacement.
    const tenDays = await t.gql(
      KeysCreateKeyDocument,
      { userId: dave.userId, expiresAt: new Date(Date.now() + 10 * DAY).toISOString() },
      root,
    );
    const swap = await t.gql(KeysRotateDocument, { id: tenDays.data!.createApiKey.apiKey.id, graceSeconds: 0 }, root);
    expect(await whoAmI(tenDays.data!.createApiKey.key)).toBe('UNAUTHENTICATED: This API key has expired');
    const renewed = new Date(swap.data!.rotateApiKey.apiKey.expiresAt as string).getTime();
    expect(renewed).toBeGreaterThan(Date.now() + 9.9 * DAY);
    expect(await whoAmI(swap.data!.rotateApiKey.key)).toBe('dave');
  });

  it("disabling a user refuses all their keys and tokens until enabled again; others' keys work", async () => {
    const erin = await newUser('erin');
    const second = await t.gql(KeysCreateKeyDocument, { userId: erin.userId }, root);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('frank')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect(await whoAmI(token)).toBe('frank');
    const frank = (await t.gql(KeysUsersDocument, {}, root)).data!.users.edges.find((e) => e.node.name === 'frank')!;

    const disabled = await t.gql(KeysDisableDocument, { userId: erin.userId, disabled: true }, root);
    expect(disabled.data!.setUserDisabled).toMatchObject({ disabled: true });
    await t.gql(KeysDisableDocument, { userId: frank.node.id, disabled: true }, root);
    for (const key of [erin.key, second.data!.createApiKey.key, token])
      expect(await whoAmI(key)).toBe('UNAUTHENTICATED: This user is disabled');
    expect(await whoAmI(root)).toBe('root');

    await t.gql(KeysDisableDocument, { userId: erin.userId, disabled: false }, root);
    expect(await whoAmI(erin.key)).toBe('erin');
    expect(await whoAmI(second.data!.createApiKey.key)).toBe('erin');
  });

  it('node(id:) shows a key to its user and to admins, to nobody else; users cannot manage keys', async () => {
    const gina = await newUser('gina');
    const hank = await newUser('hank');
    expect((await t.gql(KeysNodeDocument, { id: gina.keyId }, gina.key)).data!.node).toMatchObject({
      status: 'ACTIVE',
    });
    expect((await t.gql(KeysNodeDocument, { id: gina.keyId }, root)).data!.node).toMatchObject({ status: 'ACTIVE' });
    expect((await t.gql(KeysNodeDocument, { id: gina.keyId }, hank.key)).data!.node).toBeNull();
    expect(codeOf(await t.gql(KeysRevokeDocument, { id: gina.keyId }, hank.key))).toBe('FORBIDDEN');
    expect(codeOf(await t.gql(KeysRotateDocument, { id: gina.keyId }, gina.key))).toBe('FORBIDDEN');
    expect(codeOf(await t.gql(KeysDisableDocument, { userId: hank.userId, disabled: true }, gina.key))).toBe(
      'FORBIDDEN',
    );
    expect(await whoAmI(gina.key)).toBe('gina');
  });
});

describe(`the admin commands (${dbKind})`, () => {
  const run = (...argv: string[]) => {
    const request = requestFromArgv(argv);
    if (!request) throw new Error(`usage error: ${argv.join(' ')}`);
    return runAdminCommand(t.app.auth.keys, request);
  };
  const keyIn = (lines: string[]) => /API key \(shown once\): (\S+)/.exec(lines.join('\n'))![1]!;

  it('create, list, rotate, revoke, disable and enable, naming keys by the prefix they printed', async () => {
    const made = await run('create-user', 'ivan', '--expires', '30d');
    const key = keyIn(made);
    expect(made[0]).toBe('created user ivan');
    expect(await whoAmI(key)).toBe('ivan');

    const listed = (await run('list-users')).join('\n');
    expect(listed).toMatch(
      new RegExp(`^ivan  created .*\\n    ${key.slice(0, 10)} +ACTIVE +created \\S+ \\S+  last used`, 'm'),
    );
    const expiry = /expires (\S+ \S+Z)/.exec(listed.slice(listed.indexOf(key.slice(0, 10))))![1]!;
    expect(Math.abs(new Date(expiry.replace(' ', 'T')).getTime() - (Date.now() + 30 * DAY))).toBeLessThan(DAY);
    expect(listed).not.toContain(key);

    const rotated = await run('rotate-key', key.slice(0, 10), '--grace', '1h');
    const next = keyIn(rotated);
    expect(rotated.join('\n')).toMatch(
      new RegExp(`${key.slice(0, 10)} keeps working until \\S+ \\S+Z, then is refused`),
    );
    expect(await whoAmI(key)).toBe('ivan');
    expect(await whoAmI(next)).toBe('ivan');

    expect((await run('revoke-key', next.slice(0, 10)))[0]).toMatch(/^revoked csk_/);
    expect(await whoAmI(next)).toBe('UNAUTHENTICATED: This API key was revoked');

    expect((await run('disable-user', 'ivan'))[0]).toContain('disabled ivan');
    expect(await whoAmI(key)).toBe('UNAUTHENTICATED: This user is disabled');
    expect((await run('list-keys', 'ivan'))[0]).toMatch(/^ivan \(DISABLED since /);
    await run('enable-user', 'ivan');
    expect(await whoAmI(key)).toBe('ivan');

    await expect(run('create-user', 'ivan')).rejects.toThrow('A user named ivan already exists');
    await expect(run('revoke-key', 'csk_nothing')).rejects.toThrow('API key not found');
    expect(requestFromArgv(['rotate-key'])).toBeNull();
    expect(requestFromArgv(['drop-table', 'users'])).toBeNull();
    await expect(run('create-key', 'ivan', '--expires', 'soonish')).rejects.toThrow('not a date');
  });
});

describe(`revocation on another process (${dbKind})`, () => {
  it('without Redis, another process checks every request: a revoked key is refused there at once', async () => {
    const other = await createApp(testConfig({ authEnabled: true }), { db: t.app.db });
    try {
      expect(other.auth.changes.shared).toBe(false);
      const gql = gqlFor(other);
      const judy = await newUser('judy');
      expect((await gql(KeysWhoAmIDocument, {}, judy.key)).data!.viewer.user!.name).toBe('judy');
      await t.gql(KeysRevokeDocument, { id: judy.keyId }, root);
      expect(codeOf(await gql(KeysWhoAmIDocument, {}, judy.key))).toBe('UNAUTHENTICATED');
    } finally {
      await other.close();
    }
  });

  it.skipIf(!process.env.REDIS_URL)(
    'with Redis, processes reuse key checks and a revocation made elsewhere reaches them through pub/sub',
    async () => {
      const redisUrl = process.env.REDIS_URL;
      const [a, b] = await Promise.all(
        [0, 1].map(() => createApp(testConfig({ authEnabled: true, redisUrl }), { db: t.app.db })),
      );
      try {
        await expect.poll(() => a!.auth.changes.live && b!.auth.changes.live).toBe(true);
        const gqlB = gqlFor(b!);
        const kate = await newUser('kate');
        expect((await gqlB(KeysWhoAmIDocument, {}, kate.key)).data!.viewer.user!.name).toBe('kate');
        // B now answers from its remembered check: a revocation written behind every process's back is not seen
        // (what the announcement is for) …
        await t.app.db.prisma.apiKey.updateMany({
          where: { prefix: kate.key.slice(0, 10) },
          data: { revokedAt: new Date() },
        });
        expect((await gqlB(KeysWhoAmIDocument, {}, kate.key)).data?.viewer.user?.name).toBe('kate');
        // … and one made through a process announces it on Redis: B forgets and refuses.
        await a!.auth.keys.revoke(Buffer.from(kate.keyId, 'base64').toString('utf8').split(':')[1]!);
        await expect
          .poll(async () => codeOf(await gqlB(KeysWhoAmIDocument, {}, kate.key)), { timeout: 5_000, interval: 50 })
          .toBe('UNAUTHENTICATED');
      } finally {
        await Promise.all([a!.close(), b!.close()]);
      }
    },
  );
});
