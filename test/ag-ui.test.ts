/**
 * POST /ag-ui with AG-UI's own client, unmodified: `HttpAgent.runAgent` posts the RunAgentInput and applies the
 * events, against a real server and the fake provider. runAgent resolves on RUN_ERROR, so errors are read
 * through onRunErrorEvent.
 */
import { randomUUID } from 'node:crypto';
import { type BaseEvent, HttpAgent, type Message } from '@ag-ui/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AiSdkCreateSessionDocument, AiSdkHistoryDocument } from './generated/graphql.js';
import { createTestServer, dbKind, type ServerContext } from './support/harness.js';

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

const agentFor = (token: string, threadId: string) =>
  new HttpAgent({ url: `${t.url}/ag-ui`, headers: { authorization: `Bearer ${token}` }, threadId });

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

describe(`AG-UI (${dbKind})`, () => {
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
