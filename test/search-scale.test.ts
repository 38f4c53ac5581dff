/**
 * Search that does not grow with the data (issue 18):
 * - totalCount is exact up to SEARCH_COUNT_CAP; beyond it, it is the cap and
 *   totalCountIsExact is false, the same under both plans;
 * - the index plan takes a page's match positions from the rows its match
 *   found: its one statement reads no other row of a long matching session.
 *   Every statement of a search is captured (test/support/statements.ts) and
 *   re-run under EXPLAIN ANALYZE to count the message rows it reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import type { Database } from '../src/db/client.js';
import { SearchService } from '../src/search/service.js';
import { likePattern } from '../src/domain/search-text.js';
import { matchRowsSql, SearchStore, type SearchTuning } from '../src/store/search.js';
import { createGraphQLHandler } from '../src/server.js';
import { SearchSessionsDocument, type SearchSessionsQuery } from './generated/graphql.js';
import { createTestDatabase, dbKind, queryText, testConfig } from './support/harness.js';
import { captureStatements, type StatementCapture } from './support/statements.js';

let app: App;
let db: Database;
let drop: () => Promise<void>;
/** Prisma's raw statements while capturing: [sql, ...params] */
let capture: StatementCapture;
let gql: (variables: Record<string, unknown>) => Promise<{ data?: SearchSessionsQuery; errors?: unknown[] }>;
const LONG_ROWS = 3_000;
const viewer = { userId: 'anonymous', userName: null, isAdmin: false, permissions: [], authEnabled: false };

beforeAll(async () => {
  const opened = await createTestDatabase();
  drop = opened.drop;
  capture = captureStatements(opened.db, { prismaOnly: true });
  db = capture.db;
  app = await createApp(testConfig({ searchCountCap: 3 }), { db });
  const yoga = createGraphQLHandler(app);
  gql = async (variables) =>
    (
      await yoga.fetch('http://test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: queryText(SearchSessionsDocument), variables }),
      })
    ).json();
}, 180_000);
afterAll(async () => {
  await app?.close();
  await drop?.();
});

async function session(name: string, contents: string[]): Promise<string> {
  const created = await app.sessions.create(viewer, { name });
  const rows = contents.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content }) as never);
  // In batches: one transaction of thousands of rows outlived its 30 s limit on a machine at load 15.
  for (let at = 0; at < rows.length; at += 500) await app.store.append(created.id, rows.slice(at, at + 500));
  return created.id;
}

function service(tuning: Partial<SearchTuning>) {
  return new SearchService(new SearchStore(db, app.store, 5000, { countCap: 3, ...tuning }));
}

describe(`search count cap (${dbKind})`, () => {
  beforeAll(async () => {
    for (let i = 0; i < 5; i++) await session(`many ${i}`, ['filler', `capword ${i}`]);
    for (let i = 0; i < 3; i++) await session(`three ${i}`, [`threeword ${i}`]);
    await session('two a', ['twoword']);
    await session('two b', ['more twoword']);
  });

  it('is exact under and at the cap, the cap and not exact above it (SEARCH_COUNT_CAP)', async () => {
    const count = async (q: string) => {
      const r = await gql({ q, first: 2 });
      expect(r.errors).toBeUndefined();
      return [r.data!.sessions.totalCount, r.data!.sessions.totalCountIsExact, r.data!.sessions.edges.length];
    };
    expect(await count('twoword')).toEqual([2, true, 2]);
    expect(await count('threeword')).toEqual([3, true, 2]);
    expect(await count('capword')).toEqual([3, false, 2]);
    expect(await count('no such thing')).toEqual([0, true, 0]);
    // Paging past the cap still reaches every match.
    const names: string[] = [];
    let after: string | null = null;
    for (;;) {
      const r: { data?: SearchSessionsQuery } = await gql({ q: 'capword', first: 2, after });
      const sessions = r.data!.sessions;
      names.push(...sessions.edges.map((e) => e.node.name ?? ''));
      expect([sessions.totalCount, sessions.totalCountIsExact]).toEqual([3, false]);
      if (!sessions.pageInfo.hasNextPage) break;
      after = sessions.pageInfo.endCursor ?? null;
    }
    expect(names.sort()).toEqual(['many 0', 'many 1', 'many 2', 'many 3', 'many 4']);
    // The plain list's count is not capped.
    const plain = await gql({ first: 2 });
    expect([plain.data!.sessions.totalCount, plain.data!.sessions.totalCountIsExact]).toEqual([10, true]);
  });

  it('applies the same cap under the index and the probe plan', async () => {
    for (const [term, expected] of [
      ['capword', [3, false]],
      ['threeword', [3, true]],
      ['twoword', [2, true]],
    ] as const) {
      for (const plan of ['index', 'probe'] as const) {
        const page = await service({ plan }).search(
          { viewer, orderBy: 'LAST_ACTIVE', direction: 'DESC', first: 50 },
          {},
          term,
        );
        expect(page.plan).toBe(plan);
        expect([page.totalCount, page.totalCountIsExact], `${term} ${plan}`).toEqual(expected);
      }
    }
  });
});

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };
const MESSAGE_TABLES = new Set(['session_messages', 'session_messages_archive']);

