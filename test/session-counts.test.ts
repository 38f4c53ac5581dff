/**
 * The plain list's totalCount is the sum of the scope's rows in
 * session_count_deltas (triggers on `sessions` append them), so the list never
 * counts sessions. These tests hold that sum to `count(*)` of sessions after
 * every kind of write (create, delete, deleteSessions, fork, import, a change
 * of owner or profile, a raw multi-row DELETE), under concurrent creates,
 * deletes and compactions, for every list scope (the viewer, an admin, a
 * profile filter), and check that compaction folds the deltas without
 * changing the sum.
 */
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import type { Viewer } from '../src/domain/policy.js';
import type { Database } from '../src/db/client.js';
import { MIGRATIONS_DIR, migrate } from '../src/db/migrate.js';
import { COMPACT_DELTAS } from '../src/store/sessions.js';
import { ListCountPageCountedDocument } from './generated/graphql.js';
import { createTestDatabase, dbKind, gqlFor, type SendGql, testConfig } from './support/harness.js';
import { captureStatements, type StatementCapture } from './support/statements.js';

let app: App;
let db: Database;
let drop: () => Promise<void>;
let gql: SendGql;
let capture: StatementCapture;
let otherProfile: string;
const viewer = (userId: string, isAdmin = false): Viewer => ({
  userId,
  userName: null,
  isAdmin,
  permissions: [],
  authEnabled: false,
});
const local = viewer('anonymous');
const alice = viewer(`alice-${randomUUID()}`);
const admin = viewer('admin', true);

beforeAll(async () => {
  const opened = await createTestDatabase();
  drop = opened.drop;
  capture = captureStatements(opened.db);
  db = capture.db;
  app = await createApp(testConfig(), { db });
  gql = gqlFor(app);
  const base = await db.prisma.profile.findFirstOrThrow();
  otherProfile = (
    await db.prisma.profile.create({
      data: {
        key: `counts-${randomUUID()}`,
        name: 'other',
        model: base.model,
        contextWindow: base.contextWindow,
        compressionKeepRecent: base.compressionKeepRecent,
        compressionMaxTokens: base.compressionMaxTokens,
      },
    })
  ).id;
}, 180_000);
afterAll(async () => {
  await app?.close();
  await drop?.();
});

