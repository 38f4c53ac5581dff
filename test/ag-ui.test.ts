/**
 * POST /ag-ui with AG-UI's own client, unmodified: `HttpAgent.runAgent` posts the RunAgentInput and applies the
 * events, against a real server and the fake provider. runAgent resolves on RUN_ERROR, so errors are read
 * through onRunErrorEvent.
 */
import { randomUUID } from 'node:crypto';
import { type BaseEvent, HttpAgent, type Message } from '@ag-ui/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgUiHistoryDocument, AiSdkCreateSessionDocument, AiSdkHistoryDocument } from './generated/graphql.js';
import { gate } from './support/fake-provider.js';
import { createTestServer, dbKind, type ServerContext, testConfig } from './support/harness.js';
import { needsRedis, skipping } from './support/skips.js';
import { createApp } from '../src/app.js';
import { appRoutes } from '../src/routes.js';
import { startServer } from '../src/server.js';
import { differs, storedMessages } from '../src/protocols/ag-ui/messages.js';

/** the one browser origin CORS_ORIGINS lists */
const APP_ORIGIN = 'http://app.example';
let t: ServerContext;
let alice: string;
let bob: string;
beforeAll(async () => {
  t = await createTestServer({ authEnabled: true, titleGenerationEnabled: false, corsOrigins: [APP_ORIGIN] });
  alice = (await t.app.auth.createUser('alice')).key;
  bob = (await t.app.auth.createUser('bob')).key;
});
afterAll(() => t.close());

