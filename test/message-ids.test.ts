/**
 * Issue 31 item 4: stable message identity. Each stored message version has an id for life
 * (`Message:<session>:<uuid>`): it survives undo / redo, revert, branch and sibling switches and the archive; a new
 * version (edit, regenerate) gets a new one, so two siblings never share an id (two Apollo cache entries). An edit,
 * regenerate or sibling switch naming a message that is no longer on the current path answers CONFLICT with the
 * current path's message id at that place, and acts on nothing. Real database, the model faked at its HTTP boundary.
 */
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MessageIdsCreateSessionDocument,
  MessageIdsEditDocument,
  MessageIdsForkDocument,
  MessageIdsHistoryDocument,
  type MessageIdsHistoryQuery,
  MessageIdsNodeDocument,
  MessageIdsRedoDocument,
  MessageIdsRegenerateDocument,
  MessageIdsRevertDocument,
  MessageIdsSendDocument,
  MessageIdsSwitchDocument,
  MessageIdsTurnDocument,
  MessageIdsUndoDocument,
} from './generated/graphql.js';
import { codeOf, createTestServer, dbKind, eventually, type GqlResult, type ServerContext } from './support/harness.js';

let t: ServerContext;
let alice: string;
beforeAll(async () => {
  t = await createTestServer({ authEnabled: true, titleGenerationEnabled: false });
  alice = (await t.app.auth.createUser('alice')).key;
}, 120_000);
afterAll(() => t.close());
afterEach(() => {
  t.fake.responder = undefined;
});

type Row = NonNullable<MessageIdsHistoryQuery['session']>['history']['edges'][number]['node'];

const rawOf = (id: string) => Buffer.from(id, 'base64').toString().slice('Session:'.length);
const decoded = (id: string) => Buffer.from(id, 'base64').toString();
const positionalId = (raw: string, seq: number) => Buffer.from(`Message:${raw}:${seq}`).toString('base64');
const extensionsOf = (r: GqlResult<unknown>) => r.errors?.[0]?.extensions as Record<string, unknown> | undefined;

async function session(n: number): Promise<{ id: string; raw: string }> {
  const r = await t.http(MessageIdsCreateSessionDocument, {}, alice);
  expect(r.errors).toBeUndefined();
  const id = r.data!.createSession.id;
  const rows = [];
  for (let i = 0; i < n; i++)
    rows.push({ role: 'user' as const, content: `q${i}` }, { role: 'assistant' as const, content: `answer to q${i}` });
  await t.app.store.append(rawOf(id), rows);
  return { id, raw: rawOf(id) };
}

async function history(id: string): Promise<Row[]> {
  const r = await t.http(MessageIdsHistoryDocument, { id }, alice);
  expect(r.errors).toBeUndefined();
  return r.data!.session!.history.edges.map((e) => e.node);
}
const ids = (rows: Row[]) => rows.map((r) => r.id);
const texts = (rows: Row[]) => rows.map((r) => r.content);

/** Waits until the turn is no longer running (its answer saved). */
async function turnEnded(turnId: string) {
  await eventually(
    () => t.http(MessageIdsTurnDocument, { t: turnId }, alice),
    (r) => {
      const node = r.data?.node;
      return !!node && 'status' in node && !['RUNNING', 'QUEUED', 'WAITING_FOR_TOOL'].includes(node.status);
    },
    30_000,
  );
}

