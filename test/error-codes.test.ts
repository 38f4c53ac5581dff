/**
 * Every error carries `extensions.code` and the status GraphQL-over-HTTP asks
 * for: bad variables, limit rejections, malformed text, CSRF refusals and
 * requests that end before any `data`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphQLHandler } from '../src/server.js';
import { createTestApp, type TestContext } from './support/harness.js';

let t: TestContext;
let yoga: ReturnType<typeof createGraphQLHandler>;

beforeAll(async () => {
  t = await createTestApp();
  yoga = createGraphQLHandler(t.app);
}, 180_000);
afterAll(() => t?.close());

async function post(body: unknown, accept = 'application/graphql-response+json') {
  const response = await yoga.fetch('http://test/graphql', {
    method: 'POST',
    headers: { accept, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as {
    data?: unknown;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
  return {
    status: response.status,
    json,
    code: json.errors?.[0]?.extensions?.code,
    message: json.errors?.[0]?.message,
  };
}

const SESSIONS = 'query($d: SortDirection, $f: Int){ sessions(direction: $d, first: $f){ totalCount } }';

describe('variable coercion failures', () => {
  it.each([
    ['an unknown enum value', { d: 'NOPE' }],
    ['an Int out of range', { f: 2 ** 31 }],
    ['a wrong type', { f: 'x' }],
  ])('%s answers 400 BAD_USER_INPUT', async (_name, variables) => {
    const r = await post({ query: SESSIONS, variables });
    expect(r).toMatchObject({ status: 400, code: 'BAD_USER_INPUT' });
    expect(r.json.data).toBeUndefined();
  });

  it('a missing or null required variable answers 400 BAD_USER_INPUT', async () => {
    for (const variables of [{}, { id: null }]) {
      expect(await post({ query: 'query($id: ID!){ session(id: $id){ id } }', variables })).toMatchObject({
        status: 400,
        code: 'BAD_USER_INPUT',
      });
    }
  });

  it('a missing input field in a variable answers 400 BAD_USER_INPUT', async () => {
    const r = await post({
      query: 'mutation($i: CreateSessionInput!){ createSession(input: $i){ id } }',
      variables: { i: { bogus: 1 } },
    });
    expect(r).toMatchObject({ status: 400, code: 'BAD_USER_INPUT' });
  });
});

describe('limit rejections', () => {
  const aliases = `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: viewer { __typename }`).join(' ')} }`;
  const directives = `{ viewer ${'@include(if: true) '.repeat(21)}{ __typename } }`;
  const deep = `{ ${'... on Query { '.repeat(14)} viewer { __typename } ${'} '.repeat(14)} }`;
  const tokens = `{ viewer { ${'__typename '.repeat(2100)} } }`;
  it.each([
    ['cost', '{ sessions(first: 100000) { totalCount } }', 'QUERY_TOO_COMPLEX'],
    ['aliases', aliases, 'TOO_MANY_ALIASES'],
    ['directives', directives, 'TOO_MANY_DIRECTIVES'],
    ['depth', deep, 'QUERY_TOO_DEEP'],
    ['tokens', tokens, 'TOO_MANY_TOKENS'],
  ])('%s answers 400 with its code and no "Syntax Error"', async (_name, query, code) => {
    const r = await post({ query });
    expect(r).toMatchObject({ status: 400, code });
    expect(r.message).not.toMatch(/Syntax Error/);
  });
});

describe('malformed text', () => {
  const CREATE = 'mutation($n: String){ createSession(input: { name: $n }){ id } }';
  it.each([
    ['a NUL in a variable', { query: CREATE, variables: { n: 'a\u0000b' } }],
    ['a lone surrogate in a variable', { query: CREATE, variables: { n: 'a\ud800b' } }],
    ['a NUL inline', { query: 'mutation { createSession(input: { name: "a\\u0000b" }){ id } }' }],
  ])('%s answers 400 BAD_USER_INPUT and writes nothing', async (_name, body) => {
    const before = await t.app.db.prisma.session.count();
    expect(await post(body)).toMatchObject({ status: 400, code: 'BAD_USER_INPUT' });
    expect(await t.app.db.prisma.session.count()).toBe(before);
  });

  it('a lone surrogate inline is refused by the parser: 400 GRAPHQL_PARSE_FAILED', async () => {
    expect(await post({ query: 'mutation { createSession(input: { name: "a\\udc00" }){ id } }' })).toMatchObject({
      status: 400,
      code: 'GRAPHQL_PARSE_FAILED',
    });
  });

  it('a NUL deep in a JSON scalar or an object key is refused', async () => {
    const q =
      'mutation($s: ID!, $p: JSON!){ sendMessage(input: { sessionId: $s, content: "x", ' +
      'clientTools: [{ name: "t", description: "d", parameters: $p }] }) { __typename } }';
    for (const p of [{ a: [{ b: 'x\u0000' }] }, { ['k\u0000']: 1 }]) {
      expect(await post({ query: q, variables: { s: 'x', p } })).toMatchObject({ status: 400, code: 'BAD_USER_INPUT' });
    }
  });

  it('a surrogate pair (an emoji) is fine', async () => {
    const r = await post({ query: CREATE, variables: { n: 'chat 😀' } });
    expect(r.json.errors).toBeUndefined();
  });
});

describe('multipart', () => {
  async function multipart(query: string, variables: Record<string, unknown>, path: string) {
    const fd = new FormData();
    fd.set('operations', JSON.stringify({ query, variables }));
    fd.set('map', JSON.stringify({ 0: [path] }));
    fd.set('0', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
    const response = await yoga.fetch('http://test/graphql', {
      method: 'POST',
      headers: { 'x-graphql-yoga-csrf': '1', accept: 'application/graphql-response+json' },
      body: fd,
    });
    const json = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
    return { status: response.status, code: json.errors?.[0]?.extensions?.code };
  }
  it.each([
    ['an ID variable', 'query($id: ID!){ session(id: $id){ id } }', { id: null }, 'variables.id'],
    [
      'a String input field',
      'mutation($i: CreateSessionInput!){ createSession(input: $i){ id } }',
      { i: { name: null } },
      'variables.i.name',
    ],
    ['a path that does not exist', 'query($id: ID!){ session(id: $id){ id } }', { id: 'x' }, 'variables.nope.deeper'],
  ])('a map entry pointing at %s answers 400 BAD_USER_INPUT', async (_name, query, variables, path) => {
    expect(await multipart(query, variables, path)).toEqual({ status: 400, code: 'BAD_USER_INPUT' });
  });
});

describe('request-level refusals', () => {
  it('a GET without the CSRF header answers 403 CSRF_HEADER_REQUIRED', async () => {
    const response = await yoga.fetch('http://test/graphql?query=%7Bviewer%7B__typename%7D%7D', { method: 'GET' });
    expect(response.status).toBe(403);
    const json = (await response.json()) as { errors: { extensions: { code?: string } }[] };
    expect(json.errors[0]!.extensions.code).toBe('CSRF_HEADER_REQUIRED');
  });
});

describe('a request that ends before any data', () => {
  it('a bad key answers 401 UNAUTHENTICATED under ' +
    'application/graphql-response+json, 200 under application/json', async () => {
    const auth = await createTestApp({ authEnabled: true });
    try {
      const handler = createGraphQLHandler(auth.app);
      const ask = async (accept: string) => {
        const response = await handler.fetch('http://test/graphql', {
          method: 'POST',
          headers: { accept, 'content-type': 'application/json', authorization: 'Bearer csk_not_a_key' },
          body: JSON.stringify({ query: '{ viewer { __typename } }' }),
        });
        const json = (await response.json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
        return { status: response.status, code: json.errors?.[0]?.extensions?.code, hasData: 'data' in json };
      };
      expect(await ask('application/graphql-response+json')).toEqual({
        status: 401,
        code: 'UNAUTHENTICATED',
        hasData: false,
      });
      expect(await ask('application/json')).toEqual({ status: 200, code: 'UNAUTHENTICATED', hasData: false });
    } finally {
      await auth.close();
    }
  }, 180_000);
});
