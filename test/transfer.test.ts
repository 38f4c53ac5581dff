/** Issue 6: export (MARKDOWN, JSON) and import (our JSON, ChatGPT and Claude conversations.json). */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stagingOwner } from '../src/domain/policy.js';
import { TransferStore } from '../src/store/transfers.js';
import { messageToJson } from '../src/domain/tree.js';
import { makeMessage } from '../src/domain/types.js';
import {
  DeleteSessionDocument,
  ExportSessionDocument,
  HistoryRolesDocument,
  ImportedHistoryDocument,
  ImportSessionDocument,
  ImportSessionFileDocument,
  TransferTreeDocument,
} from './generated/graphql.js';
import { codeOf, createTestServer, dbKind, type ServerContext } from './support/harness.js';
import { multipart, newSession, rawId, sendText } from './support/uploads.js';
import { parseMultipartOperations } from '../src/files/multipart.js';

let t: ServerContext;
let alice: string, bob: string, reader: string;

beforeAll(async () => {
  t = await createTestServer({ authEnabled: true, titleGenerationEnabled: false });
  alice = (await t.app.auth.createUser('alice')).key;
  bob = (await t.app.auth.createUser('bob')).key;
  reader = (await t.app.auth.createUser('reader', { permissions: ['sessions.read_all'] })).key;
});
afterAll(() => t.close());

const EXPORT = ExportSessionDocument;
const IMPORT = ImportSessionDocument;

async function exportOf(id: string, format: 'JSON' | 'MARKDOWN', token = alice) {
  const r = await t.http(EXPORT, { id, f: format }, token);
  expect(r.errors).toBeUndefined();
  return r.data!.session!.export;
}

/** A session exercising everything an export carries: turns, flags, archive, usage, branch, checkpoint, attachments. */
async function richSession() {
  const id = await newSession(t, alice);
  const sid = rawId(id);
  t.fake.enqueue({ text: 'First answer', promptTokens: 50, completionTokens: 5 });
  await sendText(t, id, 'Explain recursion', alice);
  t.fake.enqueue({ thinking: 'hmm', text: 'Second answer', promptTokens: 80, completionTokens: 7 });
  await sendText(t, id, 'And iteration?', alice);
  const store = t.app.store;
  await store.append(sid, [
    {
      role: 'user',
      content: 'Summary of earlier turns',
      isSummary: true,
      isDisplay: false,
      metadata: { kind: 'summary' },
    },
    {
      role: 'system',
      content: 'Context compressed: 4 → 2 messages',
      isCompression: true,
      isContext: false,
      metadata: { summary: 'x' },
    },
    { role: 'user', content: 'note', isAgentNote: true, isDisplay: false },
    {
      role: 'user',
      content: 'see attached',
      images: [`session_files/${sid}/image_1.png`],
      files: [`session_files/${sid}/doc.pdf`],
      metadata: { imagesInContext: [`session_files/${sid}/image_1.png`] },
    },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'content_publish', arguments: { filename: 'doc.pdf', z: 1, a: 2 } }],
    },
    { role: 'tool', content: '{"url":"/x"}', toolCallId: 'c1', name: 'content_publish', isCompressionCritical: true },
  ]);
  await store.archiveOldMessages(sid, 2);
  await t.app.db.prisma.sessionBranch.create({
    data: {
      sessionId: sid,
      name: 'branch 1',
      baseSequence: 1,
      suffix: [
        messageToJson(
          makeMessage({
            sequenceNumber: 2,
            role: 'user',
            content: 'alt question',
            createdAt: new Date('2026-01-02T03:04:05.000Z'),
          }),
        ),
      ] as never,
      createdAt: new Date('2026-01-02T03:04:06.000Z'),
    },
  });
  await t.app.db.prisma.session.update({
    where: { id: sid },
    data: {
      checkpoint: { goal: 'try a loop', afterSequenceNumber: 3, createdAt: '2026-01-03T00:00:00.000Z' },
      lastRewindReport: 'earlier report',
      pinned: true,
    },
  });
  await t.app.db.prisma.memoryChunk.create({
    data: {
      sessionId: sid,
      content: 'verbatim chunk',
      contentHash: 'h1',
      breadcrumbs: ['a'],
      turnStart: 0,
      turnEnd: 1,
      firstAt: new Date(0),
      lastAt: new Date(1000),
    },
  });
  return id;
}

/** The parts of a Claude conversations.json entry the malformed-export cases change. */
interface ClaudeConversation {
  uuid: string;
  name: string;
  current_leaf_message_uuid?: string;
  chat_messages: { parent_message_uuid?: string; sender?: string }[];
}

