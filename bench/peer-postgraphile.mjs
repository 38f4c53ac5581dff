/**
 * bench/peer.ts's PostGraphile 4 server (a devDependency) on the bench database: creates its own schema `peer_pg`
 * (a view of sessions, a view over both message tables, a computed `preview` column, a `history_page` function),
 * serves it on 127.0.0.1, prints `LISTENING <url>`, and drops the schema on SIGTERM. Plain Node (no tsx, none of
 * the app's modules): PostGraphile needs graphql's CommonJS copy alone in its process.
 */
import Module, { createRequire } from 'node:module';
import { createServer } from 'node:http';
import pg from 'pg';

// npm installs graphql 15 under postgraphile and graphile-build-pg but lets graphile-build and its helpers reach the
// project's graphql 16: two copies in one schema ("from another realm"). Every `graphql` of this process resolves
// to postgraphile's copy. (An `overrides` entry in package.json would dedupe it at install instead.)
const postgraphileMain = createRequire(import.meta.url).resolve('postgraphile');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (request === 'graphql' || request.startsWith('graphql/')) {
    const paths = Module._nodeModulePaths(postgraphileMain);
    return resolveFilename.call(this, request, { ...parent, paths }, ...rest);
  }
  return resolveFilename.call(this, request, parent, ...rest);
};
const { postgraphile } = createRequire(import.meta.url)('postgraphile');

const BENCH_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/chat_bench';
const PEER_SCHEMA = 'peer_pg';
const SETUP_SQL = `
DROP SCHEMA IF EXISTS ${PEER_SCHEMA} CASCADE;
CREATE SCHEMA ${PEER_SCHEMA};
CREATE VIEW ${PEER_SCHEMA}.sessions AS
  SELECT id, user_id, profile_id, name, pinned, created_at, last_active, display_count FROM public.sessions;
COMMENT ON VIEW ${PEER_SCHEMA}.sessions IS E'@primaryKey id';
CREATE VIEW ${PEER_SCHEMA}.messages AS
  SELECT session_id, sequence_number, display_index, role, content, created_at FROM public.session_messages
   WHERE display_index IS NOT NULL
  UNION ALL
  SELECT session_id, sequence_number, display_index, role, content, created_at FROM public.session_messages_archive
   WHERE display_index IS NOT NULL;
CREATE FUNCTION ${PEER_SCHEMA}.sessions_preview(s ${PEER_SCHEMA}.sessions) RETURNS text STABLE LANGUAGE sql AS $$
  SELECT left(coalesce(
    (SELECT m.content FROM public.session_messages m
      WHERE m.session_id = s.id AND m.display_index = s.display_count - 1),
    (SELECT a.content FROM public.session_messages_archive a
      WHERE a.session_id = s.id AND a.display_index = s.display_count - 1)), 200)
$$;
-- The page before display index \`before_index\` (the newest when null), the owner check in its first statement.
-- PL/pgSQL, so the page's bounds are constants in the second statement (two index range scans): as an inlined SQL
-- function the planner turned the bounds into a join filter over the whole session (170 ms).
CREATE FUNCTION ${PEER_SCHEMA}.history_page(sid uuid, before_index int, n int) RETURNS SETOF ${PEER_SCHEMA}.messages
  STABLE LANGUAGE plpgsql AS $$
  DECLARE e int;
  BEGIN
    SELECT least(coalesce(before_index, display_count), display_count) INTO e FROM public.sessions
     WHERE id = sid AND user_id = 'anonymous';
    IF e IS NULL THEN RETURN; END IF;
    RETURN QUERY SELECT * FROM ${PEER_SCHEMA}.messages m
      WHERE m.session_id = sid AND m.display_index >= e - n AND m.display_index < e ORDER BY m.display_index;
  END
$$;
`;

async function main() {
  const pool = new pg.Pool({ connectionString: BENCH_URL, max: 10 });
  await pool.query(SETUP_SQL);
  const handler = postgraphile(pool, PEER_SCHEMA, {
    disableDefaultMutations: true,
    disableQueryLog: true,
    enableQueryBatching: false,
    graphiql: false,
    setofFunctionsContainNulls: false,
    legacyRelations: 'omit',
    retryOnInitFail: false,
  });
  const server = createServer(handler);
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    console.log(`LISTENING http://127.0.0.1:${port}/graphql`);
  });
  process.on('SIGTERM', async () => {
    server.close();
    await pool.query(`DROP SCHEMA IF EXISTS ${PEER_SCHEMA} CASCADE`).catch(() => undefined);
    await pool.end();
    process.exit(0);
  });
}


main().catch((error) => {
  console.error(error);
  process.exit(1);
});
