/**
 * Issue 19, item 3: share lifecycle. `revokeShare` stops a link at once (the
 * shared query and its share-scoped files), the next shareSession issues a new
 * token; `expiresAt` makes a link answer like a revoked one once past;
 * `snapshot: true` links show the history as it was when shared.
 */
import { promises as fs } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ShareLifecycleOwnerDocument,
  ShareLifecycleRenameAfterDocument,
  ShareLifecycleRenameBeforeDocument,
  ShareLifecycleRevokeDocument,
  ShareLifecycleShareClearDocument,
  ShareLifecycleShareDocument,
  ShareLifecycleSharedDocument,
  type ShareLifecycleSharedQuery,
} from './generated/graphql.js';
import { codeOf, createTestServer, dbKind, eventually, type GqlResult, type ServerContext } from './support/harness.js';
import { newSession, rawId, upload } from './support/uploads.js';

let t: ServerContext;
let filesDir: string;
let alice: string, bob: string, reader: string, admin: string;

beforeAll(async () => {
  filesDir = `/tmp/chat-test-share-lifecycle-${process.pid}-${Date.now()}`;
  t = await createTestServer({ authEnabled: true, titleGenerationEnabled: false, sessionFilesDir: filesDir });
  alice = (await t.app.auth.createUser('alice')).key;
  bob = (await t.app.auth.createUser('bob')).key;
  reader = (await t.app.auth.createUser('reader', { permissions: ['sessions.read_all'] })).key;
  admin = (await t.app.auth.createUser('root', { admin: true })).key;
}, 120_000);
afterAll(async () => {
  await t.close();
  await fs.rm(filesDir, { recursive: true, force: true });
});

const SHARE = ShareLifecycleShareDocument;
const SHARE_CLEAR = ShareLifecycleShareClearDocument;
const REVOKE = ShareLifecycleRevokeDocument;
const SHARED = ShareLifecycleSharedDocument;
const OWNER = ShareLifecycleOwnerDocument;

const fetchShared = (name: string, token: string) =>
  fetch(`${t.url}/shared/files/${encodeURIComponent(name)}`, { headers: { 'x-share-token': token } });

/** A session of alice with two messages and a published file `card.txt`. */
async function publishedSession() {
  const id = await newSession(t, alice);
  await t.http(ShareLifecycleRenameBeforeDocument, { id }, alice);
  const up = await upload(t, id, [{ name: 'card.txt', bytes: 'published bytes' }], alice);
  expect(up.status).toBe(200);
  await t.app.store.append(rawId(id), [
    { role: 'user', content: 'first question' },
    {
      role: 'tool',
      name: 'content_publish',
      content: JSON.stringify({ filename: 'card.txt' }),
      metadata: { card: { filename: 'card.txt' } },
    },
  ]);
  return id;
}

const contents = (r: GqlResult<ShareLifecycleSharedQuery>) =>
  r.data!.sharedSession!.history.edges.map((e) => e.node.content);

