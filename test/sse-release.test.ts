/**
 * SSE subscription slots are given back the moment a client goes away (issue 32, item 3): GraphQL SSE streams and
 * the AI SDK chat stream release their slot on the response's close, once; in local mode (every client is
 * `anonymous` on 127.0.0.1) the SSE limit is process-wide (LOCAL_MAX_SSE_STREAMS), so one client's aborted streams
 * never lock the others out. The reconnect storm (500 reconnects from 50 clients) is in test/slow/.
 */
import { randomUUID } from 'node:crypto';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphQLError, parse } from 'graphql';
import { type Config, loadConfig } from '../src/config.js';
import { subscriptionCounter, wsSubscriptionLimits } from '../src/http/limits.js';
import { LimitsCreateSessionDocument, LimitsRenameDocument } from './generated/graphql.js';
import { gate } from './support/fake-provider.js';
import { createTestServer, eventually, type ServerContext } from './support/harness.js';
import { openSse } from './support/sse.js';

const renamed = (n: number) => (events: string[]) => events.filter((e) => e.includes('SessionRenamed')).length >= n;

describe('SSE slots are released when the client aborts (local mode)', () => {
  let t: ServerContext;
  const held = () => t.app.subscriptions.held('anonymous');
  const newSession = async () => {
    const created = await t.http(LimitsCreateSessionDocument, {});
    return created.data!.createSession.id;
  };

  beforeAll(async () => {
    t = await createTestServer({ localMaxSseStreams: 3, titleGenerationEnabled: false });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('gives an aborted stream its slot back at once, though its session stays quiet', async () => {
    const quiet = await newSession();
    await t.http(LimitsRenameDocument, { id: quiet, name: 'quiet' });
    // One client fills the process-wide limit and goes away; nothing more happens on its session.
    const first = await Promise.all([1, 2, 3].map(() => openSse(t.url, quiet)));
    await Promise.all(first.map((s) => s.waitFor(renamed(1))));
    expect(held()).toBe(3);
    const refused = await openSse(t.url, quiet);
    expect(refused.status).toBe(429);
    first.forEach((s) => s.abort());
    await eventually(
      async () => held(),
      (n) => n === 0,
    );
    // Another client is served at once, and gets the events.
    const other = await openSse(t.url, quiet);
    expect(other.status).toBe(200);
    await other.waitFor(renamed(1));
    await t.http(LimitsRenameDocument, { id: quiet, name: 'again' });
    await other.waitFor(renamed(2));
    other.abort();
    await eventually(
      async () => held(),
      (n) => n === 0,
    );
  });

  it('gives back the slot of a stream aborted at any point of its opening (a reconnect storm)', async () => {
    const quiet = await newSession();
    const request = (signal: AbortSignal) =>
      fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({
          query: 'subscription($id: ID!) { sessionEvents(sessionId: $id, after: "0") { __typename } }',
          variables: { id: quiet },
        }),
        signal,
      }).then(
        (r) => r.body?.cancel(),
        () => undefined,
      );
    // Aborted after 0..199 turns of the event loop: before the request is sent, while it is subscribing, once open.
    for (let round = 0; round < 4; round++) {
      await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const controller = new AbortController();
          const sent = request(controller.signal);
          for (let n = 0; n < (i * 4 + round) % 200; n++) await new Promise((r) => setImmediate(r));
          controller.abort();
          await sent;
        }),
      );
    }
    await eventually(
      async () => held(),
      (n) => n === 0,
    );
    const other = await openSse(t.url, quiet);
    expect(other.status).toBe(200);
    other.abort();
  });

  it('gives an aborted /api/chat stream its slot back while the turn still runs', async () => {
    const sessionId = await newSession();
    const hold = gate();
    t.fake.enqueue({ text: ['Hello ', 'world'], hold: hold.promise, holdBeforeChunk: 1 });
    const abort = new AbortController();
    const transport = new DefaultChatTransport<UIMessage>({ api: `${t.url}/api/chat` });
    const stream = await transport.sendMessages({
      chatId: sessionId,
      messages: [{ id: randomUUID(), role: 'user', parts: [{ type: 'text', text: 'Hi' }] }],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: abort.signal,
    });
    const reader = stream.getReader();
    for (;;) {
      const { value } = await reader.read();
      if (!value) throw new Error('the stream ended before any text');
      if (value.type === 'text-delta') break;
    }
    expect(held()).toBe(1);
    abort.abort();
    await reader.cancel().catch(() => undefined);
    // Released with the turn still held by the gate: no event wakes the stream up.
    await eventually(
      async () => held(),
      (n) => n === 0,
    );
    hold.open();
  });

  it('sizes the local SSE limit for the process (LOCAL_MAX_SSE_STREAMS, default 256), not per user', () => {
    expect(loadConfig({}).localMaxSseStreams).toBe(256);
    expect(loadConfig({ LOCAL_MAX_SSE_STREAMS: '9' }).localMaxSseStreams).toBe(9);
    const take = (config: Config) => {
      const counter = subscriptionCounter(config);
      let taken = 0;
      while (taken < 10_000 && !(counter.acquire('anonymous', 'sse') instanceof GraphQLError)) taken++;
      return taken;
    };
    // Local mode: 50 tabs and scripts of one machine (all `anonymous`) each hold a stream.
    expect(take(loadConfig({}))).toBe(256);
    // With auth the per-user limit stands.
    expect(take(loadConfig({ AUTH_ENABLED: 'true' }))).toBe(20);
  });
});

describe('graphql-ws subscription limits by mode', () => {
  it('counts graphql-ws per connection only in local mode (no shared per-user bucket); per user with auth', () => {
    const document = parse('subscription { sessionListEvents { __typename } }');
    const env = { MAX_SUBSCRIPTIONS_PER_USER: '2', MAX_SUBSCRIPTIONS_PER_SOCKET: '3', LOCAL_MAX_SSE_STREAMS: '2' };
    const admitted = (config: Config, sockets: number) => {
      const ws = wsSubscriptionLimits(subscriptionCounter(config));
      const answers: string[] = [];
      for (let s = 0; s < sockets; s++) {
        const socket = {};
        for (let i = 0; i < 4; i++) {
          const errors = ws.admit(socket, { document, contextValue: { viewer: { userId: 'anonymous' } } });
          answers.push(errors ? (errors[0]!.message.match(/per (connection|user)/)?.[0] ?? '?') : 'ok');
        }
      }
      return answers;
    };
    // Local: three sockets (three tabs) each get their 3, the fourth on a socket is refused by that socket's limit.
    expect(admitted(loadConfig(env), 3)).toEqual(Array(3).fill(['ok', 'ok', 'ok', 'per connection']).flat());
    // With auth the user's 2 hold across sockets.
    expect(admitted(loadConfig({ ...env, AUTH_ENABLED: 'true' }), 2)).toEqual([
      ...['ok', 'ok', 'per user', 'per user'],
      ...['per user', 'per user', 'per user', 'per user'],
    ]);
  });
});
