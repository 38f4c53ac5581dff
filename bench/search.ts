/**
 * Session search on the bench database (`npm run bench:seed`), issues 5, 18 and 36: a rare term, a common term (~5%
 * of rows) and a two-character term, each as the first page of sessions(search:) with full match positions through
 * GraphQL, against the same SQL run bare: the statements the service sent for that request (captured), replayed by
 * a bare node `pg` client on a connection with the service's settings (JIT off, statement timeout), one after the
 * other. Interleaved: each iteration runs both, the order alternating. Prints the statement count per search
 * (goal ≤ 3), p50/p95 of each, the ratio (goal ≤ 1.5×), SearchService alone (no HTTP / GraphQL) and the load
 * average, after the HTTP + GraphQL floor ({ __typename }).
 * The rare term's first page must include the seed's 100,000-message session (it matches "quokka" twice).
 *   DATABASE_URL=postgresql://…/bench npx tsx bench/search.ts     (BENCH_ITERATIONS=30)
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import { benchServer, percentile } from './lib.js';
import { BENCH_URL, BIG_SESSION } from './seed.js';

const N = Number(process.env.BENCH_ITERATIONS ?? 30);
const TIMEOUT_MS = 60_000;
const TERMS = ['quokka', 'latency', 'zq'] as const;
const LABEL: Record<(typeof TERMS)[number], string> = { quokka: 'rare', latency: 'common', zq: 'two-character' };
const SEARCH =
  `query($q: String) { sessions(search: $q, first: 50)` +
  ` { totalCount totalCountIsExact` +
  ` edges { node { id name displayMessageCount } matches { displayIndices snippet } } } }`;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function main() {
  const { app, server, gql } = await benchServer(BENCH_URL, { searchStatementTimeoutMs: TIMEOUT_MS });
  // The statements the search sends (RawDriver.boundedQuery: all of them), captured while `sent` is set.
  let sent: [string, unknown[]][] | undefined;
  const raw = app.db.raw;
  const bounded = raw.boundedQuery.bind(raw);
  raw.boundedQuery = <T>(sql: string, params: unknown[], timeoutMs: number) => {
    sent?.push([sql, params]);
    return bounded<T>(sql, params, timeoutMs);
  };
  const bare = new pg.Client({
    connectionString: BENCH_URL,
    statement_timeout: TIMEOUT_MS,
    options: '-c jit=off -c TimeZone=UTC',
  });
  await bare.connect();
  console.log(`database: ${app.db.kind}, pg_trgm indexes: ${app.trigram}, ${N} interleaved iterations each`);
  // What HTTP + GraphQL cost alone now (the load varies between runs): the floor under the rare term.
  const floor: number[] = [];
  for (let i = 0; i < N; i++) {
    const started = performance.now();
    await gql('{ __typename }');
    floor.push(performance.now() - started);
  }
  console.log(
    `load average at start: ${load()}; GraphQL { __typename } p50 ${percentile(
      floor.sort((a, b) => a - b),
      50,
    ).toFixed(1)} ms\n`,
  );
  const summary: string[] = [];
  for (const term of TERMS) {
    const label = LABEL[term];
    await gql(SEARCH, { q: term });
    sent = [];
    const sample = (await gql(SEARCH, { q: term })) as any;
    const statements = sent;
    sent = undefined;
    const positions = sample.sessions.edges.reduce((n: number, e: any) => n + e.matches.displayIndices.length, 0);
    const big = sample.sessions.edges.find(
      (e: any) => Buffer.from(e.node.id, 'base64').toString() === `Session:${BIG_SESSION}`,
    );
    console.log(
      `-- ${label} term "${term}": ${sample.sessions.totalCount}${sample.sessions.totalCountIsExact ? '' : '+'}` +
        ` sessions match; first page carries ${positions} positions; ${statements.length} statements; ` +
        (big
          ? `the ${big.node.displayMessageCount}-message session is on it` +
            ` (${big.matches.displayIndices.length} matches)`
          : 'the long session is not on it'),
    );
    if (label === 'rare' && !big) throw new Error('the bench database lacks a long session matching the rare term');
    const replay = async () => {
      for (const [sql, params] of statements) await bare.query(sql, params);
    };
    for (let i = 0; i < 3; i++) await Promise.all([gql(SEARCH, { q: term }), replay()]);
    const times = { service: [] as number[], bare: [] as number[], store: [] as number[] };
    const viewer = { userId: 'anonymous', userName: null, isAdmin: false, permissions: [], authEnabled: false };
    const page = { viewer, orderBy: 'LAST_ACTIVE', direction: 'DESC', first: 50 } as const;
    const direct = () => app.search.search(page, {}, term);
    const time = async (into: number[], fn: () => Promise<unknown>) => {
      const started = performance.now();
      await fn();
      into.push(performance.now() - started);
    };
    for (let i = 0; i < N; i++) {
      if (i % 2 === 0) {
        await time(times.service, () => gql(SEARCH, { q: term }));
        await time(times.bare, replay);
        await time(times.store, direct);
      } else {
        await time(times.store, direct);
        await time(times.bare, replay);
        await time(times.service, () => gql(SEARCH, { q: term }));
      }
    }
    const p = (xs: number[], q: number) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        q,
      );
    const line =
      `${label.padEnd(14)} GraphQL p50 ${p(times.service, 50).toFixed(1)} ms (p95 ${p(times.service, 95).toFixed(1)})` +
      `   bare SQL p50 ${p(times.bare, 50).toFixed(1)} ms (p95 ${p(times.bare, 95).toFixed(1)})` +
      `   ratio ${(p(times.service, 50) / p(times.bare, 50)).toFixed(2)}× (goal ≤ 1.5)` +
      `   SearchService alone p50 ${p(times.store, 50).toFixed(1)} ms, ` +
      `${(p(times.store, 50) / p(times.bare, 50)).toFixed(2)}× bare` +
      `   ${statements.length} statements (goal ≤ 3)   load ${load()}`;
    console.log(line);
    summary.push(line);
  }
  console.log(`\n${summary.join('\n')}`);
  await bare.end();
  await server.close();
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
