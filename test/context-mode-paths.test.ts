/**
 * Pin and exclude on every path (issue 33, item 4): a message's mode stays with it through undo / redo,
 * an edit and switching back to the original, forkSession, and exportSession / importSession (an old
 * export without the mode imports as DEFAULT).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageGlobalId } from '../src/domain/message-ids.js';
import { createTestServer, dbKind, SESSION_EVENTS, type ServerContext } from './support/harness.js';
import { rawId } from './support/editing.js';
import {
  ContextModePathsCreateDocument,
  ContextModePathsEditDocument,
  ContextModePathsExportDocument,
  ContextModePathsForkDocument,
  ContextModePathsImportDocument,
  ContextModePathsRedoDocument,
  ContextModePathsSetDocument,
  ContextModePathsStateDocument,
  ContextModePathsSwitchDocument,
  ContextModePathsUndoDocument,
} from './generated/graphql.js';

type Mode = 'DEFAULT' | 'PINNED' | 'EXCLUDED';

describe(`pin and exclude on every path (${dbKind})`, () => {
  let t: ServerContext;
  beforeAll(async () => {
    t = await createTestServer({ titleGenerationEnabled: false });
  });
  afterAll(() => t.close());

  /** A session holding `n` finished exchanges q{i} / a{i}. */
  const session = async (n: number) => {
    const r = await t.http(ContextModePathsCreateDocument, {});
    expect(r.errors).toBeUndefined();
    const id = r.data!.createSession.id;
    const raw = rawId(id);
    const rows = [];
    for (let i = 0; i < n; i++)
      rows.push({ role: 'user' as const, content: `q${i}` }, { role: 'assistant' as const, content: `a${i}` });
    await t.app.store.append(raw, rows);
    return { id, raw };
  };
  /** The id of the message at `seq` on the current path. */
  const idAt = async (raw: string, seq: number) => {
    const row = (await t.app.store.allMessages(raw)).find((m) => m.sequenceNumber === seq)!;
    return messageGlobalId({ sessionId: raw, messageId: row.messageId });
  };
  const set = async (raw: string, seq: number, mode: Mode) => {
    const r = await t.http(ContextModePathsSetDocument, { m: await idAt(raw, seq), mode });
    expect(r.errors).toBeUndefined();
  };
  /** The current path as `content:MODE`, and the texts the model would be sent. */
  const state = async (id: string) => {
    const r = await t.http(ContextModePathsStateDocument, { id });
    expect(r.errors).toBeUndefined();
    const s = r.data!.session!;
    return {
      path: s.history.edges.map((e) => `${e.node.content}:${e.node.contextMode}`),
      sent: s.modelView.messages.map((m) => m.content),
    };
  };
  const ok = async (p: Promise<{ errors?: unknown }>) => expect((await p).errors).toBeUndefined();

  it('undo and redo: the modes come back with the redone turn and stay on what was kept', async () => {
    const { id, raw } = await session(3);
    await set(raw, 0, 'EXCLUDED');
    await set(raw, 4, 'PINNED');
    await ok(t.http(ContextModePathsUndoDocument, { id }));
    expect((await state(id)).path).toEqual(['q0:EXCLUDED', 'a0:DEFAULT', 'q1:DEFAULT', 'a1:DEFAULT']);
    await ok(t.http(ContextModePathsRedoDocument, { id }));
    const s = await state(id);
    expect(s.path).toEqual(['q0:EXCLUDED', 'a0:DEFAULT', 'q1:DEFAULT', 'a1:DEFAULT', 'q2:PINNED', 'a2:DEFAULT']);
    expect(s.sent).not.toContain('q0');
    expect(s.sent).toContain('q2');
  });

  it('an edit starts a new path; switching back to the original brings its modes back', async () => {
    const { id, raw } = await session(2);
    await set(raw, 1, 'EXCLUDED');
    await set(raw, 2, 'PINNED');
    t.fake.enqueue({ text: 'fresh answer' });
    const past = await t.app.bus.replay(raw, '0');
    const sub = t.subscribe(SESSION_EVENTS, { sessionId: id, after: past.at(-1)?.eventId ?? '0' });
    try {
      await ok(t.http(ContextModePathsEditDocument, { m: await idAt(raw, 2), c: 'q1 edited' }));
      await sub.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed'));
    } finally {
      sub.dispose();
    }
    const edited = await state(id);
    // the edit is a new message (DEFAULT); what it shares with the original path keeps its mode
    expect(edited.path).toEqual(['q0:DEFAULT', 'a0:EXCLUDED', 'q1 edited:DEFAULT', 'fresh answer:DEFAULT']);
    expect(edited.sent).not.toContain('a0');
    await ok(t.http(ContextModePathsSwitchDocument, { m: await idAt(raw, 2), i: 0 }));
    expect((await state(id)).path).toEqual(['q0:DEFAULT', 'a0:EXCLUDED', 'q1:PINNED', 'a1:DEFAULT']);
    await ok(t.http(ContextModePathsSwitchDocument, { m: await idAt(raw, 2), i: 1 }));
    expect((await state(id)).path).toEqual(['q0:DEFAULT', 'a0:EXCLUDED', 'q1 edited:DEFAULT', 'fresh answer:DEFAULT']);
  });

  it('forkSession keeps PINNED and EXCLUDED', async () => {
    const { id, raw } = await session(2);
    await set(raw, 0, 'EXCLUDED');
    await set(raw, 2, 'PINNED');
    const f = await t.http(ContextModePathsForkDocument, { id });
    expect(f.errors).toBeUndefined();
    const s = await state(f.data!.forkSession.id);
    expect(s.path).toEqual(['q0:EXCLUDED', 'a0:DEFAULT', 'q1:PINNED', 'a1:DEFAULT']);
    expect(s.sent).not.toContain('q0');
  });

  it('exportSession / importSession carry the modes, on the current path and on a saved branch', async () => {
    const { id, raw } = await session(2);
    await set(raw, 0, 'EXCLUDED');
    await set(raw, 2, 'PINNED');
    // undo: the pinned turn now lives on a saved branch (redo's), exported with the branch
    await ok(t.http(ContextModePathsUndoDocument, { id }));
    const e = await t.http(ContextModePathsExportDocument, { id });
    expect(e.errors).toBeUndefined();
    const data = e.data!.session!.export;
    const doc = JSON.parse(data) as { messages: { content: string; metadata: Record<string, unknown> }[] };
    expect(doc.messages.find((m) => m.content === 'q0')!.metadata.contextMode).toBe('EXCLUDED');
    const imported = await t.http(ContextModePathsImportDocument, { data });
    expect(imported.errors).toBeUndefined();
    const copy = imported.data!.importSession.id;
    let s = await state(copy);
    expect(s.path).toEqual(['q0:EXCLUDED', 'a0:DEFAULT']);
    expect(s.sent).not.toContain('q0');
    await ok(t.http(ContextModePathsRedoDocument, { id: copy }));
    s = await state(copy);
    expect(s.path).toEqual(['q0:EXCLUDED', 'a0:DEFAULT', 'q1:PINNED', 'a1:DEFAULT']);
  });

  it('an export written before the modes (no contextMode in metadata) imports as DEFAULT', async () => {
    const { id, raw } = await session(1);
    await set(raw, 0, 'EXCLUDED');
    const e = await t.http(ContextModePathsExportDocument, { id });
    expect(e.errors).toBeUndefined();
    const doc = JSON.parse(e.data!.session!.export) as { messages: { metadata: Record<string, unknown> }[] };
    for (const m of doc.messages) delete m.metadata.contextMode;
    const imported = await t.http(ContextModePathsImportDocument, { data: JSON.stringify(doc) });
    expect(imported.errors).toBeUndefined();
    const s = await state(imported.data!.importSession.id);
    expect(s.path).toEqual(['q0:DEFAULT', 'a0:DEFAULT']);
    expect(s.sent).toContain('q0');
  });
});
