/**
 * Resume and recovery in one process: a cursor past the event log's retention, a turn its own instance's previous
 * process left, the recovery of a turn whose answer was saved, and a graceful shutdown with subscribers on both
 * transports. The same across kill -9 and restarts of a real server: test/slow/faults-resume.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FaultsResumeCreateSessionDocument,
  FaultsResumeHistoryDocument,
  FaultsResumeSendDocument,
} from './generated/graphql.js';
import { createTestServer, dbKind, type ServerContext } from './support/harness.js';
import { metadataOf, shape, slowRequest, sseSubscribe, untilSubscribed, wsSubscribe } from './support/resume.js';

const SEND = FaultsResumeSendDocument;
const HISTORY = FaultsResumeHistoryDocument;

describe(`resume and recovery in process (${dbKind})`, () => {
  let t: ServerContext;
  beforeAll(async () => {
    t = await createTestServer({ titleGenerationEnabled: false, eventRetention: 10, instanceId: 'in-process-test' });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  }, 300_000);
  const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':')[1]!;
  const newSession = async () => (await t.http(FaultsResumeCreateSessionDocument, {})).data!.createSession.id;

  it('a cursor past EVENT_RETENTION gets EventsReset TRIMMED, then ' +
    'only the end of the turn whose start was trimmed, then live events', async () => {
    const sessionId = await newSession();
    const first = wsSubscribe(t.url, { sessionId });
    await untilSubscribed(t.http, sessionId, [first]);
    t.fake.enqueue({ text: Array.from({ length: 30 }, (_, i) => `w${i} `) });
    await t.http(SEND, { input: { sessionId, content: 'many words' } });
    await first.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    const started = first.events.find((e) => e.__typename === 'TurnStarted');
    await first.dispose();

    const resumed = wsSubscribe(t.url, { sessionId, after: started!.eventId });
    await resumed.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    t.fake.enqueue({ text: 'short' });
    await t.http(SEND, { input: { sessionId, content: 'again' } });
    await resumed.waitFor((es) => es.filter((e) => e.__typename === 'TurnEnded').length === 2);
    expect(resumed.events.map(shape)).toEqual([
      'EventsReset:TRIMMED',
      'TurnEnded:COMPLETED',
      'TurnStarted',
      'TextDelta',
      'MessageSaved',
      'TurnEnded:COMPLETED',
    ]);
    expect(resumed.events[1].assistantMessage!.content).toMatch(/^w0 w1 .* w29 $/);
    await resumed.dispose();
  }, 600_000);

  it("sendMessage ends a turn its own instance's previous process " +
    'left running (fresh heartbeat) instead of answering CONFLICT', async () => {
    const sessionId = await newSession();
    const raw = rawId(sessionId);
    const [user] = await t.app.store.append(raw, [{ role: 'user', content: 'before the restart' }]);
    const left = await t.app.db.prisma.turn.create({
      data: {
        sessionId: raw,
        userSequence: user!.sequenceNumber,
        partialText: 'half an',
        ownerProcess: 'previous',
        ownerInstance: 'in-process-test',
      },
    });
    const sent = await t.http(SEND, { input: { sessionId, content: 'after the restart' } });
    expect(sent.errors).toBeUndefined();
    expect((await t.app.db.prisma.turn.findUniqueOrThrow({ where: { id: left.id } })).status).toBe('INTERRUPTED');
    // another instance's turn with a fresh heartbeat is not ours: CONFLICT as before
    const other = await newSession();
    const [u2] = await t.app.store.append(rawId(other), [{ role: 'user', content: 'x' }]);
    await t.app.db.prisma.turn.create({
      data: {
        sessionId: rawId(other),
        userSequence: u2!.sequenceNumber,
        ownerProcess: 'p',
        ownerInstance: 'someone-else',
      },
    });
    const refused = await t.http(SEND, { input: { sessionId: other, content: 'y' } });
    expect(refused.errors?.[0]?.extensions?.code).toBe('CONFLICT');
  }, 600_000);

  it('recovery of a turn whose final answer was saved ends it COMPLETED with that answer, adding nothing', async () => {
    const sessionId = await newSession();
    const raw = rawId(sessionId);
    const [user] = await t.app.store.append(raw, [{ role: 'user', content: 'q' }]);
    // The answer first: the app's own sweep may see the stale turn the moment it exists, and must then find it.
    await t.app.store.append(raw, [{ role: 'assistant', content: 'The whole answer' }]);
    // Subscribed before the turn exists: the sweep may end it at once.
    const sub = wsSubscribe(t.url, { sessionId });
    await untilSubscribed(t.http, sessionId, [sub]);
    // the state a kill -9 between the final save and the turn's end leaves: partial still set, row RUNNING
    const turn = await t.app.db.prisma.turn.create({
      data: {
        sessionId: raw,
        userSequence: user!.sequenceNumber,
        partialText: 'The wh',
        heartbeatAt: new Date(Date.now() - 60_000),
        ownerProcess: 'dead',
      },
    });
    // This call or the app's own recovery sweep (every few seconds) ends it: once, whichever comes first.
    await t.app.turns.recoverOrphans(5_000);
    await sub.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    expect(await t.app.turns.recoverOrphans(5_000)).toBe(0);
    expect(sub.events.filter((e) => e.__typename !== 'SessionRenamed').map(shape)).toEqual(['TurnEnded:COMPLETED']);
    expect(sub.events.find((e) => e.__typename === 'TurnEnded')!.assistantMessage!.content).toBe('The whole answer');
    expect((await t.app.db.prisma.turn.findUniqueOrThrow({ where: { id: turn.id } })).status).toBe('COMPLETED');
    const messages = await t.app.store.allMessages(raw);
    expect(messages.map((m) => m.content)).toEqual(['q', 'The whole answer']);
    await sub.dispose();
  }, 600_000);
});

describe(`graceful shutdown in process (${dbKind})`, () => {
  let t: ServerContext;
  beforeAll(async () => {
    t = await createTestServer({ titleGenerationEnabled: false });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  }, 300_000);

  it('subscribers (graphql-ws and SSE) get TurnFailed SHUTDOWN then complete; a request in flight is answered; ' +
    'new connections are refused; the partial answer is stored', async () => {
    const sessionId = (await t.http(FaultsResumeCreateSessionDocument, {})).data!.createSession.id;
    const ws = wsSubscribe(t.url, { sessionId });
    const sse = sseSubscribe(t.url, { sessionId });
    await untilSubscribed(t.http, sessionId, [ws, sse]);
    t.fake.enqueue({ text: ['Par', 'tial ', 'never sent'], stallAfterChunks: 2 });
    await t.http(SEND, { input: { sessionId, content: 'long one' } });
    await ws.waitFor((es) => es.filter((e) => e.__typename === 'TextDelta').length >= 2);

    // A request the server has accepted (100 Continue) whose body arrives only after the shutdown began.
    const slow = slowRequest(t.url, JSON.stringify({ query: '{ __typename }' }));
    await slow.accepted;
    const stopped = t.shutdown();

    await ws.waitFor(() => ws.completed && ws.closes.length > 0);
    expect(ws.events.slice(-1).map(shape)).toEqual(['TurnFailed:SHUTDOWN']);
    expect(ws.events.at(-1)!.turn!.status).toBe('INTERRUPTED');
    expect(ws.closes).toEqual([1001]);
    await sse.ended;
    expect(sse.events.slice(-1).map(shape)).toEqual(['TurnFailed:SHUTDOWN']);
    expect(sse.completeFrame).toBe(true);
    // the listener is closed: no new connection
    await expect(fetch(`${t.url}/healthz`)).rejects.toThrow();
    slow.sendBody();
    expect(await slow.response).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
    await stopped;

    const h = await t.gql(HISTORY, { id: sessionId });
    expect(h.data!.session!.activeTurn).toBeNull();
    const history = h.data!.session!.history.edges.map((e) => e.node);
    expect(history.map((m) => [m.role, m.content])).toEqual([
      ['USER', 'long one'],
      ['ASSISTANT', 'Partial '],
    ]);
    expect(metadataOf(history[1]!).interrupted).toBe(true);
  }, 600_000);
});