function normalize(text: string, sessionId: string) {
  const doc = JSON.parse(text.split(sessionId).join('<SESSION>'));
  delete doc.exportedAt;
  return doc;
}

describe(`export and import (${dbKind})`, () => {
  it(
    'JSON export → import → export is identical apart ' + 'from ids; importing again returns the same session',
    async () => {
      const id = await richSession();
      const json = await exportOf(id, 'JSON');
      const doc = JSON.parse(json);
      expect(doc.format).toBe('chat-session-export');
      expect(doc.messages.some((m: { archived?: boolean }) => m.archived)).toBe(true);
      expect(doc.messages.some((m: { isSummary?: boolean }) => m.isSummary)).toBe(true);
      expect(doc.branches).toHaveLength(1);
      expect(doc.session.checkpoint).toEqual({
        goal: 'try a loop',
        afterSequenceNumber: 3,
        createdAt: '2026-01-03T00:00:00.000Z',
      });
      expect(doc.session.usage).toEqual({ promptTokens: 130, completionTokens: 12, cachedPromptTokens: 0 });
      expect(doc.memoryChunks).toHaveLength(1);

      const sessionsBefore = await t.app.db.prisma.session.count();
      const imported = await t.http(IMPORT, { data: json }, bob);
      expect(imported.errors).toBeUndefined();
      const copy = imported.data!.importSession;
      expect(copy.id).not.toBe(id);
      expect(copy.owner!.name).toBe('bob');
      const again = await t.http(IMPORT, { data: json }, bob);
      expect(again.data!.importSession.id).toBe(copy.id);
      // the same text with another exportedAt is the same import
      const reexported = await exportOf(id, 'JSON');
      expect((await t.http(IMPORT, { data: reexported }, bob)).data!.importSession.id).toBe(copy.id);
      expect(await t.app.db.prisma.session.count()).toBe(sessionsBefore + 1);

      const roundTrip = await exportOf(copy.id, 'JSON', bob);
      expect(normalize(roundTrip, rawId(copy.id))).toEqual(normalize(json, rawId(id)));
      // attachments now point into the new session's own directory
      expect(roundTrip).toContain(`session_files/${rawId(copy.id)}/image_1.png`);
      expect(roundTrip).not.toContain(rawId(id));

      // history pages the same for the importer as for the original owner
      const H = ImportedHistoryDocument;
      const a = (await t.http(H, { id }, alice)).data!.session;
      const b = (await t.http(H, { id: copy.id }, bob)).data!.session;
      expect(b).toEqual(a);

      // another user importing the same data gets their own copy
      const mine = await t.http(IMPORT, { data: json }, alice);
      expect(mine.data!.importSession.id).not.toBe(copy.id);
      expect(mine.data!.importSession.owner!.name).toBe('alice');
    },
  );

  it('a session an import is still writing is invisible; a failed import removes it; a dead one is swept', async () => {
    const SEE = 'query($id: ID!) { session(id: $id) { id } sessions { totalCount } }';
    const admin = (await t.app.auth.createUser('staging-admin', { admin: true })).key;
    const totals = async () =>
      Promise.all([alice, reader, admin].map(async (k) => (await t.http(SEE, { id: 'x' }, k)).data));
    const profileId = (await t.app.db.prisma.profile.findFirstOrThrow()).id;
    const before = await totals();
    const staged = async (ageMs: number) =>
      (
        await t.app.db.prisma.session.create({
          data: { profileId, userId: stagingOwner(randomUUID(), Date.now() - ageMs), name: 'stagedneedle' },
        })
      ).id;
    const stale = await staged(2 * 60 * 60 * 1000);
    const fresh = await staged(0);
    expect(await totals()).toEqual(before);
    for (const key of [alice, reader, admin])
      for (const id of [stale, fresh]) {
        const r = await t.http(
          'query($id: ID!) { session(id: $id) { id } }',
          { id: encodeGlobalID('Session', id) },
          key,
        );
        expect(r.data).toEqual({ session: null });
      }
    // a dead import's leftover (older than STALE_IMPORT_MS) is swept; one still being written is not
    expect(await t.app.transfer.sweepStaged()).toBe(1);
    const left = await t.app.db.prisma.session.findMany({ where: { id: { in: [stale, fresh] } } });
    expect(left.map((s) => s.id)).toEqual([fresh]);
    await t.app.db.prisma.session.delete({ where: { id: fresh } });

    // a failure after every row is written (at the hand-over) removes the staged session
    const count = await t.app.db.prisma.session.count();
    const fail = vi.spyOn(TransferStore.prototype, 'finishImport').mockRejectedValueOnce(new Error('boom'));
    const data = readFileSync(new URL('./fixtures/chatgpt-conversations.json', import.meta.url), 'utf8');
    const r = await t.http(IMPORT, { data: data.replace('Reverse a list', 'Reverse a staged list') }, alice);
    fail.mockRestore();
    expect(r.errors).toBeDefined();
    expect(await t.app.db.prisma.session.count()).toBe(count);
  });

  it('deleting an imported session lets the same data be imported anew', async () => {
    const id = await newSession(t, alice);
    await t.app.store.append(rawId(id), [{ role: 'user', content: 'short one' }]);
    const json = await exportOf(id, 'JSON');
    const first = (await t.http(IMPORT, { data: json }, alice)).data!.importSession.id;
    await t.http(DeleteSessionDocument, { id: first }, alice);
    const second = (await t.http(IMPORT, { data: json }, alice)).data!.importSession.id;
    expect(second).not.toBe(first);
  });

  it('MARKDOWN renders the display history; JSON is owner/admin only', async () => {
    const id = await newSession(t, alice);
    t.fake.enqueue({ text: 'Use a **loop**.' });
    await sendText(t, id, 'How do I repeat things?', alice);
    const md = await exportOf(id, 'MARKDOWN');
    expect(md).toMatch(/^# How do I repeat things\?/);
    expect(md).toContain('## User\n\nHow do I repeat things?');
    expect(md).toContain('## Assistant\n\nUse a **loop**.');
    expect(await exportOf(id, 'MARKDOWN', reader)).toBe(md);
    expect(codeOf(await t.http(EXPORT, { id, f: 'JSON' }, reader))).toBe('FORBIDDEN');
    // someone else's session answers like a missing one
    expect(await t.http(EXPORT, { id, f: 'JSON' }, bob)).toEqual({ data: { session: null } });
  });

  it('imports a ChatGPT conversations.json: every conversation, message trees as branches, idempotent', async () => {
    const data = readFileSync(new URL('./fixtures/chatgpt-conversations.json', import.meta.url), 'utf8');
    const before = await t.app.db.prisma.session.count();
    const r = await t.http(IMPORT, { data }, alice);
    expect(r.errors).toBeUndefined();
    expect(r.data!.importSession).toMatchObject({ name: 'Reverse a list in Python', titleSource: 'IMPORTED' });
    expect(await t.app.db.prisma.session.count()).toBe(before + 2);
    const sid = rawId(r.data!.importSession.id);
    const branches = await t.app.db.prisma.sessionBranch.findMany({ where: { sessionId: sid } });
    expect(branches.map((b) => b.name)).toEqual(['branch 1']);
    expect((branches[0]!.suffix as unknown[]).length).toBeGreaterThan(0);
    const h = await t.http(HistoryRolesDocument, { id: r.data!.importSession.id }, alice);
    expect(h.data!.session!.history.edges[0]!.node.role).toBe('USER');
    const again = await t.http(IMPORT, { data }, alice);
    expect(again.data!.importSession.id).toBe(r.data!.importSession.id);
    expect(await t.app.db.prisma.session.count()).toBe(before + 2);
    // the regenerated-reply conversation kept its alternative reply as a branch
    const other = await t.app.db.prisma.session.findFirst({
      where: { userId: { not: null }, name: 'What is 2**10? Compute it.' },
    });
    const otherBranches = await t.app.db.prisma.sessionBranch.findMany({ where: { sessionId: other!.id } });
    expect(otherBranches).toHaveLength(1);
  });

  it('importSessionFile imports an uploaded file in the worker; the same text as data finds them', async () => {
    const data = readFileSync(new URL('./fixtures/chatgpt-conversations.json', import.meta.url), 'utf8');
    const asFile = (token = bob) =>
      multipart(
        t,
        ImportSessionFileDocument,
        { file: null },
        [{ name: 'c.json', bytes: data }],
        ['variables.file'],
        token,
      );
    const before = await t.app.db.prisma.session.count();
    const r = await asFile();
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data!.importSessionFile.name).toBe('Reverse a list in Python');
    expect(await t.app.db.prisma.session.count()).toBe(before + 2);
    // The same file as data: the same sessions (one fingerprint, whichever door).
    const again = await t.http(IMPORT, { data }, bob);
    expect(again.data!.importSession.id).toBe(r.body.data!.importSessionFile.id);
    expect(await t.app.db.prisma.session.count()).toBe(before + 2);
  });

  it('an importSessionFile file may exceed the upload limit up to maxImportBytes; other files may not', async () => {
    const spoolDir = `${t.app.files.baseDir}/.incoming`;
    const parse = (query: string, bytes: number) => {
      const fd = new FormData();
      fd.set('operations', JSON.stringify({ query, variables: { file: null } }));
      fd.set('map', JSON.stringify({ 0: ['variables.file'] }));
      fd.set('0', new Blob([new Uint8Array(bytes)]), 'f.json');
      const spooled: string[] = [];
      const request = new Request('http://localhost/graphql', { method: 'POST', body: fd });
      return parseMultipartOperations(request, { spoolDir, maxBytes: 100, maxImportBytes: 1000 }, spooled);
    };
    const IMPORT_FILE = 'mutation($file: File!) { importSessionFile(input: { file: $file }) { id } }';
    const UPLOAD = 'mutation($file: File!) { uploadSessionFiles(sessionId: "x", files: [$file]) { filename } }';
    await expect(parse(IMPORT_FILE, 900)).resolves.toBeTruthy();
    await expect(parse(IMPORT_FILE, 1001)).rejects.toMatchObject({ extensions: { code: 'PAYLOAD_TOO_LARGE' } });
    await expect(parse(UPLOAD, 101)).rejects.toMatchObject({ extensions: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('refuses a ChatGPT export with a malformed parts array: BAD_USER_INPUT with the path, no session', async () => {
    const fixture = readFileSync(new URL('./fixtures/chatgpt-conversations.json', import.meta.url), 'utf8');
    const conversations = JSON.parse(fixture) as {
      mapping: Record<
        string,
        { message?: { author: { role: string }; content: { content_type: string; parts?: unknown } } | null }
      >;
    }[];
    const [nodeId, node] = Object.entries(conversations[0]!.mapping).find(
      ([, n]) => n.message?.author.role === 'user' && n.message.content.content_type === 'text',
    )!;
    const before = await t.app.db.prisma.session.count();
    for (const [parts, problem] of [
      [['fine', 42], /\.parts\[1\]: a part must be a string or an object with a content_type, not number/],
      [[null], /\.parts\[0\]: .* not null/],
      [{ text: 'not an array' }, /parts/],
    ] as const) {
      node.message!.content.parts = parts;
      const r = await t.http(IMPORT, { data: JSON.stringify(conversations) }, alice);
      expect(codeOf(r)).toBe('BAD_USER_INPUT');
      expect(r.errors![0]!.message).toContain(nodeId);
      expect(r.errors![0]!.message).toMatch(problem);
    }
    expect(await t.app.db.prisma.session.count()).toBe(before);
  });

  it('imports a Claude conversations.json: conversations, retries as branches, attachments, idempotent', async () => {
    const data = readFileSync(new URL('./fixtures/claude-conversations.json', import.meta.url), 'utf8');
    const before = await t.app.db.prisma.session.count();
    const r = await t.http(IMPORT, { data }, alice);
    expect(r.errors).toBeUndefined();
    expect(r.data!.importSession).toMatchObject({ name: 'Flaky test in CI', titleSource: 'IMPORTED' });
    expect(await t.app.db.prisma.session.count()).toBe(before + 2);
    const sid = rawId(r.data!.importSession.id);
    const row = await t.app.db.prisma.session.findUnique({ where: { id: sid } });
    expect(row!.metadata).toMatchObject({
      importedFrom: 'claude',
      claudeConversationUuid: '5d0c6a3e-1f2b-4c8e-9a41-0c1d2e3f4a01',
    });
    const h = await t.http(HistoryRolesDocument, { id: r.data!.importSession.id }, alice);
    const rows = h.data!.session!.history.edges.map((e) => e!.node);
    expect(rows.map((m) => m.role)).toEqual(['USER', 'ASSISTANT', 'USER', 'ASSISTANT']);
    expect(rows[0]!.content).toContain('[Attached file: ci-log.txt]\nFAIL test/orders.test.ts');
    expect(rows[3]!.content).toBe('Yes: a fixed sleep is what made it flaky in the first place.');
    // the retried reply is a branch from the first message, in the branch tree
    const branches = await t.app.db.prisma.sessionBranch.findMany({ where: { sessionId: sid } });
    expect(branches.map((b) => [b.name, b.baseSequence])).toEqual([['branch 1', 0]]);
    expect((branches[0]!.suffix as { content: string }[]).map((m) => m.content)).toEqual([
      'It looks like a timing problem: add a retry to the test.',
    ]);
    const tree = await t.http(TransferTreeDocument, { id: r.data!.importSession.id }, alice);
    expect(tree.errors).toBeUndefined();
    // the shared first message and the retried reply
    expect(tree.data!.session!.branches).toEqual([{ name: 'branch 1', messageCount: 2 }]);
    expect(tree.data!.session!.tree.some((row) => row.branch === 'branch 1' && !row.active)).toBe(true);
    // the same file again: the same sessions, nothing new
    const again = await t.http(IMPORT, { data }, alice);
    expect(again.data!.importSession.id).toBe(r.data!.importSession.id);
    expect(await t.app.db.prisma.session.count()).toBe(before + 2);
    // another user's import is theirs
    const bobs = await t.http(IMPORT, { data }, bob);
    expect(bobs.data!.importSession.id).not.toBe(r.data!.importSession.id);
    expect(await t.app.db.prisma.session.count()).toBe(before + 4);
  });

  it('a malformed Claude export is BAD_USER_INPUT and writes no conversation of it', async () => {
    const good = JSON.parse(
      readFileSync(new URL('./fixtures/claude-conversations.json', import.meta.url), 'utf8'),
    ) as ClaudeConversation[];
    const renamed = good.map((c, i) => ({ ...c, uuid: `${c.uuid}-x`, name: `copy ${i}` }));
    const dangling = structuredClone(renamed);
    dangling[1].chat_messages[1].parent_message_uuid = 'no-such-message';
    const noSender = structuredClone(renamed);
    delete noSender[1].chat_messages[0].sender;
    const cases = [
      JSON.stringify(dangling),
      JSON.stringify(noSender),
      JSON.stringify([{ ...renamed[0], chat_messages: {} }]),
      JSON.stringify([{ ...renamed[0], current_leaf_message_uuid: 'gone' }]),
    ];
    const sessions = await t.app.db.prisma.session.count();
    const imports = await t.app.db.prisma.sessionImport.count();
    for (const data of cases) {
      const r = await t.http(IMPORT, { data }, alice);
      expect(codeOf(r), data.slice(0, 60)).toBe('BAD_USER_INPUT');
      expect(r.errors![0]!.message).toMatch(/Claude|conversation 0|conversation 1/);
    }
    // the first conversation of each file was fine: none of it was written either
    expect(await t.app.db.prisma.session.count()).toBe(sessions);
    expect(await t.app.db.prisma.sessionImport.count()).toBe(imports);
  });

  it('malformed imports are BAD_USER_INPUT and write nothing', async () => {
    const id = await newSession(t, alice);
    await t.app.store.append(rawId(id), [{ role: 'user', content: 'x' }]);
    const good = JSON.parse(await exportOf(id, 'JSON'));
    const dupSeq = structuredClone(good);
    dupSeq.messages.push({ ...dupSeq.messages[0] });
    const badRole = structuredClone(good);
    badRole.messages[0].role = 'wizard';
    const cyclic = [
      {
        title: 'c',
        mapping: { a: { id: 'a', parent: 'b', children: [] }, b: { id: 'b', parent: 'a', children: [] } },
        current_node: 'a',
      },
    ];
    const cases = [
      '',
      'not json',
      '{"hello":"world"}',
      '42',
      JSON.stringify({ ...good, version: 99 }),
      JSON.stringify({ ...good, messages: 'nope' }),
      JSON.stringify(dupSeq),
      JSON.stringify(badRole),
      JSON.stringify([{ title: 'no mapping' }]),
      JSON.stringify(cyclic),
      JSON.stringify([{ mapping: { a: { id: 'a', parent: 'missing', children: [] } }, current_node: 'a' }]),
    ];
    const sessions = await t.app.db.prisma.session.count();
    const imports = await t.app.db.prisma.sessionImport.count();
    for (const data of cases) {
      const r = await t.http(IMPORT, { data }, alice);
      expect(codeOf(r), data.slice(0, 60)).toBe('BAD_USER_INPUT');
      expect(r.errors![0]!.message.length).toBeGreaterThan(10);
    }
    expect(await t.app.db.prisma.session.count()).toBe(sessions);
    expect(await t.app.db.prisma.sessionImport.count()).toBe(imports);
    expect(codeOf(await t.http(IMPORT, { data: JSON.stringify(good) }))).toBe('UNAUTHENTICATED');
  });
});
