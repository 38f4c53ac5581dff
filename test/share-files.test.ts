/**
 * Issue 16 item 9: a share holder never learns the session id, the owner id or
 * the server's paths, and reaches the files the conversation published only
 * through the share-scoped `/shared/files/<name>` URL, while the link resolves.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShareRedactor } from '../src/domain/share-redaction.js';
import { shareRedactorFor } from '../src/sessions/share.js';
import {
  ShareFilesDeleteDocument,
  ShareFilesOwnerHistoryDocument,
  ShareFilesRenameDocument,
  ShareFilesShareDocument,
  ShareFilesSharedDocument,
} from './generated/graphql.js';
import { createTestServer, dbKind, type ServerContext } from './support/harness.js';
import { newSession, rawId, sendWithAttachments, upload } from './support/uploads.js';

let t: ServerContext;
let filesDir: string;
let alice: string;
let aliceId: string;

beforeAll(async () => {
  filesDir = `/tmp/chat-test-share-files-${process.pid}-${Date.now()}`;
  t = await createTestServer({ authEnabled: true, titleGenerationEnabled: false, sessionFilesDir: filesDir });
  const a = await t.app.auth.createUser('alice');
  alice = a.key;
  aliceId = a.user.id;
}, 120_000);
afterAll(async () => {
  await t.close();
  await fs.rm(filesDir, { recursive: true, force: true });
});

const SHARED = ShareFilesSharedDocument;
const STL =
  'solid cube\nfacet normal 0 0 1\nouter loop\nvertex 0 0 ' +
  '0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid cube\n';

const fetchShared = (name: string, token?: string, method = 'GET') =>
  fetch(`${t.url}/shared/files/${encodeURIComponent(name)}`, {
    method,
    headers: token ? { 'x-share-token': token } : {},
  });

describe(`share holders learn no ids or paths (${dbKind})`, () => {
  it('redacts session id, owner id and data-dir paths from everything, ' +
    'and serves published files share-scoped until the session goes', async () => {
    const id = await newSession(t, alice);
    const sid = rawId(id);
    const ownerGlobal = encodeGlobalID('User', aliceId);
    const absDir = path.join(filesDir, 'session_files', sid);
    await t.http(ShareFilesRenameDocument, { id, n: `Chat ${sid}` }, alice);
    await upload(
      t,
      id,
      [
        { name: 'model.stl', bytes: STL },
        { name: 'private notes.txt', bytes: 'not published' },
      ],
      alice,
    );
    t.fake.enqueue(
      {
        text: `Publishing ${absDir}/model.stl for ${aliceId}`,
        toolCalls: [
          { name: 'content_publish', arguments: { filename: `session_files/${sid}/model.stl` }, id: 'p1' },
          // image_view's error names the session directory in its result
          {
            name: 'image_view',
            arguments: { path: `session_files/${sid}/missing.png`, note: `${absDir} ${id} ${ownerGlobal}` },
            id: 'p2',
          },
        ],
      },
      {
        text:
          `Open /sessions/${sid}/files/model.stl or ` +
          `/sessions/${encodeURIComponent(id)}/files/model.stl (owner ${ownerGlobal}, dir ${filesDir}).`,
      },
    );
    const sent = await sendWithAttachments(
      t,
      { sessionId: id, content: `here is ${sid.toUpperCase()}` },
      { files: [{ name: 'spec.pdf', bytes: '%PDF-1.4\n%%EOF\n' }] },
      alice,
    );
    expect(sent.events.at(-1)?.__typename).toBe('TurnEnded');

    // The owner's own view keeps the real URLs (the test would prove nothing otherwise).
    const owner = await t.http(ShareFilesOwnerHistoryDocument, { id }, alice);
    expect(JSON.stringify(owner.data)).toContain(`/sessions/${sid}/files/model.stl`);
    expect(JSON.stringify(owner.data)).toContain(`session_files/${sid}/missing.png`);
    // The upload's path is part of the stored user message (owner view)…
    const stored = (await t.app.store.allMessages(sid)).find((m) => m.role === 'user' && m.files.length > 0)!;
    expect(stored.content).toBe(
      `here is ${sid.toUpperCase()}\n\n[Uploaded files on disk:\n- spec.pdf → session_files/${sid}/spec.pdf]`,
    );

    const { token } = (await t.http(ShareFilesShareDocument, { id }, alice)).data!.shareSession;
    const shared = await t.http(SHARED, { token });
    expect(shared.errors).toBeUndefined();
    const whole = JSON.stringify(shared).toLowerCase();
    for (const secret of [
      sid,
      id,
      encodeURIComponent(id),
      aliceId,
      ownerGlobal,
      filesDir,
      path.resolve(t.app.config.dataDir),
    ]) {
      expect(whole, secret).not.toContain(secret.toLowerCase());
    }
    expect(whole).not.toContain('/sessions/');
    // …and the holder gets the file name only.
    const userRow = shared.data!.sharedSession!.history.edges.map((e) => e.node).find((m) => m.role === 'USER')!;
    expect(userRow.content).toBe('here is [session]\n\n[Uploaded files:\n- spec.pdf]');
    const edges = shared.data!.sharedSession!.history.edges.map((e) => e.node);
    const card = edges.find((m) => m.role === 'TOOL' && m.name === 'content_publish');
    expect(JSON.parse(card!.content)).toMatchObject({
      url: '/shared/files/model.stl',
      filename: 'model.stl',
      kind: 'model',
    });
    expect(edges.find((m) => m.name === 'image_view')!.content).toBe(
      'Error: no file session_files/[session]/missing.png',
    );
    const calls = edges.flatMap((m) => m.toolCalls);
    expect(calls.find((c) => c.name === 'image_view')!.arguments).toEqual({
      path: 'session_files/[session]/missing.png',
      note: 'session_files/[session] [session] [owner]',
    });
    expect(edges.at(-1)!.content).toBe(
      'Open /shared/files/model.stl or /shared/files/model.stl (owner [owner], dir [data]).',
    );
    expect(shared.data!.sharedSession!.name).toBe('Chat [session]');

    // The share-scoped URL serves the published file to the token holder only.
    const file = await fetchShared('model.stl', token);
    expect(file.status).toBe(200);
    expect(file.headers.get('cache-control')).toBe('private, no-store');
    expect(await file.text()).toBe(STL);
    expect((await fetchShared('model.stl', token, 'HEAD')).status).toBe(200);
    expect((await fetchShared('model.stl')).status).toBe(404);
    expect((await fetchShared('model.stl', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).status).toBe(
      404,
    );
    // uploaded but never published, and not there at all: the same 404
    expect((await fetchShared('private notes.txt', token)).status).toBe(404);
    expect((await fetchShared('spec.pdf', token)).status).toBe(404);
    expect((await fetchShared('../model.stl', token)).status).toBe(404);
    // a name no file can have (NUL, a separator) is a 404 before any query, never a 500
    expect((await fetchShared('model\u0000.stl', token)).status).toBe(404);
    expect((await fetchShared('a\\b', token)).status).toBe(404);
    expect((await fetchShared('model.stl', token, 'POST')).status).toBe(405);

    // Deleting the session is the link's kill switch: the file URL stops with it.
    const deleted = await t.http(ShareFilesDeleteDocument, { id }, alice);
    expect(deleted.errors).toBeUndefined();
    expect((await fetchShared('model.stl', token)).status).toBe(404);
    expect((await t.http(SHARED, { token })).data!.sharedSession).toBeNull();
  }, 60_000);
});

describe('share redactor for a session', () => {
  it('removes the session id in the encodings an id travels in', () => {
    const sid = '0b6c3a52-1d7e-4c1b-9f5e-2d8a6b4c3e10';
    const redactor = shareRedactorFor({ id: sid, userId: 'user-7' }, ['/srv/data']);
    const gid = encodeGlobalID('Session', sid);
    const messageGid = encodeGlobalID('Message', `${sid}:3`);
    const stableMessageGid = encodeGlobalID('Message', `${sid}:7d1f0c2e-5b4a-4e3d-9c8b-1a2b3c4d5e6f`);
    const forms = [
      gid,
      gid.replace(/=+$/, ''),
      Buffer.from(`Session:${sid}`).toString('base64url'),
      messageGid,
      stableMessageGid,
      sid.replace(/-/g, ''),
      Buffer.from(sid).toString('base64'),
      encodeGlobalID('User', 'user-7'),
    ];
    const out = redactor.text(forms.join(' | '));
    for (const form of forms) expect(out).not.toContain(form);
    expect(out).not.toContain(sid.slice(0, 8));
  });
});

describe('share redactor', () => {
  const sid = '0b6c3a52-1d7e-4c1b-9f5e-2d8a6b4c3e10';
  const redactor = createShareRedactor({
    sessionId: sid,
    sessionAliases: [encodeGlobalID('Session', sid)],
    ownerIds: ['user-7'],
    localRoots: ['/srv/data/', '/'],
    filesDirName: 'session_files',
  });

  it('rewrites file URLs, session directories, roots and ids; leaves other text alone', () => {
    expect(
      redactor.text(`[a](/sessions/${sid}/files/a%20b.png) and "/sessions/${sid.toUpperCase()}/files/x.pdf"`),
    ).toBe('[a](/shared/files/a%20b.png) and "/shared/files/x.pdf"');
    expect(redactor.text(`/srv/data/session_files/${sid}/x.txt, session_files/${sid}/y.txt, /srv/data/db`)).toBe(
      'session_files/[session]/x.txt, session_files/[session]/y.txt, [data]/db',
    );
    expect(redactor.text(`id ${sid} owner user-7 gid ${encodeGlobalID('Session', sid)}`)).toBe(
      'id [session] owner [owner] gid [session]',
    );
    expect(redactor.text('/etc/passwd and /sessions/other/files/z')).toBe('/etc/passwd and /sessions/other/files/z');
    expect(redactor.json({ [sid]: [{ path: `session_files/${sid}/k` }, 3, null, true] })).toEqual({
      '[session]': [{ path: 'session_files/[session]/k' }, 3, null, true],
    });
  });
});
