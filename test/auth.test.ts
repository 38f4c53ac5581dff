import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/server.js';
import {
  AuthAllSessionIdsDocument,
  AuthDeleteSessionDocument,
  AuthRenameHijackDocument,
  AuthRenameToXDocument,
  AuthSessionContextDocument,
  AuthSessionsTotalDocument,
  AuthUpsertProfileBadKeyDocument,
  AuthUpsertProfileP1Document,
  AuthViewerIsAdminDocument,
  AuthCreateEmptySessionDocument,
  AuthCreateOwnedSessionDocument,
  AuthRenameSessionByAdminDocument,
  AuthSessionAndNodeDocument,
  AuthSessionNameDocument,
  AuthViewerSelfDocument,
  AuthViewerUserDocument,
  AuthVisibleSessionIdsDocument,
} from './generated/graphql.js';
import { codeOf, createTestApp, dbKind, testConfig, type TestContext } from './support/harness.js';
import { createApp } from '../src/app.js';

const SECRET = 'test-secret-that-is-long-enough-for-hs256';
let t: TestContext;
let alice: string;
let bob: string;
let admin: string;
let reader: string;

beforeAll(async () => {
  t = await createTestApp({ authEnabled: true, jwtSecret: SECRET });
  alice = (await t.app.auth.createUser('alice')).key;
  bob = (await t.app.auth.createUser('bob')).key;
  admin = (await t.app.auth.createUser('root', { admin: true })).key;
  reader = (await t.app.auth.createUser('auditor', { permissions: ['sessions.read_all'] })).key;
});
afterAll(() => t.close());

const create = async (token: string, name: string) =>
  (await t.gql(AuthCreateOwnedSessionDocument, { n: name }, token)).data!.createSession;

