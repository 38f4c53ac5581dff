/**
 * schema.graphql is the schema the server serves, directives included: the
 * file equals the printed schema Yoga executes against (with the `@defer` and
 * `@stream` definitions its plugin adds), and graphql-js validates a document
 * using `@defer` and `@stream` against the file alone, as IDE tooling and
 * codegen do.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createGraphQLHandler } from '../src/server.js';
import { createTestApp, type TestContext } from './support/harness.js';

// graphql as Pothos and Yoga load it (see test/contract.test.ts).
const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');
const file = readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8');

const DOCUMENT = `
  query Deferred($first: Int) {
    sessions(first: $first) {
      edges @stream(initialCount: 1, label: "list") { node { id } }
    }
    viewer { ... @defer(label: "later") { __typename } }
  }
`;

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(() => t?.close());

it('schema.graphql is the printed schema Yoga serves, @defer and @stream included', () => {
  const served = createGraphQLHandler(t.app).getEnveloped({}).schema as import('graphql').GraphQLSchema;
  expect(served.getDirective('defer')).toBeTruthy();
  expect(served.getDirective('stream')).toBeTruthy();
  expect(file).toBe(`${graphql.printSchema(graphql.lexicographicSortSchema(served))}\n`);
});

it('graphql-js validates a document using @defer and @stream against schema.graphql', () => {
  const schema = graphql.buildSchema(file);
  expect(graphql.validate(schema, graphql.parse(DOCUMENT)).map((e) => e.message)).toEqual([]);
});
