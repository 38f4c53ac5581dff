import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gate, ollamaRequest } from './support/fake-provider.js';
import {
  codeOf,
  createTestServer,
  dbKind,
  eventually,
  type GqlResult,
  isEvent,
  type ServerContext,
  SESSION_EVENTS,
  type SessionEvent,
} from './support/harness.js';
import { compareEventIds } from '../src/events/bus.js';
import {
  TurnsCancelDocument,
  TurnsCancelIdDocument,
  TurnsContextDocument,
  TurnsCreateSessionDocument,
  TurnsCreateSessionOnProfileDocument,
  TurnsDeleteSessionDocument,
  TurnsHistoryAndContextDocument,
  TurnsHistoryCountAndContextDocument,
  TurnsHistoryCountDocument,
  TurnsHistoryDocument,
  TurnsPendingToolCallsDocument,
  TurnsProfilesDocument,
  TurnsRecordEventDocument,
  TurnsRecoveredSessionDocument,
  TurnsSendDocument,
  type TurnsSendMutation,
  TurnsSessionAfterTurnDocument,
  TurnsSubmitToolResultDocument,
  TurnsTurnErrorDocument,
  TurnsUpsertDefaultProfileDocument,
  TurnsUpsertTinyProfileDocument,
} from './generated/graphql.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false, modelPrices: { 'qwen3:8b': { input: 1, output: 2 } } });
});
afterAll(() => t.close());
beforeEach(() => {
  t.fake.responder = undefined;
});

async function newSession(name?: string) {
  const r = await t.http(TurnsCreateSessionDocument, { n: name ?? null });
  return r.data!.createSession.id;
}

const SEND = TurnsSendDocument;

