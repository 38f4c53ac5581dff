/**
 * Pin and exclude one message (setMessageContext): the model view, tool pairing, the pin budget,
 * authorization, CONFLICT off the current path, the event, and forced compaction honour the mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageGlobalId } from '../src/domain/message-ids.js';
import type { NewMessage } from '../src/domain/types.js';
import {
  codeOf,
  createTestApp,
  createTestServer,
  dbKind,
  type ServerContext,
  type TestContext,
} from './support/harness.js';
import { COMPACT_DOC, PLAN_DOC, exchanges, isSummaryCall, profileSession, respond } from './support/compression.js';
import { rawId } from './support/editing.js';
import {
  ContextModeCreateDocument,
  ContextModeSetDocument,
  ContextModeStateDocument,
  SupportEditingForkDocument,
  SupportEditingUndoDocument,
} from './generated/graphql.js';

const messageId = async (app: TestContext['app'], raw: string, seq: number) => {
  const row = (await app.store.allMessages(raw)).find((m) => m.sequenceNumber === seq)!;
  return messageGlobalId({ sessionId: raw, messageId: row.messageId });
};

describe(`setMessageContext (${dbKind})`, () => {
  let t: TestContext;
  let alice: string;
  let bob: string;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ authEnabled: true, jwtSecret: 'context-mode-secret-0123456789abcdef' });
    alice = (await t.app.auth.createUser('alice')).key;
    bob = (await t.app.auth.createUser('bob')).key;
    admin = (await t.app.auth.createUser('root', { admin: true })).key;
  });
  afterAll(() => t.close());

  const session = async (rows: NewMessage[]) => {
    const r = await t.gql(ContextModeCreateDocument, { n: 'ctx' }, alice);
    const id = r.data!.createSession.id;
    const raw = rawId(id);
    await t.app.store.append(raw, rows);
    return { id, raw };
  };
  const view = async (id: string) => {
    const r = await t.gql(ContextModeStateDocument, { id }, alice);
    expect(r.errors).toBeUndefined();
    return r.data!.session!;
  };
  const set = (m: string, mode: 'DEFAULT' | 'PINNED' | 'EXCLUDED', token = alice) =>
    t.gql(ContextModeSetDocument, { m, mode }, token);

  it('EXCLUDED stays in the history but leaves the model view; DEFAULT brings it back; the event tells', async () => {
    const { id, raw } = await session(exchanges(2, 20));
    const m = await messageId(t.app, raw, 0);
    const r = await set(m, 'EXCLUDED');
    expect(r.errors).toBeUndefined();
    expect(r.data!.setMessageContext).toEqual({ id: m, contextMode: 'EXCLUDED' });
    let s = await view(id);
    expect(s.history.edges.map((e) => e.node.contextMode)).toEqual(['EXCLUDED', 'DEFAULT', 'DEFAULT', 'DEFAULT']);
    expect(s.history.edges[0]!.node.content).toMatch(/^turn 0 question/);
    expect(s.modelView.messages.some((x) => x.content.startsWith('turn 0 question'))).toBe(false);
    const events = await t.app.bus.replay(raw, '0');
    expect(events.find((e) => e.type === 'MessageContextChanged')).toMatchObject({
      mode: 'EXCLUDED',
      messageIds: [m],
    });
    expect((await set(m, 'DEFAULT')).errors).toBeUndefined();
    s = await view(id);
    expect(s.history.edges[0]!.node.contextMode).toBe('DEFAULT');
    expect(s.modelView.messages.some((x) => x.content.startsWith('turn 0 question'))).toBe(true);
  });

  it('a tool result takes its assistant message (and the reverse): pairing stays valid', async () => {
    const { id, raw } = await session([
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: {} }] },
      { role: 'tool', content: 'file body', toolCallId: 'c1', name: 'read_file' },
      { role: 'assistant', content: 'done' },
    ]);
    const r = await set(await messageId(t.app, raw, 2), 'EXCLUDED');
    expect(r.errors).toBeUndefined();
    let s = await view(id);
    expect(s.modelView.messages.some((x) => x.role === 'TOOL' || x.content === 'file body')).toBe(false);
    expect(s.modelView.messages.map((x) => x.content)).not.toContain('');
    const pinned = await set(await messageId(t.app, raw, 1), 'PINNED');
    expect(pinned.errors).toBeUndefined();
    s = await view(id);
    const rows = await t.app.store.allMessages(raw);
    expect(rows.map((m) => m.metadata.contextMode ?? 'DEFAULT')).toEqual(['DEFAULT', 'PINNED', 'PINNED', 'DEFAULT']);
    expect(s.modelView.messages.some((x) => x.toolCallId === 'c1')).toBe(true);
  });

  it('a tool pair ends at its own results: a call id that comes back in a later turn is not taken along', async () => {
    // A server that reuses one call id in every turn (`call_0`): a pair ends at its own results.
    const { raw } = await session([
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'read_file', arguments: {} }] },
      { role: 'tool', content: 'r1', toolCallId: 'call_0', name: 'read_file' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'read_file', arguments: {} }] },
      { role: 'tool', content: 'r2', toolCallId: 'call_0', name: 'read_file' },
      { role: 'assistant', content: 'a2' },
    ]);
    expect((await set(await messageId(t.app, raw, 1), 'EXCLUDED')).errors).toBeUndefined();
    const modes = (await t.app.store.allMessages(raw)).map((m) => m.metadata.contextMode ?? 'DEFAULT');
    expect(modes).toEqual(['DEFAULT', 'EXCLUDED', 'EXCLUDED', 'DEFAULT', 'DEFAULT', 'DEFAULT', 'DEFAULT', 'DEFAULT']);
    // Pinning the second turn's result from its side takes its own call, not the first turn's.
    expect((await set(await messageId(t.app, raw, 6), 'PINNED')).errors).toBeUndefined();
    const after = (await t.app.store.allMessages(raw)).map((m) => m.metadata.contextMode ?? 'DEFAULT');
    expect(after).toEqual(['DEFAULT', 'EXCLUDED', 'EXCLUDED', 'DEFAULT', 'DEFAULT', 'PINNED', 'PINNED', 'DEFAULT']);
    expect((await t.app.store.context(raw)).map((m) => m.content)).toContain('r2');
  });

  it('a fork keeps the modes (stored with the message)', async () => {
    const { id, raw } = await session(exchanges(2, 10));
    expect((await set(await messageId(t.app, raw, 0), 'EXCLUDED')).errors).toBeUndefined();
    const f = await t.gql(SupportEditingForkDocument, { id }, alice);
    expect(f.errors).toBeUndefined();
    const forked = await t.app.store.allMessages(rawId(f.data!.forkSession.id));
    expect(forked.map((m) => m.metadata.contextMode ?? 'DEFAULT')).toEqual([
      'EXCLUDED',
      'DEFAULT',
      'DEFAULT',
      'DEFAULT',
    ]);
    const v = await view(f.data!.forkSession.id);
    expect(v.modelView.messages.some((x) => x.content.startsWith('turn 0 question'))).toBe(false);
  });

  it('owner or admin only: another user gets NOT_FOUND and nothing changes; an admin may', async () => {
    const { raw } = await session(exchanges(1, 10));
    const m = await messageId(t.app, raw, 0);
    expect(codeOf(await set(m, 'EXCLUDED', bob))).toBe('NOT_FOUND');
    expect((await t.app.store.allMessages(raw))[0]!.metadata.contextMode).toBeUndefined();
    expect((await set(m, 'EXCLUDED', admin)).errors).toBeUndefined();
    expect((await t.app.store.allMessages(raw))[0]!.metadata.contextMode).toBe('EXCLUDED');
  });

  it('a message off the current path (undone) is CONFLICT', async () => {
    const { id, raw } = await session(exchanges(2, 10));
    const m = await messageId(t.app, raw, 2);
    expect((await t.gql(SupportEditingUndoDocument, { id }, alice)).errors).toBeUndefined();
    expect(codeOf(await set(m, 'PINNED'))).toBe('CONFLICT');
  });

  it('pinning more than the window holds after the output reserve is refused (CONTEXT_TOO_LARGE)', async () => {
    // each message is capped in the view (window / 6 tokens): it takes several to fill the window
    const rows: NewMessage[] = [];
    for (let i = 0; i < 10; i++)
      rows.push({ role: i % 2 === 0 ? 'user' : 'assistant', content: `big ${i} ${'word '.repeat(9000)}` });
    const { raw } = await session(rows);
    let refusedAt = -1;
    for (let i = 0; i < 10 && refusedAt < 0; i++) {
      const r = await set(await messageId(t.app, raw, i), 'PINNED');
      if (r.errors) {
        expect(codeOf(r)).toBe('CONTEXT_TOO_LARGE');
        refusedAt = i;
      }
    }
    expect(refusedAt).toBeGreaterThan(0);
    const modes = (await t.app.store.allMessages(raw)).map((m) => m.metadata.contextMode);
    expect(modes.slice(0, refusedAt).every((m) => m === 'PINNED')).toBe(true);
    expect(modes[refusedAt]).toBeUndefined();
  });
});

describe(`compaction honours pin and exclude (${dbKind})`, () => {
  let t: ServerContext;
  beforeAll(async () => {
    t = await createTestServer({ titleGenerationEnabled: false });
  });
  afterAll(() => t.close());

  it('the dry-run plan counts the PINNED rows among the messages it keeps (every strategy)', async () => {
    const s = await profileSession(t, { keepRecent: 2 });
    await t.app.store.append(s.raw, exchanges(6, 200));
    for (const seq of [1, 3]) {
      const m = await messageId(t.app, s.raw, seq);
      expect((await t.http(ContextModeSetDocument, { m, mode: 'PINNED' })).errors).toBeUndefined();
    }
    const context = (await t.app.store.context(s.raw)).length;
    for (const strategy of ['SUMMARY', 'FULL_REPLACE', 'LOCAL'] as const) {
      const plan = (await t.http(PLAN_DOC, { id: s.id, s: strategy })).data!.compressionPlan;
      expect(plan.wouldCompress, strategy).toBe(true);
      expect(plan.messagesToSummarize + plan.messagesToKeep, strategy).toBe(context);
    }
  });

  it('a PINNED message is neither summarised nor dropped; an EXCLUDED one is not sent to the summarizer', async () => {
    const s = await profileSession(t, { keepRecent: 2 });
    await t.app.store.append(s.raw, exchanges(6, 200));
    const pin = await messageId(t.app, s.raw, 2);
    const ex = await messageId(t.app, s.raw, 4);
    expect((await t.http(ContextModeSetDocument, { m: pin, mode: 'PINNED' })).errors).toBeUndefined();
    expect((await t.http(ContextModeSetDocument, { m: ex, mode: 'EXCLUDED' })).errors).toBeUndefined();
    const plan = await t.http(PLAN_DOC, { id: s.id });
    expect(plan.data!.compressionPlan.wouldCompress).toBe(true);
    respond(t, '- summary of the old turns');
    const before = t.fake.calls.length;
    const r = await t.http(COMPACT_DOC, { id: s.id });
    expect(r.errors).toBeUndefined();
    const summaryCalls = t.fake.calls.slice(before).filter(isSummaryCall);
    expect(summaryCalls.length).toBeGreaterThan(0);
    const sent = JSON.stringify(summaryCalls.map((c) => c.body));
    expect(sent).not.toContain('turn 1 question');
    expect(sent).not.toContain('turn 2 question');
    expect(sent).toContain('turn 0 question');
    const v = (await t.http(ContextModeStateDocument, { id: s.id })).data!.session!;
    const contents = v.modelView.messages.map((m) => m.content);
    expect(contents.some((c) => c.startsWith('turn 1 question'))).toBe(true);
    expect(contents.some((c) => c.startsWith('turn 2 question'))).toBe(false);
    expect(contents.some((c) => c.includes('summary of the old turns'))).toBe(true);
  });
});
