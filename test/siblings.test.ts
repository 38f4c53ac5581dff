/**
 * Edit and regenerate at any message, keeping siblings: editMessage,
 * regenerate, Message.siblings, switchSibling, over a real database with the
 * model faked at its HTTP boundary.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  SiblingsCreateSessionDocument,
  SiblingsEditDocument,
  type SiblingsEditMutation,
  SiblingsExportDocument,
  SiblingsImportDocument,
  SiblingsMarkBranchDocument,
  SiblingsMemorySearchDocument,
  SiblingsPageDocument,
  type SiblingsPageQuery,
  SiblingsRedoDocument,
  SiblingsRegenerateDocument,
  SiblingsSavedDocument,
  type SiblingsSavedSubscription,
  SiblingsSearchDocument,
  SiblingsSendDocument,
  SiblingsSiblingsDocument,
  SiblingsSwitchDocument,
  SiblingsUndoDocument,
  SiblingsUpsertProfileDocument,
} from './generated/graphql.js';
import {
  codeOf,
  createTestServer,
  dbKind,
  type GqlResult,
  SESSION_EVENTS,
  type ServerContext,
  type SessionEvent,
} from './support/harness.js';
import { gate, messagesOf } from './support/fake-provider.js';
import { expectInvariants } from './support/editing.js';
import { COMPACT, exchanges, isSummaryCall, isSummaryRequest } from './support/compression.js';

let t: ServerContext;
let alice: string;
let bob: string;
beforeAll(async () => {
  t = await createTestServer({ authEnabled: true, titleGenerationEnabled: false });
  alice = (await t.app.auth.createUser('alice', { admin: true })).key;
  bob = (await t.app.auth.createUser('bob')).key;
});
afterAll(() => t.close());
afterEach(() => {
  t.fake.responder = undefined;
});

const gql = <R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables: V, token = alice) =>
  t.http(document, variables, token);
const rawOf = (id: string) => Buffer.from(id, 'base64').toString().slice('Session:'.length);
/** The old positional id form (`Message:<session>:<seq>`), which named whatever sat at that position. */
const positionalId = (raw: string, seq: number) => Buffer.from(`Message:${raw}:${seq}`).toString('base64');
/** The id of the message at `seq` on the active path now (what a client that just read the history holds). */
async function messageId(raw: string, seq: number): Promise<string> {
  const where = { sessionId_sequenceNumber: { sessionId: raw, sequenceNumber: seq } };
  const row =
    (await t.app.db.prisma.sessionMessage.findUnique({ where })) ??
    (await t.app.db.prisma.sessionMessageArchive.findUnique({ where }));
  expect(row, `a message at ${seq}`).toBeTruthy();
  return Buffer.from(`Message:${raw}:${row!.messageId}`).toString('base64');
}
const ended = (es: SessionEvent[]) => es.some((e) => e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed');

const EDIT = SiblingsEditDocument;
const REGEN = SiblingsRegenerateDocument;
const SWITCH = SiblingsSwitchDocument;
const SIBLINGS = SiblingsSiblingsDocument;
const PAGE = SiblingsPageDocument;
/** What editMessage and regenerate answer. */
type Payload = SiblingsEditMutation['editMessage'];
/** A session as PAGE selects it. */
type Page = NonNullable<SiblingsPageQuery['session']>;

async function session(opts: { profileId?: string } = {}): Promise<{ id: string; raw: string }> {
  const r = await gql(SiblingsCreateSessionDocument, { p: opts.profileId ?? null });
  expect(r.errors).toBeUndefined();
  const id = r.data!.createSession.id;
  return { id, raw: rawOf(id) };
}

/** `n` exchanges q{i} / answer to q{i}, written as a finished conversation. */
async function turns(raw: string, n: number, prefix = 'q') {
  const rows = [];
  for (let i = 0; i < n; i++)
    rows.push(
      { role: 'user' as const, content: `${prefix}${i}` },
      { role: 'assistant' as const, content: `answer to ${prefix}${i}` },
    );
  await t.app.store.append(raw, rows);
}

async function page(id: string): Promise<Page> {
  const r = await gql(PAGE, { id });
  expect(r.errors).toBeUndefined();
  return r.data!.session!;
}
const texts = (p: Page): string[] => p.history.edges.map((e) => e.node.content);

async function siblingsOf(raw: string, seq: number) {
  const r = await gql(SIBLINGS, { m: await messageId(raw, seq) });
  expect(r.errors).toBeUndefined();
  const node = r.data!.node!;
  return 'siblings' in node ? node.siblings : undefined;
}

/** Runs `action` with alice's subscription to the session's events open; returns once `until` holds. */
async function withEvents<R>(
  _t: ServerContext,
  id: string,
  action: () => Promise<GqlResult<R>>,
  until: (es: SessionEvent[]) => boolean,
) {
  const past = await t.app.bus.replay(rawOf(id), '0');
  const sub = t.subscribe(SESSION_EVENTS, { sessionId: id, after: past.at(-1)?.eventId ?? '0' }, alice);
  try {
    const result = await action();
    if (result?.errors) return { result, events: sub.events };
    return { result, events: [...(await sub.waitFor(until, 30_000))] };
  } finally {
    sub.dispose();
  }
}

/** Runs an edit / regenerate and waits for its turn to end; returns the payload and the model request it caused. */
async function runTurn<V extends Record<string, unknown>>(
  id: string,
  document: TypedDocumentNode<Record<string, Payload>, V>,
  variables: V,
) {
  const before = t.fake.requests.length;
  const { result, events } = await withEvents(t, id, () => gql(document, variables), ended);
  expect(result.errors).toBeUndefined();
  expect(events.some((e) => e.__typename === 'TurnEnded')).toBe(true);
  const requests = t.fake.requests.slice(before);
  return { payload: Object.values(result.data!)[0]!, request: requests.at(-1) };
}

const requestTexts = (body: unknown): string[] =>
  messagesOf(body)
    .filter((m) => m.role !== 'system')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));

