/**
 * Issue 5's benchmark on the bench database (`npm run bench:seed`): a rare
 * term, a common term (~5% of rows) and a two-character term, each through
 * GraphQL (first page of sessions(search:) with full match positions) and as
 * the bare SQL the seed would run (content ILIKE '%q%' on both tables);
 * p50/p95 and ratios in one run, plus the EXPLAIN of the chosen plan.
 * Issue 18: the rare term's first page must include the seed's
 * 100,000-message session (it matches "quokka" twice); the run stops if not.
 */
import { SearchService } from '../src/search/service.js';
import { CONTENT_AT_SQL, indexMatchSql, SearchStore } from '../src/store/search.js';
import { benchServer, measure, ratio } from './lib.js';
import { BENCH_URL, BIG_SESSION } from './seed.js';

const N = Number(process.env.BENCH_ITERATIONS ?? 30);
const VIEWER = { userId: 'anonymous', userName: null, isAdmin: false, permissions: [], authEnabled: false };
const TERMS = [
  ['rare', 'quokka', '≤ 30 ms'],
  ['common', 'latency', '≤ 150 ms'],
  ['two-character', 'zq', ''],
] as const;

async function main() {
  const { app, server, gql } = await benchServer(BENCH_URL, { searchStatementTimeoutMs: 60_000 });
  const prisma = app.db.prisma;
  console.log(`database: ${app.db.kind}, pg_trgm indexes: ${app.trigram}, ${N} iterations each\n`);
  const SEARCH =
    `query($q: String) { sessions(search: $q, first: 50)` +
    ` { totalCount totalCountIsExact` +
    ` edges { node { id name displayMessageCount } matches { displayIndices snippet } } } }`;
  const bare = (q: string) =>
    prisma.$queryRawUnsafe(
      `SELECT DISTINCT session_id FROM (
         SELECT session_id FROM session_messages WHERE content ILIKE $1
         UNION ALL SELECT session_id FROM session_messages_archive WHERE content ILIKE $1) m`,
      `%${q}%`,
    );
  // What HTTP + GraphQL cost alone on this machine now (the load varies between runs): the rare term's floor.
  await measure('floor: GraphQL { __typename }', N, () => gql('{ __typename }'));
  // The count's cost is bounded by SEARCH_COUNT_CAP: a store with a smaller cap, for the common term.
  const capped = new SearchService(new SearchStore(app.db, app.store, 60_000, { countCap: 1_000 }));
  const page = { viewer: VIEWER, orderBy: 'LAST_ACTIVE', direction: 'DESC', first: 50 } as const;
  for (const [label, term, goal] of TERMS) {
    const sample = (await gql(SEARCH, { q: term })) as any;
    const positions = sample.sessions.edges.reduce((n: number, e: any) => n + e.matches.displayIndices.length, 0);
    const { plan } = await app.search.search(page, {}, term);
    // The seed's 100,000-message session (g = 1, the most recently active) must match the rare term on its page.
    const big = sample.sessions.edges.find(
      (e: any) => Buffer.from(e.node.id, 'base64').toString() === `Session:${BIG_SESSION}`,
    );
    console.log(
      `-- ${label} term "${term}": ${sample.sessions.totalCount}${sample.sessions.totalCountIsExact ? '' : '+'}` +
        ` sessions match; first page carries ${positions} positions; ${plan} plan; ` +
        (big
          ? `the ${big.node.displayMessageCount}-message session is on it` +
            ` (${big.matches.displayIndices.length} matches)`
          : 'the long session is not on it'),
    );
    if (label === 'rare' && !big) throw new Error('the bench database lacks a long session matching the rare term');
    const viaGql = await measure(`${label}: GraphQL first page + positions`, N, () => gql(SEARCH, { q: term }));
    await measure(`${label}: SearchService alone (no HTTP/GraphQL)`, N, () => app.search.search(page, {}, term));
    if (label === 'common') {
      const r = await capped.search(page, {}, term);
      await measure(`${label}: SearchService, cap 1,000 (${r.totalCount}${r.totalCountIsExact ? '' : '+'})`, N, () =>
        capped.search(page, {}, term),
      );
    }
    const viaSql = await measure(`${label}: bare ILIKE scan (seed)`, N, () => bare(term));
    ratio(
      `${label}: GraphQL / bare ILIKE`,
      viaGql,
      viaSql,
      goal ? `p50 ${goal}; never slower than the scan` : 'never slower than the scan',
    );
  }
  // The chosen plans' statements, as src/search/service.ts sends them (folded pattern, jit off as in its transactions).
  const explain = async (title: string, sql: string, ...params: unknown[]) => {
    console.log(`\nEXPLAIN (${title}):`);
    const rows = await prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL jit = off`);
      return tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
        `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql}`,
        ...params,
      );
    });
    const shorten = (line: string) => line.replace(/'\{[0-9a-f,-]{200,}\}'/g, "'{…50 session ids}'");
    for (const row of rows) console.log(`  ${shorten(row['QUERY PLAN'])}`);
  };
  const probe = (id: string) =>
    `coalesce(
    (SELECT true FROM session_messages_archive a WHERE a.session_id = ${id} ` +
    `AND a.display_index IS NOT NULL AND (a.content_folded LIKE $1) IS TRUE LIMIT 1),
    (SELECT true FROM session_messages h WHERE h.session_id = ${id} ` +
    `AND h.display_index IS NOT NULL AND (h.content_folded LIKE $1) IS TRUE LIMIT 1), false)`;
  await explain(
    'probe plan, totalCount: one of the two hash halves of the sessions, common term, capped at 10,001',
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM sessions s WHERE s.user_id = 'anonymous' ` +
      `AND (hashtext(s.id::text) & 2147483647) % 2 = 0 AND ${probe('s.id')} LIMIT 10001) c`,
    '%latency%',
  );
  await explain(
    'probe plan, first page: the list order walked until 51 sessions match, common term',
    `SELECT o.id FROM (SELECT s.id FROM sessions s WHERE s.user_id = 'anonymous' ` +
      `ORDER BY s.pinned DESC, s.last_active DESC, s.id DESC OFFSET 0) o
      WHERE ${probe('o.id')} LIMIT 51`,
    '%latency%',
  );
  const ids = (
    await prisma.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id FROM sessions ORDER BY pinned DESC, last_active DESC, id DESC LIMIT 50`,
    )
  ).map((r) => r.id);
  await explain(
    'probe plan, positions and snippets for the first page (50 sessions, 4,450 display rows: read, not bitmap-ANDed)' +
      ', common term',
    `WITH m AS (
       SELECT session_id, array_agg(display_index ORDER BY display_index) AS indices FROM (
         SELECT session_id, display_index FROM session_messages ` +
      `WHERE session_id = ANY($1::uuid[]) AND display_index IS NOT NULL ` +
      `AND (content_folded LIKE $2) IS TRUE
         UNION ALL
         SELECT session_id, display_index FROM session_messages_archive ` +
      `WHERE session_id = ANY($1::uuid[]) AND display_index IS NOT NULL ` +
      `AND (content_folded LIKE $2) IS TRUE
       ) x GROUP BY session_id)
     SELECT m.session_id, m.indices, coalesce(
         (SELECT a.content FROM session_messages_archive a WHERE a.session_id = m.session_id ` +
      `AND a.display_index = m.indices[1]),
         (SELECT h.content FROM session_messages h WHERE h.session_id = m.session_id ` +
      `AND h.display_index = m.indices[1])) AS content
       FROM m`,
    ids,
    '%latency%',
  );
  const found = await prisma.$queryRawUnsafe<{ id: string; indices: number[] }[]>(
    indexMatchSql(`s.user_id = 'anonymous'`, '$1', true),
    '%quokka%',
  );
  await explain(
    'index plan, rare term: the match statement (which sessions match, and their positions)',
    indexMatchSql(`s.user_id = 'anonymous'`, '$1', true),
    '%quokka%',
  );
  await explain(
    `index plan, rare term: the snippets' rows, one (session_id, display_index) lookup per page session`,
    CONTENT_AT_SQL,
    found.map((r) => r.id),
    found.map((r) => r.indices[0]),
  );
  await server.close();
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
