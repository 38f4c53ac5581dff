/**
 * JWT identities: a token is its (issuer, subject), never the API-key user of
 * the same name; its claims grant rights for its own request only; only the
 * configured algorithms are accepted and `exp` is required.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { hashKey } from '../src/auth/auth.js';
import { MIGRATIONS_DIR, migrate } from '../src/db/migrate.js';
import {
  IdentityCreateSessionDocument,
  IdentityRenameToXDocument,
  IdentitySessionDocument,
  IdentitySessionIdsDocument,
  IdentityUpsertProfileDocument,
  IdentityViewerDocument,
  type IdentityViewerQuery,
} from './generated/graphql.js';
import {
  createTestApp,
  createTestDatabase,
  codeOf,
  dbKind,
  type GqlResult,
  queryText,
  testConfig,
  type TestContext,
} from './support/harness.js';
import { createGraphQLHandler } from '../src/server.js';

const SECRET = 'identity-test-secret-long-enough-for-hs256';
const secretKey = new TextEncoder().encode(SECRET);

function hs(claims: JWTPayload, options: { alg?: string; exp?: boolean; sub?: string } = {}) {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'HS256' }).setIssuedAt();
  if (options.sub) jwt.setSubject(options.sub);
  if (options.exp !== false) jwt.setExpirationTime('5m');
  return jwt.sign(secretKey);
}

const userGid = (id: string) => Buffer.from(`User:${id}`).toString('base64');
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const VIEWER = IdentityViewerDocument;
const UPSERT = IdentityUpsertProfileDocument;

describe(`JWT identity (${dbKind})`, { timeout: 120_000 }, () => {
  let t: TestContext;
  let root: string;
  let owner: string;
  let alice: string;

  beforeAll(async () => {
    t = await createTestApp({ authEnabled: true, jwtSecret: SECRET });
    root = (await t.app.auth.createUser('root', { admin: true })).key;
    owner = (await t.app.auth.createUser('owner')).key;
    alice = (await t.app.auth.createUser('alice', { permissions: ['sessions.read_all'] })).key;
  }, 240_000);
  afterAll(() => t.close());

  const viewer = async (token: string) => (await t.gql(VIEWER, {}, token)).data?.viewer;
  const userRow = (name: string) => t.app.db.prisma.user.findFirstOrThrow({ where: { name, jwtSubject: null } });

  it("a token for subject root without an admin claim does not demote root's API key", async () => {
    const asJwt = await viewer(await hs({}, { sub: 'root' }));
    expect(asJwt!.isAdmin).toBe(false);
    expect((await viewer(root))!.isAdmin).toBe(true);
    expect((await userRow('root')).isAdmin).toBe(true);
    expect((await t.gql(UPSERT, {}, root)).data?.upsertProfile.key).toBe('identity-p');
  });

  it("a token for subject owner with admin: true does not make owner's API key admin", async () => {
    const asJwt = await viewer(await hs({ admin: true, permissions: ['sessions.read_all'] }, { sub: 'owner' }));
    expect(asJwt!.isAdmin).toBe(true);
    expect(await viewer(owner)).toMatchObject({ isAdmin: false, permissions: [] });
    expect(await userRow('owner')).toMatchObject({ isAdmin: false, permissions: [] });
    expect(codeOf(await t.gql(UPSERT, {}, owner))).toBe('FORBIDDEN');
  });

  it('claims grant rights for their request only and are never stored', async () => {
    const admin = await hs({ admin: true }, { sub: 'dave' });
    expect((await viewer(admin))!.isAdmin).toBe(true);
    expect((await t.gql(UPSERT, {}, admin)).data?.upsertProfile.key).toBe('identity-p');
    const plain = await hs({}, { sub: 'dave' });
    expect(await viewer(plain)).toMatchObject({ isAdmin: false, permissions: [] });
    expect(codeOf(await t.gql(UPSERT, {}, plain))).toBe('FORBIDDEN');
    const row = await t.app.db.prisma.user.findUniqueOrThrow({
      where: { jwtIssuer_jwtSubject: { jwtIssuer: '', jwtSubject: 'dave' } },
    });
    expect(row).toMatchObject({ isAdmin: false, permissions: [], name: 'dave' });
    // The same identity keeps one row whatever its claims were.
    expect((await viewer(admin))!.user!.id).toBe(userGid(row.id));
    expect((await viewer(plain))!.user!.id).toBe(userGid(row.id));
  });

  it("a subject equal to an API-key user's name is another user: neither sees the other's sessions", async () => {
    const create = async (token: string, name: string) =>
      (await t.gql(IdentityCreateSessionDocument, { n: name }, token)).data?.createSession.id as string;
    const ownerSession = await create(owner, "owner's by key");
    const jwt = await hs({}, { sub: 'owner' });
    const jwtSession = await create(jwt, "owner's by token");
    const asJwt = await viewer(jwt);
    expect(asJwt!.user!.name).toBe('owner');
    expect(asJwt!.user!.id).not.toBe(userGid((await userRow('owner')).id));
    const list = IdentitySessionIdsDocument;
    const ids = async (token: string) => (await t.gql(list, {}, token)).data?.sessions.edges.map((e) => e.node.id);
    expect(await ids(jwt)).toEqual([jwtSession]);
    expect(await ids(owner)).toEqual([ownerSession]);
    const read = IdentitySessionDocument;
    expect((await t.gql(read, { id: ownerSession }, jwt)).data?.session).toBeNull();
    expect((await t.gql(read, { id: jwtSession }, owner)).data?.session).toBeNull();
    const rename = await t.gql(IdentityRenameToXDocument, { id: ownerSession }, jwt);
    expect(codeOf(rename)).toBe('NOT_FOUND');
  });

  it(
    'refuses a token without exp, HS384/HS512 when HS256 is ' +
      'configured, alg none and an asymmetric alg without a JWKS',
    async () => {
      const refused = async (token: string) => codeOf(await t.gql(VIEWER, {}, token));
      // the control: the same token with exp passes
      expect(await refused(await hs({}, { sub: 'erin' }))).toBeUndefined();
      expect(await refused(await hs({}, { sub: 'erin', exp: false }))).toBe('UNAUTHENTICATED');
      expect(await refused(await hs({ admin: true }, { sub: 'root', exp: false }))).toBe('UNAUTHENTICATED');
      expect(await refused(await hs({}, { sub: 'erin', alg: 'HS384' }))).toBe('UNAUTHENTICATED');
      expect(await refused(await hs({}, { sub: 'erin', alg: 'HS512' }))).toBe('UNAUTHENTICATED');
      const exp = Math.floor(Date.now() / 1000) + 300;
      for (const alg of ['none', 'None', 'NONE']) {
        expect(await refused(`${b64({ alg, typ: 'JWT' })}.${b64({ sub: 'root', admin: true, exp })}.`)).toBe(
          'UNAUTHENTICATED',
        );
      }
      const { privateKey } = await generateKeyPair('ES256');
      const es = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256' })
        .setSubject('erin')
        .setExpirationTime('5m')
        .sign(privateKey);
      expect(await refused(es)).toBe('UNAUTHENTICATED');
      // only the first test's token
      expect(await t.app.db.prisma.user.count({ where: { jwtSubject: 'root' } })).toBe(1);
    },
  );

  it('the issuer is part of the identity', async () => {
    const a = await viewer(await hs({ iss: 'https://a.example' }, { sub: 'frank' }));
    const b = await viewer(await hs({ iss: 'https://b.example' }, { sub: 'frank' }));
    const none = await viewer(await hs({}, { sub: 'frank' }));
    expect(new Set([a!.user!.id, b!.user!.id, none!.user!.id]).size).toBe(3);
    expect((await viewer(await hs({ iss: 'https://a.example' }, { sub: 'frank' })))!.user!.id).toBe(a!.user!.id);
  });

  it('concurrent first requests of one identity make one row', async () => {
    const token = await hs({}, { sub: 'grace' });
    const seen = await Promise.all(Array.from({ length: 6 }, () => viewer(token)));
    expect(new Set(seen.map((v) => v!.user!.id)).size).toBe(1);
    expect(await t.app.db.prisma.user.count({ where: { jwtSubject: 'grace' } })).toBe(1);
  });

  it('API keys still resolve to their own rows; create-user still refuses a taken API-key name', async () => {
    await viewer(await hs({}, { sub: 'alice' }));
    expect(await viewer(alice)).toMatchObject({
      isAdmin: false,
      permissions: ['sessions.read_all'],
      user: { name: 'alice' },
    });
    await expect(t.app.auth.createUser('alice')).rejects.toThrow();
    // A JWT subject does not take an API-key name: create-user of a token's subject works.
    await viewer(await hs({}, { sub: 'henry' }));
    expect((await t.app.auth.createUser('henry')).user.jwtSubject).toBeNull();
  });
});

describe(`JWT identity with a JWKS (${dbKind})`, { timeout: 120_000 }, () => {
  let t: TestContext;
  let server: Server;
  let es: CryptoKey;
  let rs: CryptoKey;
  let ed: CryptoKey;

  beforeAll(async () => {
    const keys = await Promise.all(
      ['ES256', 'RS256', 'EdDSA'].map((alg) => generateKeyPair(alg, { extractable: true })),
    );
    [es, rs, ed] = keys.map((k) => k.privateKey);
    const jwks = {
      keys: await Promise.all(keys.map(async (k, i) => ({ ...(await exportJWK(k.publicKey)), kid: `k${i}` }))),
    };
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(jwks));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    t = await createTestApp({ authEnabled: true, jwtJwksUrl: url, jwtIssuer: 'https://idp.example' });
  }, 240_000);
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const sign = (key: CryptoKey | Uint8Array, alg: string, kid: string, claims: JWTPayload = {}, exp = true) => {
    const jwt = new SignJWT(claims).setProtectedHeader({ alg, kid }).setSubject('ivy').setIssuer('https://idp.example');
    if (exp) jwt.setExpirationTime('5m');
    return jwt.sign(key);
  };
  const answer = async (token: string) => t.gql(VIEWER, {}, token);

  it('accepts ES256, RS256 and EdDSA tokens from the JWKS as one identity', async () => {
    const ids = new Set<string>();
    for (const [key, alg, kid] of [
      [es, 'ES256', 'k0'],
      [rs, 'RS256', 'k1'],
      [ed, 'EdDSA', 'k2'],
    ] as const) {
      const r = await answer(await sign(key, alg, kid));
      expect(r.errors, alg).toBeUndefined();
      ids.add(r.data!.viewer.user!.id);
    }
    expect(ids.size).toBe(1);
  });

  it('refuses HS256 (no secret configured), a missing exp, a wrong issuer and alg none', async () => {
    expect(codeOf(await answer(await sign(secretKey, 'HS256', 'k0')))).toBe('UNAUTHENTICATED');
    expect(codeOf(await answer(await sign(es, 'ES256', 'k0', {}, false)))).toBe('UNAUTHENTICATED');
    const wrongIssuer = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k0' })
      .setSubject('ivy')
      .setIssuer('https://evil.example')
      .setExpirationTime('5m')
      .sign(es);
    expect(codeOf(await answer(wrongIssuer))).toBe('UNAUTHENTICATED');
    const exp = Math.floor(Date.now() / 1000) + 300;
    expect(
      codeOf(
        await answer(`${b64({ alg: 'none', kid: 'k0' })}.${b64({ sub: 'ivy', iss: 'https://idp.example', exp })}.`),
      ),
    ).toBe('UNAUTHENTICATED');
  });
});

describe(`identity migration (${dbKind})`, () => {
  it('turns rows without an API key (made by tokens before) ' +
    'into adoptable JWT rows and clears their claimed rights', async () => {
    const { db, drop } = await createTestDatabase({ fresh: true });
    const tmp = await mkdtemp(join(tmpdir(), 'identity-migrations-'));
    try {
      await cp(MIGRATIONS_DIR, tmp, { recursive: true, filter: (src) => !src.includes('20261201000100_jwt_identity') });
      await migrate(db, tmp);
      const [legacy] = await db.raw.query<{ id: string }>(
        'INSERT INTO users (id, name, is_admin, permissions) VALUES ' +
          `(gen_random_uuid(), 'kate', true, ARRAY['sessions.read_all']) RETURNING id`,
      );
      const [keyed] = await db.raw.query<{ id: string }>(
        `INSERT INTO users (id, name, is_admin) VALUES (gen_random_uuid(), 'leo', true) RETURNING id`,
      );
      await db.raw.query(
        `INSERT INTO api_keys (id, user_id, key_hash, prefix) VALUES (gen_random_uuid(), $1, $2, 'csk_leo')`,
        [keyed!.id, hashKey('csk_leo-key')],
      );
      const app = await createApp(testConfig({ authEnabled: true, jwtSecret: SECRET }), { db });
      const yoga = createGraphQLHandler(app);
      const gql = async (query: typeof VIEWER, token: string) =>
        (await (
          await yoga.fetch('http://test/graphql', {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ query: queryText(query) }),
          })
        ).json()) as GqlResult<IdentityViewerQuery>;
      const rows = await db.prisma.user.findMany({ orderBy: { name: 'asc' } });
      expect(rows.map((r) => [r.name, r.jwtIssuer, r.jwtSubject, r.isAdmin, r.permissions])).toEqual([
        ['kate', null, 'kate', false, []],
        ['leo', null, null, true, []],
      ]);
      const kate = await gql(VIEWER, await hs({}, { sub: 'kate' }));
      expect(kate.data!.viewer).toEqual({
        isAdmin: false,
        permissions: [],
        user: { id: userGid(legacy!.id), name: 'kate' },
      });
      expect((await db.prisma.user.findUniqueOrThrow({ where: { id: legacy!.id } })).jwtIssuer).toBe('');
      const leoByToken = await gql(VIEWER, await hs({}, { sub: 'leo' }));
      expect(leoByToken.data!.viewer.user!.id).not.toBe(userGid(keyed!.id));
      expect((await gql(VIEWER, 'csk_leo-key')).data!.viewer).toEqual({
        isAdmin: true,
        permissions: [],
        user: { id: userGid(keyed!.id), name: 'leo' },
      });
      await app.close();
    } finally {
      await rm(tmp, { recursive: true, force: true });
      await drop();
    }
  }, 240_000);
});