async function turnEnded(sessionId: string, send: () => Promise<GqlResult<TurnsSendMutation>>) {
  // after: '0' replays from the start of the log, so a slow subscription start misses nothing
  const sub = t.subscribe(SESSION_EVENTS, { sessionId, after: '0' });
  const sent = await send();
  expect(sent.errors).toBeUndefined();
  const turnId = sent.data!.sendMessage.turn.id;
  const all = await sub.waitFor((es) =>
    es.some((e) => (e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed') && e.turn.id === turnId),
  );
  sub.dispose();
  // only this turn's events
  const events = all.slice(all.findIndex((e) => e.__typename === 'TurnStarted' && e.turn.id === turnId));
  return { sent, events };
}

describe(`turns (${dbKind})`, () => {
  it('streams deltas in order to every subscriber and saves both buffers', async () => {
    const sessionId = await newSession();
    t.fake.enqueue({
      thinking: ['Let me ', 'think.'],
      text: ['Hel', 'lo ', 'world'],
      chunkDelayMs: 5,
      promptTokens: 120,
      completionTokens: 7,
    });
    const other = t.subscribe(SESSION_EVENTS, { sessionId });
    // `other` has no replay cursor: it must be listening before the turn starts
    await t.listening(sessionId);
    const { events } = await turnEnded(sessionId, () => t.http(SEND, { input: { sessionId, content: 'Hi there' } }));
    const types = events.map((e) => e.__typename);
    expect(types[0]).toBe('TurnStarted');
    expect(events.filter(isEvent('TextDelta')).map((e) => e.text)).toEqual(['Hel', 'lo ', 'world']);
    expect(
      events
        .filter(isEvent('ThinkingDelta'))
        .map((e) => e.text)
        .join(''),
    ).toBe('Let me think.');
    expect(types.indexOf('MessageSaved')).toBeGreaterThan(types.lastIndexOf('TextDelta'));
    const ended = events.find(isEvent('TurnEnded'))!;
    expect(ended.turn.status).toBe('COMPLETED');
    expect(ended.assistantMessage!.content).toBe('Hello world');
    expect(ended.usage).toEqual({ promptTokens: 120, completionTokens: 7, totalTokens: 127 });
    // ids strictly increase
    const ids: string[] = events.map((e) => e.eventId);
    expect([...ids].sort(compareEventIds)).toEqual(ids);
    const seenByOther = await other.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    expect(seenByOther.map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
    other.dispose();

    const s = await t.http(TurnsSessionAfterTurnDocument, { id: sessionId });
    const session = s.data!.session!;
    expect(session.history.edges.map((e) => [e.displayIndex, e.node.role, e.node.content])).toEqual([
      [0, 'USER', 'Hi there'],
      [1, 'ASSISTANT', 'Hello world'],
    ]);
    expect(session.history.edges[1].node.thinking).toBe('Let me think.');
    expect(session.context.map((m) => m.content)).toEqual(['Hi there', 'Hello world']);
    expect(session.displayMessageCount).toBe(2);
    expect(session.preview).toBe('Hello world');
    // the last real count (120) + the calibrated delta of the answer saved since (no fit yet: 11 chars / 1.8)
    expect(session.contextTokens).toBe(120 + Math.ceil('Hello world'.length / 1.8));
    expect(session.usage).toEqual({ promptTokens: 120, completionTokens: 7 });
    expect(session.cost!.priced).toBe(true);
    expect(session.cost!.usd).toBeCloseTo((120 * 1 + 7 * 2) / 1e6, 10);
  });

  it('injects the profile system prompt fresh on every call and never stores it', async () => {
    const sessionId = await newSession();
    await t.http(TurnsUpsertDefaultProfileDocument, { systemPrompt: 'PROMPT-ONE' });
    await turnEnded(sessionId, () => t.http(SEND, { input: { sessionId, content: 'first' } }));
    expect(ollamaRequest(t.fake.requests.at(-1)).messages![0]).toMatchObject({ role: 'system', content: 'PROMPT-ONE' });
    await t.http(TurnsUpsertDefaultProfileDocument, { systemPrompt: 'PROMPT-TWO' });
    await turnEnded(sessionId, () => t.http(SEND, { input: { sessionId, content: 'second' } }));
    const sent = ollamaRequest(t.fake.requests.at(-1)).messages!;
    expect(sent[0]).toMatchObject({ role: 'system', content: 'PROMPT-TWO' });
    expect(sent.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(ollamaRequest(t.fake.requests.at(-1)).options!.num_ctx).toBe(8192);
    const ctx = await t.http(TurnsContextDocument, { id: sessionId });
    expect(ctx.data!.session!.context.some((m) => m.content.includes('PROMPT'))).toBe(false);
    await t.http(TurnsUpsertDefaultProfileDocument, { systemPrompt: 'You are a helpful assistant.' });
  });

  it('hidden turns go to the context only', async () => {
    const sessionId = await newSession();
    const { sent } = await turnEnded(sessionId, () =>
      t.http(SEND, { input: { sessionId, content: '{"form":1}', hidden: true } }),
    );
    expect(sent.data!.sendMessage.userMessage).toMatchObject({ isDisplay: false, isContext: true });
    const s = await t.http(TurnsHistoryAndContextDocument, { id: sessionId });
    expect(s.data!.session!.history.edges.map((e) => e.node.role)).toEqual(['ASSISTANT']);
    expect(s.data!.session!.context.map((m) => m.content)[0]).toBe('{"form":1}');
  });

  it('only allowlisted stored system records reach the model', async () => {
    const sessionId = await newSession();
    const rec = TurnsRecordEventDocument;
    const a = await t.http(rec, { i: { sessionId, source: 'task_note', text: 'NOTE-ALLOWED' } });
    expect(a.data!.recordSessionEvent).toMatchObject({
      role: 'SYSTEM',
      isContext: true,
      metadata: { source: 'task_note' },
    });
    await t.http(rec, { i: { sessionId, source: 'audit_log', text: 'NOTE-BLOCKED' } });
    await turnEnded(sessionId, () => t.http(SEND, { input: { sessionId, content: 'go' } }));
    const sent = JSON.stringify(ollamaRequest(t.fake.requests.at(-1)).messages);
    expect(sent).toContain('NOTE-ALLOWED');
    expect(sent).not.toContain('NOTE-BLOCKED');
    const h = await t.http(TurnsHistoryDocument, { id: sessionId });
    expect(h.data!.session!.history.edges.map((e) => e.node.content)).toContain('NOTE-BLOCKED');
  });

  it('refuses a second turn while one runs (CONFLICT) and honours idempotency keys', async () => {
    const sessionId = await newSession();
    // the first turn's reply is held until both checks ran: it is running for sure
    const held = gate();
    t.fake.enqueue({ text: ['slow ', 'answer'], hold: held.promise });
    const first = await t.http(SEND, { input: { sessionId, content: 'one', idempotencyKey: 'k-1' } });
    expect(first.errors).toBeUndefined();
    const second = await t.http(SEND, { input: { sessionId, content: 'two' } });
    expect(codeOf(second)).toBe('CONFLICT');
    const again = await t.http(SEND, { input: { sessionId, content: 'one', idempotencyKey: 'k-1' } });
    expect(again.data!.sendMessage.turn.id).toBe(first.data!.sendMessage.turn.id);
    held.open();
    await eventually(
      () => t.app.db.prisma.turn.findMany({ where: { status: 'RUNNING' } }),
      (r) => r.length === 0,
    );
    const s = await t.http(TurnsHistoryCountDocument, { id: sessionId });
    expect(s.data!.session!.history.totalCount).toBe(2);
  });

  it('rejects bad input and writes nothing', async () => {
    const sessionId = await newSession();
    expect(codeOf(await t.http(SEND, { input: { sessionId, content: '   ' } }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.http(SEND, { input: { sessionId, content: 'x'.repeat(200_001) } }))).toBe('BAD_USER_INPUT');
    const unknown = Buffer.from('Session:00000000-0000-4000-8000-000000000000').toString('base64');
    expect(codeOf(await t.http(SEND, { input: { sessionId: unknown, content: 'hi' } }))).toBe('NOT_FOUND');
    expect(codeOf(await t.http(TurnsCancelIdDocument, { id: 'nope' }))).toBe('BAD_USER_INPUT');
    // A client tool may not take a server tool's name: its "result" would be trusted as the server's (a publish card).
    const impostor = { name: 'content_publish', description: 'mine', parameters: { type: 'object' } };
    expect(codeOf(await t.http(SEND, { input: { sessionId, content: 'hi', clientTools: [impostor] } }))).toBe(
      'BAD_USER_INPUT',
    );
    const s = await t.http(TurnsHistoryCountAndContextDocument, { id: sessionId });
    expect(s.data!.session!.history.totalCount).toBe(0);
    expect(s.data!.session!.context).toEqual([]);
  });

  it('cancel ends the turn CANCELLED with the partial answer saved', async () => {
    const sessionId = await newSession();
    // the reply stops after its first chunk until the cancel is answered
    const held = gate();
    t.fake.enqueue({ text: ['part one ', 'part two ', 'never'], hold: held.promise, holdBeforeChunk: 1 });
    const sub = t.subscribe(SESSION_EVENTS, { sessionId });
    await t.listening(sessionId);
    const sent = await t.http(SEND, { input: { sessionId, content: 'long please' } });
    await sub.waitFor((es) => es.some((e) => e.__typename === 'TextDelta'));
    const cancelled = await t.http(TurnsCancelDocument, { id: sent.data!.sendMessage.turn.id });
    expect(cancelled.data!.cancelTurn.status).toBe('CANCELLED');
    held.open();
    const events = await sub.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    expect(events.find(isEvent('TurnEnded'))!.turn.status).toBe('CANCELLED');
    const saved = events.filter(isEvent('MessageSaved')).find((e) => e.message.role === 'ASSISTANT')!;
    expect(saved.message.content.startsWith('part one')).toBe(true);
    expect(saved.message.metadata).toMatchObject({ cancelled: true });
    sub.dispose();
    // the session works on the next message
    t.fake.enqueue({ text: 'fine' });
    const { events: next } = await turnEnded(sessionId, () => t.http(SEND, { input: { sessionId, content: 'again' } }));
    expect(next.find(isEvent('TurnEnded'))!.assistantMessage!.content).toBe('fine');
  });

  it('a provider dying mid-stream fails the turn, keeps the partial, and the session goes on', async () => {
    const sessionId = await newSession();
    // the connection dies once a subscriber has seen the two chunks (the server has read them)
    const read = gate();
    t.fake.enqueue({ text: ['alpha ', 'beta ', 'gamma'], failAfterChunks: 2, dieWhen: read.promise });
    const watcher = t.subscribe(SESSION_EVENTS, { sessionId, after: '0' });
    const ended = turnEnded(sessionId, () => t.http(SEND, { input: { sessionId, content: 'break' } }));
    const streamed = (es: SessionEvent[]) =>
      es
        .filter(isEvent('TextDelta'))
        .map((e) => e.text)
        .join('');
    await watcher.waitFor((es) => streamed(es) === 'alpha beta ');
    read.open();
    watcher.dispose();
    const { events } = await ended;
    const failed = events.find(isEvent('TurnFailed'));
    expect(failed).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', turn: { status: 'FAILED' } });
    const partial = events.filter(isEvent('MessageSaved')).find((e) => e.message.role === 'ASSISTANT')!;
    expect(partial.message.content).toBe('alpha beta ');
    expect(partial.message.metadata).toMatchObject({ partial: true });
    t.fake.enqueue({ text: 'recovered' });
    const { events: next } = await turnEnded(sessionId, () => t.http(SEND, { input: { sessionId, content: 'again' } }));
    expect(next.find(isEvent('TurnEnded'))!.assistantMessage!.content).toBe('recovered');
  });

  it('an unreachable provider answers TurnFailed PROVIDER_UNAVAILABLE', async () => {
    const sessionId = await newSession();
    t.fake.enqueue({ status: 503 }, { status: 503 });
    const { events } = await turnEnded(sessionId, () => t.http(SEND, { input: { sessionId, content: 'hello?' } }));
    expect(events.find((e) => e.__typename === 'TurnFailed')).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
  });

  it('round-trips a client tool: ToolCallRequested, WAITING_FOR_TOOL, submitToolResult, final answer', async () => {
    const sessionId = await newSession();
    t.fake.enqueue(
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: 'It is sunny in Oslo.' },
    );
    const sub = t.subscribe(SESSION_EVENTS, { sessionId });
    await t.listening(sessionId);
    const sent = await t.http(SEND, {
      input: {
        sessionId,
        content: 'Weather in Oslo?',
        clientTools: [
          {
            name: 'get_weather',
            description: 'Weather for a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        ],
      },
    });
    const turnId = sent.data!.sendMessage.turn.id;
    const events = await sub.waitFor((es) => es.some((e) => e.__typename === 'ToolCallRequested'));
    const request = events.find(isEvent('ToolCallRequested'))!;
    expect(request).toMatchObject({ clientSide: true, toolCall: { name: 'get_weather', arguments: { city: 'Oslo' } } });
    expect(ollamaRequest(t.fake.requests.at(-1)).tools!.map((x) => x.function.name)).toContain('get_weather');
    const waiting = await eventually(
      () => t.http(TurnsPendingToolCallsDocument, { id: turnId }),
      (r) => r.data!.turn!.status === 'WAITING_FOR_TOOL',
    );
    expect(waiting.data!.turn!.pendingToolCalls[0].name).toBe('get_weather');
    const bogus = await t.http(TurnsSubmitToolResultDocument, {
      i: { turnId, toolCallId: 'not-a-call', content: 'x' },
    });
    expect(codeOf(bogus)).toBe('BAD_USER_INPUT');
    const ok = await t.http(TurnsSubmitToolResultDocument, {
      i: { turnId, toolCallId: request.toolCall.id, content: '{"sky":"clear"}' },
    });
    expect(ok.errors).toBeUndefined();
    const done = await sub.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    expect(done.find(isEvent('TurnEnded'))!.assistantMessage!.content).toBe('It is sunny in Oslo.');
    const toolMsg = done.filter(isEvent('MessageSaved')).find((e) => e.message.role === 'TOOL')!;
    expect(toolMsg.message).toMatchObject({ toolCallId: request.toolCall.id, content: '{"sky":"clear"}' });
    const lastReq = ollamaRequest(t.fake.requests.at(-1)).messages!;
    expect(lastReq.at(-1)).toMatchObject({ role: 'tool', content: '{"sky":"clear"}' });
    sub.dispose();
  });

  it('resumes after a dropped socket with no gap and no duplicate', async () => {
    const sessionId = await newSession();
    const first = t.subscribe(SESSION_EVENTS, { sessionId });
    await t.listening(sessionId);
    t.fake.enqueue({ text: Array.from({ length: 12 }, (_, i) => `w${i} `), chunkDelayMs: 60 });
    await t.http(SEND, { input: { sessionId, content: 'stream' } });
    await first.waitFor((es) => es.filter((e) => e.__typename === 'TextDelta').length >= 3);
    await first.client.dispose(); // the socket drops
    const seen = [...first.events];
    const lastId = seen.at(-1)!.eventId;
    // the turn goes on while no one listens: the resume must replay that gap
    const raw0 = Buffer.from(sessionId, 'base64').toString().split(':')[1]!;
    await eventually(
      () => t.app.bus.replay(raw0, lastId),
      (missed) => missed.length > 0,
    );
    const resumed = t.subscribe(SESSION_EVENTS, { sessionId, after: lastId });
    const rest = await resumed.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    const all = [...seen, ...rest];
    const ids: string[] = all.map((e) => e.eventId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort(compareEventIds));
    // no gap: exactly the session's log from the first event seen
    const raw = Buffer.from(sessionId, 'base64').toString().split(':')[1]!;
    const log = (await t.app.bus.replay(raw, '0'))
      .map((e) => e.eventId)
      .filter((id) => compareEventIds(id, ids[0]!) >= 0);
    expect(ids).toEqual(log);
    const text = all
      .filter(isEvent('TextDelta'))
      .map((e) => e.text)
      .join('');
    expect(text).toBe(Array.from({ length: 12 }, (_, i) => `w${i} `).join(''));
    resumed.dispose();
  });

  it('a prompt that cannot fit gets a synthesized "too large" reply and a normal turn end', async () => {
    // A system prompt larger than the window: no compression or view truncation can help.
    await t.http(TurnsUpsertTinyProfileDocument, { p: 'z'.repeat(4000) });
    const profiles = await t.http(TurnsProfilesDocument, {});
    const tiny = profiles.data!.profiles.find((p) => p.key === 'tiny')!.id;
    const created = await t.http(TurnsCreateSessionOnProfileDocument, { p: tiny });
    const sid = created.data!.createSession.id;
    const before = t.fake.requests.length;
    const { events } = await turnEnded(sid, () => t.http(SEND, { input: { sessionId: sid, content: 'one more' } }));
    const ended = events.find(isEvent('TurnEnded'))!;
    expect(ended.turn.status).toBe('COMPLETED');
    expect(ended.assistantMessage!.content).toMatch(/too large/);
    expect(t.fake.requests.length).toBe(before);
  });

  it('turns left running by a crashed process become INTERRUPTED with their partial text', async () => {
    const sessionId = await newSession();
    const raw = Buffer.from(sessionId, 'base64').toString().split(':')[1]!;
    const [user] = await t.app.store.append(raw, [{ role: 'user', content: 'are you there' }]);
    const orphan = await t.app.db.prisma.turn.create({
      data: {
        sessionId: raw,
        status: 'RUNNING',
        userSequence: user!.sequenceNumber,
        partialText: 'I was saying',
        heartbeatAt: new Date(Date.now() - 60_000),
        ownerProcess: 'dead',
      },
    });
    // This call or the app's own sweep (every second) ends it, once; a second call finds nothing left.
    await t.app.turns.recoverOrphans(5_000);
    const turn = await eventually(
      () => t.app.db.prisma.turn.findUnique({ where: { id: orphan.id } }),
      (row) => row?.status !== 'RUNNING',
    );
    expect(turn!.status).toBe('INTERRUPTED');
    expect(await t.app.turns.recoverOrphans(5_000)).toBe(0);
    const h = await t.http(TurnsRecoveredSessionDocument, { id: sessionId });
    expect(h.data!.session!.activeTurn).toBeNull();
    expect(h.data!.session!.history.edges.map((e) => e.node.content)).toEqual(['are you there', 'I was saying']);
    expect(h.data!.session!.context.some((m) => m.isAgentNote && /interrupted/.test(m.content))).toBe(true);
    // the session takes the next message
    const { events } = await turnEnded(sessionId, () => t.http(SEND, { input: { sessionId, content: 'hello again' } }));
    expect(events.find((e) => e.__typename === 'TurnEnded')).toBeTruthy();
  });
});

describe(`turn robustness (${dbKind})`, () => {
  it(
    'persists the partial answer and a heartbeat while ' + 'streaming, and stops when another process ends the turn',
    async () => {
      const sessionId = await newSession();
      // partialFlushMs is 100 in tests: each slow chunk is followed by a flush.
      // 'never' is held back until the turn has ended: only the flush (heartbeat) can have noticed the change
      const held = gate();
      t.fake.enqueue({
        text: ['first words ', 'second words ', 'third ', 'fourth ', 'fifth ', 'never'],
        chunkDelayMs: 250,
        hold: held.promise,
        holdBeforeChunk: 5,
      });
      const sub = t.subscribe(SESSION_EVENTS, { sessionId });
      await t.listening(sessionId);
      const sent = await t.http(SEND, { input: { sessionId, content: 'long please' } });
      const turnId = Buffer.from(sent.data!.sendMessage.turn.id, 'base64').toString().split(':')[1]!;
      const started = await t.app.db.prisma.turn.findUniqueOrThrow({ where: { id: turnId } });
      await sub.waitFor((es) => es.filter((e) => e.__typename === 'TextDelta').length >= 2);
      const row = await eventually(
        () => t.app.db.prisma.turn.findUniqueOrThrow({ where: { id: turnId } }),
        (r) => r.partialText.startsWith('first words second words'),
      );
      expect(row.status).toBe('RUNNING');
      expect(row.heartbeatAt.getTime()).toBeGreaterThan(started.heartbeatAt.getTime());
      // Another process (or an operator) ends the turn in the database: the next flush notices and the stream stops.
      await t.app.db.prisma.turn.update({ where: { id: turnId }, data: { status: 'CANCELLED' } });
      const events = await sub.waitFor((es) =>
        es.some((e) => e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed'),
      );
      held.open();
      // the provider stream was closed by the service, not read on
      await eventually(
        async () => t.fake.calls.at(-1)!.aborted,
        (aborted) => aborted,
      );
      expect(events.some((e) => e.__typename === 'TextDelta' && e.text === 'never')).toBe(false);
      sub.dispose();
    },
  );

  it('deleting a session while its turn streams cancels the turn and keeps the server healthy', async () => {
    const sessionId = await newSession();
    const held = gate();
    t.fake.enqueue({ text: ['a ', 'b ', 'c ', 'd '], hold: held.promise, holdBeforeChunk: 1 });
    const sent = await t.http(SEND, { input: { sessionId, content: 'long' } });
    const turnId = Buffer.from(sent.data!.sendMessage.turn.id, 'base64').toString().split(':')[1]!;
    // wait until the turn is streaming (its first delta is in the log)
    const raw = Buffer.from(sessionId, 'base64').toString().split(':')[1]!;
    await eventually(
      () => t.app.bus.replay(raw, '0'),
      (log) => log.some((e) => e.type === 'TextDelta'),
    );
    const del = await t.http(TurnsDeleteSessionDocument, { id: sessionId });
    expect(del.errors).toBeUndefined();
    expect(await t.app.db.prisma.turn.findUnique({ where: { id: turnId } })).toBeNull();
    held.open();
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    // the server still runs turns
    const next = await newSession();
    const { events } = await turnEnded(next, () =>
      t.http(SEND, { input: { sessionId: next, content: 'still there?' } }),
    );
    expect(events.find((e) => e.__typename === 'TurnEnded')).toBeTruthy();
  });

  it(
    'never shows provider internals (upstream text, ' + 'transport errors) to clients; only the configured host',
    async () => {
      const sessionId = await newSession();
      t.fake.enqueue({ status: 503 }, { status: 503 });
      const { events } = await turnEnded(sessionId, () => t.http(SEND, { input: { sessionId, content: 'hello?' } }));
      const failed = events.find(isEvent('TurnFailed'))!;
      expect(failed.code).toBe('PROVIDER_UNAVAILABLE');
      // The configured host is allowed (it is the operator's own setting); nothing else from upstream is.
      expect(failed.errorMessage).toBe(
        `The model provider (ollama at ${t.fake.url}) is unreachable or stopped answering; try again.`,
      );
      expect(failed.errorMessage).not.toMatch(/fake error|503|ECONN|fetch failed/);
      const turn = await t.http(TurnsTurnErrorDocument, { id: failed.turn.id });
      expect(turn.data!.turn!.error).toBe(failed.errorMessage);
    },
  );
});

describe(`idempotency races (${dbKind})`, () => {
  it('two concurrent sendMessage calls with the same key get the same turn', async () => {
    const sessionId = await newSession();
    t.fake.enqueue({ text: ['one ', 'answer'], chunkDelayMs: 100 });
    const input = { sessionId, content: 'once', idempotencyKey: 'race-key' };
    const [a, b] = await Promise.all([t.http(SEND, { input }), t.http(SEND, { input })]);
    const ids = [a, b].map((r) => r.data?.sendMessage?.turn?.id);
    expect(ids[0]).toBeTruthy();
    expect(ids[1]).toBe(ids[0]);
    await eventually(
      () => t.app.db.prisma.turn.count({ where: { status: { in: ['RUNNING', 'WAITING_FOR_TOOL'] } } }),
      (n) => n === 0,
    );
    const raw = Buffer.from(sessionId, 'base64').toString().split(':')[1]!;
    expect((await t.app.store.allMessages(raw)).filter((m) => m.role === 'user')).toHaveLength(1);
  });
});
