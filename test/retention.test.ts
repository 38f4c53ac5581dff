/**
 * Issue 19, item 5: retention (SESSION_RETENTION_DAYS, a profile's
 * retentionDays) deletes inactive sessions with everything deleteSession
 * removes, in bounded passes, one process at a time; deleteSessions is a
 * user's bulk delete of their own sessions.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../src/app.js';
import { openDatabase } from '../src/db/client.js';
import { STAGING_PREFIX } from '../src/domain/policy.js';
import {
  RetentionDeleteSessionsDocument,
  RetentionPinDocument,
  RetentionShareDocument,
  RetentionUpsertKeepForeverDocument,
  RetentionUpsertNegativeDocument,
  RetentionUpsertProfileDocument,
} from './generated/graphql.js';
import {
  codeOf,
  createTestDatabase,
  createTestServer,
  dbKind,
  serverUrl,
  type ServerContext,
  testConfig,
} from './support/harness.js';
import { newSession, rawId, upload } from './support/uploads.js';

const DAY = 86_400_000;
let t: ServerContext;
let filesDir: string;
let alice: string, bob: string, admin: string;
let aliceId: string, bobId: string;

beforeAll(async () => {
  filesDir = `/tmp/chat-test-retention-${process.pid}-${Date.now()}`;
  t = await createTestServer({
    authEnabled: true,
    titleGenerationEnabled: false,
    sessionFilesDir: filesDir,
    sessionRetentionDays: 30,
    sessionRetentionBatch: 100,
  });
  const a = await t.app.auth.createUser('alice');
  alice = a.key;
  aliceId = a.user.id;
  const b = await t.app.auth.createUser('bob');
  bob = b.key;
  bobId = b.user.id;
  admin = (await t.app.auth.createUser('root', { admin: true })).key;
  // The sweep at start has run (sweeps of one process queue behind each other).
  await t.app.sessions.sweepRetention();
}, 120_000);
afterAll(async () => {
  await t.close();
  await fs.rm(filesDir, { recursive: true, force: true });
});

const prisma = () => t.app.db.prisma;
const ago = (days: number) => new Date(Date.now() - days * DAY);
const setLastActive = (ids: string[], at: Date) =>
  prisma().session.updateMany({ where: { id: { in: ids } }, data: { lastActive: at } });
const exists = async (ids: string[]) =>
  (await prisma().session.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((s) => s.id);

/** `n` sessions straight in the database (one message each), owned by alice. */
async function bulkSessions(n: number, profileId?: string): Promise<string[]> {
  const profile = profileId ?? (await t.app.profiles.default()).id;
  const ids = Array.from({ length: n }, () => crypto.randomUUID());
  await prisma().session.createMany({ data: ids.map((id) => ({ id, profileId: profile, userId: aliceId })) });
  return ids;
}

async function profile(key: string, retentionDays: number | null) {
  const r = await t.http(
    RetentionUpsertProfileDocument,
    { input: { key, name: key, model: 'm', retentionDays } },
    admin,
  );
  expect(r.errors).toBeUndefined();
  return r.data!.upsertProfile;
}

