/**
 * The per-call manifest (issue 33 item 5): Turn.calls lists each model call of a turn with what it was sent, by
 * message id and hash, and the diff to the call before; the size per call is bounded; another user cannot read it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_MAX_BYTES, MANIFEST_MAX_ENTRIES } from '../src/domain/call-manifest.js';
import { parseGlobalId, turnGlobalId } from '../src/schema/ids.js';
import { buildSummaryMessage } from '../src/domain/compression/format.js';
import { MemoryIndex } from '../src/store/memory.js';
import { createTestApp, createTestServer, dbKind, type ServerContext, type TestContext } from './support/harness.js';
import { CallManifestCreateSessionDocument, CallManifestTurnDocument } from './generated/graphql.js';
import {
  COMPACT_DOC,
  exchanges,
  profileSession,
  respond,
  sendAndWait,
  type TestSession,
} from './support/compression.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false });
});
afterAll(() => t.close());
afterEach(() => {
  t.fake.responder = undefined;
});

/** Sends `content`, waits for the turn to end; its global id. */
async function turnOf(s: TestSession, content: string): Promise<string> {
  const { result } = await sendAndWait(t, s.id, content);
  expect(result.errors).toBeUndefined();
  return (result.data as { sendMessage: { turn: { id: string } } }).sendMessage.turn.id;
}

async function calls(turnId: string) {
  const r = await t.http(CallManifestTurnDocument, { id: turnId });
  expect(r.errors).toBeUndefined();
  return r.data!.turn!.calls;
}

/** The message ids of the session's rows, by their content's start. */
async function ids(s: TestSession) {
  const rows = await t.app.store.allMessages(s.raw);
  return (start: string, role?: string) =>
    rows.filter((m) => m.content.startsWith(start) && (!role || m.role === role)).map((m) => m.messageId);
}

describe(`Turn.calls: the per-call manifest (${dbKind})`, () => {
  it('a tool loop makes two calls: each lists the sent message ids; the diff names the tool result added', async () => {
    const s = await profileSession(t, { window: 8192, systemPrompt: 'Be brief.' });
    let n = 0;
    respond(t, '- summary', () =>
      n++ === 0 ? { toolCalls: [{ name: 'no_such_tool', arguments: { x: 1 } }] } : { text: 'Done after the tool.' },
    );
    const turn = await turnOf(s, 'please use the tool');
    const [first, second, ...rest] = await calls(turn);
    expect(rest).toEqual([]);
    const rows = (await t.app.store.allMessages(s.raw)).filter((m) => m.role !== 'system');
    const user = rows.find((m) => m.role === 'user')!;
    const asking = rows.find((m) => m.role === 'assistant' && m.toolCalls.length > 0)!;
    const result = rows.find((m) => m.role === 'tool')!;

    expect(first!.index).toBe(0);
    expect(first!.manifest.entries.map((e) => [e.kind, e.ref])).toEqual([
      ['SYSTEM_PROMPT', 'system'],
      ['MESSAGE', user.messageId],
    ]);
    expect(first!.diff.against).toBeNull();
    expect(second!.index).toBe(1);
    expect(second!.manifest.entries.map((e) => [e.kind, e.ref, e.role])).toEqual([
      ['SYSTEM_PROMPT', 'system', null],
      ['MESSAGE', user.messageId, 'USER'],
      ['MESSAGE', asking.messageId, 'ASSISTANT'],
      ['MESSAGE', result.messageId, 'TOOL'],
    ]);
    expect(second!.diff.against).toEqual({ index: 0, turn: { id: turn } });
    expect(second!.diff.added).toEqual([
      { kind: 'MESSAGE', ref: asking.messageId, role: 'ASSISTANT' },
      { kind: 'MESSAGE', ref: result.messageId, role: 'TOOL' },
    ]);
    expect(second!.diff.removed).toEqual([]);
    expect(second!.diff.changed).toEqual([]);
    expect(second!.diff.unchanged).toBe(2);
    // Tokens per part add up; each call's hash of the same message is the same.
    for (const c of [first!, second!])
      expect(c.manifest.tokens).toBe(c.manifest.entries.reduce((k, e) => k + e.tokens, 0));
    expect(second!.manifest.entries[1]!.hash).toBe(first!.manifest.entries[1]!.hash);
    expect(second!.promptTokens).toBeGreaterThan(0);
  });

  it('a compaction between turns: the next first call: summary added, summarised removed', async () => {
    const s = await profileSession(t, { window: 8192, keepRecent: 2 });
    await t.app.store.append(s.raw, exchanges(4, 100, 'old'));
    respond(t, '- the old talk, summarised', () => ({ text: 'noted' }));
    const before = await turnOf(s, 'first request');
    const compact = await t.http(COMPACT_DOC, { id: s.id });
    expect(compact.errors).toBeUndefined();
    const after = await turnOf(s, 'second request');

    const context = await t.app.store.context(s.raw);
    const summary = context.find((m) => m.isSummary)!;
    expect(summary).toBeDefined();
    const find = await ids(s);
    const summarised = [...find('old 0 question'), ...find('old 1 answer'), ...find('old 2 question')];
    expect(summarised).toHaveLength(3);
    for (const id of summarised) expect(context.some((m) => m.messageId === id)).toBe(false);

    const [previous] = (await calls(before)).slice(-1);
    const [first] = await calls(after);
    expect(first!.diff.against).toEqual({ index: previous!.index, turn: { id: before } });
    expect(first!.manifest.entries).toContainEqual(
      expect.objectContaining({ kind: 'SUMMARY', ref: summary.messageId }),
    );
    expect(first!.diff.added).toContainEqual({
      kind: 'SUMMARY',
      ref: summary.messageId,
      role: summary.role.toUpperCase(),
    });
    const removed = first!.diff.removed.map((e) => e.ref);
    for (const id of summarised) expect(removed).toContain(id);
    expect(first!.diff.added).toContainEqual({ kind: 'MESSAGE', ref: find('second request')[0], role: 'USER' });
  });

  it(`the size bound: at most ${MANIFEST_MAX_ENTRIES} entries, the rest folded and counted`, async () => {
    const s = await profileSession(t, { window: 131_072 });
    await t.app.store.append(s.raw, exchanges(200, 4, 'tiny'));
    respond(t, '- summary', () => ({ text: 'ok' }));
    const first = await turnOf(s, 'one more');
    const [call] = await calls(first);
    const m = call!.manifest;
    expect(m.entries).toHaveLength(MANIFEST_MAX_ENTRIES);
    expect(m.omitted!.count).toBe(401 - MANIFEST_MAX_ENTRIES);
    expect(m.tokens).toBe(m.entries.reduce((k, e) => k + e.tokens, 0) + m.omitted!.tokens);
    // The newest are listed: the request is the last entry.
    expect(m.entries.at(-1)!.ref).toBe((await ids(s))('one more')[0]);
    const stored = await t.app.db.prisma.turnCall.findFirstOrThrow({ where: { turnId: parseGlobalId(first, 'Turn') } });
    expect(JSON.stringify(stored.manifest).length).toBeLessThan(MANIFEST_MAX_BYTES);
    // The next turn: the new messages are named, the folded part moved on (it is flagged, not itemised).
    const [next] = await calls(await turnOf(s, 'and another'));
    const find = await ids(s);
    // The previous turn's answer and the new request.
    expect(next!.diff.added.map((e) => e.ref)).toEqual([find('ok', 'assistant')[0], ...find('and another')]);
    expect(next!.diff.removed).toEqual([]);
    expect(next!.diff.omittedChanged).toBe(true);
  });
});

