/**
 * Resource bounds at the edge, over real sockets: the graphql-ws frame limit,
 * subscriptions per socket and per user (graphql-ws and SSE together), SSE
 * streams per user, header and body timeouts (JSON and multipart, whose
 * spool file must be gone), and introspection (its shape limit; off by
 * default with auth on).
 */
import { promises as fs, watch } from 'node:fs';
import { createServer, type Server } from 'node:http';
import net from 'node:net';
import { getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import type { Client, FormattedExecutionResult } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../src/config.js';
import { useStreamingUploads } from '../src/files/multipart.js';
import { introspectionEnabled } from '../src/http/limits.js';
import {
  LimitsCreateSessionDocument,
  LimitsRenameDocument,
  LimitsSchemaQueryTypeDocument,
  LimitsSessionEventsDocument,
  type LimitsSessionEventsSubscription,
  type LimitsSessionEventsSubscriptionVariables,
  LimitsSessionListDocument,
  LimitsTypenameDocument,
  LimitsTypeSessionDocument,
} from './generated/graphql.js';
import {
  codeOf,
  createTestApp,
  createTestServer,
  eventually,
  queryText,
  type ServerContext,
  type TestContext,
} from './support/harness.js';

const LIST = queryText(LimitsSessionListDocument);
// Replays the session's log first: its first event says the subscription is live.
const EVENTS = LimitsSessionEventsDocument;

/** What graphql-ws's `error` gives a subscription the server refused: the server's errors. */
type Refusal = { message: string; extensions?: { code?: string } }[];

/** A subscription on a given client, with its events and its error (if refused). */
function open(client: Client, variables: LimitsSessionEventsSubscriptionVariables, query = EVENTS) {
  const events: FormattedExecutionResult<LimitsSessionEventsSubscription, unknown>[] = [];
  let error: unknown = null;
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  const dispose = client.subscribe<LimitsSessionEventsSubscription>(
    { query: queryText(query), variables },
    {
      next: (value) => {
        events.push(value);
        notify();
      },
      error: (e) => {
        error = e;
        notify();
      },
      complete: () => undefined,
    },
  );
  const until = (predicate: () => boolean, what: string, timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      if (predicate()) return resolve();
      const timer = setTimeout(
        () =>
          reject(
            new Error(`timed out waiting for ${what}; events ${JSON.stringify(events)} error ${JSON.stringify(error)}`),
          ),
        timeoutMs,
      );
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
    });
  return {
    events,
    get error() {
      return error;
    },
    /** the first of the refusal's errors */
    firstError: () => (Array.isArray(error) ? (error as Refusal)[0] : undefined),
    dispose,
    /** resolves when an event arrives after `count` events */
    nextEvent: (count = events.length) => until(() => events.length > count, 'an event'),
    /** resolves once the replay delivered something: the subscription is live */
    live: () => until(() => events.length > 0, 'the replay'),
    refused: () => until(() => error !== null, 'an error'),
  };
}

/** Raw HTTP: writes `chunks`, never finishes, resolves with what the server answered once it closed the socket. */
function stalledRequest(port: number, head: string, bodyPart: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(head);
    if (bodyPart.length) socket.write(bodyPart);
  });
}

