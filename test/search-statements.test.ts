/**
 * A search is at most three SQL statements (issue 36), whatever its plan, term, count, profile filter or cursor, and
 * none of them a transaction's: no `$transaction` (its BEGIN / COMMIT and a SET would be statements too). Every
 * statement is captured (test/support/statements.ts: Prisma's raw SQL, the raw driver, the bounded search reads).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import type { Database } from '../src/db/client.js';
import { SearchService } from '../src/search/service.js';
import { SearchStore, type SearchTuning } from '../src/store/search.js';
import { SearchSessionsDocument } from './generated/graphql.js';
import { createTestDatabase, dbKind, gqlFor, type SendGql, testConfig } from './support/harness.js';
import { captureStatements, type StatementCapture } from './support/statements.js';

let app: App;
let drop: () => Promise<void>;
let gql: SendGql;
let capture: StatementCapture;
let transactions = 0;
const viewer = { userId: 'anonymous', userName: null, isAdmin: false, permissions: [], authEnabled: false };
const MAX_STATEMENTS = 3;

beforeAll(async () => {
  const opened = await createTestDatabase();
  drop = opened.drop;
  capture = captureStatements(opened.db);
  const prisma = new Proxy(capture.db.prisma, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (prop === '$transaction' && typeof value === 'function') {
        return (...args: unknown[]) => {
          if (capture.statements) transactions++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const db = { ...capture.db, prisma } as Database;
  app = await createApp(testConfig(), { db });
  gql = gqlFor(app);
  // 20 sessions with the common term in their first row (the sample finds it dense), one with the rare term.
  for (let i = 0; i < 20; i++) {
    const created = await app.sessions.create(viewer, { name: `counted ${i}` });
    const rows = [`stmtcommon ${i}`, 'filler', ...(i === 7 ? ['a stmtrare here'] : []), 'more stmtcommon'];
    await app.store.append(created.id, rows.map((content) => ({ role: 'user', content })) as never);
  }
  await app.db.raw.exec('ANALYZE session_messages; ANALYZE session_messages_archive; ANALYZE sessions');
}, 180_000);
afterAll(async () => {
  await app?.close();
  await drop?.();
});

async function counted<T>(run: () => Promise<T>): Promise<{ result: T; statements: number }> {
  transactions = 0;
  capture.capture();
  try {
    const result = await run();
    const statements = capture.stop().length;
    expect(transactions).toBe(0);
    return { result, statements };
  } finally {
    capture.stop();
  }
}

const service = (tuning: Partial<SearchTuning> = {}) =>
  new SearchService(new SearchStore(app.db, app.store, 5000, tuning));

describe(`search statements (${dbKind})`, () => {
  it('a GraphQL search is at most three statements, rare or common term, first and next page', async () => {
    for (const q of ['stmtrare', 'stmtcommon', 'no-such-term']) {
      let after: string | null = null;
      for (let pages = 0; pages < 3; pages++) {
        const { result, statements } = await counted(() => gql(SearchSessionsDocument, { q, first: 8, after }));
        expect(result.errors).toBeUndefined();
        expect(statements, `${q}, page ${pages + 1}`).toBeLessThanOrEqual(MAX_STATEMENTS);
        expect(statements).toBeGreaterThan(0);
        const sessions = result.data!.sessions;
        if (!sessions.pageInfo.hasNextPage) break;
        after = sessions.pageInfo.endCursor ?? null;
      }
    }
  });

  it('each plan, with and without count or a profile filter, first search (statistics read) and after', async () => {
    const plans = new Map<string, Set<string>>();
    for (const plan of ['auto', 'index', 'probe'] as const) {
      const searches = service({ plan });
      for (const term of ['stmtrare', 'stmtcommon']) {
        for (const count of [true, false]) {
          for (const profileId of [undefined, randomUUID()]) {
            const options = { viewer, orderBy: 'LAST_ACTIVE', direction: 'DESC', first: 5, count, profileId } as const;
            const { result, statements } = await counted(() => searches.search(options, {}, term));
            expect(statements, `${plan} ${term} count ${count} profile ${Boolean(profileId)}`).toBeLessThanOrEqual(
              MAX_STATEMENTS,
            );
            if (plan === 'auto' && !profileId) plans.set(term, (plans.get(term) ?? new Set()).add(result.plan));
          }
        }
      }
    }
    // The auto plan took both paths: the statement bound holds for each.
    expect([...(plans.get('stmtcommon') ?? [])]).toEqual(['probe']);
    expect([...(plans.get('stmtrare') ?? [])]).toEqual(['index']);
  });
});
