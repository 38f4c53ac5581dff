/**
 * Every query document the JSON fast path serves, answered byte for byte as
 * Yoga answers it. The fast path serves query documents sent as text (not
 * persisted ids, not mutations); the documents clients send are the web
 * client's, listed in its manifest (MANIFEST_PATH of src/http/persisted.ts,
 * built with the client). Each query there is sent to one app behind two
 * servers, HTTP_FAST_PATH on and off: with variables made from its variable
 * definitions, with none (bad variables: errors), with a wrongly typed one,
 * with an id that names nothing, and with a wrong key. Status, content type,
 * security headers and body bytes must be equal.
 */
import { readFileSync } from 'node:fs';
import {
  type GraphQLSchema,
  type GraphQLType,
  isEnumType,
  isNonNullType,
  Kind,
  type OperationDefinitionNode,
  parse,
  typeFromAST,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCompiled } from '../src/http/fast-path/index.js';
import { MANIFEST_PATH } from '../src/http/persisted.js';
import { type RunningServer, startServer } from '../src/server.js';
import { buildSchema } from '../src/schema/index.js';
import { JsonFastPathCreateDocument } from './generated/graphql.js';
import { appendTurns, rawId } from './support/editing.js';
import { createTestApp, type TestContext } from './support/harness.js';

const manifest = JSON.parse(readFileSync(MANIFEST_PATH, 'utf8')) as Record<string, string>;
/** The pages the benchmarks send (bench/peer.ts, bench/history-ab.ts): served by the compiled path too. */
const BENCH_DOCUMENTS = [
  'query BenchHistory($id: ID!, $last: Int, $before: String) { session(id: $id) { history(last: $last, ' +
    'before: $before) { totalCount edges { cursor displayIndex node { id role content createdAt } } } } }',
  'query BenchList { sessions(first: 50) { totalCount edges { cursor node ' +
    '{ id name pinned lastActive displayMessageCount preview } } } }',
];
const queries = [...Object.values(manifest), ...BENCH_DOCUMENTS]
  .map((text) => ({ text, op: parse(text).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) }))
  .filter((d): d is { text: string; op: OperationDefinitionNode } => d.op?.operation === 'query');

/** Variables for an operation: every declared variable given a plausible value of its type. */
function variablesFor(schema: GraphQLSchema, op: OperationDefinitionNode, id: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const def of op.variableDefinitions ?? []) {
    let type: GraphQLType | undefined = typeFromAST(schema, def.type as never);
    if (type && isNonNullType(type)) type = type.ofType;
    const name = (type as { name?: string } | undefined)?.name;
    const value =
      name === 'ID'
        ? id
        : name === 'Int'
          ? 3
          : name === 'Boolean'
            ? true
            : name === 'String'
              ? 'x'
              : type && isEnumType(type)
                ? type.getValues()[0]!.name
                : undefined;
    if (value !== undefined) values[def.variable.name.value] = value;
  }
  return values;
}

interface Raw {
  status: number;
  headers: Record<string, string | null>;
  body: string;
}

async function send(url: string, body: string, headers: Record<string, string>): Promise<Raw> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const names = ['content-type', 'referrer-policy', 'x-frame-options', 'content-security-policy'];
  return {
    status: response.status,
    headers: Object.fromEntries(names.map((n) => [n, response.headers.get(n)])),
    // The one value that differs by when it is asked, not by path: Export's wall-clock exportedAt.
    body: (await response.text()).replace(/(exportedAt\\": \\")[^\\]*/g, '$1<now>'),
  };
}

describe('every document of the fast path, byte for byte as Yoga answers it', () => {
  let t: TestContext;
  let fast: RunningServer;
  let yoga: RunningServer;
  let session: string;
  const schema = buildSchema();

  beforeAll(async () => {
    t = await createTestApp();
    const created = await t.gql(JsonFastPathCreateDocument, { name: 'documents' });
    session = created.data!.createSession.id;
    await appendTurns(t, rawId(session), 3);
    fast = await startServer({ ...t.app, config: { ...t.app.config, httpFastPath: true } });
    yoga = await startServer({ ...t.app, config: { ...t.app.config, httpFastPath: false } });
  });
  afterAll(async () => {
    await fast?.close();
    await yoga?.close();
    await t?.close();
  });

  it('the manifest lists query documents', () => {
    expect(queries.length).toBeGreaterThan(0);
  });

  // The compiled plans (src/http/fast-path/compiled.ts) run these documents' success path: every one of them is
  // among the documents compared byte for byte below.
  it("the plain documents, the benchmarks' pages among them, are run by compiled plans", () => {
    const compiled = queries.filter(({ text }) => isCompiled(schema, parse(text))).map(({ op }) => op.name?.value);
    expect(compiled).toEqual(expect.arrayContaining(['BenchHistory', 'BenchList', 'Meter', 'Files', 'Profiles']));
    // an inline fragment, a directive: the executor's
    expect(isCompiled(schema, parse('{ viewer { ... on Viewer { authEnabled } } }'))).toBe(false);
    expect(isCompiled(schema, parse('query($s: Boolean!) { viewer { authEnabled @include(if: $s) } }'))).toBe(false);
  });

  for (const { text, op } of queries) {
    const name = op.name?.value ?? '(anonymous)';
    it(`${name}: every variant answers the same bytes`, async () => {
      const auth = {};
      const good = variablesFor(schema, op, session);
      const missing = Buffer.from('Session:00000000-0000-4000-8000-000000000000').toString('base64');
      const variants: [string, unknown, Record<string, string>][] = [
        ['variables', { query: text, variables: good, operationName: name }, auth],
        ['no variables', { query: text }, auth],
        [
          'a wrongly typed variable',
          { query: text, variables: Object.fromEntries(Object.keys(good).map((k) => [k, {}])) },
          auth,
        ],
        ['an id naming nothing', { query: text, variables: variablesFor(schema, op, missing) }, auth],
        ['a wrong key', { query: text, variables: good }, { authorization: 'Bearer nope' }],
      ];
      for (const [variant, payload, headers] of variants) {
        const body = JSON.stringify(payload);
        const [a, b] = [await send(fast.url, body, headers), await send(yoga.url, body, headers)];
        expect(a, `${name}, ${variant}`).toEqual(b);
      }
    });
  }
});