describe(`editMessage and switchSibling (${dbKind})`, () => {
  it('edits the first user message of a 3-turn session: a sibling, the model sees only the new branch', async () => {
    const { id, raw } = await session();
    await turns(raw, 3);
    const old = await page(id);
    expect(old.history.edges[0].node.siblings).toEqual({ index: 0, count: 1 });

    t.fake.enqueue({ text: 'fresh answer' });
    const { payload, request } = await runTurn(id, EDIT, { m: await messageId(raw, 0), c: 'q0 edited' });
    expect(payload.userMessage).toMatchObject({
      sequenceNumber: 0,
      role: 'USER',
      content: 'q0 edited',
      siblings: { index: 1, count: 2 },
    });
    // the provider's request holds the new branch only: not the replaced message, nothing after it
    expect(requestTexts(request)).toEqual(['q0 edited']);

    const edited = await page(id);
    expect(texts(edited)).toEqual(['q0 edited', 'fresh answer']);
    expect(edited.context.map((m) => m.content)).toEqual(['q0 edited', 'fresh answer']);
    expect(edited.branches).toEqual([{ name: 'branch 1', messageCount: 6 }]);
    expect(edited.history.edges.map((e) => e.node.siblings)).toEqual([
      { index: 1, count: 2 },
      { index: 0, count: 1 },
    ]);
    await expectInvariants(t, raw);

    // back to the original: the old branch's history page exactly as it was
    expect((await gql(SWITCH, { m: await messageId(raw, 0), i: 0 })).errors).toBeUndefined();
    const back = await page(id);
    const { branches: _b, ...rest } = back;
    const { branches: _o, ...oldRest } = old;
    expect({ ...rest, history: { ...rest.history, edges: rest.history.edges.map(noSiblings) } }).toEqual({
      ...oldRest,
      history: { ...oldRest.history, edges: oldRest.history.edges.map(noSiblings) },
    });
    expect(back.history.edges[0].node.siblings).toEqual({ index: 0, count: 2 });
    expect(back.branches).toEqual([{ name: 'branch 2', messageCount: 2 }]);
    await expectInvariants(t, raw);

    // and forth again
    expect((await gql(SWITCH, { m: await messageId(raw, 0), i: 1 })).errors).toBeUndefined();
    expect(texts(await page(id))).toEqual(['q0 edited', 'fresh answer']);
    // the current index is a no-op
    expect((await gql(SWITCH, { m: await messageId(raw, 0), i: 1 })).errors).toBeUndefined();
    expect(texts(await page(id))).toEqual(['q0 edited', 'fresh answer']);
    for (const i of [2, -1]) {
      const r = await gql(SWITCH, { m: await messageId(raw, 0), i });
      expect(codeOf(r)).toBe('BAD_USER_INPUT');
    }
    expect(codeOf(await gql(SWITCH, { m: await messageId(raw, 1), i: 1 }))).toBe('BAD_USER_INPUT');
  });

  it('edits a middle message: the prefix is kept, the context is the prefix and the edit', async () => {
    const { id, raw } = await session();
    await turns(raw, 3);
    t.fake.enqueue({ text: 'another take' });
    const { payload, request } = await runTurn(id, EDIT, { m: await messageId(raw, 2), c: 'q1 again' });
    expect(payload.userMessage.siblings).toEqual({ index: 1, count: 2 });
    expect(requestTexts(request)).toEqual(['q0', 'answer to q0', 'q1 again']);
    expect(texts(await page(id))).toEqual(['q0', 'answer to q0', 'q1 again', 'another take']);
    expect(await siblingsOf(raw, 0)).toEqual({ index: 0, count: 1 });
    await expectInvariants(t, raw);
  });

  it('undo / redo still work after an edit; the old branch stays reachable', async () => {
    const { id, raw } = await session();
    await turns(raw, 2);
    t.fake.enqueue({ text: 'new reply' });
    await runTurn(id, EDIT, { m: await messageId(raw, 2), c: 'q1 rewritten' });
    const undo = await gql(SiblingsUndoDocument, { id });
    expect(undo.errors).toBeUndefined();
    expect(texts(await page(id))).toEqual(['q0', 'answer to q0']);
    expect((await gql(SiblingsRedoDocument, { id })).errors).toBeUndefined();
    expect(texts(await page(id))).toEqual(['q0', 'answer to q0', 'q1 rewritten', 'new reply']);
    expect(await siblingsOf(raw, 2)).toEqual({ index: 1, count: 2 });
    expect((await gql(SWITCH, { m: await messageId(raw, 2), i: 0 })).errors).toBeUndefined();
    expect(texts(await page(id))).toEqual(['q0', 'answer to q0', 'q1', 'answer to q1']);
    await expectInvariants(t, raw);
  });
});