describe(`retention (${dbKind})`, () => {
  it('removes sessions inactive past the retention with files, chunks and shares, in bounded passes', async () => {
    // An old session holding everything: a file on disk, a memory chunk, a share link.
    const full = await newSession(t, alice);
    const fullId = rawId(full);
    expect((await upload(t, full, [{ name: 'notes.txt', bytes: 'old notes' }], alice)).status).toBe(200);
    await t.app.store.append(fullId, [{ role: 'user', content: 'hello' }]);
    const chunk = { content: 'old chunk', contentHash: 'h1', turnStart: 0, turnEnd: 0, firstAt: ago(40) };
    await prisma().memoryChunk.create({ data: { ...chunk, sessionId: fullId, lastAt: ago(40) } });
    expect((await t.http(RetentionShareDocument, { id: full }, alice)).errors).toBeUndefined();
    const dir = path.join(filesDir, 'session_files', fullId);
    expect(existsSync(dir)).toBe(true);

    const old = await bulkSessions(250);
    const recent = await bulkSessions(2);
    const pinned = await bulkSessions(1);
    const running = await bulkSessions(1);
    await prisma().session.updateMany({ where: { id: { in: pinned } }, data: { pinned: true } });
    // a turn that stays active (its heartbeat never goes stale during the test)
    await prisma().turn.create({
      data: { sessionId: running[0]!, status: 'RUNNING', heartbeatAt: new Date(Date.now() + DAY) },
    });
    // a recall still to fire and a queued message still to run: the session has been promised more activity
    const promised = await bulkSessions(2);
    await prisma().pendingTurn.create({
      data: { sessionId: promised[0]!, dueAt: new Date(Date.now() + 100 * DAY), kind: 'RECALL', content: 'later' },
    });
    // claimed by a process whose lease outlives the test, so no dispatcher here takes it
    await prisma().pendingTurn.create({
      data: {
        kind: 'QUEUE',
        sessionId: promised[1]!,
        content: 'next',
        message: { role: 'user', content: 'next' },
        status: 'CLAIMED',
        claimedBy: 'elsewhere',
        claimedAt: new Date(Date.now() + DAY),
      },
    });
    await setLastActive([fullId, ...old, ...pinned, ...running, ...promised], ago(31));
    await setLastActive(recent, ago(29));

    const result = await t.app.sessions.sweepRetention();
    expect(result.deleted).toBe(251);
    for (const pass of result.passes) expect(pass).toBeLessThanOrEqual(100);
    expect(result.passes.length).toBeGreaterThanOrEqual(3);

    expect(await exists([fullId, ...old])).toEqual([]);
    expect((await exists([...recent, ...pinned, ...running, ...promised])).sort()).toEqual(
      [...recent, ...pinned, ...running, ...promised].sort(),
    );
    expect(existsSync(dir)).toBe(false);
    expect(await prisma().memoryChunk.count({ where: { sessionId: fullId } })).toBe(0);
    expect(await prisma().sessionShare.count({ where: { sessionId: fullId } })).toBe(0);
    expect(await prisma().sessionMessage.count({ where: { sessionId: fullId } })).toBe(0);
    // nothing left to do: the next sweep deletes nothing
    expect((await t.app.sessions.sweepRetention()).deleted).toBe(0);
  });

  it('leaves a session an import is still writing (its old last_active is the import’s to hand over)', async () => {
    const [staged, old] = await bulkSessions(2);
    await prisma().session.update({
      where: { id: staged! },
      data: { userId: `${STAGING_PREFIX}${Date.now()}:${crypto.randomUUID()}` },
    });
    await setLastActive([staged!, old!], ago(400));
    await t.app.sessions.sweepRetention();
    expect(await exists([staged!, old!])).toEqual([staged]);
    await prisma().session.delete({ where: { id: staged! } });
  });

  it("a profile's retentionDays overrides the global setting, both ways; null goes back to it", async () => {
    const short = await profile('short-retention', 5);
    const forever = await profile('keep-forever', 0);
    expect(short.retentionDays).toBe(5);
    expect(forever.retentionDays).toBe(0);
    const shortRaw = await prisma().profile.findUniqueOrThrow({ where: { key: 'short-retention' } });
    const foreverRaw = await prisma().profile.findUniqueOrThrow({ where: { key: 'keep-forever' } });
    const inShort = await bulkSessions(2, shortRaw.id);
    const inForever = await bulkSessions(2, foreverRaw.id);
    const inDefault = await bulkSessions(2);
    await setLastActive([inShort[0]!, inDefault[0]!], ago(10));
    await setLastActive([inShort[1]!, inDefault[1]!], ago(3));
    await setLastActive(inForever, ago(400));

    await t.app.sessions.sweepRetention();
    expect(await exists(inShort)).toEqual([inShort[1]]);
    expect((await exists(inForever)).sort()).toEqual([...inForever].sort());
    expect((await exists(inDefault)).sort()).toEqual([...inDefault].sort());

    // Upsert without the field keeps it; null returns the profile to SESSION_RETENTION_DAYS (30).
    const kept = await t.http(RetentionUpsertKeepForeverDocument, {}, admin);
    expect(kept.data!.upsertProfile.retentionDays).toBe(0);
    expect((await profile('keep-forever', null)).retentionDays).toBeNull();
    await t.app.sessions.sweepRetention();
    expect(await exists(inForever)).toEqual([]);

    const bad = await t.http(RetentionUpsertNegativeDocument, {}, admin);
    expect(codeOf(bad)).toBe('BAD_USER_INPUT');
  });

  it('two app instances on one database sweeping at once delete each session once and fail nothing', async () => {
    const { db, drop } = await createTestDatabase();
    const apps: App[] = [];
    let second: Awaited<ReturnType<typeof openDatabase>> | null = null;
    try {
      const config = testConfig({ sessionRetentionDays: 7, sessionRetentionBatch: 100 });
      apps.push(await createApp(config, { db }));
      if (serverUrl) {
        // A second pool on the same database: another process as far as PostgreSQL can tell.
        const [{ name }] = (await db.raw.query('SELECT current_database() AS name')) as [{ name: string }];
        const url = new URL(serverUrl);
        url.pathname = `/${name}`;
        second = await openDatabase({ url: url.toString(), poolSize: 5 });
        apps.push(await createApp(config, { db: second }));
      } else {
        // PGlite admits one process per data directory; two apps on it still must not collide.
        apps.push(await createApp(config, { db }));
      }
      const profileId = (await apps[0]!.profiles.default()).id;
      const ids = Array.from({ length: 250 }, () => crypto.randomUUID());
      await db.prisma.session.createMany({
        data: ids.map((id) => ({ id, profileId, userId: 'u', lastActive: ago(8) })),
      });
      const results = await Promise.all([
        apps[0]!.sessions.sweepRetention(),
        apps[1]!.sessions.sweepRetention(),
        apps[0]!.sessions.retentionPass(),
        apps[1]!.sessions.retentionPass(),
      ]);
      const [a, b, c, d] = results as [
        { deleted: number; passes: number[] },
        { deleted: number; passes: number[] },
        { id: string }[] | null,
        { id: string }[] | null,
      ];
      for (const pass of [...a.passes, ...b.passes]) expect(pass).toBeLessThanOrEqual(100);
      const single = [...(c ?? []), ...(d ?? [])].map((r) => r.id);
      expect(single.length).toBeLessThanOrEqual(200);
      expect(new Set(single).size).toBe(single.length);
      // every session deleted exactly once across all of them, and none is left
      const leftover = await db.prisma.session.count({ where: { id: { in: ids } } });
      const rest = leftover > 0 ? (await apps[0]!.sessions.sweepRetention()).deleted : 0;
      expect(a.deleted + b.deleted + single.length + rest).toBe(250);
      expect(await db.prisma.session.count({ where: { id: { in: ids } } })).toBe(0);
    } finally {
      for (const app of apps) await app.close();
      await second?.close();
      await drop();
    }
  }, 120_000);
});

