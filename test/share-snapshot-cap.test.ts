/**
 * Issue 31 item 3 (snapshots): at most MAX_SNAPSHOT_LINKS snapshot links per session, enforced by the database
 * (migration 20261205000200_snapshot_cap), so parallel shareSession(snapshot: true) calls over real HTTP cannot
 * pass it: the calls over the cap answer BAD_USER_INPUT and write nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SNAPSHOT_LINKS } from '../src/sessions/share.js';
import { ShareSnapshotCapLinksDocument, ShareSnapshotCapShareDocument } from './generated/graphql.js';
import { codeOf, createTestServer, dbKind, type ServerContext } from './support/harness.js';
import { newSession, rawId } from './support/uploads.js';

let t: ServerContext;
let alice: string;

beforeAll(async () => {
  t = await createTestServer({ authEnabled: true, titleGenerationEnabled: false });
  alice = (await t.app.auth.createUser('alice')).key;
}, 120_000);
afterAll(() => t.close());

const SHARE = ShareSnapshotCapShareDocument;
const LINKS = ShareSnapshotCapLinksDocument;

/** A session of alice with one saved message, holding `count` snapshot links made through the API. */
async function sessionWithSnapshots(count: number) {
  const id = await newSession(t, alice);
  await t.app.store.append(rawId(id), [{ role: 'user', content: 'q' }]);
  for (let i = 0; i < count; i++) expect((await t.http(SHARE, { id }, alice)).errors).toBeUndefined();
  return id;
}

const rowsOf = (id: string) => t.app.db.prisma.sessionShareSnapshot.count({ where: { sessionId: rawId(id) } });

describe(`snapshot cap (${dbKind})`, () => {
  it('10 parallel snapshot calls at 95 links: 5 succeed, 5 answer BAD_USER_INPUT, the session holds 100', async () => {
    expect(MAX_SNAPSHOT_LINKS).toBe(100);
    const id = await sessionWithSnapshots(95);
    const results = await Promise.all(Array.from({ length: 10 }, () => t.http(SHARE, { id }, alice)));
    const ok = results.filter((r) => !r.errors);
    const refused = results.filter((r) => r.errors);
    expect(ok).toHaveLength(5);
    expect(ok.every((r) => r.data!.shareSession.snapshot)).toBe(true);
    expect(refused.map(codeOf)).toEqual(Array(5).fill('BAD_USER_INPUT'));
    expect(refused[0]!.errors![0]!.message).toMatch(/at most 100 snapshot links/);
    expect(await rowsOf(id)).toBe(100);
    const links = (await t.http(LINKS, { id }, alice)).data!.session!.shareLinks;
    expect(links.filter((l) => l.snapshot)).toHaveLength(100);
  }, 120_000);

  it('10 parallel snapshot calls at 99 links: one succeeds; a later call is refused and writes nothing', async () => {
    const id = await sessionWithSnapshots(99);
    const results = await Promise.all(Array.from({ length: 10 }, () => t.http(SHARE, { id }, alice)));
    expect(results.filter((r) => !r.errors)).toHaveLength(1);
    expect(results.filter((r) => r.errors).map(codeOf)).toEqual(Array(9).fill('BAD_USER_INPUT'));
    expect(await rowsOf(id)).toBe(100);
    expect(codeOf(await t.http(SHARE, { id }, alice))).toBe('BAD_USER_INPUT');
    expect(await rowsOf(id)).toBe(100);
  }, 120_000);

  it('the cap is the database’s: a direct insert past it is refused, other sessions are not affected', async () => {
    const full = await sessionWithSnapshots(0);
    const other = await sessionWithSnapshots(1);
    const row = (sessionId: string, i: number) => ({
      token: `cap-${sessionId}-${i}`,
      sessionId,
      name: null,
      lastActive: new Date(),
      displayCount: 1,
      nextSequence: 1,
    });
    await t.app.db.prisma.sessionShareSnapshot.createMany({
      data: Array.from({ length: 100 }, (_, i) => row(rawId(full), i)),
    });
    await expect(t.app.db.prisma.sessionShareSnapshot.create({ data: row(rawId(full), 100) })).rejects.toThrow(
      /session_share_snapshots_cap/,
    );
    expect(await rowsOf(full)).toBe(100);
    expect((await t.http(SHARE, { id: other }, alice)).errors).toBeUndefined();
    expect(await rowsOf(other)).toBe(2);
  }, 120_000);
});