describe('bounded resources over real sockets', () => {
  let t: ServerContext;
  let sessionId: string;
  const rename = async (name: string) => {
    const r = await t.http(LimitsRenameDocument, {
      id: sessionId,
      name,
    });
    expect(r.errors).toBeUndefined();
  };
  const held = () => t.app.subscriptions.held('anonymous');
  const port = () => Number(new URL(t.url).port);

  beforeAll(async () => {
    t = await createTestServer({
      wsMaxPayloadBytes: 4096,
      maxSubscriptionsPerSocket: 3,
      maxSubscriptionsPerUser: 5,
      maxSseStreamsPerUser: 2,
      // Local mode: the SSE limit is the process's (LOCAL_MAX_SSE_STREAMS), not MAX_SSE_STREAMS_PER_USER.
      localMaxSseStreams: 2,
      // Short enough for the stall tests, long enough that no other request of this block is cut on a loaded
      // machine (client and server share one event loop: a stalled loop counts against the headers' time too).
      requestHeadersTimeoutMs: 5_000,
      requestBodyTimeoutMs: 5_000,
    });
    const created = await t.http(LimitsCreateSessionDocument, {});
    sessionId = created.data!.createSession.id;
    await rename('start');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('closes a socket that sends a frame above WS_MAX_PAYLOAD_BYTES (1009), without parsing it', async () => {
    const socket = new WebSocket(t.wsUrl, 'graphql-transport-ws');
    const messages: string[] = [];
    socket.on('message', (m) => messages.push(m.toString()));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init' }));
    await new Promise<void>((resolve) => socket.once('message', () => resolve()));
    expect(JSON.parse(messages[0]!).type).toBe('connection_ack');
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    // A well-formed subscribe message, only too large: graphql-ws would answer it if ws passed it on.
    socket.send(
      JSON.stringify({ id: '1', type: 'subscribe', payload: { query: `{ __typename }  ${' '.repeat(8192)}` } }),
    );
    expect(await closed).toBe(1009);
    expect(messages).toHaveLength(1);
  });

  it(
    'refuses a subscription beyond MAX_SUBSCRIPTIONS_PER_SOCKET ' +
      'with an error for that id; the socket and the others live on',
    async () => {
      const client = t.ws();
      const sub = () => open(client, { id: sessionId });
      const subs = [sub(), sub(), sub()];
      await Promise.all(subs.map((s) => s.live()));
      const extra = sub();
      await extra.refused();
      expect(extra.firstError()?.extensions?.code).toBe('TOO_MANY_SUBSCRIPTIONS');
      expect(extra.firstError()?.message).toMatch(/per connection/);
      const before = subs[0]!.events.length;
      await rename('two');
      await subs[0]!.nextEvent(before);
      expect(subs[0]!.events.at(-1)!.data!.sessionEvents.__typename).toBe('SessionRenamed');
      // A slot given back (complete) is free again on the same
      // socket: the complete is handled before the next subscribe.
      subs[2]!.dispose();
      const again = sub();
      await again.live();
      expect(again.error).toBeNull();
      again.dispose();
      subs.forEach((s) => s.dispose());
      await client.dispose();
      await eventually(
        async () => held(),
        (n) => n === 0,
      );
    },
  );

  it(
    'local mode: LOCAL_MAX_SSE_STREAMS answers 429 without a stream; graphql-ws counts per socket only ' +
      '(MAX_SUBSCRIPTIONS_PER_USER, one bucket for every local client, does not apply)',
    async () => {
      const a = t.ws();
      const b = t.ws();
      const onA = [open(a, { id: sessionId }), open(a, { id: sessionId })];
      await Promise.all(onA.map((s) => s.live()));
      const streams = [new AbortController(), new AbortController()];
      const sse = (signal?: AbortSignal) =>
        fetch(`${t.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
          body: JSON.stringify({ query: LIST }),
          signal,
        });
      const opened = await Promise.all(streams.map((c) => sse(c.signal)));
      expect(opened.map((r) => r.status)).toEqual([200, 200]);
      expect(held()).toBe(4);

      const third = await sse();
      expect(third.status).toBe(429);
      expect(await third.text()).toContain('TOO_MANY_SUBSCRIPTIONS');
      expect(held()).toBe(4);

      // Another socket (another tab) is not held back by the first one's: 6 held, above MAX_SUBSCRIPTIONS_PER_USER.
      const onB = open(b, { id: sessionId });
      await onB.live();
      const later = open(b, { id: sessionId });
      await later.live();
      expect(later.error).toBeNull();
      expect(held()).toBe(6);

      // A closed SSE stream gives its slot back.
      streams[0]!.abort();
      await eventually(
        async () => held(),
        (n) => n === 5,
      );
      const again = new AbortController();
      expect((await sse(again.signal)).status).toBe(200);
      again.abort();

      streams[1]!.abort();
      [...onA, onB, later].forEach((s) => s.dispose());
      await a.dispose();
      await b.dispose();
      await eventually(
        async () => held(),
        (n) => n === 0,
      );
    },
  );

  it('answers 408 and closes the connection when the headers stall (REQUEST_HEADERS_TIMEOUT_MS)', async () => {
    const answer = await stalledRequest(port(), 'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl', '');
    expect(answer).toMatch(/^HTTP\/1.1 408/);
  });

  it('keeps an idle keep-alive connection for KEEP_ALIVE_TIMEOUT_MS (65 s, above client pools)', async () => {
    const socket = net.connect(port(), '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    const responses = async (n: number) =>
      eventually(
        async () => answer.split('HTTP/1.1 200').length - 1,
        (count) => count >= n,
      );
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await responses(1);
    expect(answer).toMatch(/\r\nKeep-Alive: timeout=65\r\n/i);
    expect(answer).not.toMatch(/\r\nConnection: close\r\n/i);
    // The same socket serves the next request (the connection was kept).
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await responses(2);
    socket.destroy();
  });

  it('cuts a JSON body that stops arriving (REQUEST_BODY_TIMEOUT_MS) with 408 REQUEST_TIMEOUT', async () => {
    const body = JSON.stringify({ query: '{ __typename }' });
    const answer = await stalledRequest(
      port(),
      'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ' +
        `application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body.slice(0, 10),
    );
    expect(answer).toMatch(/^HTTP\/1.1 408/);
    expect(answer).toContain('REQUEST_TIMEOUT');
  });

  it('cuts a multipart upload that stops arriving with 408 and removes its spool file', async () => {
    const spoolDir = `${t.app.files.baseDir}/.incoming`;
    const boundary = 'limitsboundary';
    const operations = JSON.stringify({
      query:
        'mutation($id: ID!, $files: [File!]!) { uploadSessionFiles(sessionId: $id, files: $files) { __typename } }',
      variables: { id: sessionId, files: [null] },
    });
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body =
      part('operations', operations) +
      part('map', JSON.stringify({ 0: ['variables.files.0'] })) +
      `--${boundary}\r\nContent-Disposition: form-data; name="0"; ` +
      'filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n' +
      'x'.repeat(4096);
    const spooled = async () =>
      (await fs.readdir(spoolDir).catch(() => [] as string[])).filter((n) => n.endsWith('.part'));
    // Watched, not polled: the file lives only as long as the body timeout, which a busy event loop could poll past.
    await fs.mkdir(spoolDir, { recursive: true, mode: 0o700 });
    const watcher = watch(spoolDir);
    const created = new Set<string>();
    const appeared = new Promise<void>((resolve) =>
      watcher.on('change', (_type, name) => {
        if (String(name).endsWith('.part')) created.add(String(name));
        if (created.size > 0) resolve();
      }),
    );
    const answered = stalledRequest(
      port(),
      'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nx-graphql-yoga-csrf: 1\r\nContent-Type: ' +
        `multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length + 100_000}\r\n\r\n`,
      body,
    );
    // The spool file exists while the body stalls...
    await appeared;
    const answer = await answered;
    expect(created.size).toBe(1);
    expect(answer).toMatch(/^HTTP\/1.1 408/);
    expect(answer).toContain('REQUEST_TIMEOUT');
    // ...and is removed once the request is cut (its removal may follow the answer: waited for by the watcher's
    // events, never by time; a file that stays makes the test time out).
    const removed = new Promise<void>((resolve) => {
      const check = async () => {
        if ((await spooled()).length === 0) resolve();
      };
      watcher.on('change', () => void check());
      void check();
    });
    await removed;
    watcher.close();
    expect(await spooled()).toEqual([]);
  });

  it(
    'serves the standard introspection query in local ' + 'mode, but holds introspection to a depth limit too',
    async () => {
      const standard = await t.http<IntrospectionQuery>(getIntrospectionQuery());
      expect(standard.errors).toBeUndefined();
      expect(standard.data!.__schema.types.length).toBeGreaterThan(10);
      // 30 levels of the ofType chain: exempt from armor's depth limit before, refused now.
      const deep = `{ __schema { queryType { fields { type { ${'ofType { '.repeat(30)}name${' }'.repeat(30)} } } } } }`;
      const refused = await t.http(deep);
      expect(refused.data).toBeUndefined();
      expect(refused.errors?.[0]?.message).toMatch(/depth limit of 24/);
      expect(codeOf(refused)).toBe('GRAPHQL_VALIDATION_FAILED');
      // Fan-out through nested lists is graphql-js's own MaxIntrospectionDepthRule.
      const fanOut =
        '{ __schema { types { interfaces { possibleTypes ' + '{ interfaces { possibleTypes { name } } } } } } }';
      expect(codeOf(await t.http(fanOut))).toBe('GRAPHQL_VALIDATION_FAILED');
    },
  );
});

describe('body limit of non-multipart requests (useStreamingUploads maxOtherBodyBytes)', () => {
  const LIMIT = 256;
  /** whether the parser got the request Yoga received (true) or a replacement wrapping its body (false) */
  const sameRequest: boolean[] = [];
  // Listed before useStreamingUploads: its parser is the one useStreamingUploads wraps.
  const recorder: Plugin = {
    onRequestParse({ request, requestParser, setRequestParser }) {
      if (!requestParser) return;
      setRequestParser((req) => {
        sameRequest.push(req === request);
        return requestParser(req);
      });
    },
  };
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const yoga = createYoga({
      schema: createSchema({ typeDefs: 'type Query { echo(s: String): String }', resolvers: {} }),
      maxRequestBodySize: false,
      plugins: [
        recorder,
        useStreamingUploads({ spoolDir: '/tmp/limits-spool', maxBytes: 1024, maxOtherBodyBytes: LIMIT }),
      ],
      logging: false,
    });
    server = createServer(yoga);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/graphql`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });
  const body = (n: number) => {
    const text = JSON.stringify({ query: `{ echo(s: "${'x'.repeat(n)}") }` });
    return text;
  };
  /** A chunked body (no Content-Length): the limit must be counted while it streams. */
  const chunked = (text: string) =>
    fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(c) {
          const bytes = new TextEncoder().encode(text);
          for (let i = 0; i < bytes.length; i += 64) c.enqueue(bytes.slice(i, i + 64));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);

  it('passes a JSON request with a Content-Length to the parser as it came (no body stream)', async () => {
    sameRequest.length = 0;
    const r = await fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(10) });
    expect(r.status).toBe(200);
    expect(sameRequest).toEqual([true]);
  });

  it('refuses a declared Content-Length over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const r = await fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(LIMIT) });
    expect(r.status).toBe(413);
    expect((await r.json()).errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('counts a chunked body: within the limit it is served, over it 413 PAYLOAD_TOO_LARGE', async () => {
    const ok = await chunked(body(10));
    expect(ok.status).toBe(200);
    expect((await ok.json()).data).toEqual({ echo: null });
    const over = await chunked(body(LIMIT));
    expect(over.status).toBe(413);
    expect((await over.json()).errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('introspection with auth on', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ authEnabled: true, jwtSecret: 'x'.repeat(32) });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('is refused with INTROSPECTION_DISABLED unless INTROSPECTION=true', async () => {
    expect(codeOf(await t.gql(LimitsSchemaQueryTypeDocument, {}))).toBe('INTROSPECTION_DISABLED');
    expect(codeOf(await t.gql(LimitsTypeSessionDocument, {}))).toBe('INTROSPECTION_DISABLED');
    // __typename is not introspection of the schema: it still answers.
    expect((await t.gql(LimitsTypenameDocument, {})).data).toEqual({ __typename: 'Query' });
  });

  it('follows AUTH_ENABLED when INTROSPECTION is unset, and the setting when it is', () => {
    expect(introspectionEnabled(loadConfig({}))).toBe(true);
    expect(introspectionEnabled(loadConfig({ AUTH_ENABLED: 'true' }))).toBe(false);
    expect(introspectionEnabled(loadConfig({ AUTH_ENABLED: 'true', INTROSPECTION: 'true' }))).toBe(true);
    expect(introspectionEnabled(loadConfig({ INTROSPECTION: 'false' }))).toBe(false);
  });
});

describe('defaults', () => {
  it('bounds every resource out of the box', () => {
    const c = loadConfig({});
    expect(c.wsMaxPayloadBytes).toBe(1024 * 1024);
    expect(c.maxSubscriptionsPerSocket).toBe(100);
    expect(c.maxSubscriptionsPerUser).toBe(1000);
    expect(c.maxSseStreamsPerUser).toBe(20);
    expect(c.localMaxSseStreams).toBe(256);
    expect(c.requestHeadersTimeoutMs).toBe(20_000);
    // Above the 60 s idle time of common client pools and load balancers.
    expect(c.keepAliveTimeoutMs).toBe(65_000);
    expect(c.requestBodyTimeoutMs).toBe(30_000);
  });
});