/** Message rows a plan read: rows each scan of a message table produced or removed, over all its loops. */
function messageRowsRead(node: PlanNode): number {
  const own = MESSAGE_TABLES.has(String(node['Relation Name'] ?? ''))
    ? (Number(node['Actual Rows'] ?? 0) +
        Number(node['Rows Removed by Filter'] ?? 0) +
        Number(node['Rows Removed by Index Recheck'] ?? 0)) *
      Number(node['Actual Loops'] ?? 1)
    : 0;
  return own + (node.Plans ?? []).reduce((n, child) => n + messageRowsRead(child), 0);
}

async function explainRowsRead(sql: string, params: unknown[]): Promise<number> {
  const [row] = await app.db.prisma.$queryRawUnsafe<{ 'QUERY PLAN': unknown }[]>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
    ...params,
  );
  const plan = row!['QUERY PLAN'];
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[];
  return messageRowsRead(parsed[0]!.Plan);
}

describe(`search positions in a long session (${dbKind})`, () => {
  let long: string;
  beforeAll(async () => {
    const rows = Array.from({ length: LONG_ROWS }, (_, i) =>
      i === 40 || i === 2_500 ? `the wombatquill row ${i}` : `ordinary line ${i} of a long conversation`,
    );
    long = await session('long', rows);
    // a third archived, as the seed does: one match in each table
    await app.store.archiveOldMessages(long, LONG_ROWS / 3);
    for (let i = 0; i < 3; i++) await session(`short ${i}`, ['hello', `a wombatquill ${i}`, 'bye']);
    await app.db.raw.exec('ANALYZE session_messages; ANALYZE session_messages_archive; ANALYZE sessions');
  }, 120_000);

  it('takes positions from the match statement and reads no other row of the long session', async () => {
    capture.capture();
    const page = await service({ plan: 'index' }).search(
      { viewer, orderBy: 'LAST_ACTIVE', direction: 'DESC', first: 50 },
      {},
      'WombatQuill',
    );
    const statements = capture.stop().filter(([sql]) => /session_messages/.test(String(sql)));
    const ids = page.rows.map((r) => r.id);
    expect(page.rows.map((r) => r.name).sort()).toEqual(['long', 'short 0', 'short 1', 'short 2']);
    expect(page.matches.get(long)).toEqual({ displayIndices: [40, 2_500], snippet: 'the wombatquill row 40' });
    // The index plan is one statement: the match over the tables (the trigram index's work at scale, see
    // docs/performance.md) and, beyond it, at most one message row per page session (the snippet's), not the long
    // session's 3,000: the positions are not looked up again by session.
    expect(statements).toHaveLength(1);
    const [sql, ...params] = statements[0]!;
    const read = await explainRowsRead(String(sql), params);
    const matchOnly = await explainRowsRead(matchRowsSql('$1'), [likePattern('WombatQuill')]);
    expect(read - matchOnly).toBeLessThanOrEqual(ids.length);
  });
});