const noSiblings = (e: Page['history']['edges'][number]) => ({ ...e, node: { ...e.node, siblings: undefined } });

describe(`regenerate (${dbKind})`, () => {
  it('regenerates twice: 3 sibling answers to the same user message, switch among them', async () => {
    const { id, raw } = await session();
    await turns(raw, 2);
    t.fake.enqueue({ text: 'second take' });
    const first = await runTurn(id, REGEN, { m: await messageId(raw, 3) });
    expect(first.payload.userMessage).toMatchObject({ sequenceNumber: 2, content: 'q1' });
    expect(requestTexts(first.request)).toEqual(['q0', 'answer to q0', 'q1']);
    expect(await siblingsOf(raw, 3)).toEqual({ index: 1, count: 2 });
    t.fake.enqueue({ text: 'third take' });
    const second = await runTurn(id, REGEN, { m: await messageId(raw, 3) });
    expect(requestTexts(second.request)).toEqual(['q0', 'answer to q0', 'q1']);
    expect(texts(await page(id))).toEqual(['q0', 'answer to q0', 'q1', 'third take']);
    expect(await siblingsOf(raw, 3)).toEqual({ index: 2, count: 3 });
    // the user message and the earlier turn have no alternative
    expect(await siblingsOf(raw, 2)).toEqual({ index: 0, count: 1 });
    expect(await siblingsOf(raw, 1)).toEqual({ index: 0, count: 1 });

    const answers = ['answer to q1', 'second take', 'third take'];
    for (const i of [0, 1, 2, 1, 0]) {
      expect((await gql(SWITCH, { m: await messageId(raw, 3), i })).errors).toBeUndefined();
      const p = await page(id);
      expect(texts(p)).toEqual(['q0', 'answer to q0', 'q1', answers[i]]);
      expect(p.history.edges[3].node.siblings).toEqual({ index: i, count: 3 });
      expect(p.context.map((m) => m.content)).toEqual(texts(p));
      await expectInvariants(t, raw);
    }
    expect((await page(id)).branches).toHaveLength(2);
  });

  it('siblings of a message with none is {0, 1}, in a session with and without branches', async () => {
    const { id, raw } = await session();
    await turns(raw, 1);
    expect(await siblingsOf(raw, 0)).toEqual({ index: 0, count: 1 });
    expect(await siblingsOf(raw, 1)).toEqual({ index: 0, count: 1 });
    await gql(SiblingsMarkBranchDocument, { id });
    expect(await siblingsOf(raw, 1)).toEqual({ index: 0, count: 1 });
    expect((await page(id)).history.edges.map((e) => e.node.siblings)).toEqual([
      { index: 0, count: 1 },
      { index: 0, count: 1 },
    ]);
  });
});

