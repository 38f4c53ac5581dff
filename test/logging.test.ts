/**
 * What the log holds after a scripted run of client mistakes and normal use,
 * captured from the real server (HTTP, auth mode, LOG_LEVEL=debug) through a
 * pino destination: no line carries a share token, an API key, a JWT, message
 * text, a search term or a variable's value; no line is over 4 KB; client
 * mistakes are not at error level and have no stack; a server fault is one
 * error line with a stack, its message scrubbed.
 */
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { createApp } from '../src/app.js';
import { createLogger } from '../src/logging.js';
import { appRoutes } from '../src/routes.js';
import { startServer, type RunningServer } from '../src/server.js';
import { startFakeProvider, type FakeProvider } from './support/fake-provider.js';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  LoggingCreateSessionDocument,
  LoggingDisplayCountDocument,
  LoggingSearchDocument,
  LoggingSearchHugePageDocument,
  LoggingSendDocument,
  LoggingSessionIdDocument,
  LoggingSessionNameDocument,
  LoggingSessionsTotalDocument,
  LoggingShareDocument,
  type SendMessageInput,
} from './generated/graphql.js';
import {
  createTestDatabase,
  dbKind,
  eventually,
  type GqlResult,
  queryText,
  type SendGql,
  testConfig,
} from './support/harness.js';

const SECRET = 'logging-test-secret-long-enough-for-hs256';
const unique = (label: string) => `${label}${randomBytes(8).toString('hex')}`;
const MARKER = unique('MSGMARKER');
const SEARCH_TERM = unique('searchterm');
const VARIABLE_SECRET = unique('sk-live-');
const WRONG_KEY = unique('csk_wrongkey');
const QUOTED_SECRET = unique('dbvalue');

const lines: string[] = [];
let app: App;
let server: RunningServer;
let fake: FakeProvider;
let dropDb: () => Promise<void>;
let aliceKey: string;
let bobKey: string;
let shareToken: string;
let forgedJwt: string;

const gql: SendGql = async (
  query: string | TypedDocumentNode<unknown, never>,
  variables: Record<string, unknown> = {},
  token?: string,
) => {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: queryText(query), variables }),
  });
  return (await response.json()) as GqlResult<never>;
};

beforeAll(async () => {
  const { db, drop } = await createTestDatabase();
  dropDb = drop;
  fake = await startFakeProvider();
  const log = createLogger('debug', {
    write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)),
  });
  app = await createApp(
    testConfig({
      logLevel: 'debug',
      authEnabled: true,
      jwtSecret: SECRET,
      ollamaHost: fake.url,
      titleGenerationEnabled: false,
    }),
    {
      db,
      log,
    },
  );
  server = await startServer(app, { routes: appRoutes(app) });
  aliceKey = (await app.auth.createUser('alice')).key;
  bobKey = (await app.auth.createUser('bob')).key;
  forgedJwt = await new SignJWT({ sub: 'alice' })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode('not-the-secret-but-long-enough-32b'));
}, 300_000);

afterAll(async () => {
  await server?.close();
  await app?.close();
  await fake?.stop();
  await dropDb?.();
}, 300_000);

