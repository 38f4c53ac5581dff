/**
 * POST /api/chat and GET /api/chat/{id}/stream with the AI SDK's own client, unmodified: `DefaultChatTransport`
 * sends and reconnects, `readUIMessageStream` builds the UI message, against a real server and the fake provider.
 */
import { randomUUID } from 'node:crypto';
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AiSdkCancelDocument,
  AiSdkCreateSessionDocument,
  AiSdkHistoryDocument,
  AiSdkSendDocument,
} from './generated/graphql.js';
import { gate } from './support/fake-provider.js';
import {
  codeOf,
  createTestServer,
  dbKind,
  eventually,
  rawSessionId,
  type ServerContext,
  testConfig,
} from './support/harness.js';
import { needsRedis, skipping } from './support/skips.js';
import { createApp } from '../src/app.js';
import { appRoutes } from '../src/routes.js';
import { startServer } from '../src/server.js';

const MAX_CHARS = 500;
/** the one browser origin CORS_ORIGINS lists */
const APP_ORIGIN = 'http://app.example';
let t: ServerContext;
let alice: string;
let bob: string;
beforeAll(async () => {
  t = await createTestServer({
    authEnabled: true,
    titleGenerationEnabled: false,
    maxMessageChars: MAX_CHARS,
    corsOrigins: [APP_ORIGIN],
  });
  alice = (await t.app.auth.createUser('alice')).key;
  bob = (await t.app.auth.createUser('bob')).key;
});
afterAll(() => t.close());

