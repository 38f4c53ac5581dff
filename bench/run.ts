/**
 * Issue 2's benchmark, on the server database seeded by `npm run bench:seed`:
 * the sessions list page (first 50) and the newest and a deep history page of
 * the 100,000-message session, each through GraphQL over HTTP and as the raw
 * SQL of the same page; p50/p95 and ratios from one run.
 */
import { encodeGlobalID } from '@pothos/plugin-relay';
import { encodeIndexCursor } from '../src/sessions/cursors.js';
import { MESSAGE_COLUMNS } from '../src/store/rows.js';
import { benchServer, measure, ratio } from './lib.js';
import { BENCH_URL, BIG_SESSION } from './seed.js';

const N = Number(process.env.BENCH_ITERATIONS ?? 200);

async function main() {
  const { app, server, gql } = await benchServer(BENCH_URL);
  const prisma = app.db.prisma;
  const big = await prisma.session.findUniqueOrThrow({ where: { id: BIG_SESSION } });
  const total = big.displayCount;
  const id = encodeGlobalID('Session', BIG_SESSION);
  console.log(`database: ${app.db.kind}, big session: ${total} display rows, ${N} iterations each\n`);

  const floor = await measure('GraphQL floor: { __typename } over HTTP', N, () => gql('{ __typename }'));
  const LIST =
    `{ sessions(first: 50) { totalCount` +
    ` edges { cursor node { id name pinned lastActive displayMessageCount preview } } } }`;
  const listGql = await measure('sessions list (first 50) via GraphQL', N, () => gql(LIST));
  const listSql = await measure('sessions list (first 50) raw SQL', N, () =>
    prisma
      .$queryRawUnsafe(
        `SELECT s.id, s.name, s.pinned, s.last_active, s.display_count,
         left(coalesce((SELECT m.content FROM session_messages m WHERE m.session_id = s.id ` +
          `AND m.display_index = s.display_count - 1),
                       (SELECT a.content FROM session_messages_archive a WHERE a.session_id = s.id ` +
          `AND a.display_index = s.display_count - 1)), 200)
       FROM sessions s WHERE s.user_id = 'anonymous' ORDER BY s.pinned DESC, s.last_active DESC, s.id DESC LIMIT 50`,
      )
      .then(() => prisma.$queryRawUnsafe(`SELECT count(*) FROM sessions WHERE user_id = 'anonymous'`)),
  );

  const HISTORY =
    `query($id: ID!, $last: Int, $before: String)` +
    ` { session(id: $id) { history(last: $last, before: $before) {
    totalCount edges { cursor displayIndex node { id role content createdAt } } } } }`;
  const page = (from: number, to: number) =>
    prisma.$queryRawUnsafe(
      `SELECT * FROM (SELECT ${MESSAGE_COLUMNS} FROM session_messages_archive ` +
        `WHERE session_id = $1::uuid AND display_index >= $2 AND display_index < $3
        UNION ALL SELECT ${MESSAGE_COLUMNS} FROM session_messages ` +
        `WHERE session_id = $1::uuid AND display_index >= $2 AND display_index < $3) m
       ORDER BY "displayIndex"`,
      BIG_SESSION,
      from,
      to,
    );
  const newestGql = await measure('history newest page (last 50) via GraphQL', N, () => gql(HISTORY, { id, last: 50 }));
  const newestSql = await measure('history newest page raw SQL', N, () => page(total - 50, total));
  const deepBefore = encodeIndexCursor(1000);
  const deepGql = await measure('history deep page (archived, @950) via GraphQL', N, () =>
    gql(HISTORY, { id, last: 50, before: deepBefore }),
  );
  const deepSql = await measure('history deep page raw SQL', N, () => page(950, 1000));

  console.log('');
  ratio('sessions list: GraphQL / raw SQL', listGql, listSql, '≤ 2×');
  ratio('newest history page: GraphQL / raw SQL', newestGql, newestSql, '≤ 1.5×');
  ratio('deep history page: GraphQL / raw SQL', deepGql, deepSql, '≤ 1.5×');
  ratio('deep page / newest page (GraphQL)', deepGql, newestGql, '≤ 1.2×');
  console.log(`\nHTTP + Yoga fixed cost per request (floor): ${floor.p50.toFixed(2)} ms p50`);
  ratio('newest page minus floor / raw SQL', { p50: newestGql.p50 - floor.p50 }, newestSql);
  ratio('sessions list minus floor / raw SQL', { p50: listGql.p50 - floor.p50 }, listSql);
  await server.close();
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