describe(`message ids for life (${dbKind})`, () => {
  it('are `Message:<session>:<uuid>`, distinct, and kept through undo / redo and revert / redo', async () => {
    const { id, raw } = await session(2);
    const before = await history(id);
    expect(new Set(ids(before)).size).toBe(4);
    for (const m of before) expect(decoded(m.id)).toMatch(new RegExp(`^Message:${raw}:[0-9a-f-]{36}$`));

    expect((await t.http(MessageIdsUndoDocument, { id }, alice)).errors).toBeUndefined();
    expect(ids(await history(id))).toEqual(ids(before).slice(0, 2));
    expect((await t.http(MessageIdsRedoDocument, { id }, alice)).errors).toBeUndefined();
    expect(await history(id)).toEqual(before);

    expect((await t.http(MessageIdsRevertDocument, { id, s: 0 }, alice)).errors).toBeUndefined();
    const reverted = ids(await history(id));
    expect(reverted.length).toBeLessThan(4);
    expect(reverted).toEqual(ids(before).slice(0, reverted.length));
    expect((await t.http(MessageIdsRedoDocument, { id }, alice)).errors).toBeUndefined();
    expect(await history(id)).toEqual(before);
  });

  it('kept when rows move to the archive; node(id:) finds them there', async () => {
    const { id, raw } = await session(2);
    const before = await history(id);
    expect(await t.app.store.archiveOldMessages(raw, 2)).toBe(2);
    const after = await history(id);
    expect(after.map((m) => m.archived)).toEqual([true, true, false, false]);
    expect(ids(after)).toEqual(ids(before));
    const node = await t.http(MessageIdsNodeDocument, { m: before[0]!.id }, alice);
    expect(node.data!.node).toEqual({ id: before[0]!.id, sequenceNumber: 0, content: 'q0' });
  });

  it('regenerate makes a new id; switching siblings brings each version back with its own id', async () => {
    const { id } = await session(2);
    const before = await history(id);
    t.fake.enqueue({ text: 'second take' });
    const regen = await t.http(MessageIdsRegenerateDocument, { m: before[3]!.id }, alice);
    expect(regen.errors).toBeUndefined();
    await turnEnded(regen.data!.regenerate.turn.id);
    const regenerated = await history(id);
    expect(texts(regenerated)).toEqual(['q0', 'answer to q0', 'q1', 'second take']);
    expect(ids(regenerated).slice(0, 3)).toEqual(ids(before).slice(0, 3));
    const newAnswer = regenerated[3]!.id;
    expect(newAnswer).not.toBe(before[3]!.id);
    expect(regenerated[3]!.siblings).toEqual({ index: 1, count: 2 });

    for (const [i, expected] of [
      [0, before[3]!],
      [1, regenerated[3]!],
      [0, before[3]!],
    ] as const) {
      const current = (await history(id))[3]!.id;
      expect((await t.http(MessageIdsSwitchDocument, { m: current, i }, alice)).errors).toBeUndefined();
      const row = (await history(id))[3]!;
      expect({ id: row.id, content: row.content }).toEqual({ id: expected.id, content: expected.content });
    }
  });

  it('an edit is a new version with a new id; a fork keeps the uuids under its own session id', async () => {
    const { id, raw } = await session(2);
    const before = await history(id);
    t.fake.enqueue({ text: 'answer to the edit' });
    const edit = await t.http(MessageIdsEditDocument, { m: before[2]!.id, c: 'q1 edited' }, alice);
    expect(edit.errors).toBeUndefined();
    await turnEnded(edit.data!.editMessage.turn.id);
    const edited = await history(id);
    expect(edit.data!.editMessage.userMessage).toEqual({ id: edited[2]!.id, sequenceNumber: 2, content: 'q1 edited' });
    expect(new Set([...ids(before), ...ids(edited)]).size).toBe(6);
    // the replaced message is in a branch: no longer a node of the current path
    expect((await t.http(MessageIdsNodeDocument, { m: before[2]!.id }, alice)).data!.node).toBeNull();

    const fork = await t.http(MessageIdsForkDocument, { id }, alice);
    expect(fork.errors).toBeUndefined();
    const forked = await history(fork.data!.forkSession.id);
    const forkRaw = rawOf(fork.data!.forkSession.id);
    expect(texts(forked)).toEqual(texts(edited));
    expect(forked.map((m) => decoded(m.id))).toEqual(
      edited.map((m) => decoded(m.id).replace(`Message:${raw}:`, `Message:${forkRaw}:`)),
    );
    expect(ids(forked).some((m) => ids(edited).includes(m))).toBe(false);
  });

  it('two siblings are two Apollo InMemoryCache entries, each with its own content', async () => {
    const { id } = await session(2);
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${t.url}/graphql`, headers: { authorization: `Bearer ${alice}` } }),
      cache: new InMemoryCache(),
    });
    const read = async () =>
      (await client.query({ query: MessageIdsHistoryDocument, variables: { id }, fetchPolicy: 'network-only' })).data!
        .session!.history.edges;
    const first = (await read())[3]!.node;
    t.fake.enqueue({ text: 'second take' });
    const regen = await t.http(MessageIdsRegenerateDocument, { m: first.id }, alice);
    expect(regen.errors).toBeUndefined();
    await turnEnded(regen.data!.regenerate.turn.id);
    const second = (await read())[3]!.node;
    expect(second.id).not.toBe(first.id);

    const cache = client.cache.extract() as Record<string, { content?: string }>;
    const answers = Object.entries(cache)
      .filter(([key, value]) => key.startsWith('Message:') && value.content !== undefined)
      .filter(([, value]) => ['answer to q1', 'second take'].includes(value.content!));
    expect(Object.fromEntries(answers)).toEqual({
      [`Message:${first.id}`]: expect.objectContaining({ content: 'answer to q1' }),
      [`Message:${second.id}`]: expect.objectContaining({ content: 'second take' }),
    });
    client.stop();
  });
});

describe(`a stale client (${dbKind})`, () => {
  it('edits, regenerates or switches at a message another client undid: CONFLICT with currentMessageId', async () => {
    const { id, raw } = await session(2);
    // client A reads the history and keeps the ids of q1 (position 2) and its answer (position 3)
    const seenByA = await history(id);
    const [aQuestion, aAnswer] = [seenByA[2]!.id, seenByA[3]!.id];

    // client B undoes the last turn and sends a message that lands at position 2
    expect((await t.http(MessageIdsUndoDocument, { id }, alice)).errors).toBeUndefined();
    t.fake.enqueue({ text: 'answer to B' });
    const sent = await t.http(MessageIdsSendDocument, { id, c: 'B wrote THIS instead' }, alice);
    expect(sent.errors).toBeUndefined();
    expect(sent.data!.sendMessage.userMessage.sequenceNumber).toBe(2);
    await turnEnded(sent.data!.sendMessage.turn.id);
    const current = await history(id);
    expect(texts(current)).toEqual(['q0', 'answer to q0', 'B wrote THIS instead', 'answer to B']);
    const bQuestion = sent.data!.sendMessage.userMessage.id;
    expect(current[2]!.id).toBe(bQuestion);
    expect(bQuestion).not.toBe(aQuestion);
    const requests = t.fake.requests.length;

    const edit = await t.http(MessageIdsEditDocument, { m: aQuestion, c: 'A edits q1' }, alice);
    expect(codeOf(edit)).toBe('CONFLICT');
    expect(extensionsOf(edit)?.currentMessageId).toBe(bQuestion);
    const regen = await t.http(MessageIdsRegenerateDocument, { m: aAnswer }, alice);
    expect(codeOf(regen)).toBe('CONFLICT');
    expect(extensionsOf(regen)?.currentMessageId).toBe(current[3]!.id);
    const sw = await t.http(MessageIdsSwitchDocument, { m: aQuestion, i: 0 }, alice);
    expect(codeOf(sw)).toBe('CONFLICT');
    expect(extensionsOf(sw)?.currentMessageId).toBe(bQuestion);
    // an old positional id names whatever sits there now: refused the same way, never acted on
    const positional = await t.http(MessageIdsEditDocument, { m: positionalId(raw, 2), c: 'A edits q1' }, alice);
    expect(codeOf(positional)).toBe('CONFLICT');
    expect(extensionsOf(positional)?.currentMessageId).toBe(bQuestion);

    // B's message and answer are intact; nothing was written and the model was not called
    expect(await history(id)).toEqual(current);
    expect(await t.app.db.prisma.sessionBranch.count({ where: { sessionId: raw } })).toBe(0);
    expect(t.fake.requests.length).toBe(requests);

    // the id from the refusal is the one to act on once the client has looked
    t.fake.enqueue({ text: 'answer to A' });
    const retry = await t.http(MessageIdsEditDocument, { m: bQuestion, c: 'A edits B' }, alice);
    expect(retry.errors).toBeUndefined();
    await turnEnded(retry.data!.editMessage.turn.id);
    expect(texts(await history(id))).toEqual(['q0', 'answer to q0', 'A edits B', 'answer to A']);
  });

  it('an old positional id still resolves through node(id:) to the message at that position', async () => {
    const { id, raw } = await session(1);
    const rows = await history(id);
    const node = await t.http(MessageIdsNodeDocument, { m: positionalId(raw, 1) }, alice);
    expect(node.data!.node).toEqual({ id: rows[1]!.id, sequenceNumber: 1, content: 'answer to q0' });
    expect((await t.http(MessageIdsNodeDocument, { m: positionalId(raw, 7) }, alice)).data!.node).toBeNull();
  });

  it('an id the session never held is NOT_FOUND; a malformed one BAD_USER_INPUT', async () => {
    const { raw } = await session(1);
    const unknown = Buffer.from(`Message:${raw}:${globalThis.crypto.randomUUID()}`).toString('base64');
    expect(codeOf(await t.http(MessageIdsEditDocument, { m: unknown, c: 'x' }, alice))).toBe('NOT_FOUND');
    expect(codeOf(await t.http(MessageIdsRegenerateDocument, { m: unknown }, alice))).toBe('NOT_FOUND');
    const bad = Buffer.from(`Message:${raw}:not-a-uuid`).toString('base64');
    expect(codeOf(await t.http(MessageIdsEditDocument, { m: bad, c: 'x' }, alice))).toBe('BAD_USER_INPUT');
  });
});
