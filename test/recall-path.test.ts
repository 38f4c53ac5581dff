/** Recall and memorySearch follow the current path (issue 33 item 6): undone or edited-away text is unseen. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryIndex } from '../src/store/memory.js';
import { buildSummaryMessage } from '../src/domain/compression/format.js';
import { createTestServer, dbKind, type ServerContext } from './support/harness.js';
import {
  CompressionMemorySearchDocument,
  ContextModePathsExportDocument,
  ContextModePathsImportDocument,
  MessageIdsEditDocument,
  MessageIdsForkDocument,
  MessageIdsRedoDocument,
  MessageIdsSwitchDocument,
  MessageIdsUndoDocument,
} from './generated/graphql.js';
import {
  lastUserText,
  profileSession,
  respond,
  sendAndWait,
  withEvents,
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

const FACT = 'Remember: the walrus vault code is ZX-4471.';
const QUESTION = 'What is the walrus vault code?';
const turnDone = (es: { __typename: string }[]) =>
  es.some((e) => e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed');
const messageId = (raw: string, mid: string) => Buffer.from(`Message:${raw}:${mid}`).toString('base64');

/** A session whose context holds a summary, then the fact's exchange, indexed as a compression would index it. */
async function planted(): Promise<TestSession> {
  const s = await profileSession(t, { keepRecent: 2, window: 4096 });
  await t.app.store.append(s.raw, [
    buildSummaryMessage('- Earlier talk about the weather.', []),
    { role: 'assistant', content: 'Understood.' },
  ]);
  respond(t, '- summary', () => ({ text: 'Noted: the walrus vault code is ZX-4471.' }));
  await sendAndWait(t, s.id, FACT);
  const fact = (await t.app.store.allMessages(s.raw)).filter((m) => m.content.includes('ZX-4471'));
  expect(fact.map((m) => m.role)).toEqual(['user', 'assistant']);
  expect(await MemoryIndex.over(t.app.db, t.app.trigram).indexDemoted(s.raw, fact, [])).toBe(1);
  return s;
}

async function searched(s: TestSession): Promise<string[]> {
  const r = await t.http(CompressionMemorySearchDocument, { id: s.id, q: 'walrus vault code' });
  expect(r.errors).toBeUndefined();
  return r.data!.memorySearch.map((h) => h.content);
}

/** What the model is sent as the latest user message when asked about the fact. */
async function asked(s: TestSession): Promise<string> {
  let seen = '';
  respond(t, '- summary', (call) => {
    seen = lastUserText(call.body);
    return { text: 'ok' };
  });
  await sendAndWait(t, s.id, QUESTION);
  return seen;
}

describe(`recall follows the current path (${dbKind})`, () => {
  it('on the path: memorySearch finds the fact and recall injects it', async () => {
    const s = await planted();
    expect((await searched(s)).join()).toContain('ZX-4471');
    expect(await asked(s)).toContain('ZX-4471');
  });

  it('undone: neither recalled nor found; after redo it is back', async () => {
    const s = await planted();
    expect((await t.http(MessageIdsUndoDocument, { id: s.id })).errors).toBeUndefined();
    expect(await searched(s)).toEqual([]);
    expect((await t.http(MessageIdsRedoDocument, { id: s.id })).errors).toBeUndefined();
    expect((await searched(s)).join()).toContain('ZX-4471');
    expect(await asked(s)).toContain('ZX-4471');

    const other = await planted();
    expect((await t.http(MessageIdsUndoDocument, { id: other.id })).errors).toBeUndefined();
    const seen = await asked(other);
    expect(seen).toContain(QUESTION);
    expect(seen).not.toContain('ZX-4471');
  });

  it('edited away: neither recalled nor found; switching back to the original version brings it back', async () => {
    const s = await planted();
    const user = (await t.app.store.allMessages(s.raw)).find((m) => m.content === FACT)!;
    respond(t, '- summary', () => ({ text: 'Fine.' }));
    const { result } = await withEvents(
      t,
      s.id,
      () => t.http(MessageIdsEditDocument, { m: messageId(s.raw, user.messageId), c: 'Nothing to remember.' }),
      turnDone,
    );
    expect(result.errors).toBeUndefined();
    const edited = result.data!.editMessage.userMessage.id;
    expect(await searched(s)).toEqual([]);
    expect(await asked(s)).not.toContain('ZX-4471');
    // The question above is a new turn after the edit; undo it and switch the edited message back.
    expect((await t.http(MessageIdsUndoDocument, { id: s.id })).errors).toBeUndefined();
    expect((await t.http(MessageIdsSwitchDocument, { m: edited, i: 0 })).errors).toBeUndefined();
    expect((await searched(s)).join()).toContain('ZX-4471');
  });

  it('a fork keeps the chunks and their message ids: the fact is found in the fork, not after undo there', async () => {
    const s = await planted();
    const fork = await t.http(MessageIdsForkDocument, { id: s.id });
    expect(fork.errors).toBeUndefined();
    const f = { ...s, id: fork.data!.forkSession.id };
    expect((await searched(f)).join()).toContain('ZX-4471');
    expect((await t.http(MessageIdsUndoDocument, { id: f.id })).errors).toBeUndefined();
    expect(await searched(f)).toEqual([]);
    expect((await searched(s)).join()).toContain('ZX-4471');
  });

  const keepsIds = "export / import keeps the message ids and the chunks' ids: undone in the export, unseen until redo";
  it(keepsIds, async () => {
    const s = await planted();
    expect((await t.http(MessageIdsUndoDocument, { id: s.id })).errors).toBeUndefined();
    const e = await t.http(ContextModePathsExportDocument, { id: s.id });
    expect(e.errors).toBeUndefined();
    const data = e.data!.session!.export;
    const doc = JSON.parse(data) as { memoryChunks: { messageIds?: string[] }[]; messages: { messageId?: string }[] };
    expect(doc.memoryChunks[0]!.messageIds).toHaveLength(2);
    const imported = await t.http(ContextModePathsImportDocument, { data });
    expect(imported.errors).toBeUndefined();
    const copy = { ...s, id: imported.data!.importSession.id };
    expect(await searched(copy)).toEqual([]);
    expect((await t.http(MessageIdsRedoDocument, { id: copy.id })).errors).toBeUndefined();
    expect((await searched(copy)).join()).toContain('ZX-4471');
    // An export written before the ids: its chunks name no message, so they count as on every path (the old limit).
    for (const c of doc.memoryChunks) delete c.messageIds;
    for (const m of doc.messages) delete m.messageId;
    const old = await t.http(ContextModePathsImportDocument, { data: JSON.stringify(doc) });
    expect(old.errors).toBeUndefined();
    expect((await searched({ ...s, id: old.data!.importSession.id })).join()).toContain('ZX-4471');
  });

  it('the same text indexed again from other message versions takes their ids', async () => {
    const s = await planted();
    const fact = (await t.app.store.allMessages(s.raw)).filter((m) => m.content.includes('ZX-4471'));
    const index = MemoryIndex.over(t.app.db, t.app.trigram);
    const copies = fact.map((m) => ({ ...m, messageId: crypto.randomUUID() }));
    expect(await index.indexDemoted(s.raw, copies, [])).toBe(0);
    expect(await searched(s)).toEqual([]);
    expect(await index.indexDemoted(s.raw, fact, [])).toBe(0);
    expect((await searched(s)).join()).toContain('ZX-4471');
  });
});
