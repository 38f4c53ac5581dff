/** Issue 6: pasted images end to end: numbering, dedupe, the exact notices, the budget, image_view, content_publish. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, createTestServer, dbKind, isEvent, type ServerContext } from './support/harness.js';
import { ollamaRequest } from './support/fake-provider.js';
import { ImagesHistoryDocument, ImagesUpsertBlindDocument, ImagesUpsertProfileDocument } from './generated/graphql.js';
import { GIF_1x1, JPEG_1x1, PNG_1x1, PNG_2x2 } from './fixtures/files/images.js';
import { newSession, rawId, sendWithAttachments, upload } from './support/uploads.js';

let t: ServerContext;
let filesDir: string;
let bigProfile: string;
let smallProfile: string;

beforeAll(async () => {
  filesDir = `/tmp/chat-test-images-${process.pid}-${Date.now()}`;
  // a fixed per-message view budget: the tiny window below must not cut the notice itself
  t = await createTestServer({
    titleGenerationEnabled: false,
    sessionFilesDir: filesDir,
    contextMessageTokenBudget: 4000,
  });
  const up = async (key: string, contextWindow: number) => {
    const r = await t.http(ImagesUpsertProfileDocument, { k: key, w: contextWindow });
    expect(r.errors).toBeUndefined();
    return r.data!.upsertProfile.id;
  };
  bigProfile = await up('vision-big', 32768);
  // 0.8 × 600 = 480 tokens minus a ~80-token context: one 256-token image fits, a second does not
  smallProfile = await up('vision-small', 600);
});
afterAll(async () => {
  await t.close();
  await fs.rm(filesDir, { recursive: true, force: true });
});

const dirOf = (id: string) => path.join(filesDir, 'session_files', rawId(id));
const entries = async (dir: string) => (await fs.readdir(dir).catch(() => [] as string[])).sort();
const img = (name: string, bytes: Buffer) => ({ name, bytes, type: 'image/png' });
const lastUser = () =>
  ollamaRequest(t.fake.requests.at(-1))
    .messages!.filter((m) => m.role === 'user')
    .at(-1)!;

describe(`pasted images (${dbKind})`, () => {
  it('numbers images across formats, keeps bytes exactly and sends the exact in-context notice', async () => {
    const id = await newSession(t, undefined, bigProfile);
    const sid = rawId(id);
    const first = await sendWithAttachments(
      t,
      { sessionId: id, content: 'what is this' },
      {
        images: [img('clip.bin', PNG_1x1), img('photo.png', JPEG_1x1)],
      },
    );
    expect(first.result.body.errors).toBeUndefined();
    expect(first.events.at(-1)?.__typename).toBe('TurnEnded');
    expect(await entries(dirOf(id))).toEqual(['image_1.png', 'image_2.jpg']);
    expect((await fs.readFile(path.join(dirOf(id), 'image_1.png'))).equals(PNG_1x1)).toBe(true);
    expect((await fs.readFile(path.join(dirOf(id), 'image_2.jpg'))).equals(JPEG_1x1)).toBe(true);
    const user = lastUser();
    expect(user.content).toBe(
      `what is this\n\n[2 images attached inline — already in your context, no extra loading needed.\n` +
        `On disk: session_files/${sid}/image_1.png, session_files/${sid}/image_2.jpg]`,
    );
    expect(user.images).toEqual([PNG_1x1.toString('base64'), JPEG_1x1.toString('base64')]);

    // a later GIF continues the numbering; the same PNG again reuses image_1.png
    await sendWithAttachments(
      t,
      { sessionId: id, content: 'and these' },
      { images: [img('a', GIF_1x1), img('b', PNG_1x1)] },
    );
    expect(await entries(dirOf(id))).toEqual(['image_1.png', 'image_2.jpg', 'image_3.gif']);
    expect(lastUser().content).toBe(
      `and these\n\n[2 images attached inline — already in your context, no extra loading needed.\n` +
        `On disk: session_files/${sid}/image_3.gif, session_files/${sid}/image_1.png]`,
    );
    // one image: singular wording
    await sendWithAttachments(t, { sessionId: id, content: 'one more' }, { images: [img('c', PNG_2x2)] });
    expect(lastUser().content).toBe(
      'one more\n\n[1 image attached inline — already in your context, no ' +
        `extra loading needed.\nOn disk: session_files/${sid}/image_4.png]`,
    );
    // the display copy stays the user's words
    const h = await t.http(ImagesHistoryDocument, { id });
    const users = h.data!.session!.history.edges.filter((e) => e.node.role === 'USER').map((e) => e.node);
    expect(users[0]).toEqual({
      role: 'USER',
      content: 'what is this',
      images: [`session_files/${sid}/image_1.png`, `session_files/${sid}/image_2.jpg`],
    });
  });

  it('images past the budget are not sent and the notice names them for image_view', async () => {
    const id = await newSession(t, undefined, smallProfile);
    const sid = rawId(id);
    const r = await sendWithAttachments(
      t,
      { sessionId: id, content: 'compare' },
      {
        images: [img('1', PNG_1x1), img('2', PNG_2x2), img('3', JPEG_1x1)],
      },
    );
    expect(r.events.at(-1)?.__typename).toBe('TurnEnded');
    const user = lastUser();
    expect(user.content).toBe(
      `compare\n\n[3 images attached inline — 1 are in your context, the rest were not loaded;\n` +
        `open them with image_view: session_files/${sid}/image_2.png, session_files/${sid}/image_3.jpg]`,
    );
    expect(user.images).toEqual([PNG_1x1.toString('base64')]);
  });

  it("image_view loads a stored image as a tool result; other sessions' paths are refused", async () => {
    const id = await newSession(t, undefined, bigProfile);
    const sid = rawId(id);
    await sendWithAttachments(t, { sessionId: id, content: 'two' }, { images: [img('1', PNG_1x1), img('2', PNG_2x2)] });
    t.fake.enqueue(
      { toolCalls: [{ name: 'image_view', arguments: { path: `session_files/${sid}/image_2.png` }, id: 'call_1' }] },
      { text: 'I see a blue square' },
    );
    const second = await sendWithAttachments(t, { sessionId: id, content: 'open the second one' }, {});
    expect(second.events.at(-1)?.__typename).toBe('TurnEnded');
    const tool = second.events.filter(isEvent('MessageSaved')).find((e) => e.message.role === 'TOOL')!;
    expect(tool.message.content).toBe(`Loaded session_files/${sid}/image_2.png (image/png, 2×2).`);
    expect(tool.message.metadata).toMatchObject({
      is_image: true,
      base64: PNG_2x2.toString('base64'),
      path: `session_files/${sid}/image_2.png`,
    });
    const toolMsg = ollamaRequest(t.fake.requests.at(-1)).messages!.find((m) => m.role === 'tool')!;
    expect(toolMsg.content).toBe(`Loaded session_files/${sid}/image_2.png (image/png, 2×2).`);
    t.fake.enqueue(
      {
        toolCalls: [
          {
            name: 'image_view',
            arguments: { path: 'session_files/00000000-0000-4000-8000-000000000000/image_1.png' },
            id: 'call_2',
          },
          { name: 'image_view', arguments: { path: 'image_9.png' }, id: 'call_3' },
        ],
      },
      { text: 'no' },
    );
    const third = await sendWithAttachments(t, { sessionId: id, content: 'peek' }, {});
    const refused = third.events
      .filter(isEvent('MessageSaved'))
      .filter((e) => e.message.role === 'TOOL')
      .map((e) => e.message.content);
    expect(refused[0]).toMatch(/^Error: path must name an image in this session's directory/);
    expect(refused[1]).toBe(`Error: no file session_files/${sid}/image_9.png`);
  });

  it('a non-vision profile loads none and names all of them', async () => {
    const r = await t.http(ImagesUpsertBlindDocument, {});
    const id = await newSession(t, undefined, r.data!.upsertProfile.id);
    const sid = rawId(id);
    await sendWithAttachments(t, { sessionId: id, content: 'look' }, { images: [img('1', PNG_1x1)] });
    expect(lastUser().content).toBe(
      'look\n\n[1 image attached inline — it was not loaded;\nopen ' +
        `it with image_view: session_files/${sid}/image_1.png]`,
    );
    expect(lastUser().images).toBeUndefined();
  });

  it('hidden turns write nothing; a corrupt or non-image paste is refused and writes nothing', async () => {
    const id = await newSession(t, undefined, bigProfile);
    const sid = rawId(id);
    const hidden = await sendWithAttachments(
      t,
      { sessionId: id, content: '{"form":"submit"}', hidden: true },
      {
        images: [img('1', PNG_1x1)],
        files: [{ name: 'f.txt', bytes: 'x' }],
      },
    );
    expect(hidden.events.at(-1)?.__typename).toBe('TurnEnded');
    expect(await entries(dirOf(id))).toEqual([]);
    expect(lastUser().content).toBe('{"form":"submit"}');
    expect(lastUser().images).toBeUndefined();

    // A corrupt or non-image paste refuses the whole message (the one write path): nothing is written.
    const corrupt = PNG_1x1.subarray(0, 40);
    const turnsBefore = await t.app.db.prisma.turn.count();
    for (const bad of [Buffer.from(corrupt), Buffer.from('not an image at all')]) {
      const r = await sendWithAttachments(
        t,
        { sessionId: id, content: 'two pics' },
        { images: [img('good', PNG_2x2), img('bad', bad)] },
      );
      expect(codeOf(r.result.body)).toBe('BAD_USER_INPUT');
      expect(await entries(dirOf(id))).toEqual([]);
    }
    expect(await t.app.db.prisma.turn.count()).toBe(turnsBefore);
    const r = await sendWithAttachments(t, { sessionId: id, content: 'two pics' }, { images: [img('good', PNG_2x2)] });
    expect(r.events.at(-1)?.__typename).toBe('TurnEnded');
    expect(await entries(dirOf(id))).toEqual(['image_1.png']);
    expect(lastUser().content).toBe(
      'two pics\n\n[1 image attached inline — already in your context, no ' +
        `extra loading needed.\nOn disk: session_files/${sid}/image_1.png]`,
    );
  });

  it('content_publish registers an existing session file as a viewer card', async () => {
    const id = await newSession(t, undefined, bigProfile);
    const sid = rawId(id);
    await upload(t, id, [
      { name: 'chart.txt', bytes: PNG_1x1 },
      { name: 'model.stl', bytes: 'solid cube\nendsolid cube\n' },
    ]);
    t.fake.enqueue(
      {
        toolCalls: [
          { name: 'content_publish', arguments: { filename: 'chart.txt' }, id: 'p1' },
          { name: 'content_publish', arguments: { filename: `session_files/${sid}/model.stl` }, id: 'p2' },
          { name: 'content_publish', arguments: { filename: 'missing.pdf' }, id: 'p3' },
          { name: 'content_publish', arguments: { filename: '../../etc/passwd' }, id: 'p4' },
        ],
      },
      { text: 'published' },
    );
    const r = await sendWithAttachments(t, { sessionId: id, content: 'show them' }, {});
    const tools = r.events
      .filter(isEvent('MessageSaved'))
      .filter((e) => e.message.role === 'TOOL')
      .map((e) => e.message);
    expect(JSON.parse(tools[0]!.content)).toEqual({
      url: `/sessions/${sid}/files/chart.txt`,
      filename: 'chart.txt',
      contentType: 'image/png',
      kind: 'image',
      size: PNG_1x1.length,
    });
    expect((tools[0]!.metadata as { card: { kind: string } }).card.kind).toBe('image');
    expect(JSON.parse(tools[1]!.content)).toMatchObject({ filename: 'model.stl', kind: 'model' });
    expect(tools[2].content).toMatch(/^Error: No file "missing.pdf" in session_files\//);
    expect(tools[3].content).toMatch(/^Error: /);
    expect(await entries(dirOf(id))).toEqual(['chart.txt', 'model.stl']);
  });
});