describe(`Turn.calls: recall (${dbKind})`, () => {
  it('a recall excerpt is named by its memory chunk id, beside the request it rides on', async () => {
    const s = await profileSession(t, { keepRecent: 2, window: 4096 });
    await t.app.store.append(s.raw, [
      buildSummaryMessage('- Earlier talk about the weather.', []),
      { role: 'assistant', content: 'Understood.' },
    ]);
    respond(t, '- summary', () => ({ text: 'Noted: the walrus vault code is ZX-4471.' }));
    await turnOf(s, 'Remember: the walrus vault code is ZX-4471.');
    const fact = (await t.app.store.allMessages(s.raw)).filter((m) => m.content.includes('ZX-4471'));
    expect(await MemoryIndex.over(t.app.db, t.app.trigram).indexDemoted(s.raw, fact, [])).toBe(1);
    const chunk = await t.app.db.prisma.memoryChunk.findFirstOrThrow({ where: { sessionId: s.raw } });
    let seen = '';
    respond(t, '- summary', (call) => {
      seen = JSON.stringify(call.body);
      return { text: 'ok' };
    });
    const [call] = await calls(await turnOf(s, 'What is the walrus vault code?'));
    expect(seen).toContain('[Recalled from earlier');
    const question = (await ids(s))('What is the walrus')[0]!;
    const entries = call!.manifest.entries.map((e) => [e.kind, e.ref]);
    expect(entries.slice(-2)).toEqual([
      ['MESSAGE', question],
      ['RECALL', chunk.id],
    ]);
    expect(call!.diff.added).toContainEqual({ kind: 'RECALL', ref: chunk.id, role: null });
  });
});

describe(`Turn.calls access (${dbKind})`, () => {
  let a: TestContext;
  let alice: string;
  let bob: string;
  let admin: string;
  beforeAll(async () => {
    a = await createTestApp({ authEnabled: true, jwtSecret: 'call-manifest-secret-0123456789abcdef' });
    alice = (await a.app.auth.createUser('alice')).key;
    bob = (await a.app.auth.createUser('bob')).key;
    admin = (await a.app.auth.createUser('root', { admin: true })).key;
  });
  afterAll(() => a.close());

  it("another user cannot read a turn's calls; the owner and an admin can", async () => {
    const created = await a.gql(CallManifestCreateSessionDocument, {}, alice);
    const sessionId = parseGlobalId(created.data!.createSession.id, 'Session');
    const turn = await a.app.db.prisma.turn.create({ data: { sessionId, status: 'COMPLETED' } });
    await a.app.callManifests.insert({
      turnId: turn.id,
      sessionId,
      model: 'm',
      estimatedTokens: 3,
      manifest: {
        v: 1,
        entries: [{ kind: 'SYSTEM_PROMPT', ref: 'system', hash: 'abc', tokens: 3 }],
        omitted: null,
        tokens: 3,
      },
    });
    const id = turnGlobalId(turn.id);
    const read = (token: string) => a.gql(CallManifestTurnDocument, { id }, token);
    const own = await read(alice);
    expect(own.errors).toBeUndefined();
    expect(own.data!.turn!.calls.map((c) => c.manifest.entries.map((e) => e.ref))).toEqual([['system']]);
    const other = await read(bob);
    expect(other.data?.turn ?? null).toBeNull();
    expect(JSON.stringify(other)).not.toContain('abc');
    expect((await read(admin)).data!.turn!.calls).toHaveLength(1);
  });
});
