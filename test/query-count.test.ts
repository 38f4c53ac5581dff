/**
 * Statements per sessions list page: the page itself (count, rows, previews)
 * is one statement, and Session.owner loads once per page, not once per
 * session. Prisma operations are counted with a `$extends` hook (users
 * table apart), raw-driver statements by wrapping `db.raw.query`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import type { Database } from '../src/db/client.js';
import { createGraphQLHandler } from '../src/server.js';
import { createTestDatabase, testConfig } from './support/harness.js';

let app: App;
let drop: () => Promise<void>;
let userQueries = 0;
/** Prisma operations (any model but ApiKey, raw SQL included) plus raw-driver statements */
let statements = 0;
let gql: (query: string, token: string) => Promise<{ data?: any; errors?: unknown[] }>;

beforeAll(async () => {
  const opened = await createTestDatabase();
  drop = opened.drop;
  const counted = opened.db.prisma.$extends({
    query: {
      $allOperations: ({ args, query, model }) => {
        // The bearer key's lookup is authentication (one per request, whatever it asks), not the page.
        if (model !== 'ApiKey') statements++;
        return query(args);
      },
      user: {
        $allOperations: ({ args, query }) => {
          userQueries++;
          return query(args);
        },
      },
    },
  });
  const rawQuery = opened.db.raw.query.bind(opened.db.raw);
  const raw = {
    ...opened.db.raw,
    query: (sql: string, params?: unknown[]) => {
      statements++;
      return rawQuery(sql, params);
    },
  };
  const db = { ...opened.db, prisma: counted, raw } as unknown as Database;
  app = await createApp(testConfig({ authEnabled: true, jwtSecret: 'test-secret-that-is-long-enough-for-hs256' }), {
    db,
  });
  const yoga = createGraphQLHandler(app);
  gql = async (query, token) =>
    (
      await yoga.fetch('http://test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query }),
      })
    ).json();
}, 180_000);
afterAll(async () => {
  await app?.close();
  await drop?.();
});

it('lists sessions of many owners with one user query', async () => {
  const owners = await Promise.all(['ann', 'ben', 'cat', 'dan'].map((name) => app.auth.createUser(name)));
  for (const owner of owners) {
    for (let i = 0; i < 2; i++) {
      const created = await gql(`mutation { createSession(input: { name: "s${i}" }) { id } }`, owner.key);
      expect(created.errors).toBeUndefined();
    }
  }
  const admin = (await app.auth.createUser('root', { admin: true })).key;
  // Resolving the admin's key may itself read the users table: count only the page.
  await gql(`{ viewer { isAdmin } }`, admin);
  userQueries = 0;
  const page = await gql(`{ sessions(first: 20) { edges { node { name preview owner { name } } } } }`, admin);
  expect(page.errors).toBeUndefined();
  const names = page.data.sessions.edges.map((e: { node: { owner: { name: string } } }) => e.node.owner.name);
  expect(new Set(names)).toEqual(new Set(['ann', 'ben', 'cat', 'dan']));
  expect(names).toHaveLength(8);
  expect(userQueries).toBe(1);
}, 120_000);

it('answers a sessions list page (count, rows, previews) in one statement, whatever the page size', async () => {
  const user = await app.auth.createUser('eve');
  for (let i = 0; i < 3; i++) {
    const created = await gql(`mutation { createSession(input: { name: "e${i}" }) { id } }`, user.key);
    expect(created.errors).toBeUndefined();
  }
  await gql(`{ viewer { isAdmin } }`, user.key);
  const page = (first: number, extra = '') =>
    `{ sessions(first: ${first}) { totalCount pageInfo { hasNextPage endCursor }` +
    ` edges { cursor node { id name pinned lastActive displayMessageCount preview${extra} } } } }`;
  for (const first of [1, 3, 0]) {
    statements = 0;
    const r = await gql(page(first), user.key);
    expect(r.errors).toBeUndefined();
    expect(r.data.sessions.totalCount).toBe(3);
    expect(r.data.sessions.edges).toHaveLength(first);
    expect(statements).toBe(1);
  }
  // The owner adds one statement for the whole page.
  statements = 0;
  const withOwner = await gql(page(3, ' owner { name }'), user.key);
  expect(withOwner.errors).toBeUndefined();
  expect(withOwner.data.sessions.edges.map((e: { node: { owner: { name: string } } }) => e.node.owner.name)).toEqual([
    'eve',
    'eve',
    'eve',
  ]);
  expect(statements).toBe(2);
}, 120_000);