describe(`auth (${dbKind})`, () => {
  it('stores API keys hashed, never in clear', async () => {
    const keys = await t.app.db.prisma.apiKey.findMany();
    expect(keys.length).toBeGreaterThanOrEqual(4);
    for (const k of keys) {
      expect(k.keyHash).toMatch(/^[0-9a-f]{64}$/);
      expect([alice, bob, admin, reader]).not.toContain(k.keyHash);
    }
  });

  it('requires credentials and rejects wrong ones', async () => {
    expect(codeOf(await t.gql(AuthSessionsTotalDocument, {}))).toBe('UNAUTHENTICATED');
    expect(codeOf(await t.gql(AuthSessionsTotalDocument, {}, 'csk_wrong'))).toBe('UNAUTHENTICATED');
    expect(codeOf(await t.gql(AuthViewerIsAdminDocument, {}, 'not-a-jwt'))).toBe('UNAUTHENTICATED');
    const ok = await t.gql(AuthViewerSelfDocument, {}, alice);
    expect(ok.data!.viewer).toEqual({ isAdmin: false, authEnabled: true, user: { name: 'alice' } });
  });

  it("hides other users' sessions exactly like missing ones, and writes nothing for them", async () => {
    const mine = await create(alice, 'alice private');
    expect(mine.owner!.name).toBe('alice');
    const missing = Buffer.from('Session:00000000-0000-4000-8000-000000000000').toString('base64');
    const asBob = await t.gql(AuthSessionAndNodeDocument, { id: mine.id }, bob);
    expect(asBob.data).toEqual({ session: null, node: null });
    const renameForeign = await t.gql(AuthRenameToXDocument, { id: mine.id }, bob);
    const renameMissing = await t.gql(AuthRenameToXDocument, { id: missing }, bob);
    expect(renameForeign.errors?.[0]).toEqual(renameMissing.errors?.[0]);
    expect(codeOf(renameForeign)).toBe('NOT_FOUND');
    const del = await t.gql(AuthDeleteSessionDocument, { id: mine.id }, bob);
    expect(codeOf(del)).toBe('NOT_FOUND');
    const still = await t.gql(AuthSessionNameDocument, { id: mine.id }, alice);
    expect(still.data!.session!.name).toBe('alice private');
    const bobsList = await t.gql(AuthVisibleSessionIdsDocument, {}, bob);
    expect(bobsList.data!.sessions.edges.map((e) => e.node.id)).not.toContain(mine.id);
  });

  it('admins see every session; read_all reads others but cannot change them', async () => {
    const mine = await create(alice, 'for admin');
    const adminList = await t.gql(AuthAllSessionIdsDocument, {}, admin);
    expect(adminList.data!.sessions.edges.map((e) => e.node.id)).toContain(mine.id);
    const read = await t.gql(AuthSessionNameDocument, { id: mine.id }, reader);
    expect(read.data!.session!.name).toBe('for admin');
    const write = await t.gql(AuthRenameHijackDocument, { id: mine.id }, reader);
    expect(codeOf(write)).toBe('NOT_FOUND');
    const ctx = await t.gql(AuthSessionContextDocument, { id: mine.id }, reader);
    expect(codeOf(ctx)).toBe('FORBIDDEN');
    const adminRename = await t.gql(AuthRenameSessionByAdminDocument, { id: mine.id }, admin);
    expect(adminRename.data!.renameSession.name).toBe('by admin');
  });

  it('read_all reads planningLogs (the plans its history shows anyway); others see no session', async () => {
    const mine = await create(alice, 'planned');
    const uuid = Buffer.from(mine.id, 'base64').toString().split(':')[1]!;
    const [plan] = await t.app.store.append(uuid, [
      { role: 'assistant', content: '1. look\n2. answer', isPlan: true, isContext: false },
    ]);
    await t.app.store.appendPlanningLog(uuid, {
      turnId: 'turn-1',
      at: '2026-01-01T00:00:00.000Z',
      output: plan!.content,
      sequenceNumber: plan!.sequenceNumber,
    });
    const query =
      'query ($id: ID!) { session(id: $id) { planningLogs history(first: 10) { edges { node { content isPlan } } } } }';
    type Planned = {
      session: { planningLogs: { output: string }[]; history: { edges: { node: { content: string } }[] } } | null;
    };
    const asReader = (await t.gql(query, { id: mine.id }, reader)) as { data?: Planned; errors?: unknown };
    expect(asReader.errors).toBeUndefined();
    const logs = asReader.data!.session!.planningLogs;
    expect(logs.map((l) => l.output)).toEqual(['1. look\n2. answer']);
    // Nothing beyond what `read` shows: every logged plan is a message of the history the reader reads.
    const shown = asReader.data!.session!.history.edges.map((e) => e.node.content);
    for (const log of logs) expect(shown).toContain(log.output);
    const asBob = (await t.gql(query, { id: mine.id }, bob)) as { data?: Planned };
    expect(asBob.data?.session ?? null).toBeNull();
  });

  it('legacy sessions without an owner are admin-only', async () => {
    const profile = await t.app.profiles.default();
    const legacy = await t.app.store.create({ profileId: profile.id, userId: null, name: 'legacy' });
    const id = Buffer.from(`Session:${legacy.id}`).toString('base64');
    expect((await t.gql(AuthSessionNameDocument, { id }, alice)).data!.session).toBeNull();
    expect((await t.gql(AuthSessionNameDocument, { id }, reader)).data!.session).toBeNull();
    expect((await t.gql(AuthSessionNameDocument, { id }, admin)).data!.session!.name).toBe('legacy');
  });

  it('only admins upsert profiles', async () => {
    const q = AuthUpsertProfileP1Document;
    expect(codeOf(await t.gql(q, {}, alice))).toBe('FORBIDDEN');
    expect((await t.gql(q, {}, admin)).data!.upsertProfile.key).toBe('p1');
    const bad = await t.gql(AuthUpsertProfileBadKeyDocument, {}, admin);
    expect(codeOf(bad)).toBe('BAD_USER_INPUT');
  });

  it('accepts HS256 JWTs and creates their user on first sight', async () => {
    const jwt = await new SignJWT({ permissions: [] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('carol')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(SECRET));
    const r = await t.gql(AuthViewerUserDocument, {}, jwt);
    expect(r.data!.viewer).toEqual({ user: { name: 'carol' }, isAdmin: false });
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('carol')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(SECRET));
    expect(codeOf(await t.gql(AuthViewerIsAdminDocument, {}, expired))).toBe('UNAUTHENTICATED');
    const forged = await new SignJWT({ admin: true })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('mallory')
      .sign(new TextEncoder().encode('another-secret-entirely-different'));
    expect(codeOf(await t.gql(AuthViewerIsAdminDocument, {}, forged))).toBe('UNAUTHENTICATED');
  });
});

// Three apps (and a fresh database) in one test: slow on a loaded machine.
describe('no-auth mode', { timeout: 300_000 }, () => {
  it('owns every session as anonymous and refuses a non-loopback address unless told to', async () => {
    const local = await createTestApp();
    try {
      const r = await local.gql(AuthCreateEmptySessionDocument, {});
      const id = Buffer.from(r.data!.createSession.id, 'base64').toString().split(':')[1];
      expect((await local.app.store.get(id!))!.userId).toBe('anonymous');
      const app = await createApp(testConfig({ host: '0.0.0.0' }), { db: local.app.db });
      await expect(startServer(app)).rejects.toThrow(/Refusing to listen on 0\.0\.0\.0 with auth disabled/);
      const allowed = await startServer(
        await createApp(testConfig({ host: '0.0.0.0', allowUnauthenticatedRemote: true }), { db: local.app.db }),
      );
      await allowed.close();
    } finally {
      await local.close();
    }
  });
});
