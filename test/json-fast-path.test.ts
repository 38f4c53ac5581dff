/**
 * The JSON fast path (src/http/fast-path/): plain `POST /graphql`
 * queries answered on node:http without Yoga's fetch layer. Two things are
 * held here:
 * - which requests it serves and which it hands to Yoga (and that a body it
 *   read reaches Yoga whole), by calling its handler directly;
 * - that a client cannot tell the two paths apart: the same requests (valid
 *   pages, every kind of bad input, credentials, Accept and Content-Type
 *   variants, @defer, a mutation) sent to one app behind two servers, one
 *   with HTTP_FAST_PATH on and one with it off, get the same status,
 *   content type, security headers and body.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { type JsonFastPath, jsonFastPath, jsonMediaType } from '../src/http/fast-path/index.js';
import { createGraphQLHandler, type RunningServer, startServer } from '../src/server.js';
import {
  JsonFastPathCreateDocument,
  JsonFastPathHistoryDocument,
  JsonFastPathListDocument,
  JsonFastPathNodeDocument,
  JsonFastPathRenameDocument,
  JsonFastPathSkipDocument,
  JsonFastPathViewerDocument,
} from './generated/graphql.js';
import { createTestApp, queryText, type TestContext } from './support/harness.js';
import { appendTurns, rawId } from './support/editing.js';

const HISTORY = queryText(JsonFastPathHistoryDocument);
const LIST = queryText(JsonFastPathListDocument);

interface Answer {
  status: number;
  type: string | null;
  security: (string | null)[];
  body: unknown;
}

async function send(url: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (an SSE stream, a multipart body): compared as text
  }
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    security: ['referrer-policy', 'x-frame-options', 'content-security-policy'].map((h) => response.headers.get(h)),
    body: parsed,
  };
}

/** Two servers over one app: the fast path on, and off (every request through Yoga). */
async function pair(app: App): Promise<{ fast: RunningServer; yoga: RunningServer }> {
  const fast = await startServer({ ...app, config: { ...app.config, httpFastPath: true } });
  const yoga = await startServer({ ...app, config: { ...app.config, httpFastPath: false } });
  return { fast, yoga };
}

