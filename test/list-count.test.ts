/**
 * A sessions page that does not select `totalCount` / `totalCountIsExact` is
 * not counted: the plain list's statement carries no count of the viewer's
 * sessions, and a search runs neither its capped count (probe plan) nor the
 * profile-filtered count (index plan). Every raw statement is captured (a
 * Prisma `$extends` hook and a wrapped raw driver, as in
 * test/query-count.test.ts); the page itself is the same either way, and a
 * count selected through a fragment is still read.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import type { Database } from '../src/db/client.js';
import { SearchService } from '../src/search/service.js';
import { SearchStore } from '../src/store/search.js';
import { ListCountFragmentDocument, ListCountPageCountedDocument, ListCountPageDocument } from './generated/graphql.js';
import { createTestDatabase, dbKind, gqlFor, type SendGql, testConfig } from './support/harness.js';
import { captureStatements, type StatementCapture } from './support/statements.js';

let app: App;
let db: Database;
let drop: () => Promise<void>;
let gql: SendGql;
let capture: StatementCapture;
const viewer = { userId: 'anonymous', userName: null, isAdmin: false, permissions: [], authEnabled: false };
/** the count statements: the plain list's (its deltas' sum), the probe plan's capped one, store.count's */
const COUNT = /count\(\*\)::int AS (total|n)\b|FROM session_count_deltas/;

beforeAll(async () => {
  const opened = await createTestDatabase();
  drop = opened.drop;
  capture = captureStatements(opened.db);
  db = capture.db;
  app = await createApp(testConfig(), { db });
  gql = gqlFor(app);
  for (let i = 0; i < 5; i++) {
    const created = await app.sessions.create(viewer, { name: `counted ${i}` });
    await app.store.append(created.id, [{ role: 'user', content: `countword ${i}` } as never]);
  }
}, 180_000);
afterAll(async () => {
  await app?.close();
  await drop?.();
});

async function statementsOf<T>(run: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
  capture.capture();
  try {
    const result = await run();
    return { result, sql: capture.stop().map(([sql]) => String(sql)) };
  } finally {
    capture.stop();
  }
}

describe(`sessions pages without totalCount (${dbKind})`, () => {
  it('the plain list and a search read no count when neither count field is selected', async () => {
    for (const q of [null, 'countword']) {
      const counted = await statementsOf(() => gql(ListCountPageCountedDocument, { q, first: 2 }));
      expect(counted.result.errors).toBeUndefined();
      expect(counted.result.data!.sessions.totalCount).toBe(5);
      expect(counted.result.data!.sessions.totalCountIsExact).toBe(true);
      if (q === null) expect(counted.sql.filter((s) => COUNT.test(s))).toHaveLength(1);

      const bare = await statementsOf(() => gql(ListCountPageDocument, { q, first: 2 }));
      expect(bare.result.errors).toBeUndefined();
      expect(bare.sql.filter((s) => COUNT.test(s))).toEqual([]);
      // The same page either way.
      expect(bare.result.data!.sessions.edges).toEqual(counted.result.data!.sessions.edges);
      expect(bare.result.data!.sessions.pageInfo).toEqual(counted.result.data!.sessions.pageInfo);
    }
  });

  it('a count selected through a fragment is read', async () => {
    for (const q of [null, 'countword']) {
      const r = await gql(ListCountFragmentDocument, { q, first: 2 });
      expect(r.errors).toBeUndefined();
      expect(r.data!.sessions.totalCount).toBe(5);
      expect(r.data!.sessions.edges).toHaveLength(2);
    }
  });

  it('neither search plan counts a page read with count: false (a profile filter included)', async () => {
    for (const plan of ['index', 'probe'] as const) {
      const service = new SearchService(new SearchStore(db, app.store, 5000, { plan }));
      for (const profileId of [undefined, randomUUID()]) {
        const options = { viewer, orderBy: 'LAST_ACTIVE', direction: 'DESC', first: 2, profileId } as const;
        const counted = await statementsOf(() => service.search(options, {}, 'countword'));
        const bare = await statementsOf(() => service.search({ ...options, count: false }, {}, 'countword'));
        expect(counted.result.totalCount).toBe(profileId ? 0 : 5);
        expect(bare.result.totalCount).toBeNull();
        expect(bare.result.totalCountIsExact).toBeNull();
        expect(bare.sql.filter((s) => COUNT.test(s))).toEqual([]);
        expect(bare.result.rows.map((r) => r.id)).toEqual(counted.result.rows.map((r) => r.id));
        if (plan === 'probe' || profileId) expect(counted.sql.filter((s) => COUNT.test(s)).length).toBeGreaterThan(0);
      }
    }
  });
});