const DELETE = RetentionDeleteSessionsDocument;

describe(`deleteSessions (${dbKind})`, () => {
  it('needs a criterion and deletes only the viewer’s own sessions, even for an admin', async () => {
    expect(codeOf(await t.http(DELETE, { filter: {} }, alice))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.http(DELETE, { filter: { includePinned: true } }, alice))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.http(DELETE, { filter: { ids: [] } }, alice))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.http(DELETE, { filter: { ids: ['nope'] } }, alice))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.http(DELETE, { filter: { inactiveBefore: new Date().toISOString() } }))).toBe(
      'UNAUTHENTICATED',
    );

    const mine = [await newSession(t, alice), await newSession(t, alice)];
    const bobs = await newSession(t, bob);
    const roots = await newSession(t, admin);
    await upload(t, mine[0]!, [{ name: 'a.txt', bytes: 'a' }], alice);
    const dir = path.join(filesDir, 'session_files', rawId(mine[0]!));
    expect(existsSync(dir)).toBe(true);

    // bob's id in alice's list matches nothing of hers
    const r = await t.http(DELETE, { filter: { ids: [...mine, bobs] } }, alice);
    expect(r.errors).toBeUndefined();
    expect(r.data!.deleteSessions.deletedCount).toBe(2);
    expect(r.data!.deleteSessions.deletedSessionIds.sort()).toEqual([...mine].sort());
    expect(r.data!.deleteSessions.hasMore).toBe(false);
    expect(await exists(mine.map(rawId))).toEqual([]);
    expect(existsSync(dir)).toBe(false);
    expect(await exists([rawId(bobs)])).toEqual([rawId(bobs)]);

    // an admin's bulk delete takes only the admin's own sessions
    const future = new Date(Date.now() + DAY).toISOString();
    const byAdmin = await t.http(DELETE, { filter: { inactiveBefore: future } }, admin);
    expect(byAdmin.data!.deleteSessions.deletedSessionIds).toEqual([roots]);
    expect(await exists([rawId(bobs)])).toEqual([rawId(bobs)]);
  });

  it('filters by inactiveBefore and profileId, keeps pinned ones unless includePinned, and is bounded', async () => {
    const p = await profile('bulk-profile', null);
    const old = [await newSession(t, bob), await newSession(t, bob)];
    const fresh = await newSession(t, bob);
    const pinned = await newSession(t, bob);
    const inProfile = await newSession(t, bob, p.id);
    await t.http(RetentionPinDocument, { id: pinned }, bob);
    await setLastActive([...old, pinned].map(rawId), ago(20));

    const byProfile = await t.http(DELETE, { filter: { profileId: p.id } }, bob);
    expect(byProfile.data!.deleteSessions.deletedSessionIds).toEqual([inProfile]);

    const before = ago(10).toISOString();
    const r = await t.http(DELETE, { filter: { inactiveBefore: before } }, bob);
    expect(r.data!.deleteSessions.deletedSessionIds.sort()).toEqual([...old].sort());
    expect(await exists([rawId(fresh), rawId(pinned)])).toHaveLength(2);
    const withPinned = await t.http(DELETE, { filter: { inactiveBefore: before, includePinned: true } }, bob);
    expect(withPinned.data!.deleteSessions.deletedSessionIds).toEqual([pinned]);

    // at most MAX_PAGE_SIZE per call; hasMore says to call again
    const many = await t.http(DELETE, { filter: { ids: Array.from({ length: 201 }, () => fresh) } }, bob);
    expect(codeOf(many)).toBe('BAD_USER_INPUT');
    const profileId = (await t.app.profiles.default()).id;
    const bulk = Array.from({ length: 205 }, () => crypto.randomUUID());
    await prisma().session.createMany({ data: bulk.map((id) => ({ id, profileId, userId: bobId })) });
    await setLastActive(bulk, ago(15));
    const first = await t.http(DELETE, { filter: { inactiveBefore: before } }, bob);
    expect(first.data!.deleteSessions).toMatchObject({ deletedCount: 200, hasMore: true });
    const second = await t.http(DELETE, { filter: { inactiveBefore: before } }, bob);
    expect(second.data!.deleteSessions).toMatchObject({ deletedCount: 5, hasMore: false });
    expect(await exists([rawId(fresh)])).toEqual([rawId(fresh)]);
  });
});