describe('the JSON fast path answers as Yoga does', () => {
  let t: TestContext;
  let servers: { fast: RunningServer; yoga: RunningServer };
  let session: string;

  beforeAll(async () => {
    t = await createTestApp();
    const created = await t.gql(JsonFastPathCreateDocument, { name: 'fast path' });
    session = created.data!.createSession.id;
    await appendTurns(t, rawId(session), 4);
    servers = await pair(t.app);
  });
  afterAll(async () => {
    await servers.fast.close();
    await servers.yoga.close();
    await t.close();
  });

  const body = (query: string, variables?: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ query, ...(variables === undefined ? {} : { variables }), ...extra });

  const cases: [string, () => string, Record<string, string>?][] = [
    ['a history page', () => body(HISTORY, { id: session, last: 3 })],
    ['a deeper history page', () => body(HISTORY, { id: session, last: 2, before: 'bTo0' })],
    ['the sessions list', () => body(LIST)],
    ['a node', () => body(queryText(JsonFastPathNodeDocument), { id: session })],
    ['the viewer', () => body(queryText(JsonFastPathViewerDocument))],
    ['@include from a variable', () => body(queryText(JsonFastPathSkipDocument), { id: session, withHistory: true })],
    ['@skip-style false', () => body(queryText(JsonFastPathSkipDocument), { id: session, withHistory: false })],
    ['a missing session (null)', () => body(HISTORY, { id: Buffer.from('Session:x').toString('base64'), last: 1 })],
    ['a malformed id (field error)', () => body(HISTORY, { id: 'not-an-id', last: 1 })],
    ['a malformed cursor (field error)', () => body(HISTORY, { id: session, last: 1, before: '%%%' })],
    ['a page size over the limit', () => body(HISTORY, { id: session, last: 100_000 })],
    ['a variable of the wrong type', () => body(HISTORY, { id: session, last: 'three' })],
    ['a missing required variable', () => body(HISTORY, { last: 1 })],
    ['variables that are not an object', () => body(HISTORY, 'nope')],
    ['variables: null', () => body(LIST, null)],
    ['a NUL character in a variable', () => body(HISTORY, { id: `${session}\u0000`, last: 1 })],
    ['a NUL character in the document', () => body('{ session(id: "a\\u0000b") { name } }')],
    ['an unknown field', () => body('{ sessions(first: 1) { nope } }')],
    ['a syntax error', () => body('{ sessions(first: 1) { ')],
    ['a document too deep', () => body(`{ viewer ${'{ user '.repeat(14)}{ name }${' }'.repeat(14)} }`)],
    ['an empty query', () => body('')],
    ['a query that is not a string', () => JSON.stringify({ query: 42 })],
    ['no query at all', () => JSON.stringify({ variables: {} })],
    ['an unexpected parameter', () => body(LIST, {}, { extra: 1 })],
    ['extensions', () => body(LIST, {}, { extensions: { trace: true } })],
    ['operationName: null', () => body(LIST, {}, { operationName: null })],
    ['an operationName that is not a string', () => body(LIST, {}, { operationName: 7 })],
    [
      'two operations, one named',
      () => body(`query A { viewer { isAdmin } } query B { viewer { authEnabled } }`, {}, { operationName: 'B' }),
    ],
    ['two operations, none named', () => body(`query A { viewer { isAdmin } } query B { viewer { authEnabled } }`)],
    ['an unknown operationName', () => body(LIST, {}, { operationName: 'Nope' })],
    ['a batch (an array)', () => JSON.stringify([{ query: LIST }])],
    ['a JSON string body', () => JSON.stringify('query')],
    ['malformed JSON', () => '{"query": '],
    ['introspection', () => body('{ __schema { queryType { name } } }')],
    ['@defer', () => body(`query { viewer { ... @defer { authEnabled } } }`)],
    // (with Accept: */* Yoga would open an SSE stream for it, on both servers)
    [
      'a subscription over POST',
      () => body(`subscription { sessionListEvents { kind } }`),
      { accept: 'application/json' },
    ],
    [
      'a mutation (same answer twice)',
      () => body(queryText(JsonFastPathRenameDocument), { id: session, name: 'same' }),
    ],
    ['Accept: application/graphql-response+json', () => body(LIST), { accept: 'application/graphql-response+json' }],
    [
      'Accept: graphql-response+json with a field error',
      () => body(HISTORY, { id: 'not-an-id', last: 1 }),
      { accept: 'application/graphql-response+json' },
    ],
    [
      'Accept: graphql-response+json with a bad variable',
      () => body(HISTORY, { id: session, last: 'x' }),
      { accept: 'application/graphql-response+json' },
    ],
    ['Accept: application/json', () => body(LIST), { accept: 'application/json' }],
    ['Accept: */*', () => body(LIST), { accept: '*/*' }],
    [
      'Accept: both, weighted',
      () => body(LIST),
      { accept: 'application/json, application/graphql-response+json;q=0.9' },
    ],
    ['Accept: text/event-stream', () => body(LIST), { accept: 'text/event-stream' }],
    ['Accept: json or an event stream', () => body(LIST), { accept: 'application/json, text/event-stream' }],
    ['Accept: an event stream or json', () => body(LIST), { accept: 'text/event-stream, application/json' }],
    ['Accept: multipart/mixed', () => body(LIST), { accept: 'multipart/mixed' }],
    ['Accept: text/html', () => body(LIST), { accept: 'text/html' }],
    ['Accept: json in latin1', () => body(LIST), { accept: 'application/json; charset=latin1' }],
    ['Content-Type with charset', () => body(LIST), { 'content-type': 'application/json; charset=utf-8' }],
    ['Content-Type in capitals', () => body(LIST), { 'content-type': 'Application/JSON' }],
    ['Content-Type with a space before ;', () => body(LIST), { 'content-type': 'application/json ;charset=utf-8' }],
    ['Content-Type and charset in capitals', () => body(LIST), { 'content-type': 'APPLICATION/JSON;CHARSET=UTF-8' }],
    ['Content-Type json in latin1', () => body(LIST), { 'content-type': 'application/json; charset=latin1' }],
    ['Content-Type json, then another', () => body(LIST), { 'content-type': 'application/json, text/plain' }],
    ['Content-Type text/plain (CSRF)', () => body(LIST), { 'content-type': 'text/plain' }],
    ['Content-Type application/graphql+json', () => body(LIST), { 'content-type': 'application/graphql+json' }],
  ];

  it.each(cases)('%s', async (_label, make, headers = {}) => {
    const text = make();
    const viaFast = await send(servers.fast.url, text, headers);
    const viaYoga = await send(servers.yoga.url, text, headers);
    expect(viaFast).toEqual(viaYoga);
    expect(viaFast.security).toEqual(['no-referrer', 'DENY', "frame-ancestors 'none'"]);
  });

  it.each(['[::1', 'exa mple', 'a%zz', '127.0.0.1:99999'])('answers 400 to a Host header %s on both', async (host) => {
    const ask = (url: string) =>
      new Promise<string>((resolve, reject) => {
        const text = body(LIST);
        const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
        let answer = '';
        socket.on('data', (d) => (answer += d.toString()));
        socket.on('error', reject);
        socket.on('close', () => resolve(answer));
        socket.end(
          `POST /graphql HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
        );
      });
    for (const answer of [await ask(servers.fast.url), await ask(servers.yoga.url)]) {
      expect(answer).toMatch(/^HTTP\/1.1 400/);
      expect(answer).toContain('Bad Host header');
    }
  });

  it('answers a history page with DateTime strings and every row', async () => {
    const answer = await send(servers.fast.url, body(HISTORY, { id: session, last: 8 }));
    const history = (answer.body as { data: { session: { history: { edges: { node: { createdAt: unknown } }[] } } } })
      .data.session.history;
    expect(history.edges).toHaveLength(8);
    for (const edge of history.edges) expect(edge.node.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describe('the JSON fast path with credentials', () => {
  let t: TestContext;
  let servers: { fast: RunningServer; yoga: RunningServer };
  let alice: string;

  beforeAll(async () => {
    t = await createTestApp({ authEnabled: true, jwtSecret: 'fast-path-secret-0123456789abcdef' });
    alice = (await t.app.auth.createUser('alice')).key;
    servers = await pair(t.app);
  });
  afterAll(async () => {
    await servers.fast.close();
    await servers.yoga.close();
    await t.close();
  });

  const viewer = JSON.stringify({ query: queryText(JsonFastPathViewerDocument) });
  const cases: [string, () => Record<string, string>][] = [
    ['no credentials', () => ({})],
    ['a valid key', () => ({ authorization: `Bearer ${alice}` })],
    ['a wrong key', () => ({ authorization: 'Bearer nope' })],
    ['a malformed header', () => ({ authorization: 'Basic Zm9vOmJhcg==' })],
  ];
  it.each(cases)('%s', async (_label, headers) => {
    const viaFast = await send(servers.fast.url, viewer, headers());
    const viaYoga = await send(servers.yoga.url, viewer, headers());
    expect(viaFast).toEqual(viaYoga);
  });

  it('answers the user of the key on the fast path', async () => {
    const answer = await send(servers.fast.url, viewer, { authorization: `Bearer ${alice}` });
    expect(answer.body).toEqual({ data: { viewer: { isAdmin: false, authEnabled: true, user: { name: 'alice' } } } });
  });
});

describe('what the fast path serves and what it hands to Yoga', () => {
  let t: TestContext;
  let server: Server;
  let url: string;
  let persistedOnly: Server;
  let persistedUrl: string;

  /** A server whose requests the fast path declines are answered 599 with the body it left for Yoga. */
  let fast: JsonFastPath;
  async function listen(persisted: 'off' | 'only'): Promise<[Server, string]> {
    const path = jsonFastPath(createGraphQLHandler(t.app), { persisted, bodyIdleMs: 200 });
    if (persisted === 'off') fast = path;
    const s = createServer(async (req, res) => {
      if (await path.handle(req, res)) return;
      const left = (req as IncomingMessage & { body?: Buffer }).body;
      res.writeHead(599, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ declined: true, body: left ? left.toString() : null }));
    });
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    return [s, `http://127.0.0.1:${(s.address() as AddressInfo).port}`];
  }

  beforeAll(async () => {
    t = await createTestApp();
    [server, url] = await listen('off');
    [persistedOnly, persistedUrl] = await listen('only');
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => persistedOnly.close(resolve));
    await t.close();
  });

  const list = JSON.stringify({ query: LIST });

  it('serves a plain query itself', async () => {
    const answer = await send(url, list);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ data: { sessions: { totalCount: expect.any(Number) } } });
  });

  it('serves a query whose result has field errors, with Yoga status rules', async () => {
    const answer = await send(url, JSON.stringify({ query: HISTORY, variables: { id: 'not-an-id', last: 1 } }));
    expect(answer.status).toBe(200);
    expect((answer.body as { errors: unknown[] }).errors).toHaveLength(1);
  });

  it.each([
    ['a mutation', JSON.stringify({ query: queryText(JsonFastPathCreateDocument), variables: { name: 'x' } }), {}],
    ['a validation error', JSON.stringify({ query: '{ nope }' }), {}],
    ['a syntax error', JSON.stringify({ query: '{' }), {}],
    ['@defer', JSON.stringify({ query: '{ viewer { ... @defer { authEnabled } } }' }), {}],
    ['a subscription', JSON.stringify({ query: 'subscription { sessionListEvents { kind } }' }), {}],
    ['an unexpected parameter', JSON.stringify({ query: LIST, extra: true }), {}],
    ['malformed JSON', '{"query":', {}],
    ['a query text over 16 KiB (not remembered)', JSON.stringify({ query: `${LIST}\n#${'x'.repeat(17_000)}` }), {}],
    ['Accept: text/event-stream', list, { accept: 'text/event-stream' }],
  ] as [string, string, Record<string, string>][])(
    'hands %s to Yoga with the body it read',
    async (_l, text, headers) => {
      const answer = await send(url, text, headers);
      expect(answer.status).toBe(599);
      // The SSE case is declined before reading: its body is still in the request stream for Yoga.
      expect(answer.body).toEqual({ declined: true, body: headers.accept ? null : text });
    },
  );

  it('leaves a chunked body unread (the body idle timeout of Yoga applies)', async () => {
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(list));
        controller.close();
      },
    });
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(599);
    expect(await response.json()).toEqual({ declined: true, body: null });
  });

  /** Raw HTTP: the head, then each later part once the server has read what came before; resolves on close. */
  function rawRequest(head: string, parts: string[], keepOpen = true): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
      let answer = '';
      socket.on('data', (d) => {
        answer += d.toString();
        // One answer is all this test wants: close our side once it is whole.
        if (!keepOpen && /\r\n\r\n[\s\S]*\}$/.test(answer)) socket.end();
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(answer));
      socket.write(head, () => {
        for (const part of parts) setImmediate(() => socket.write(part));
      });
    });
  }
  const head = (length: number) =>
    `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it('serves a body that arrives after its headers, in pieces', async () => {
    const answer = await rawRequest(head(list.length), [list.slice(0, 7), list.slice(7, 20), list.slice(20)], false);
    expect(answer).toMatch(/^HTTP\/1.1 200/);
    expect(answer).toContain('"totalCount"');
  });

  it('answers 408 REQUEST_TIMEOUT and closes the connection when the body stops arriving', async () => {
    const answer = await rawRequest(head(list.length), [list.slice(0, 10)]);
    expect(answer).toMatch(/^HTTP\/1.1 408/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toContain('REQUEST_TIMEOUT');
  });

  it('drops a request whose client goes away mid-body, answering nothing', async () => {
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    const closed = new Promise<string>((resolve) => {
      let answer = '';
      socket.on('data', (d) => (answer += d.toString()));
      socket.on('close', () => resolve(answer));
    });
    socket.write(head(list.length) + list.slice(0, 10), () => setImmediate(() => socket.destroy()));
    expect(await closed).toBe('');
    // The server is still serving.
    expect((await send(url, list)).status).toBe(200);
  });

  it('is not turned off for a text by one request whose operationName picks no operation', async () => {
    const wrong = await send(url, JSON.stringify({ query: LIST, operationName: 'Nope' }));
    expect(wrong.status).toBe(599);
    expect((await send(url, list)).status).toBe(200);
    expect((await send(url, JSON.stringify({ query: LIST, operationName: 'JsonFastPathList' }))).status).toBe(200);
  });

  it('keeps what it remembers within its token budget (comment tokens counted)', async () => {
    // ~8,000 comment tokens each, under 16 KiB: 40 of them hold more than the 200,000-token budget.
    const padded = (i: number) => JSON.stringify({ query: `${LIST}\n${'#\n'.repeat(7_900)}# ${i}` });
    for (let i = 0; i < 40; i++) expect((await send(url, padded(i))).status).toBe(200);
    const { texts, tokens } = fast.remembered();
    expect(tokens).toBeLessThanOrEqual(200_000);
    expect(tokens).toBeGreaterThan(150_000);
    expect(texts).toBeLessThan(40);
    // The newest are the ones kept: the last text is still served from memory, and the first again after it.
    expect((await send(url, padded(39))).status).toBe(200);
    expect((await send(url, padded(0))).status).toBe(200);
    expect(fast.remembered().tokens).toBeLessThanOrEqual(200_000);
  });

  it('serves nothing when only persisted operations may run', async () => {
    const answer = await send(persistedUrl, list);
    expect(answer).toMatchObject({ status: 599, body: { declined: true, body: null } });
  });
});

describe('jsonMediaType: the JSON media type Yoga would answer with', () => {
  it.each([
    [undefined, 'application/json'],
    ['*/*', 'application/json'],
    ['application/json', 'application/json'],
    ['application/graphql-response+json', 'application/graphql-response+json'],
    ['application/graphql-response+json, application/json', 'application/graphql-response+json'],
    ['application/json, application/graphql-response+json', 'application/json'],
    ['application/*', 'application/json'],
    ['text/event-stream', null],
    ['multipart/mixed', null],
    ['text/event-stream, application/json', 'application/json'],
    ['application/json, text/event-stream', 'application/json'],
    ['text/html', null],
    ['application/json; charset=latin1', null],
  ])('%s → %s', (accept, expected) => {
    expect(jsonMediaType(accept)).toBe(expected);
  });
});