const WEATHER = {
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const agentFor = (token: string, threadId: string, base = t.url) =>
  new HttpAgent({ url: `${base}/ag-ui`, headers: { authorization: `Bearer ${token}` }, threadId });

/**
 * A run that goes away after its first text (the client aborts: a closed tab, a dropped connection), then a
 * reconnect: a new agent holding what the first one had, run with no new message (on `reconnectBase`), which opens
 * the held answer once it started. Answers the reconnect's events and the agent.
 */
async function abortThenReconnect(
  server: ServerContext,
  token: string,
  threadId: string,
  base: string,
  reconnectBase: string,
) {
  const held = gate();
  server.fake.enqueue({ text: ['Hello ', 'brave ', 'world'], hold: held.promise, holdBeforeChunk: 1 });
  const first = agentFor(token, threadId, base);
  first.addMessage(user('Greet me'));
  await first.runAgent({}, { onTextMessageContentEvent: () => first.abortRun() }).catch(() => undefined);
  const again = agentFor(token, threadId, reconnectBase);
  again.setMessages(first.messages);
  const events: BaseEvent[] = [];
  await again.runAgent(
    {},
    {
      onRunStartedEvent: () => held.open(),
      onEvent: ({ event }) => {
        events.push(event);
      },
    },
  );
  return { events, types: events.map((e) => e.type), agent: again };
}

const user = (content: string): Message => ({ id: randomUUID(), role: 'user', content });

/** Runs the agent and records every event it applied and the errors its subscribers saw. */
async function run(agent: HttpAgent, tools: (typeof WEATHER)[] = []) {
  const events: BaseEvent[] = [];
  const errors: { message: string; code?: string }[] = [];
  await agent.runAgent(
    { tools },
    {
      onEvent: ({ event }) => {
        events.push(event);
      },
      onRunErrorEvent: ({ event }) => {
        errors.push({ message: event.message, code: event.code });
      },
    },
  );
  return { events, errors, types: events.map((e) => e.type) };
}

async function newSession(token: string) {
  return (await t.http(AiSdkCreateSessionDocument, {}, token)).data!.createSession.id;
}

async function history(token: string, id: string) {
  return (await t.http(AiSdkHistoryDocument, { id }, token)).data!.session!;
}

const textOf = (messages: Message[]) =>
  messages
    .filter((m) => m.role === 'assistant')
    .map((m) => (typeof m.content === 'string' ? m.content : ''))
    .join('');

/** A message as compared: id, role, text, the call it answers, the calls it makes. */
const shape = (m: {
  id: string;
  role: string;
  content?: unknown;
  toolCallId?: unknown;
  toolCalls?: { id: string }[];
}) => ({
  id: m.id,
  role: m.role,
  content: typeof m.content === 'string' && m.content !== '' ? m.content : null,
  toolCallId: m.toolCallId ?? null,
  toolCalls: (m.toolCalls ?? []).map((c) => c.id),
});

/** The stored history (GraphQL's ids) as the AG-UI messages it stands for: thinking is a reasoning message. */
async function storedAsAgUi(token: string, id: string) {
  const { history } = (await t.http(AgUiHistoryDocument, { id }, token)).data!.session!;
  return history.edges.flatMap(({ node: n }) => [
    ...(n.thinking ? [shape({ id: `${n.id}:reasoning`, role: 'reasoning', content: n.thinking })] : []),
    shape({ ...n, role: n.role.toLowerCase(), toolCallId: n.toolCallId ?? undefined }),
  ]);
}

describe(`AG-UI (${dbKind})`, () => {
  it("leaves the client holding the stored history, ids included: a snapshot, then the stream's ids", async () => {
    t.app.tools.register({
      name: 'glossary',
      description: 'looks a word up',
      parameters: { type: 'object', properties: { word: { type: 'string' } } },
      run: async () => ({ content: '{"meaning":"a small stream"}' }),
    });
    const threadId = `ids-${randomUUID().slice(0, 8)}`;
    t.fake.enqueue(
      { thinking: 'Hmm', text: 'Hello' },
      { text: 'Let me look.', toolCalls: [{ id: 'call_c1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { toolCalls: [{ id: 'call_s1', name: 'glossary', arguments: { word: 'rill' } }] },
      { text: 'Sunny, and a rill is a small stream.' },
    );
    const agent = agentFor(alice, threadId);
    agent.addMessage(user('Hi'));
    const first = await run(agent);
    expect(first.types.slice(0, 2)).toEqual(['RUN_STARTED', 'MESSAGES_SNAPSHOT']);
    const aliceUser = (await t.app.auth.viewerFor(`Bearer ${alice}`))!.userId!;
    const sessionId = (await t.app.sessions.store.byExternalId(aliceUser, threadId))!.id;
    const globalId = Buffer.from(`Session:${sessionId}`).toString('base64');
    expect(agent.messages.map(shape)).toEqual(await storedAsAgUi(alice, globalId));
    // The streamed text named the stored answer: no message the snapshot did not already know was sent in it.
    const streamedIds = first.events.flatMap((e) => ('messageId' in e ? [e.messageId as string] : []));
    const storedIds = (await storedAsAgUi(alice, globalId)).map((m) => m.id);
    expect(streamedIds.every((id) => storedIds.includes(id))).toBe(true);

    agent.addMessage(user('Weather in Oslo, and what is a rill?'));
    const second = await run(agent, [WEATHER]);
    expect(second.errors).toEqual([]);
    expect(agent.messages.map(shape)).toEqual(await storedAsAgUi(alice, globalId));

    agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: 'call_c1', content: '{"sky":"clear"}' });
    const third = await run(agent);
    expect(third.errors).toEqual([]);
    expect(third.types).toContain('TOOL_CALL_RESULT');
    expect(textOf(agent.messages)).toBe('HelloLet me look.Sunny, and a rill is a small stream.');
    const stored = await storedAsAgUi(alice, globalId);
    expect(stored.map((m) => m.role)).toEqual([
      'user',
      'reasoning',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(agent.messages.map(shape)).toEqual(stored);
    // A client holding exactly the stored history differs from it in nothing: no snapshot is due.
    expect(differs(agent.messages, await storedMessages(t.app, sessionId, Number.MAX_SAFE_INTEGER))).toBe(false);
    expect(differs(agent.messages.slice(1), await storedMessages(t.app, sessionId, Number.MAX_SAFE_INTEGER))).toBe(
      true,
    );
  });

  it('runs a text answer with thinking: RUN_STARTED first, every span closed, usage on RUN_FINISHED', async () => {
    const sessionId = await newSession(alice);
    t.fake.enqueue({ thinking: 'Let me think', text: ['Hel', 'lo there'], promptTokens: 40, completionTokens: 7 });
    const agent = agentFor(alice, sessionId);
    agent.addMessage(user('Hi!'));
    const { events, errors, types } = await run(agent);
    expect(errors).toEqual([]);
    expect(types[0]).toBe('RUN_STARTED');
    expect(types).toEqual([
      'RUN_STARTED',
      'MESSAGES_SNAPSHOT',
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_END',
      'REASONING_END',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    expect(events.at(-1)).toMatchObject({ usage: [{ inputTokens: 40, outputTokens: 7 }] });
    expect(textOf(agent.messages)).toBe('Hello there');
    const stored = await history(alice, sessionId);
    expect(stored.history.edges.map((e) => e.node.content)).toEqual(['Hi!', 'Hello there']);
  });

  it('answers SSE data frames only, with no [DONE] line', async () => {
    const sessionId = await newSession(alice);
    t.fake.enqueue({ text: 'plain' });
    const response = await fetch(`${t.url}/ag-ui`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice}` },
      body: JSON.stringify({ threadId: sessionId, runId: 'r1', messages: [user('raw')], tools: [], context: [] }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    expect(text).not.toContain('[DONE]');
    expect(text).not.toContain('\r');
    const frames = text.split('\n\n').filter(Boolean);
    expect(frames.every((f) => f.startsWith('data: '))).toBe(true);
    expect(JSON.parse(frames[0]!.slice(6))).toEqual({ type: 'RUN_STARTED', threadId: sessionId, runId: 'r1' });
    expect(JSON.parse(frames.at(-1)!.slice(6))).toMatchObject({ type: 'RUN_FINISHED' });
  });

  it('answers a message that is not an object with RUN_ERROR BAD_USER_INPUT naming it', async () => {
    const sessionId = await newSession(alice);
    const response = await fetch(`${t.url}/ag-ui`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice}` },
      body: JSON.stringify({ threadId: sessionId, runId: 'r1', messages: [user('fine'), null], tools: [] }),
    });
    const frames = (await response.text()).split('\n\n').filter(Boolean);
    const events = frames.map((f) => JSON.parse(f.slice(6)) as { type: string; code?: string; message?: string });
    expect(events.map((e) => e.type)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(events[1]).toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringContaining('messages[1]') });
    expect((await history(alice, sessionId)).history.edges).toEqual([]);
  });

  it('runs a client tool round trip: the call and its pending id, then the tool message continues it', async () => {
    const threadId = `thread-${randomUUID().slice(0, 8)}`;
    t.fake.enqueue(
      { toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: 'Sunny in Oslo' },
    );
    const agent = agentFor(alice, threadId);
    agent.addMessage(user('Weather in Oslo?'));
    const first = await run(agent, [WEATHER]);
    expect(first.errors).toEqual([]);
    expect(first.types.slice(-4)).toEqual(['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'RUN_FINISHED']);
    expect(first.events.at(-1)).toMatchObject({ outcome: { type: 'success', pendingToolCallIds: ['call_w1'] } });
    const call = agent.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []))[0]!;
    expect(call).toMatchObject({ id: 'call_w1', function: { name: 'get_weather' } });
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Oslo' });
    // The model saw the tools of this run.
    expect(JSON.stringify(t.fake.requests.at(-1))).toContain('get_weather');

    agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: 'call_w1', content: '{"temperature":21}' });
    // A client that repeats its answer: the first is taken, the repeat is not an error.
    agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: 'call_w1', content: '{"temperature":99}' });
    const next = await run(agent);
    expect(next.errors).toEqual([]);
    expect(next.types).not.toContain('TOOL_CALL_START');
    expect(next.types.at(-1)).toBe('RUN_FINISHED');
    expect(textOf(agent.messages)).toBe('Sunny in Oslo');
    expect(JSON.stringify(t.fake.requests.at(-1))).toContain('temperature');
  });

  it('follows CORS_ORIGINS as GraphQL does: a listed origin may call it, another is refused', async () => {
    const preflight = await fetch(`${t.url}/ag-ui`, {
      method: 'OPTIONS',
      headers: {
        origin: APP_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    const sessionId = await newSession(alice);
    t.fake.enqueue({ text: 'cross-origin ok' });
    const agent = new HttpAgent({
      url: `${t.url}/ag-ui`,
      headers: { authorization: `Bearer ${alice}`, origin: APP_ORIGIN },
      threadId: sessionId,
    });
    agent.addMessage(user('from the app'));
    expect((await run(agent)).errors).toEqual([]);
    expect(textOf(agent.messages)).toBe('cross-origin ok');
    const refused = await fetch(`${t.url}/ag-ui`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice}`, origin: 'http://evil.example' },
      body: JSON.stringify({ threadId: sessionId, runId: 'r', messages: [user('x')], tools: [], context: [] }),
    });
    expect(refused.status).toBe(403);
    expect((await history(alice, sessionId)).history.edges).toHaveLength(2);
  });

  it("answers a retried run of the same message with the first run's turn: one model call, one answer", async () => {
    const sessionId = await newSession(alice);
    t.fake.enqueue({ text: 'only once' });
    const before = t.fake.requests.length;
    const message = user('Say it once');
    const first = agentFor(alice, sessionId);
    first.addMessage(message);
    await run(first);
    // The same message posted again (a client retrying after a dropped connection).
    const retry = agentFor(alice, sessionId);
    retry.addMessage(message);
    const again = await run(retry);
    expect(again.errors).toEqual([]);
    expect(textOf(retry.messages)).toBe('only once');
    expect(t.fake.requests.length - before).toBe(1);
    expect((await history(alice, sessionId)).history.edges.map((e) => e.node.content)).toEqual([
      'Say it once',
      'only once',
    ]);
  });

  it('reconnects: a run with no new message follows the running turn from its start; after it, nothing', async () => {
    const threadId = `resume-${randomUUID().slice(0, 8)}`;
    const before = t.fake.requests.length;
    const { types, agent } = await abortThenReconnect(t, alice, threadId, t.url, t.url);
    expect(types[0]).toBe('RUN_STARTED');
    expect(types.at(-1)).toBe('RUN_FINISHED');
    const answers = agent.messages.filter((m) => m.role === 'assistant');
    expect(answers.map((m) => m.content)).toEqual(['Hello brave world']);
    const aliceUser = (await t.app.auth.viewerFor(`Bearer ${alice}`))!.userId!;
    const sessionId = (await t.app.sessions.store.byExternalId(aliceUser, threadId))!.id;
    const globalId = Buffer.from(`Session:${sessionId}`).toString('base64');
    expect(agent.messages.map(shape)).toEqual(await storedAsAgUi(alice, globalId));
    // After the end nothing runs: the reconnect gets an empty run, and no model call is made.
    const late = agentFor(alice, threadId);
    late.setMessages(agent.messages);
    const after = await run(late);
    expect(after.types).toEqual(['RUN_STARTED', 'RUN_FINISHED']);
    expect(t.fake.requests.length - before).toBe(1);
  });

  it("answers another user's thread with RUN_ERROR NOT_FOUND, writing nothing", async () => {
    const sessionId = await newSession(alice);
    const agent = agentFor(bob, sessionId);
    agent.addMessage(user('intrude'));
    const { errors, types } = await run(agent);
    expect(types).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(errors).toEqual([{ message: expect.any(String), code: 'NOT_FOUND' }]);
    expect((await history(alice, sessionId)).history.edges).toEqual([]);
  });

  it('ends a failed turn with RUN_ERROR carrying the code', async () => {
    const sessionId = await newSession(alice);
    t.fake.enqueue({ status: 404, errorBody: { error: 'model "qwen3:8b" not found, try pulling it first' } });
    const agent = agentFor(alice, sessionId);
    agent.addMessage(user('Hello?'));
    const { errors, types } = await run(agent);
    expect(types[0]).toBe('RUN_STARTED');
    expect(types.at(-1)).toBe('RUN_ERROR');
    expect(errors).toEqual([{ message: expect.any(String), code: 'MODEL_NOT_FOUND' }]);
  });

  it('refuses no credentials (401) and a cross-site form body (403) before reading anything', async () => {
    const sessionId = await newSession(alice);
    const body = JSON.stringify({ threadId: sessionId, runId: 'r', messages: [user('x')], tools: [], context: [] });
    const anonymous = await fetch(`${t.url}/ag-ui`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(anonymous.status).toBe(401);
    const form = await fetch(`${t.url}/ag-ui`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    expect(form.status).toBe(403);
    expect(await form.json()).toMatchObject({ error: { code: 'CSRF_HEADER_REQUIRED' } });
    await expect(agentFor('not-a-key', sessionId).runAgent()).rejects.toThrow();
    expect((await history(alice, sessionId)).history.edges).toEqual([]);
  });
});

const noRedis = skipping('AG-UI resume across two processes', needsRedis());
describe.skipIf(noRedis)(`AG-UI across two processes through Redis (${dbKind})`, () => {
  it('a run aborted on one process is followed whole by a reconnect on the other', async () => {
    const a = await createTestServer({ redisUrl: process.env.REDIS_URL, authEnabled: true });
    const bApp = await createApp(
      testConfig({ redisUrl: process.env.REDIS_URL, ollamaHost: a.fake.url, authEnabled: true }),
      { db: a.app.db },
    );
    const b = await startServer(bApp, { routes: appRoutes(bApp) });
    try {
      const carol = (await a.app.auth.createUser('carol')).key;
      const threadId = `two-${randomUUID().slice(0, 8)}`;
      const { types, agent } = await abortThenReconnect(a, carol, threadId, a.url, b.url);
      expect(types.at(-1)).toBe('RUN_FINISHED');
      expect(agent.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(['Hello brave world']);
    } finally {
      await b.close();
      await bApp.close();
      await a.close();
    }
  }, 120_000);
});
