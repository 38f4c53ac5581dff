/**
 * Nothing acknowledged is lost across kill -9, restarts and SIGTERM: the real server in child processes (src/main.ts),
 * the fake provider keeping a turn running, and a resume with the cursor from before the restart. The fast siblings,
 * in one process, are in test/faults-resume.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from '../support/child-server.js';
import { type FakeProvider, startFakeProvider } from '../support/fake-provider.js';
import {
  FaultsResumeCreateSessionDocument,
  FaultsResumeHistoryDocument,
  FaultsResumeSendDocument,
} from '../generated/graphql.js';
import { dbKind } from '../support/harness.js';
import {
  childEnv,
  freshStore,
  metadataOf,
  shape,
  slowRequest,
  sseSubscribe,
  untilSubscribed,
  wsSubscribe,
} from '../support/resume.js';

const SEND = FaultsResumeSendDocument;
const HISTORY = FaultsResumeHistoryDocument;

describe(`faults: resume across restarts (${dbKind})`, () => {
  let fake: FakeProvider;
  const servers: ChildServer[] = [];
  const drops: (() => Promise<void>)[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startChildServer(env, { timeoutMs: 120_000 });
    servers.push(server);
    return server;
  };
  beforeAll(async () => {
    fake = await startFakeProvider();
  }, 300_000);
  afterAll(async () => {
    for (const s of servers) {
      s.kill('SIGKILL');
      await s.exited;
    }
    for (const drop of drops) await drop();
    await fake.stop();
  }, 300_000);

  it('kill -9 mid-turn, restart: the old cursor gets EventsReset, the ' +
    'INTERRUPTED end, then live events; sendMessage is taken at once', async () => {
    const store = await freshStore();
    drops.push(store.drop);
    const env = childEnv(fake, store);
    let server = await start(env);
    const created = await server.gql(FaultsResumeCreateSessionDocument, {});
    const sessionId = created.data!.createSession.id;
    const sub = wsSubscribe(server.url, { sessionId });
    await untilSubscribed(server.gql, sessionId, [sub]);
    fake.enqueue({ text: ['Hel', 'lo ', 'never sent'], chunkDelayMs: 300, stallAfterChunks: 2 });
    expect((await server.gql(SEND, { input: { sessionId, content: 'first' } })).errors).toBeUndefined();
    await sub.waitFor((es) => es.filter((e) => e.__typename === 'TextDelta').length >= 2);
    const cursor = sub.events.at(-1)!.eventId;
    server.kill('SIGKILL');
    await server.exited;
    await sub.dispose();

    server = await start(env);
    const resumed = wsSubscribe(server.url, { sessionId, after: cursor });
    await resumed.waitFor((es) => es.some((e) => e.__typename === 'TurnFailed'));
    // Immediately accepted: the previous incarnation's turn is already over, no CONFLICT.
    fake.enqueue({ text: 'fine' });
    const again = await server.gql(SEND, { input: { sessionId, content: 'second' } });
    expect(again.errors).toBeUndefined();
    await resumed.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    expect(resumed.events.map(shape)).toEqual([
      'EventsReset:RESTARTED',
      'TurnFailed:INTERRUPTED',
      'TurnStarted',
      'TextDelta',
      'MessageSaved',
      'TurnEnded:COMPLETED',
    ]);
    expect(resumed.events[1].turn!.status).toBe('INTERRUPTED');
    const h = await server.gql(HISTORY, { id: sessionId });
    const history = h.data!.session!.history.edges.map((e) => e.node);
    expect(history.map((m) => m.role)).toEqual(['USER', 'ASSISTANT', 'USER', 'ASSISTANT']);
    expect(history[1].content).toMatch(/^Hel/);
    expect(metadataOf(history[1]).interrupted).toBe(true);
    expect(history[3].content).toBe('fine');
    await resumed.dispose();
  }, 600_000);

  it('kill -9 right after the final MessageSaved: the answer is ' +
    'never duplicated and no false recovery note reaches the model', async () => {
    const store = await freshStore();
    drops.push(store.drop);
    const env = childEnv(fake, store);
    let server = await start(env);
    const created = await server.gql(FaultsResumeCreateSessionDocument, {});
    const sessionId = created.data!.createSession.id;
    let killed: Promise<unknown> | null = null;
    const sub = wsSubscribe(server.url, { sessionId }, (event) => {
      if (event.__typename === 'MessageSaved' && event.message!.role === 'ASSISTANT' && !killed) {
        server.kill('SIGKILL');
        killed = server.exited;
      }
    });
    await untilSubscribed(server.gql, sessionId, [sub]);
    // slow chunks: the partial answer is checkpointed (PARTIAL_FLUSH_MS=100) before the final save
    fake.enqueue({ text: ['The ', 'whole ', 'answer'], chunkDelayMs: 250 });
    await server.gql(SEND, { input: { sessionId, content: 'question' } });
    await sub.waitFor(() => killed !== null);
    await killed;
    await sub.dispose();

    server = await start(env);
    const h = await server.gql(HISTORY, { id: sessionId });
    expect(h.data!.session!.activeTurn).toBeNull();
    const history = h.data!.session!.history.edges.map((e) => e.node);
    expect(history.map((m) => [m.role, m.content])).toEqual([
      ['USER', 'question'],
      ['ASSISTANT', 'The whole answer'],
    ]);
    expect(h.data!.session!.context.some((m) => m.isAgentNote)).toBe(false);
    fake.enqueue({ text: 'next' });
    expect((await server.gql(SEND, { input: { sessionId, content: 'more' } })).errors).toBeUndefined();
  }, 600_000);

  it('SIGTERM: subscribers (graphql-ws and SSE) get TurnFailed SHUTDOWN then ' +
    'complete; a request in flight is answered; new connections are refused', async () => {
    const store = await freshStore();
    drops.push(store.drop);
    const env = childEnv(fake, store);
    let server = await start(env);
    const created = await server.gql(FaultsResumeCreateSessionDocument, {});
    const sessionId = created.data!.createSession.id;
    const ws = wsSubscribe(server.url, { sessionId });
    const sse = sseSubscribe(server.url, { sessionId });
    await untilSubscribed(server.gql, sessionId, [ws, sse]);
    fake.enqueue({ text: ['Par', 'tial ', 'never sent'], stallAfterChunks: 2 });
    await server.gql(SEND, { input: { sessionId, content: 'long one' } });
    await ws.waitFor((es) => es.filter((e) => e.__typename === 'TextDelta').length >= 2);

    // A request the server has accepted (100 Continue) whose body arrives only after SIGTERM.
    const slow = slowRequest(server.url, JSON.stringify({ query: '{ __typename }' }));
    await slow.accepted;
    server.kill('SIGTERM');
    await server.waitForLine((line) => line.includes('shutting down'));

    await ws.waitFor(() => ws.completed && ws.closes.length > 0);
    expect(ws.events.slice(-1).map(shape)).toEqual(['TurnFailed:SHUTDOWN']);
    expect(ws.events.at(-1)!.turn!.status).toBe('INTERRUPTED');
    expect(ws.closes).toEqual([1001]);
    await sse.ended;
    expect(sse.events.slice(-1).map(shape)).toEqual(['TurnFailed:SHUTDOWN']);
    expect(sse.completeFrame).toBe(true);
    // the listener is closed: no new connection
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    slow.sendBody();
    expect(await slow.response).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
    expect((await server.exited).code).toBe(0);

    server = await start(env);
    const h = await server.gql(HISTORY, { id: sessionId });
    expect(h.data!.session!.activeTurn).toBeNull();
    const history = h.data!.session!.history.edges.map((e) => e.node);
    expect(history.map((m) => [m.role, m.content])).toEqual([
      ['USER', 'long one'],
      ['ASSISTANT', 'Partial '],
    ]);
    expect(metadataOf(history[1]).interrupted).toBe(true);
    fake.enqueue({ text: 'back' });
    expect((await server.gql(SEND, { input: { sessionId, content: 'again' } })).errors).toBeUndefined();
  }, 600_000);
});
