/**
 * Double-texting (sendMessage whileRunning) in one process, on the test
 * database (PGlite, or PostgreSQL with TEST_DATABASE_URL), the provider faked
 * at its HTTP boundary: REJECT answers CONFLICT; QUEUE runs messages after
 * the running turn, in order, visible in Session.queuedMessages and
 * cancellable; INTERRUPT cancels the running turn (partial kept) and starts
 * the new one; STEER joins the running turn after its tool results, before
 * its next model call (the fake enforces OpenAI's and Anthropic's pairing
 * rules), and becomes the next turn when no further call comes; another user
 * can neither queue nor cancel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DoubleTextingCancelDocument,
  DoubleTextingCreateSessionDocument,
  type DoubleTextingEventsSubscription,
  DoubleTextingEventsDocument,
  DoubleTextingHistoryDocument,
  DoubleTextingNodeDocument,
  DoubleTextingProfilesDocument,
  DoubleTextingQueuedDocument,
  type DoubleTextingSendMutation,
  DoubleTextingSendDocument,
  DoubleTextingSubmitToolResultDocument,
  DoubleTextingTurnStatesDocument,
  DoubleTextingUpsertProfileDocument,
  type SendMessageInput,
  type WhileRunning,
} from './generated/graphql.js';
import { gate, jsonList, jsonRecord, messagesOf } from './support/fake-provider.js';
import { codeOf, createTestServer, dbKind, eventually, type ServerContext } from './support/harness.js';

let t: ServerContext;
let alice: string;
let bob: string;
let auditor: string;
let admin: string;

beforeAll(async () => {
  t = await createTestServer({
    authEnabled: true,
    titleGenerationEnabled: false,
    contextCompressionEnabled: false,
    pendingPollMs: 200,
  });
  alice = (await t.app.auth.createUser('alice')).key;
  bob = (await t.app.auth.createUser('bob')).key;
  auditor = (await t.app.auth.createUser('auditor', { permissions: ['sessions.read_all'] })).key;
  admin = (await t.app.auth.createUser('admin', { admin: true })).key;
  t.fake.responder = (call) => {
    const users = messagesOf(call.body).filter((m) => m.role === 'user');
    return { text: `answer to ${textOf(users.at(-1)).split('\n')[0]}` };
  };
  // The config's hookTimeout bounds it: four users' key hashing and a server start are slow on a loaded machine.
});
afterAll(() => t?.close());

function textOf(m: Record<string, unknown> | undefined): string {
  if (!m) return '';
  if (typeof m.content === 'string') return m.content;
  return jsonList(m.content)
    .map(jsonRecord)
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('');
}

const EVENTS = DoubleTextingEventsDocument;
type Event = DoubleTextingEventsSubscription['sessionEvents'];
/** A type guard for `find` and `filter`: the events of the given type. */
const is =
  <N extends Event['__typename']>(name: N) =>
  (e: Event): e is Extract<Event, { __typename: N }> =>
    e.__typename === name;

const SEND = DoubleTextingSendDocument;
const QUEUED = DoubleTextingQueuedDocument;
const CANCEL = DoubleTextingCancelDocument;
const HISTORY = DoubleTextingHistoryDocument;

async function newSession(token = alice, profileId: string | null = null) {
  const r = await t.http(DoubleTextingCreateSessionDocument, { p: profileId }, token);
  return r.data!.createSession.id;
}

const send = (
  sessionId: string,
  content: string,
  extra: Omit<SendMessageInput, 'sessionId' | 'content'> = {},
  token = alice,
) => t.http(SEND, { input: { sessionId, content, ...extra } }, token);

async function history(sessionId: string) {
  const r = await t.http(HISTORY, { id: sessionId }, alice);
  return r.data!.session!.history.edges.map((e) => e.node);
}

const noActiveTurns = () =>
  eventually(
    () => t.app.db.prisma.turn.count({ where: { status: { in: ['RUNNING', 'WAITING_FOR_TOOL', 'QUEUED'] } } }),
    (n) => n === 0,
    60_000,
  );