describe(`share lifecycle (${dbKind})`, () => {
  it('revokeShare stops the link and its files at once; the next shareSession issues a new token', async () => {
    const id = await publishedSession();
    const first = await t.http(SHARE, { id }, alice);
    expect(first.errors).toBeUndefined();
    const token = first.data!.shareSession.token;
    expect(first.data!.shareSession).toMatchObject({ snapshot: false, expiresAt: null });
    expect((await t.http(SHARED, { token })).data!.sharedSession).not.toBeNull();
    expect((await fetchShared('card.txt', token)).status).toBe(200);

    const revoked = await t.http(REVOKE, { id }, alice);
    expect(revoked.errors).toBeUndefined();
    expect(revoked.data!.revokeShare.revokedCount).toBe(1);
    // at once: the query answers like an unknown token, the file URL 404s, the owner sees no link
    expect((await t.http(SHARED, { token })).data!.sharedSession).toBeNull();
    expect((await fetchShared('card.txt', token)).status).toBe(404);
    const owner = await t.http(OWNER, { id }, alice);
    expect(owner.data!.session).toEqual({ shareUrl: null, share: null, shareLinks: [] });
    // revoking again is harmless
    expect((await t.http(REVOKE, { id }, alice)).data!.revokeShare.revokedCount).toBe(0);

    const again = await t.http(SHARE, { id }, alice);
    const fresh = again.data!.shareSession.token;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(token);
    expect((await t.http(SHARED, { token: fresh })).data!.sharedSession!.name).toBe('Before');
    expect((await fetchShared('card.txt', fresh)).status).toBe(200);
    expect((await t.http(SHARED, { token })).data!.sharedSession).toBeNull();
  });

  it('revoke: another user NOT_FOUND, read_all FORBIDDEN, an admin may; refusals change nothing', async () => {
    const id = await publishedSession();
    const token = (await t.http(SHARE, { id }, alice)).data!.shareSession.token;
    expect(codeOf(await t.http(REVOKE, { id }, bob))).toBe('NOT_FOUND');
    expect(codeOf(await t.http(REVOKE, { id }, reader))).toBe('FORBIDDEN');
    expect(codeOf(await t.http(REVOKE, { id }))).toBe('UNAUTHENTICATED');
    expect((await t.http(SHARED, { token })).data!.sharedSession).not.toBeNull();
    // bob cannot see the link state either
    expect((await t.http(OWNER, { id }, reader)).data!.session).toEqual({
      shareUrl: null,
      share: null,
      shareLinks: [],
    });
    expect((await t.http(REVOKE, { id }, admin)).data!.revokeShare.revokedCount).toBe(1);
    expect((await t.http(SHARED, { token })).data!.sharedSession).toBeNull();
  });

  it('refuses an expiresAt in the past (BAD_USER_INPUT) and writes nothing', async () => {
    const id = await publishedSession();
    const past = new Date(Date.now() - 60_000).toISOString();
    const r = await t.http(SHARE, { id, expiresAt: past }, alice);
    expect(codeOf(r)).toBe('BAD_USER_INPUT');
    const snap = await t.http(SHARE, { id, expiresAt: past, snapshot: true }, alice);
    expect(codeOf(snap)).toBe('BAD_USER_INPUT');
    expect(await t.app.db.prisma.sessionShare.count({ where: { sessionId: rawId(id) } })).toBe(0);
    expect(await t.app.db.prisma.sessionShareSnapshot.count({ where: { sessionId: rawId(id) } })).toBe(0);
  });

  it('a link past its expiry answers like a revoked one; a repeat call sets, keeps or clears the expiry', async () => {
    const id = await publishedSession();
    const later = new Date(Date.now() + 86_400_000);
    const first = (await t.http(SHARE, { id, expiresAt: later.toISOString() }, alice)).data!.shareSession;
    expect(first.expiresAt).toBe(later.toISOString());
    // repeat without expiresAt: same token, same expiry; with another: same token, new expiry; null: no expiry
    const same = (await t.http(SHARE, { id }, alice)).data!.shareSession;
    expect(same).toMatchObject({ token: first.token, expiresAt: later.toISOString() });
    const other = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const moved = (await t.http(SHARE, { id, expiresAt: other }, alice)).data!.shareSession;
    expect(moved).toMatchObject({ token: first.token, expiresAt: other });
    expect((await t.http(SHARE_CLEAR, { id }, alice)).data!.shareSession).toEqual({
      token: first.token,
      expiresAt: null,
    });

    // The expiry passes (set in the database): the query, the files and the owner's view all follow.
    await t.app.db.prisma.sessionShare.update({
      where: { sessionId: rawId(id) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await t.http(SHARED, { token: first.token })).data!.sharedSession).toBeNull();
    expect((await fetchShared('card.txt', first.token)).status).toBe(404);
    const owner = (await t.http(OWNER, { id }, alice)).data!.session!;
    expect(owner.shareUrl).toBeNull();
    expect(owner.share).toMatchObject({ token: first.token, expired: true, snapshot: false });
    // the next call issues a new token; the expired one never comes back
    const fresh = (await t.http(SHARE, { id }, alice)).data!.shareSession;
    expect(fresh.token).not.toBe(first.token);
    expect(fresh.expiresAt).toBeNull();
    expect((await t.http(SHARED, { token: fresh.token })).data!.sharedSession).not.toBeNull();
    expect((await t.http(SHARED, { token: first.token })).data!.sharedSession).toBeNull();
  });

  it('a link with a short expiry stops resolving on its own', async () => {
    const id = await publishedSession();
    const soon = new Date(Date.now() + 1500).toISOString();
    const { token } = (await t.http(SHARE, { id, expiresAt: soon }, alice)).data!.shareSession;
    expect((await t.http(SHARED, { token })).data!.sharedSession).not.toBeNull();
    await eventually(
      () => t.http(SHARED, { token }),
      (r) => r.data?.sharedSession === null,
      30_000,
    );
    expect((await fetchShared('card.txt', token)).status).toBe(404);
  });

  it('a snapshot link hides messages saved and renames made after sharing; each call is a new link', async () => {
    const id = await publishedSession();
    const liveToken = (await t.http(SHARE, { id }, alice)).data!.shareSession.token;
    const snap = (await t.http(SHARE, { id, snapshot: true }, alice)).data!.shareSession;
    expect(snap.snapshot).toBe(true);
    expect(snap.token).not.toBe(liveToken);
    const before = (await t.http(SHARED, { token: snap.token })).data!.sharedSession!;

    await t.http(ShareLifecycleRenameAfterDocument, { id }, alice);
    await upload(t, id, [{ name: 'later.txt', bytes: 'later bytes' }], alice);
    await t.app.store.append(rawId(id), [
      { role: 'user', content: 'saved after sharing' },
      {
        role: 'tool',
        name: 'content_publish',
        content: JSON.stringify({ filename: 'later.txt' }),
        metadata: { card: { filename: 'later.txt' } },
      },
    ]);

    const frozen = await t.http(SHARED, { token: snap.token });
    expect(frozen.errors).toBeUndefined();
    expect(frozen.data!.sharedSession!.name).toBe('Before');
    expect(frozen.data!.sharedSession!.snapshot).toBe(true);
    expect(frozen.data!.sharedSession!.lastActive).toBe(before.lastActive);
    expect(contents(frozen)).toEqual(['first question', JSON.stringify({ filename: 'card.txt' })]);
    expect((await fetchShared('card.txt', snap.token)).status).toBe(200);
    expect((await fetchShared('later.txt', snap.token)).status).toBe(404);

    // the live link follows the session
    const live = await t.http(SHARED, { token: liveToken });
    expect(live.data!.sharedSession!.name).toBe('After');
    expect(live.data!.sharedSession!.snapshot).toBe(false);
    expect(contents(live)).toContain('saved after sharing');
    expect((await fetchShared('later.txt', liveToken)).status).toBe(200);

    // another snapshot is another link, and sees the new state
    const snap2 = (await t.http(SHARE, { id, snapshot: true }, alice)).data!.shareSession;
    expect(snap2.token).not.toBe(snap.token);
    expect(contents(await t.http(SHARED, { token: snap2.token }))).toContain('saved after sharing');
    const links = (await t.http(OWNER, { id }, alice)).data!.session!.shareLinks;
    expect(links.map((l) => [l.token, l.snapshot])).toEqual([
      [liveToken, false],
      [snap2.token, true],
      [snap.token, true],
    ]);

    // revoking one token leaves the others; revoking without a token ends them all
    expect((await t.http(REVOKE, { id, token: snap.token }, alice)).data!.revokeShare.revokedCount).toBe(1);
    expect((await t.http(SHARED, { token: snap.token })).data!.sharedSession).toBeNull();
    expect((await t.http(SHARED, { token: snap2.token })).data!.sharedSession).not.toBeNull();
    expect((await t.http(REVOKE, { id }, alice)).data!.revokeShare.revokedCount).toBe(2);
    for (const token of [liveToken, snap2.token]) {
      expect((await t.http(SHARED, { token })).data!.sharedSession).toBeNull();
    }
  });

  it("a token of another session is not revoked through this one's id", async () => {
    const a = await publishedSession();
    const b = await publishedSession();
    const tb = (await t.http(SHARE, { id: b }, alice)).data!.shareSession.token;
    expect((await t.http(REVOKE, { id: a, token: tb }, alice)).data!.revokeShare.revokedCount).toBe(0);
    expect((await t.http(SHARED, { token: tb })).data!.sharedSession).not.toBeNull();
  });
});
