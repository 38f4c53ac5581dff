/**
 * Session.owner loads once per page, not once per session:
 * Prisma queries on the users table are counted with a `$extends` hook.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import type { Database } from '../src/db/client.js';
import { createGraphQLHandler } from '../src/server.js';
import { createTestDatabase, testConfig } from './support/harness.js';

let app: App;
let drop: () => Promise<void>;
let userQueries = 0;
let gql: (query: string, token: string) => Promise<{ data?: any; errors?: unknown[] }>;

beforeAll(async () => {
  const opened = await createTestDatabase();
  drop = opened.drop;
  const counted = opened.db.prisma.$extends({
    query: {
      user: {
        $allOperations: ({ args, query }) => {
          userQueries++;
          return query(args);
        },
      },
    },
  });
  const db = { ...opened.db, prisma: counted } as unknown as Database;
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