/** What the list answers for a scope, beside count(*) of the sessions in it. */
async function counts(who: Viewer, profileId?: string): Promise<{ listed: number | null; actual: number }> {
  const page = await app.store.listPage({
    viewer: who,
    profileId,
    orderBy: 'LAST_ACTIVE',
    direction: 'DESC',
    first: 1,
  });
  const params: unknown[] = [];
  const where = [who.isAdmin ? 'TRUE' : `user_id = $${params.push(who.userId)}`];
  if (profileId) where.push(`profile_id = $${params.push(profileId)}::uuid`);
  const rows = await db.raw.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM sessions WHERE ${where.join(' AND ')}`,
    params,
  );
  return { listed: page.totalCount, actual: rows[0]!.n };
}

async function expectExact() {
  for (const who of [local, alice, admin])
    for (const profileId of [undefined, otherProfile]) {
      const { listed, actual } = await counts(who, profileId);
      expect({ who: who.userId, profileId, n: listed }).toEqual({ who: who.userId, profileId, n: actual });
    }
}

const COUNT_MIGRATION = '20261203000100_session_count_deltas';
const deltaRows = async () =>
  (await db.raw.query<{ n: number }>('SELECT count(*)::int AS n FROM session_count_deltas'))[0]!.n;

describe(`the session list's count (${dbKind})`, () => {
  it('reads the deltas, never counts sessions, and answers the exact count', async () => {
    for (let i = 0; i < 3; i++) await app.sessions.create(local, { name: `local ${i}` });
    capture.capture();
    const result = await gql(ListCountPageCountedDocument, { q: null, first: 2 });
    const sql = capture.stop().map(([s]) => String(s));
    expect(result.errors).toBeUndefined();
    expect(result.data!.sessions.totalCount).toBe(3);
    expect(sql.filter((s) => /session_count_deltas/.test(s))).toHaveLength(1);
    expect(sql.filter((s) => /count\(\*\)[^()]*FROM sessions\b/.test(s))).toEqual([]);
    await expectExact();
  });

  it('stays exact through create, delete, deleteSessions, fork, import and a change of owner or profile', async () => {
    const mine = [];
    for (let i = 0; i < 4; i++) mine.push(await app.sessions.create(alice, { name: `a ${i}` }));
    const elsewhere = await app.sessions.create(alice, { name: 'other profile', profileId: otherProfile });
    await expectExact();

    await app.sessions.delete(alice, mine[0]!.id);
    await expectExact();

    const forked = await app.editing.fork(alice, mine[1]!.id);
    expect(forked.id).not.toBe(mine[1]!.id);
    await expectExact();

    const exported = await app.transfer.export(alice, mine[2]!, 'JSON');
    await app.transfer.import(alice, { data: exported, profileId: otherProfile });
    await expectExact();

    // Another owner, another profile, both at once, and a no-op update of the same columns.
    await db.raw.query('UPDATE sessions SET user_id = $1 WHERE id = $2::uuid', [local.userId, mine[3]!.id]);
    await expectExact();
    await db.raw.query('UPDATE sessions SET profile_id = $1::uuid WHERE id = $2::uuid', [otherProfile, mine[1]!.id]);
    await expectExact();
    await db.raw.query('UPDATE sessions SET user_id = $1, profile_id = $2::uuid WHERE id = $3::uuid', [
      alice.userId,
      (await db.prisma.profile.findFirstOrThrow({ where: { NOT: { id: otherProfile } } })).id,
      mine[3]!.id,
    ]);
    await db.raw.query('UPDATE sessions SET user_id = user_id, profile_id = profile_id WHERE id = $1::uuid', [
      elsewhere.id,
    ]);
    await expectExact();
    // An ownerless (legacy) session counts for the admin only.
    await db.raw.query('UPDATE sessions SET user_id = NULL WHERE id = $1::uuid', [elsewhere.id]);
    await expectExact();

    const deleted = await app.sessions.deleteMany(alice, {
      inactiveBefore: new Date(Date.now() + 86_400_000),
      includePinned: true,
    });
    expect(deleted.deletedIds.length).toBeGreaterThan(0);
    await expectExact();

    // One statement deleting many rows across owners and profiles.
    await db.raw.query("DELETE FROM sessions WHERE name LIKE 'local %'");
    await expectExact();
  });

  it('stays exact under concurrent creates, deletes and compactions', async () => {
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        app.sessions.create(i % 2 ? alice : local, { name: `c ${i}`, profileId: i % 3 ? null : otherProfile }),
      ),
    );
    await Promise.all([
      ...created.slice(0, 10).map((s, i) => app.sessions.delete(i % 2 ? alice : local, s.id)),
      ...Array.from({ length: 12 }, (_, i) =>
        app.sessions.create(i % 2 ? local : alice, { name: `d ${i}`, profileId: i % 4 ? otherProfile : null }),
      ),
      app.store.compactCounts({ viewer: admin }),
      app.store.compactCounts({ viewer: alice }),
      app.store.compactCounts({ viewer: local, profileId: otherProfile }),
      app.store.compactCounts({ viewer: admin }),
    ]);
    await expectExact();
  });

  it('a list reading over COMPACT_DELTAS rows folds them into one per (owner, profile), sum unchanged', async () => {
    const bob = viewer(`bob-${randomUUID()}`);
    const made = [];
    for (let i = 0; i <= COMPACT_DELTAS; i++) made.push(await app.sessions.create(bob, { name: `b ${i}` }));
    await app.sessions.delete(bob, made[0]!.id);
    const bobRows = async () =>
      (
        await db.raw.query<{ n: number }>('SELECT count(*)::int AS n FROM session_count_deltas WHERE owner = $1', [
          bob.userId,
        ])
      )[0]!.n;
    expect(await bobRows()).toBe(COMPACT_DELTAS + 2);
    const before = await deltaRows();
    expect(await counts(bob)).toEqual({ listed: COMPACT_DELTAS, actual: COMPACT_DELTAS });
    expect(await bobRows()).toBe(1);
    expect(await deltaRows()).toBe(before - COMPACT_DELTAS - 1);
    expect(await counts(bob)).toEqual({ listed: COMPACT_DELTAS, actual: COMPACT_DELTAS });
    // A scope whose sessions are all gone compacts to no row at all.
    await db.raw.query('DELETE FROM sessions WHERE user_id = $1', [bob.userId]);
    await app.store.compactCounts({ viewer: bob });
    expect(await bobRows()).toBe(0);
    expect(await counts(bob)).toEqual({ listed: 0, actual: 0 });
    await expectExact();
  });
});

describe(`the count migration (${dbKind})`, { timeout: 300_000 }, () => {
  it('backfills the deltas from the sessions already there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
    const { db: fresh, drop: dropFresh } = await createTestDatabase({ fresh: true });
    try {
      const names = (await readdir(MIGRATIONS_DIR)).filter((n) => /^\d+_/.test(n)).sort();
      const at = names.indexOf(COUNT_MIGRATION);
      expect(at).toBeGreaterThan(0);
      for (const name of names.slice(0, at)) await cp(join(MIGRATIONS_DIR, name), join(dir, name), { recursive: true });
      await migrate(fresh, dir);
      const profile = randomUUID();
      await fresh.raw.query(
        `INSERT INTO profiles (id, key, name, model, context_window, compression_keep_recent, compression_max_tokens)
         VALUES ($1::uuid, 'k', 'n', 'm', 4096, 4, 1000)`,
        [profile],
      );
      const owners = ['u1', 'u1', 'u1', 'u2', null];
      for (const owner of owners)
        await fresh.raw.query('INSERT INTO sessions (id, profile_id, user_id) VALUES ($1::uuid, $2::uuid, $3)', [
          randomUUID(),
          profile,
          owner,
        ]);
      await cp(join(MIGRATIONS_DIR, COUNT_MIGRATION), join(dir, COUNT_MIGRATION), { recursive: true });
      expect(await migrate(fresh, dir)).toEqual([COUNT_MIGRATION]);
      const sums = await fresh.raw.query<{ owned: boolean; owner: string; n: number }>(
        'SELECT owned, owner, sum(n)::int AS n FROM session_count_deltas GROUP BY 1, 2 ORDER BY 2',
      );
      expect(sums).toEqual([
        { owned: false, owner: '', n: 1 },
        { owned: true, owner: 'u1', n: 3 },
        { owned: true, owner: 'u2', n: 1 },
      ]);
    } finally {
      await dropFresh();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