describe(`double-texting (${dbKind})`, () => {
  it('REJECT (the default, or asked for) still answers CONFLICT while a turn runs', async () => {
    const sessionId = await newSession();
    const held = gate();
    t.fake.enqueue({ text: 'slow', hold: held.promise });
    const first = await send(sessionId, 'one');
    expect(first.errors).toBeUndefined();
    expect(first.data!.sendMessage.queued).toBeNull();
    expect(codeOf(await send(sessionId, 'two'))).toBe('CONFLICT');
    expect(codeOf(await send(sessionId, 'two', { whileRunning: 'REJECT' }))).toBe('CONFLICT');
    held.open();
    await noActiveTurns();
    expect((await history(sessionId)).map((m) => m.content)).toEqual(['one', 'slow']);
  });

  it('QUEUE runs messages after the turn, in order, shown in queuedMessages; a cancelled one never runs', async () => {
    const sessionId = await newSession();
    const held = gate();
    t.fake.enqueue({ text: 'first answer', hold: held.promise });
    const sub = t.subscribe(EVENTS, { sessionId, after: '0' }, alice);
    const first = await send(sessionId, 'one');
    expect(first.errors).toBeUndefined();
    const q: DoubleTextingSendMutation['sendMessage'][] = [];
    for (const content of ['two', 'three', 'four']) {
      const r = await send(sessionId, content, { whileRunning: 'QUEUE', idempotencyKey: `k-${content}` });
      expect(r.errors).toBeUndefined();
      q.push(r.data!.sendMessage);
    }
    expect(q.map((p) => p.turn.status)).toEqual(['QUEUED', 'QUEUED', 'QUEUED']);
    expect(q.map((p) => p.queued!.position)).toEqual([1, 2, 3]);
    expect(q.map((p) => p.userMessage)).toEqual([
      { sequenceNumber: -1, content: 'two' },
      { sequenceNumber: -1, content: 'three' },
      { sequenceNumber: -1, content: 'four' },
    ]);
    expect(q[0]!.queued!.turn).toEqual(q[0].turn);
    // The same idempotency key answers the same queued turn: nothing is queued twice.
    const again = await send(sessionId, 'two', { whileRunning: 'QUEUE', idempotencyKey: 'k-two' });
    expect(again.data!.sendMessage.turn.id).toBe(q[0]!.turn.id);
    expect(again.data!.sendMessage.queued!.id).toBe(q[0]!.queued!.id);

    const listed = (await t.http(QUEUED, { id: sessionId }, alice)).data!.session!.queuedMessages;
    expect(listed.map((m) => [m.content, m.position, m.kind])).toEqual([
      ['two', 1, 'QUEUE'],
      ['three', 2, 'QUEUE'],
      ['four', 3, 'QUEUE'],
    ]);
    const cancelled = await t.http(CANCEL, { id: q[1]!.queued!.id }, alice);
    expect(cancelled.data!.cancelQueuedMessage).toEqual({ id: q[1]!.queued!.id, status: 'CANCELLED', position: null });
    // Again: the same answer.
    expect((await t.http(CANCEL, { id: q[1]!.queued!.id }, alice)).data!.cancelQueuedMessage.status).toBe('CANCELLED');
    const after = (await t.http(QUEUED, { id: sessionId }, alice)).data!.session!.queuedMessages;
    expect(after.map((m) => [m.content, m.position])).toEqual([
      ['two', 1],
      ['four', 2],
    ]);
    // Nothing of the queue is in the history while the first turn runs.
    expect((await history(sessionId)).map((m) => m.content)).toEqual(['one']);

    held.open();
    const events = await sub.waitFor(
      (es) => es.some((e) => e.__typename === 'TurnEnded' && e.turn.id === q[2]!.turn.id),
      60_000,
    );
    sub.dispose();
    expect((await history(sessionId)).map((m) => m.content)).toEqual([
      'one',
      'first answer',
      'two',
      'answer to two',
      'four',
      'answer to four',
    ]);
    const types = events.map((e) => e.__typename);
    expect(types.filter((x) => x === 'MessageQueued')).toHaveLength(3);
    expect(events.find(is('QueuedMessageCancelled'))!.queuedId).toBe(q[1]!.queued!.id);
    const dispatched = events.filter(is('QueuedMessageDispatched'));
    expect(dispatched.map((e) => [e.queuedId, e.turnId, e.steered])).toEqual([
      [q[0]!.queued!.id, q[0]!.turn.id, false],
      [q[2]!.queued!.id, q[2]!.turn.id, false],
    ]);
    const turnState = await t.http(DoubleTextingTurnStatesDocument, { a: q[1]!.turn.id, b: q[2]!.turn.id }, alice);
    expect(turnState.data).toEqual({ a: { status: 'CANCELLED' }, b: { status: 'COMPLETED' } });
    // A dispatched message cannot be cancelled: it is in the history.
    expect(codeOf(await t.http(CANCEL, { id: q[0]!.queued!.id }, alice))).toBe('CONFLICT');
    expect((await t.http(QUEUED, { id: sessionId }, alice)).data!.session!.queuedMessages).toEqual([]);
    // The cancelled message never reached the provider.
    expect(JSON.stringify(t.fake.requests)).not.toContain('"three"');
  });

  it('a message queued behind a turn whose process died runs exactly once after the recovery', async () => {
    // In process, the state kill -9 leaves (the same across a real kill: test/slow/double-texting-restart.test.ts):
    // a turn still RUNNING, owned by a process that is gone, with a message queued behind it.
    const sessionId = await newSession();
    const raw = Buffer.from(sessionId, 'base64').toString().split(':')[1]!;
    const [user] = await t.app.store.append(raw, [{ role: 'user', content: 'one' }]);
    const dead = await t.app.db.prisma.turn.create({
      data: {
        sessionId: raw,
        userSequence: user!.sequenceNumber,
        partialText: 'never ',
        ownerProcess: 'dead-process',
        // Not stale yet: the app's own sweep leaves it alone until the test says the process died.
        heartbeatAt: new Date(Date.now() + 3_600_000),
      },
    });
    const queued = await send(sessionId, 'queued', { whileRunning: 'QUEUE' });
    expect(queued.data!.sendMessage).toMatchObject({ turn: { status: 'QUEUED' }, queued: { position: 1 } });
    await t.app.db.prisma.turn.update({ where: { id: dead.id }, data: { heartbeatAt: new Date(Date.now() - 60_000) } });
    await t.app.turns.recoverOrphans(5_000);
    const turnId = queued.data!.sendMessage.turn.id;
    await eventually(
      () => t.http(DoubleTextingTurnStatesDocument, { a: turnId, b: turnId }, alice),
      (r) => r.data?.b?.status === 'COMPLETED',
    );
    expect((await t.app.db.prisma.turn.findUniqueOrThrow({ where: { id: dead.id } })).status).toBe('INTERRUPTED');
    const rows = await history(sessionId);
    expect(rows.filter((m) => m.content === 'queued')).toHaveLength(1);
    expect(rows.filter((m) => m.content === 'answer to queued')).toHaveLength(1);
    expect((await t.http(QUEUED, { id: sessionId }, alice)).data!.session!.queuedMessages).toEqual([]);
    // One model call for the queued message: it was dispatched once.
    const calls = t.fake.requests.filter(
      (b) =>
        textOf(
          messagesOf(b)
            .filter((m) => m.role === 'user')
            .at(-1),
        ) === 'queued',
    );
    expect(calls).toHaveLength(1);
  });

  it('QUEUE with no turn running (and nothing queued) starts at once', async () => {
    const sessionId = await newSession();
    const r = await send(sessionId, 'now', { whileRunning: 'QUEUE' });
    expect(r.data!.sendMessage.queued).toBeNull();
    expect(r.data!.sendMessage.turn.status).toBe('RUNNING');
    await noActiveTurns();
    expect((await history(sessionId)).map((m) => m.content)).toEqual(['now', 'answer to now']);
  });

  it('INTERRUPT cancels the running turn, keeps its partial answer and runs the new message', async () => {
    const sessionId = await newSession();
    const held = gate();
    t.fake.enqueue({ text: ['partial ', 'rest ', 'never'], hold: held.promise, holdBeforeChunk: 1 });
    const sub = t.subscribe(EVENTS, { sessionId, after: '0' }, alice);
    const first = await send(sessionId, 'long one');
    await sub.waitFor((es) => es.some((e) => e.__typename === 'TextDelta'));
    const second = await send(sessionId, 'stop, do this', { whileRunning: 'INTERRUPT' });
    expect(second.errors).toBeUndefined();
    expect(second.data!.sendMessage.queued).toBeNull();
    const newTurn = second.data!.sendMessage.turn.id;
    expect(newTurn).not.toBe(first.data!.sendMessage.turn.id);
    const events = await sub.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded' && e.turn.id === newTurn));
    held.open();
    sub.dispose();
    const ended = events.find(
      (e): e is Extract<Event, { __typename: 'TurnEnded' }> =>
        e.__typename === 'TurnEnded' && e.turn.id === first.data!.sendMessage.turn.id,
    );
    expect(ended!.turn.status).toBe('CANCELLED');
    expect(events.find((e) => e.__typename === 'TurnInterrupted')).toMatchObject({
      turnId: first.data!.sendMessage.turn.id,
      byTurnId: newTurn,
    });
    const rows = await history(sessionId);
    expect(rows.map((m) => m.content)).toEqual(['long one', 'partial ', 'stop, do this', 'answer to stop, do this']);
    expect(rows[1]!.metadata).toMatchObject({ cancelled: true });
  });

  it('STEER with no further model call is not lost: it becomes the next turn', async () => {
    const sessionId = await newSession();
    const held = gate();
    t.fake.enqueue({ text: 'plain answer', hold: held.promise });
    const sub = t.subscribe(EVENTS, { sessionId, after: '0' }, alice);
    const first = await send(sessionId, 'question');
    const steer = await send(sessionId, 'and one more thing', { whileRunning: 'STEER' });
    expect(steer.errors).toBeUndefined();
    expect(steer.data!.sendMessage.turn.id).toBe(first.data!.sendMessage.turn.id);
    expect(steer.data!.sendMessage.queued).toMatchObject({ kind: 'STEER', position: 1, status: 'PENDING' });
    held.open();
    const events = await sub.waitFor((es) =>
      es.some((e) => e.__typename === 'QueuedMessageDispatched' && e.queuedId === steer.data!.sendMessage.queued!.id),
    );
    const dispatched = events.find(is('QueuedMessageDispatched'))!;
    expect(dispatched.steered).toBe(false);
    expect(dispatched.turnId).not.toBe(first.data!.sendMessage.turn.id);
    await sub.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded' && e.turn.id === dispatched.turnId));
    sub.dispose();
    expect((await history(sessionId)).map((m) => m.content)).toEqual([
      'question',
      'plain answer',
      'and one more thing',
      'answer to and one more thing',
    ]);
  });

  for (const provider of ['openai', 'anthropic'] as const) {
    it(`STEER joins a tool loop after the tool results, before the next call (${provider} pairing)`, async () => {
      const key = `steer-${provider}`;
      await t.http(DoubleTextingUpsertProfileDocument, { key, name: key, model: `${key}-model`, provider }, admin);
      const profileId = (await t.http(DoubleTextingProfilesDocument, {}, admin)).data!.profiles.find(
        (x) => x.key === key,
      )!.id;
      const sessionId = await newSession(alice, profileId);
      t.fake.enqueue(
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
        { text: 'Sunny in Oslo; Bergen too.' },
      );
      const sub = t.subscribe(EVENTS, { sessionId, after: '0' }, alice);
      const weather = {
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      };
      const first = await send(sessionId, 'weather in Oslo?', { clientTools: [weather] });
      const turnId = first.data!.sendMessage.turn.id;
      const requested = await sub.waitFor((es) => es.some((e) => e.__typename === 'ToolCallRequested'));
      const callId = requested.find(is('ToolCallRequested'))!.toolCall.id;
      const before = t.fake.requests.length;
      const steer = await send(sessionId, 'and Bergen too', { whileRunning: 'STEER' });
      expect(steer.data!.sendMessage.turn.id).toBe(turnId);
      const submitted = await t.http(
        DoubleTextingSubmitToolResultDocument,
        { i: { turnId, toolCallId: callId, content: 'sunny' } },
        alice,
      );
      expect(submitted.errors).toBeUndefined();
      const events = await sub.waitFor((es) =>
        es.some((e) => (e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed') && e.turn.id === turnId),
      );
      sub.dispose();
      const end = events.find((e) => e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed');
      expect(end).toMatchObject({ __typename: 'TurnEnded', turn: { status: 'COMPLETED' } });
      expect(events.find((e) => e.__typename === 'MessageSteered')).toMatchObject({
        turnId,
        queuedId: steer.data!.sendMessage.queued!.id,
        message: { role: 'USER', content: 'and Bergen too' },
      });
      expect(events.find((e) => e.__typename === 'QueuedMessageDispatched')).toMatchObject({ turnId, steered: true });
      // The next request carries the steered message after the tool result.
      expect(t.fake.requests.length).toBe(before + 1);
      const messages = messagesOf(t.fake.requests.at(-1));
      const wire = JSON.stringify(messages);
      expect(wire.indexOf('and Bergen too')).toBeGreaterThan(wire.indexOf('sunny'));
      expect(textOf(messages.at(-1))).toContain('and Bergen too');
      expect((await history(sessionId)).map((m) => [m.role, m.content])).toEqual([
        ['USER', 'weather in Oslo?'],
        ['ASSISTANT', ''],
        ['TOOL', 'sunny'],
        ['USER', 'and Bergen too'],
        ['ASSISTANT', 'Sunny in Oslo; Bergen too.'],
      ]);
      // Taken once: nothing is left to dispatch after the turn.
      expect((await t.http(QUEUED, { id: sessionId }, alice)).data!.session!.queuedMessages).toEqual([]);
    });
  }

  it('another user can neither queue into a session nor cancel, nor see, its queued messages', async () => {
    const sessionId = await newSession();
    const held = gate();
    t.fake.enqueue({ text: 'mine', hold: held.promise });
    await send(sessionId, 'one');
    for (const whileRunning of ['QUEUE', 'STEER', 'INTERRUPT'] as const)
      expect(codeOf(await send(sessionId, 'intruder', { whileRunning }, bob))).toBe('NOT_FOUND');
    const mine = (await send(sessionId, 'queued', { whileRunning: 'QUEUE' })).data!.sendMessage.queued!.id;
    expect(codeOf(await t.http(CANCEL, { id: mine }, bob))).toBe('NOT_FOUND');
    expect((await t.http(DoubleTextingNodeDocument, { id: mine }, bob)).data!.node).toBeNull();
    expect(codeOf(await t.http(QUEUED, { id: sessionId }, auditor))).toBe('FORBIDDEN');
    expect(codeOf(await t.http(CANCEL, { id: 'bogus' }, alice))).toBe('BAD_USER_INPUT');
    // Deliberately not a WhileRunning value: the server refuses the variable.
    expect(codeOf(await send(sessionId, 'x', { whileRunning: 'SOMETIMES' as WhileRunning }))).toBe('BAD_USER_INPUT');
    expect(await t.app.db.prisma.pendingTurn.count({ where: { content: 'intruder' } })).toBe(0);
    held.open();
    await noActiveTurns();
    expect((await history(sessionId)).map((m) => m.content)).toEqual(['one', 'mine', 'queued', 'answer to queued']);
  });
});
