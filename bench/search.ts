/**
 * Issue 5's benchmark on the bench database (`npm run bench:seed`): a rare
 * term, a common term (~5% of rows) and a two-character term, each through
 * GraphQL (first page of sessions(search:) with full match positions) and as
 * the bare SQL the seed would run (content ILIKE '%q%' on both tables);
 * p50/p95 and ratios in one run, plus the EXPLAIN of the chosen plan.
 */
import { benchServer, measure, ratio } from './lib.js';
import { BENCH_URL } from './seed.js';

const N = Number(process.env.BENCH_ITERATIONS ?? 30);
const TERMS = [
  ['rare', 'quokka', '≤ 30 ms'],
  ['common', 'latency', '≤ 150 ms'],
  ['two-character', 'zq', ''],
] as const;

async function main() {
  const { app, server, gql } = await benchServer(BENCH_URL, { searchStatementTimeoutMs: 60_000 });
  const prisma = app.db.prisma;
  console.log(`database: ${app.db.kind}, pg_trgm indexes: ${app.trigram}, ${N} iterations each\n`);
  const SEARCH = `query($q: String) { sessions(search: $q, first: 50) { totalCount edges { node { id name } matches { displayIndices snippet } } } }`;
  const bare = (q: string) =>
    prisma.$queryRawUnsafe(
      `SELECT DISTINCT session_id FROM (
         SELECT session_id FROM session_messages WHERE content ILIKE $1
         UNION ALL SELECT session_id FROM session_messages_archive WHERE content ILIKE $1) m`,
      `%${q}%`,
    );
  for (const [label, term, goal] of TERMS) {
    const sample = (await gql(SEARCH, { q: term })) as any;
    const positions = sample.sessions.edges.reduce((n: number, e: any) => n + e.matches.displayIndices.length, 0);
    console.log(`-- ${label} term "${term}": ${sample.sessions.totalCount} sessions match; first page carries ${positions} positions`);
    const viaGql = await measure(`${label}: GraphQL first page + positions`, N, () => gql(SEARCH, { q: term }));
    const viaSql = await measure(`${label}: bare ILIKE scan (seed)`, N, () => bare(term));
    ratio(`${label}: GraphQL / bare ILIKE`, viaGql, viaSql, goal ? `p50 ${goal}; never slower than the scan` : 'never slower than the scan');
  }
  console.log('\nEXPLAIN (the match-position aggregate for one page, common term):');
  const ids = (await prisma.$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM sessions ORDER BY last_active DESC LIMIT 50`)).map((r) => r.id);
  const plan = await prisma.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
    `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) SELECT session_id, array_agg(display_index ORDER BY display_index) FROM (
       SELECT session_id, display_index FROM session_messages WHERE session_id = ANY($1::uuid[]) AND display_index IS NOT NULL AND content ILIKE $2
       UNION ALL
       SELECT session_id, display_index FROM session_messages_archive WHERE session_id = ANY($1::uuid[]) AND display_index IS NOT NULL AND content ILIKE $2
     ) m GROUP BY session_id`,
    ids,
    '%latency%',
  );
  const shorten = (line: string) => line.replace(/'\{[0-9a-f,-]{200,}\}'/g, "'{…50 session ids}'");
  for (const row of plan) console.log(`  ${shorten(row['QUERY PLAN'])}`);
  console.log('\nEXPLAIN (which sessions match, rare term):');
  const plan2 = await prisma.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
    `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) SELECT s.id FROM sessions s WHERE s.user_id = 'anonymous' AND s.id IN (
       SELECT session_id FROM session_messages WHERE display_index IS NOT NULL AND content ILIKE $1
       UNION SELECT session_id FROM session_messages_archive WHERE display_index IS NOT NULL AND content ILIKE $1)`,
    '%quokka%',
  );
  for (const row of plan2) console.log(`  ${row['QUERY PLAN']}`);
  await server.close();
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
