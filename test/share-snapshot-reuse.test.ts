/**
 * A snapshot share link after a history cut (revert, undo, edit): the cut reuses sequence numbers and display
 * indexes, so messages and published files saved after the link was taken must still stay out of it.
 */
import { promises as fs } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ShareSnapshotReuseLiveDocument,
  ShareSnapshotReuseRevertDocument,
  ShareSnapshotReuseShareDocument,
  ShareSnapshotReuseSharedDocument,
  type ShareSnapshotReuseSharedQuery,
} from './generated/graphql.js';
import { createTestServer, dbKind, type GqlResult, type ServerContext } from './support/harness.js';
import { newSession, rawId, upload } from './support/uploads.js';

let t: ServerContext;
let filesDir: string;
let alice: string;

beforeAll(async () => {
  filesDir = `/tmp/chat-test-snapshot-reuse-${process.pid}-${Date.now()}`;
  t = await createTestServer({ authEnabled: true, titleGenerationEnabled: false, sessionFilesDir: filesDir });
  alice = (await t.app.auth.createUser('alice')).key;
}, 120_000);
afterAll(async () => {
  await t.close();
  await fs.rm(filesDir, { recursive: true, force: true });
});

const SHARE = ShareSnapshotReuseShareDocument;
const LIVE = ShareSnapshotReuseLiveDocument;
const SHARED = ShareSnapshotReuseSharedDocument;
const REVERT = ShareSnapshotReuseRevertDocument;

const contentsOf = (r: GqlResult<ShareSnapshotReuseSharedQuery>) =>
  r.data!.sharedSession!.history.edges.map((e) => e.node.content);

describe(`snapshot after a history cut (${dbKind})`, () => {
  it('shows neither messages nor files saved after the snapshot, though they reuse its sequence numbers', async () => {
    const id = await newSession(t, alice);
    await t.app.store.append(rawId(id), [
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: 'a2' },
    ]);
    const token = (await t.http(SHARE, { id }, alice)).data!.shareSession.token;
    expect(contentsOf(await t.http(SHARED, { token }))).toEqual(['q1', 'a1', 'q2', 'a2']);
    const r = await t.http(REVERT, { id, s: 0 }, alice);
    expect(r.errors).toBeUndefined();
    const up = await upload(t, id, [{ name: 'secret.txt', bytes: 'SECRET FILE' }], alice);
    expect(up.status).toBe(200);
    await t.app.store.append(rawId(id), [
      { role: 'user', content: 'SECRET written after the snapshot' },
      {
        role: 'tool',
        name: 'content_publish',
        content: JSON.stringify({ filename: 'secret.txt' }),
        metadata: { card: { filename: 'secret.txt' } },
      },
    ]);
    // the owner sees the new history; the snapshot still shows what was there when it was taken (minus the cut)
    expect(contentsOf(await t.http(SHARED, { token }))).toEqual(['q1']);
    const file = await fetch(`${t.url}/shared/files/secret.txt`, { headers: { 'x-share-token': token } });
    expect(file.status).toBe(404);
    // a live link of the same session shows the new message and serves the file
    const live = (await t.http(LIVE, { id }, alice)).data!.shareSession.token;
    expect(contentsOf(await t.http(SHARED, { token: live }))).toContain('SECRET written after the snapshot');
    const liveFile = await fetch(`${t.url}/shared/files/secret.txt`, { headers: { 'x-share-token': live } });
    expect(liveFile.status).toBe(200);
  });
});