describe(`refusals (${dbKind})`, () => {
  it('wrong role, unknown position, another user, malformed id, empty text: refused, nothing written', async () => {
    const { id, raw } = await session();
    await turns(raw, 2);
    const before = await page(id);
    const requests = t.fake.requests.length;
    expect(codeOf(await gql(EDIT, { m: await messageId(raw, 1), c: 'x' }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await gql(REGEN, { m: await messageId(raw, 0) }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await gql(EDIT, { m: await messageId(raw, 0), c: '   ' }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await gql(EDIT, { m: positionalId(raw, 99), c: 'x' }))).toBe('NOT_FOUND');
    expect(codeOf(await gql(REGEN, { m: positionalId(raw, 99) }))).toBe('NOT_FOUND');
    expect(codeOf(await gql(EDIT, { m: await messageId(raw, 0), c: 'x' }, bob))).toBe('NOT_FOUND');
    expect(codeOf(await gql(REGEN, { m: await messageId(raw, 1) }, bob))).toBe('NOT_FOUND');
    expect(codeOf(await gql(SWITCH, { m: await messageId(raw, 0), i: 0 }, bob))).toBe('NOT_FOUND');
    expect(codeOf(await gql(SIBLINGS, { m: await messageId(raw, 0) }, bob))).toBeUndefined();
    expect((await gql(SIBLINGS, { m: await messageId(raw, 0) }, bob)).data!.node).toBeNull();
    for (const m of ['nope', Buffer.from(`Session:${raw}`).toString('base64'), positionalId(raw, -1)]) {
      expect(codeOf(await gql(EDIT, { m, c: 'x' }))).toBe('BAD_USER_INPUT');
      expect(codeOf(await gql(REGEN, { m }))).toBe('BAD_USER_INPUT');
    }
    // an agent note is not the user's words
    await t.app.store.append(raw, [{ role: 'user', content: 'note', isAgentNote: true, isDisplay: false }]);
    expect(codeOf(await gql(EDIT, { m: await messageId(raw, 4), c: 'x' }))).toBe('BAD_USER_INPUT');
    const after = await page(id);
    expect(after.history).toEqual(before.history);
    expect(after.branches).toEqual([]);
    expect(t.fake.requests.length).toBe(requests);
  });

  it('a subscription kept open across two regenerates sees each saved answer with its current siblings', async () => {
    const { id, raw } = await session();
    await turns(raw, 2);
    const SAVED = SiblingsSavedDocument;
    const past = await t.app.bus.replay(raw, '0');
    const sub = t.subscribe(SAVED, { sessionId: id, after: past.at(-1)?.eventId ?? '0' }, alice);
    try {
      type Saved = SiblingsSavedSubscription['sessionEvents'];
      const endedTurns = (n: number) => (es: readonly Saved[]) =>
        es.filter((e) => e.__typename === 'TurnEnded').length >= n;
      const answers = (es: readonly Saved[]) =>
        es
          .map((e) => (e.__typename === 'MessageSaved' ? e.message : undefined))
          .filter((m) => m?.role === 'ASSISTANT')
          .map((m) => m!.siblings);
      t.fake.enqueue({ text: 'second take' });
      expect((await gql(REGEN, { m: await messageId(raw, 3) })).errors).toBeUndefined();
      await sub.waitFor(endedTurns(1), 30_000);
      t.fake.enqueue({ text: 'third take' });
      expect((await gql(REGEN, { m: await messageId(raw, 3) })).errors).toBeUndefined();
      const events = await sub.waitFor(endedTurns(2), 30_000);
      // one context for the subscription's whole life: each event's siblings are read afresh
      expect(answers(events)).toEqual([
        { index: 1, count: 2 },
        { index: 2, count: 3 },
      ]);
    } finally {
      sub.dispose();
    }
  });

  it('while a turn runs: edit, regenerate and switchSibling answer CONFLICT and write nothing', async () => {
    const { id, raw } = await session();
    await turns(raw, 1);
    const g = gate();
    t.fake.enqueue({ text: 'slow', gate: g.promise });
    const before = t.fake.requests.length;
    const { result, events } = await withEvents(
      t,
      id,
      async () => {
        const sent = await gql(SiblingsSendDocument, { input: { sessionId: id, content: 'q1' } });
        await t.fake.waitForRequests(before + 1);
        expect(codeOf(await gql(EDIT, { m: await messageId(raw, 0), c: 'x' }))).toBe('CONFLICT');
        expect(codeOf(await gql(REGEN, { m: await messageId(raw, 1) }))).toBe('CONFLICT');
        expect(codeOf(await gql(SWITCH, { m: await messageId(raw, 0), i: 0 }))).toBe('CONFLICT');
        g.open();
        return sent;
      },
      ended,
    );
    expect(result.errors).toBeUndefined();
    expect(events.some((e) => e.__typename === 'TurnEnded')).toBe(true);
    const p = await page(id);
    expect(texts(p)).toEqual(['q0', 'answer to q0', 'q1', 'slow']);
    expect(p.branches).toEqual([]);
  });
});

describe(`siblings and the rest of the system (${dbKind})`, () => {
  it('a forced compaction on the new branch does not pull in the other branch', async () => {
    const key = `sib_${randomBytes(4).toString('hex')}`;
    const profile = await gql(SiblingsUpsertProfileDocument, {
      i: { key, name: key, model: `model-${key}`, provider: 'ollama', contextWindow: 2048, compressionKeepRecent: 2 },
    });
    expect(profile.errors).toBeUndefined();
    const { id, raw } = await session({ profileId: profile.data!.upsertProfile.id });
    await t.app.store.append(raw, exchanges(3, 100, 'oldbranch'));
    t.fake.enqueue({ text: 'newbranch 0 answer' });
    await runTurn(id, EDIT, { m: await messageId(raw, 0), c: 'newbranch 0 question' });
    await t.app.store.append(raw, exchanges(5, 100, 'newbranch').slice(2));

    t.fake.responder = (call) => (isSummaryCall(call) ? { text: '- newbranch summary' } : { text: 'fine' });
    const before = t.fake.requests.length;
    const done = await t.http(COMPACT, { id }, alice);
    expect(done.errors).toBeUndefined();
    const summaryCalls = t.fake.requests.slice(before).filter((b) => isSummaryRequest(b));
    expect(summaryCalls.length).toBeGreaterThan(0);
    for (const call of summaryCalls) {
      expect(JSON.stringify(call)).toContain('newbranch');
      expect(JSON.stringify(call)).not.toContain('oldbranch');
    }
    const chunks = await t.app.db.prisma.memoryChunk.findMany({ where: { sessionId: raw } });
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((c) => !c.content.includes('oldbranch'))).toBe(true);
    const hits = await gql(SiblingsMemorySearchDocument, {
      q: 'oldbranch',
      s: id,
    });
    expect(hits.errors).toBeUndefined();
    expect(hits.data!.memorySearch).toEqual([]);
    // the context: the summary and the kept new-branch turns, no word of the old branch
    const p = await page(id);
    expect(p.context.every((m) => !m.content.includes('oldbranch'))).toBe(true);
    expect(p.contextTokens).toBeGreaterThan(0);
    // the display history is never compressed and the old branch is still whole
    expect(texts(p).filter((c) => c.startsWith('newbranch'))).toHaveLength(10);
    expect(p.branches).toEqual([{ name: 'branch 1', messageCount: 6 }]);
    await expectInvariants(t, raw);
  });

  it('search finds the current branch only (as after switchBranch); a switch back finds the old text', async () => {
    const { id, raw } = await session();
    await t.app.store.append(raw, [
      { role: 'user', content: 'zebracorn origin' },
      { role: 'assistant', content: 'about zebracorns' },
    ]);
    t.fake.enqueue({ text: 'about okapis' });
    await runTurn(id, EDIT, { m: await messageId(raw, 0), c: 'okapicorn rewrite' });
    const SEARCH = SiblingsSearchDocument;
    const found = async (q: string) =>
      (await gql(SEARCH, { q })).data!.sessions.edges.filter((e) => e.node.id === id).length;
    expect(await found('okapicorn')).toBe(1);
    expect(await found('zebracorn')).toBe(0);
    expect((await gql(SWITCH, { m: await messageId(raw, 0), i: 0 })).errors).toBeUndefined();
    expect(await found('zebracorn')).toBe(1);
    expect(await found('okapicorn')).toBe(0);
  });

  it('export / import keeps the siblings (they are branches)', async () => {
    const { id, raw } = await session();
    await turns(raw, 2);
    t.fake.enqueue({ text: 'retake' });
    await runTurn(id, REGEN, { m: await messageId(raw, 3) });
    const exported = await gql(SiblingsExportDocument, { id });
    expect(exported.errors).toBeUndefined();
    const imported = await gql(SiblingsImportDocument, { d: exported.data!.session!.export });
    expect(imported.errors).toBeUndefined();
    const copy = rawOf(imported.data!.importSession.id);
    expect(await siblingsOf(copy, 3)).toEqual({ index: 1, count: 2 });
    expect((await gql(SWITCH, { m: await messageId(copy, 3), i: 0 })).errors).toBeUndefined();
    expect(texts(await page(imported.data!.importSession.id))).toEqual(['q0', 'answer to q0', 'q1', 'answer to q1']);
  });
});