const WEATHER = {
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const transport = (token: string, body: Record<string, unknown> = {}) =>
  new DefaultChatTransport<UIMessage>({
    api: `${t.url}/api/chat`,
    headers: { authorization: `Bearer ${token}` },
    body,
  });

const userMessage = (text: string): UIMessage => ({
  id: randomUUID(),
  role: 'user',
  parts: [{ type: 'text', text }],
});

function send(
  token: string,
  chatId: string,
  messages: UIMessage[],
  options: { trigger?: 'submit-message' | 'regenerate-message'; messageId?: string; signal?: AbortSignal } = {},
  body: Record<string, unknown> = {},
) {
  return transport(token, body).sendMessages({
    chatId,
    messages,
    trigger: options.trigger ?? 'submit-message',
    messageId: options.messageId,
    abortSignal: options.signal,
  });
}

/** The stream's chunks and the UI message they build (the client's own reader). */
async function read(stream: ReadableStream<UIMessageChunk>, message?: UIMessage) {
  const chunks: UIMessageChunk[] = [];
  const tapped = stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        chunks.push(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
  let last: UIMessage | undefined;
  for await (const m of readUIMessageStream<UIMessage>({ stream: tapped, ...(message ? { message } : {}) })) last = m;
  return { chunks, message: last! };
}

const textOf = (m: UIMessage) => m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');

async function newSession(token: string) {
  return (await t.http(AiSdkCreateSessionDocument, {}, token)).data!.createSession.id;
}

async function history(token: string, id: string) {
  return (await t.http(AiSdkHistoryDocument, { id }, token)).data!.session!;
}

describe(`AI SDK chat stream (${dbKind})`, () => {
  it('streams an answer: start with the stored message id, reasoning, text, usage', async () => {
    const sessionId = await newSession(alice);
    t.fake.enqueue({ thinking: 'Let me think', text: ['Hel', 'lo there'], promptTokens: 40, completionTokens: 7 });
    const { chunks, message } = await read(await send(alice, sessionId, [userMessage('Hi!')]));
    expect(chunks[0]).toMatchObject({ type: 'start' });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', messageMetadata: { usage: { completionTokens: 7 } } });
    expect(message.role).toBe('assistant');
    expect(textOf(message)).toBe('Hello there');
    expect(message.parts.find((p) => p.type === 'reasoning')).toMatchObject({ text: 'Let me think' });
    // The UI message's id is the stored assistant message's id, as GraphQL returns it.
    const stored = await history(alice, sessionId);
    const answer = stored.history.edges.map((e) => e.node).find((n) => n.role === 'ASSISTANT')!;
    expect(answer).toMatchObject({ id: message.id, content: 'Hello there' });
    expect(stored.activeTurn).toBeNull();
  });

  it('answers SSE with the protocol header and a final [DONE]', async () => {
    const sessionId = await newSession(alice);
    t.fake.enqueue({ text: 'plain' });
    const response = await fetch(`${t.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice}` },
      body: JSON.stringify({ id: sessionId, messages: [userMessage('raw')], trigger: 'submit-message' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    const frames = text.split('\n\n').filter(Boolean);
    expect(frames.every((f) => f.startsWith('data: '))).toBe(true);
    expect(frames.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(frames[0]!.slice(6))).toMatchObject({ type: 'start' });
  });

  it('makes a session for a client-made chat id, finds it again, and keeps it per user', async () => {
    const chatId = `chat-${randomUUID().slice(0, 8)}`;
    t.fake.enqueue({ text: 'first' }, { text: 'second' });
    const first = userMessage('one');
    const a = await read(await send(alice, chatId, [first]));
    expect(textOf(a.message)).toBe('first');
    const b = await read(await send(alice, chatId, [first, a.message, userMessage('two')]));
    expect(textOf(b.message)).toBe('second');
    const aliceUser = (await t.app.auth.viewerFor(`Bearer ${alice}`))!.userId!;
    const session = (await t.app.sessions.store.byExternalId(aliceUser, chatId))!;
    const stored = await history(alice, Buffer.from(`Session:${session.id}`).toString('base64'));
    expect(stored.history.edges.map((e) => e.node.content)).toEqual(['one', 'first', 'two', 'second']);
    // Bob's chat with the same client id is his own, new session.
    t.fake.enqueue({ text: 'bob answer' });
    const c = await read(await send(bob, chatId, [userMessage('bob here')]));
    expect(textOf(c.message)).toBe('bob answer');
    const bobUser = (await t.app.auth.viewerFor(`Bearer ${bob}`))!.userId!;
    expect((await t.app.sessions.store.byExternalId(bobUser, chatId))!.id).not.toBe(session.id);
  });

  it("answers another user's session with 404 on send and on reconnect; no credentials with 401", async () => {
    const sessionId = await newSession(alice);
    await expect(send(bob, sessionId, [userMessage('intrude')])).rejects.toThrow(/NOT_FOUND/);
    await expect(send(bob, rawSessionId(sessionId), [userMessage('intrude')])).rejects.toThrow(/NOT_FOUND/);
    await expect(transport(bob).reconnectToStream({ chatId: sessionId })).rejects.toThrow(/NOT_FOUND/);
    const anonymous = await fetch(`${t.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: sessionId, messages: [userMessage('x')], trigger: 'submit-message' }),
    });
    expect(anonymous.status).toBe(401);
    // A body a cross-site form could send (text/plain, no Authorization): GraphQL's CSRF rule refuses it first.
    const form = await fetch(`${t.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ id: sessionId, messages: [userMessage('x')], trigger: 'submit-message' }),
    });
    expect(form.status).toBe(403);
    expect(await form.json()).toMatchObject({ error: { code: 'CSRF_HEADER_REQUIRED' } });
    expect((await history(alice, sessionId)).history.edges).toEqual([]);
  });

  it('refuses a message over the limit with the code GraphQL gives, writing nothing', async () => {
    const sessionId = await newSession(alice);
    const long = 'x'.repeat(MAX_CHARS + 1);
    const graphql = await t.http(AiSdkSendDocument, { input: { sessionId, content: long } }, alice);
    expect(codeOf(graphql)).toBe('BAD_USER_INPUT');
    const error = await send(alice, sessionId, [userMessage(long)]).then(
      () => null,
      (e: Error) => e,
    );
    expect(JSON.parse(error!.message)).toMatchObject({ error: { code: 'BAD_USER_INPUT' } });
    expect((await history(alice, sessionId)).history.edges).toEqual([]);
  });

  it('runs a client tool round trip: the call, then the result continues the same message', async () => {
    const sessionId = await newSession(alice);
    t.fake.enqueue(
      { toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: 'Sunny in Oslo' },
    );
    const question = userMessage('Weather in Oslo?');
    const first = await read(await send(alice, sessionId, [question], {}, { clientTools: [WEATHER] }));
    const call = first.message.parts.find((p) => p.type === 'tool-get_weather') as Extract<
      UIMessage['parts'][number],
      { type: `tool-${string}` }
    >;
    expect(call).toMatchObject({ toolCallId: 'call_w1', state: 'input-available', input: { city: 'Oslo' } });
    expect(first.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls' });
    expect((await history(alice, sessionId)).activeTurn).toMatchObject({ status: 'WAITING_FOR_TOOL' });

    // What useChat sends after addToolOutput: the assistant message with the output, its id as messageId.
    const answered: UIMessage = {
      ...first.message,
      parts: first.message.parts.map((p) =>
        p === call ? { ...call, state: 'output-available', output: { temperature: 21 } } : p,
      ) as UIMessage['parts'],
    };
    const next = await read(
      await send(alice, sessionId, [question, answered], { messageId: answered.id }),
      structuredClone(answered),
    );
    expect(next.chunks[0]).toEqual({ type: 'start', messageId: first.message.id });
    // Only what follows the results: nothing the client already holds is sent again.
    expect(next.chunks.filter((c) => c.type === 'tool-input-available')).toEqual([]);
    expect(next.message.id).toBe(first.message.id);
    expect(textOf(next.message)).toBe('Sunny in Oslo');
    expect(next.message.parts.find((p) => p.type === 'tool-get_weather')).toMatchObject({
      state: 'output-available',
      output: { temperature: 21 },
    });
    // The model got the client's result.
    expect(JSON.stringify(t.fake.requests.at(-1))).toContain('temperature');
    expect((await history(alice, sessionId)).activeTurn).toBeNull();
  });

  it('shows a server tool as provider-executed, with its output, in the same message as the answer', async () => {
    t.app.tools.register({
      name: 'dictionary',
      description: 'looks a word up',
      parameters: { type: 'object', properties: { word: { type: 'string' } } },
      run: async (args) => ({ content: JSON.stringify({ word: args.word, meaning: 'a small stream' }) }),
    });
    const sessionId = await newSession(alice);
    t.fake.enqueue(
      { toolCalls: [{ id: 'call_d1', name: 'dictionary', arguments: { word: 'rill' } }] },
      { text: 'A rill is a small stream.' },
    );
    const { chunks, message } = await read(await send(alice, sessionId, [userMessage('What is a rill?')]));
    expect(chunks.find((c) => c.type === 'tool-input-available')).toMatchObject({
      toolCallId: 'call_d1',
      toolName: 'dictionary',
      input: { word: 'rill' },
      providerExecuted: true,
    });
    expect(message.parts.find((p) => p.type === 'tool-dictionary')).toMatchObject({
      state: 'output-available',
      output: { word: 'rill', meaning: 'a small stream' },
      providerExecuted: true,
    });
    expect(textOf(message)).toBe('A rill is a small stream.');
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('regenerates the newest answer, with and without messageId', async () => {
    const sessionId = await newSession(alice);
    t.fake.enqueue({ text: 'first take' }, { text: 'second take' }, { text: 'third take' });
    const question = userMessage('Tell me something');
    const first = await read(await send(alice, sessionId, [question]));
    const second = await read(
      await send(alice, sessionId, [question], { trigger: 'regenerate-message', messageId: first.message.id }),
    );
    expect(textOf(second.message)).toBe('second take');
    // A regenerated answer is a new version of the message: a new id (the first one stays on its branch).
    expect(second.message.id).not.toBe(first.message.id);
    const third = await read(await send(alice, sessionId, [question], { trigger: 'regenerate-message' }));
    expect(textOf(third.message)).toBe('third take');
    const stored = await history(alice, sessionId);
    expect(stored.history.edges.map((e) => e.node.content)).toEqual(['Tell me something', 'third take']);
    expect(stored.history.edges[1]!.node.id).toBe(third.message.id);
  });

  it('ends a failed turn with an error chunk carrying the code, as the client reads it', async () => {
    const sessionId = await newSession(alice);
    t.fake.enqueue({ status: 404, errorBody: { error: 'model "qwen3:8b" not found, try pulling it first' } });
    const chunks: UIMessageChunk[] = [];
    const errors: unknown[] = [];
    const stream = (await send(alice, sessionId, [userMessage('Hello?')])).pipeThrough(
      new TransformStream<UIMessageChunk, UIMessageChunk>({
        transform(chunk, controller) {
          chunks.push(chunk);
          controller.enqueue(chunk);
        },
      }),
    );
    for await (const _ of readUIMessageStream({ stream, onError: (e) => errors.push(e) }));
    expect(chunks[0]).toMatchObject({ type: 'start' });
    expect(chunks.at(-1)).toMatchObject({ type: 'error', errorText: expect.stringMatching(/^MODEL_NOT_FOUND: /) });
    expect(String(errors[0])).toMatch(/MODEL_NOT_FOUND/);
  });

  it('follows CORS_ORIGINS as GraphQL does: a listed origin may call it, another is refused', async () => {
    const preflight = await fetch(`${t.url}/api/chat`, {
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
    const allowed = await read(
      await new DefaultChatTransport<UIMessage>({
        api: `${t.url}/api/chat`,
        headers: { authorization: `Bearer ${alice}`, origin: APP_ORIGIN },
      }).sendMessages({
        chatId: sessionId,
        messages: [userMessage('from the app')],
        trigger: 'submit-message',
        messageId: undefined,
        abortSignal: undefined,
      }),
    );
    expect(textOf(allowed.message)).toBe('cross-origin ok');
    const refused = await fetch(`${t.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice}`, origin: 'http://evil.example' },
      body: JSON.stringify({ id: sessionId, messages: [userMessage('x')], trigger: 'submit-message' }),
    });
    expect(refused.status).toBe(403);
    expect((await history(alice, sessionId)).history.edges).toHaveLength(2);
  });

  it('refuses an edit of an earlier user message (editMessage does that)', async () => {
    const sessionId = await newSession(alice);
    const error = await send(alice, sessionId, [userMessage('edited')], { messageId: 'some-user-message' }).then(
      () => null,
      (e: Error) => e,
    );
    expect(JSON.parse(error!.message)).toMatchObject({ error: { code: 'BAD_USER_INPUT' } });
  });

  it('keeps the turn running when the POST is aborted; reconnecting gets the whole answer as one message', async () => {
    const sessionId = await newSession(alice);
    const held = gate();
    t.fake.enqueue({ text: ['Hello ', 'brave ', 'world'], hold: held.promise, holdBeforeChunk: 1 });
    const abort = new AbortController();
    const stream = await send(alice, sessionId, [userMessage('Greet me')], { signal: abort.signal });
    const reader = stream.getReader();
    let start: UIMessageChunk | undefined;
    for (;;) {
      const { value } = await reader.read();
      if (!value) throw new Error('the stream ended before any text');
      start ??= value;
      if (value.type === 'text-delta') break;
    }
    abort.abort();
    await reader.cancel().catch(() => undefined);

    const resumed = await transport(alice).reconnectToStream({ chatId: sessionId });
    expect(resumed).not.toBeNull();
    held.open();
    const { chunks, message } = await read(resumed!);
    expect(chunks[0]).toEqual(start);
    expect(message.id).toBe((start as { messageId: string }).messageId);
    expect(message.parts.filter((p) => p.type === 'text')).toHaveLength(1);
    expect(textOf(message)).toBe('Hello brave world');
    const stored = await history(alice, sessionId);
    expect(stored.history.edges.at(-1)!.node).toMatchObject({ id: message.id, content: 'Hello brave world' });
    // After the end nothing runs: the reconnect gets nothing (204).
    expect(await transport(alice).reconnectToStream({ chatId: sessionId })).toBeNull();
  });

  it('reconnects to nothing for a chat that never ran, and the cancel mutation stops a running turn', async () => {
    expect(await transport(alice).reconnectToStream({ chatId: `never-${randomUUID()}` })).toBeNull();
    const sessionId = await newSession(alice);
    const held = gate();
    t.fake.enqueue({ text: ['partial ', 'rest'], hold: held.promise, holdBeforeChunk: 1 });
    const stream = await send(alice, sessionId, [userMessage('Go')]);
    const turn = await eventually(
      () => history(alice, sessionId),
      (s) => s.activeTurn !== null,
    );
    const reading = read(stream);
    expect((await t.http(AiSdkCancelDocument, { turnId: turn.activeTurn!.id }, alice)).data?.cancelTurn).toMatchObject({
      status: 'CANCELLED',
    });
    held.open();
    const { chunks } = await reading;
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', messageMetadata: { status: 'CANCELLED' } });
  });
});

describe(`AI SDK chat stream with a short event log (${dbKind})`, () => {
  it('ends the stream of a retried message whose turn ended and left the log', async () => {
    const small = await createTestServer({ titleGenerationEnabled: false, eventRetention: 10 });
    try {
      const chatId = `short-${randomUUID()}`;
      const chat = new DefaultChatTransport<UIMessage>({ api: `${small.url}/api/chat` });
      const post = (messages: UIMessage[]) =>
        chat.sendMessages({
          chatId,
          messages,
          trigger: 'submit-message',
          messageId: undefined,
          abortSignal: undefined,
        });
      small.fake.enqueue({ text: 'short one' }, { text: Array.from({ length: 20 }, (_, i) => `w${i} `) });
      const first = userMessage('first');
      const one = await read(await post([first]));
      expect(textOf(one.message)).toBe('short one');
      await read(await post([first, one.message, userMessage('second')]));
      // The same message again (a retry): the idempotency key answers with its ended turn, whose events are gone.
      const again = await read(await post([first]));
      expect(again.chunks[0]).toEqual({ type: 'start', messageId: one.message.id });
      expect(again.chunks.at(-1)).toMatchObject({ type: 'finish', messageMetadata: { status: 'COMPLETED' } });
      expect(small.fake.requests).toHaveLength(2);
    } finally {
      await small.close();
    }
  }, 120_000);
});

const noRedis = skipping('AI SDK resume across two processes', needsRedis());
describe.skipIf(noRedis)(`AI SDK chat stream across two processes through Redis (${dbKind})`, () => {
  it('a POST aborted on one process is resumed whole on the other', async () => {
    const a = await createTestServer({ redisUrl: process.env.REDIS_URL, titleGenerationEnabled: false });
    const bApp = await createApp(testConfig({ redisUrl: process.env.REDIS_URL, ollamaHost: a.fake.url }), {
      db: a.app.db,
    });
    const b = await startServer(bApp, { routes: appRoutes(bApp) });
    try {
      const chatId = `two-${randomUUID()}`;
      const held = gate();
      a.fake.enqueue({ text: ['Across ', 'two ', 'processes'], hold: held.promise, holdBeforeChunk: 1 });
      const abort = new AbortController();
      const stream = await new DefaultChatTransport<UIMessage>({ api: `${a.url}/api/chat` }).sendMessages({
        chatId,
        messages: [userMessage('Run on A')],
        trigger: 'submit-message',
        messageId: undefined,
        abortSignal: abort.signal,
      });
      const reader = stream.getReader();
      let start: UIMessageChunk | undefined;
      for (;;) {
        const { value } = await reader.read();
        if (!value) throw new Error('the stream ended before any text');
        start ??= value;
        if (value.type === 'text-delta') break;
      }
      abort.abort();
      await reader.cancel().catch(() => undefined);
      const resumed = await new DefaultChatTransport<UIMessage>({ api: `${b.url}/api/chat` }).reconnectToStream({
        chatId,
      });
      expect(resumed).not.toBeNull();
      held.open();
      const { chunks, message } = await read(resumed!);
      expect(chunks[0]).toEqual(start);
      expect(textOf(message)).toBe('Across two processes');
      expect(message.parts.filter((p) => p.type === 'text')).toHaveLength(1);
      expect(await new DefaultChatTransport({ api: `${b.url}/api/chat` }).reconnectToStream({ chatId })).toBeNull();
    } finally {
      await b.close();
      await bApp.close();
      await a.close();
    }
  }, 120_000);
});