describe(`logging (${dbKind})`, () => {
  it('a run of mistakes and normal use leaves short lines with no secrets, content or values', async () => {
    // Normal use: a session, a message with a unique marker, a reply that quotes it, a share link.
    const sessionId = (await gql(LoggingCreateSessionDocument, {}, aliceKey)).data!.createSession.id;
    fake.enqueue({ text: `You said ${MARKER}` });
    const sent = await gql(
      LoggingSendDocument,
      { input: { sessionId, content: `Please remember ${MARKER}` } },
      aliceKey,
    );
    expect(sent.errors).toBeUndefined();
    await eventually(
      () => gql(LoggingDisplayCountDocument, { id: sessionId }, aliceKey),
      (r) => r.data?.session?.displayMessageCount === 2,
      120_000,
    );
    shareToken = (await gql(LoggingShareDocument, { id: sessionId }, aliceKey)).data!.shareSession.token;
    expect(shareToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const searched = await gql(LoggingSearchDocument, { s: SEARCH_TERM }, aliceKey);
    expect(searched.errors).toBeUndefined();

    // Client mistakes.
    const codes: (string | undefined)[] = [];
    const code = (r: GqlResult<unknown>) =>
      codes.push(r.errors?.[0]?.extensions?.code ?? (r.errors ? 'NO_CODE' : 'NO_ERROR'));
    code(await gql(LoggingSessionsTotalDocument, {}, WRONG_KEY));
    code(await gql(LoggingSessionsTotalDocument, {}, forgedJwt));
    code(await gql(LoggingSessionsTotalDocument, {}));
    // a share token written inline, in a query that fails validation, one that fails to parse, one that is not found
    code(await gql(`{ sharedSession(token: "${shareToken}") { nope } }`));
    code(await gql(`{ sharedSession(token: "${shareToken}") { id `));
    code(await gql(`{ sharedSession(token: "${shareToken}x") { __typename } }`));
    // a typed search term with a bad page size, inline and as a variable
    code(await gql(`{ sessions(search: "${SEARCH_TERM}", first: -5) { totalCount } }`, {}, aliceKey));
    code(await gql(LoggingSearchHugePageDocument, { s: SEARCH_TERM }, aliceKey));
    // a variables object with a secret-looking value in an unknown field, and a 3 MB value
    const withUnknownField: SendMessageInput & { apiSecret: string } = {
      sessionId,
      content: 'x',
      apiSecret: VARIABLE_SECRET,
    };
    code(await gql(LoggingSendDocument, { input: withUnknownField }, aliceKey));
    code(
      await gql(LoggingSendDocument, { input: { sessionId, content: `${MARKER} ${'v'.repeat(3_000_000)}` } }, aliceKey),
    );
    code(
      await gql(`mutation($n: Int!) { createSession(input: { name: $n }) { id } }`, { n: VARIABLE_SECRET }, aliceKey),
    );
    // not found, forbidden, conflict-ish misuse
    code(await gql(LoggingSessionIdDocument, { id: VARIABLE_SECRET }, aliceKey));
    code(await gql(LoggingSessionNameDocument, { id: sessionId }, bobKey));
    code(await gql(LoggingShareDocument, { id: sessionId }, bobKey));
    expect(codes).not.toContain('INTERNAL_SERVER_ERROR');
    expect(codes).toEqual(
      expect.arrayContaining([
        'UNAUTHENTICATED',
        'GRAPHQL_VALIDATION_FAILED',
        'GRAPHQL_PARSE_FAILED',
        'NOT_FOUND',
        'BAD_USER_INPUT',
      ]),
    );
    // The unknown input field with a secret in it is the client's mistake, not a fault.
    expect(codes[8]).toBe('BAD_USER_INPUT');

    // A server fault whose message quotes data and the search term.
    const original = app.search.search.bind(app.search);
    app.search.search = async () => {
      throw new Error(`statement failed near "${QUOTED_SECRET}" for ${SEARCH_TERM}${randomBytes(12).toString('hex')}`);
    };
    const fault = await gql(LoggingSearchDocument, { s: SEARCH_TERM }, aliceKey);
    app.search.search = original;
    expect(fault.errors![0]!.extensions!.code).toBe('INTERNAL_SERVER_ERROR');

    // Every line: no secret, no content, no value, short.
    const forbidden = [
      shareToken,
      aliceKey,
      bobKey,
      WRONG_KEY,
      forgedJwt,
      MARKER,
      SEARCH_TERM,
      VARIABLE_SECRET,
      QUOTED_SECRET,
      'vvvvvvvvvv',
    ];
    for (const line of lines) {
      for (const secret of forbidden)
        expect(line.includes(secret), `log line holds ${secret}: ${line.slice(0, 300)}`).toBe(false);
      expect(Buffer.byteLength(line), line.slice(0, 300)).toBeLessThanOrEqual(4096);
    }
    const parsed = lines.map((l) => JSON.parse(l));
    const clientLines = parsed.filter((l) => l.msg === 'graphql.client_error');
    // Validation and limit refusals are answered before execution and not logged at all; the rest log one line each.
    expect(clientLines.length).toBeGreaterThanOrEqual(9);
    for (const l of clientLines) {
      expect(l.level).toBeLessThan(50);
      expect(JSON.stringify(l)).not.toContain('stack');
    }
    expect(clientLines.filter((l) => l.code === 'UNAUTHENTICATED').every((l) => l.level === 30)).toBe(true);
    // The one fault is the only error line, and it carries frames.
    const errors = parsed.filter((l) => l.level >= 50);
    expect(errors.map((l) => l.msg)).toEqual(['graphql.unexpected_error']);
    expect(errors[0].err.stack).toMatch(/^at /);
    expect(errors[0].err.message).toContain('statement failed near "…"');
  }, 600_000);
});
