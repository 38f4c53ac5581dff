/**
 * Fills the bench database with 10,000 sessions and 1,000,000 messages: one
 * session of 100,000 messages, the rest ~90 each, a third of every session's
 * rows archived, every 50th row a context-only summary (not displayed).
 * Terms for the search benchmark: "quokka" (rare), "latency" (~5% of rows).
 * Runs set-based SQL (generate_series), so it takes minutes, not hours.
 *   DATABASE_URL=postgresql://… npm run bench:seed   (default: the bench DB on the local server)
 */
import { ProfileStore } from '../src/store/profiles.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { ensureSearchIndexes, migrate } from '../src/db/migrate.js';
import { ProfileService } from '../src/sessions/profiles.js';

export const BENCH_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/chat_bench';
export const BIG_SESSION = '00000000-0000-4000-8000-000000000001';
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 10_000);
const TOTAL = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const BIG = Math.min(100_000, Math.floor(TOTAL / 10));

async function ensureDatabase(url: string) {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  await client.end();
}

async function main() {
  const started = Date.now();
  await ensureDatabase(BENCH_URL);
  const db = await openDatabase({ url: BENCH_URL });
  await migrate(db);
  await db.raw.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  const profile = await new ProfileService(new ProfileStore(db), loadConfig({})).ensureDefault();
  await db.raw.exec('TRUNCATE sessions CASCADE');
  const perSession = Math.floor((TOTAL - BIG) / (SESSIONS - 1));
  const step = (label: string) => console.log(`${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  // Sessions: the big one plus the rest, owned by `anonymous` (local mode), some pinned.
  await db.raw.query(
    `INSERT INTO sessions (id, profile_id, user_id, name, title_source, pinned, ` +
      `created_at, last_active, next_sequence, display_count)
     SELECT CASE WHEN g = 1 THEN $1::uuid ELSE md5('session' || g)::uuid END, $2::uuid` +
      `, 'anonymous', 'Session ' || g, 'MANUAL',
            g % 97 = 0, now() - (g || ' minutes')::interval, now() - (g || ' seconds')::interval,
            n, n - n / 50
       FROM generate_series(1, $3::int) g, LATERAL (SELECT CASE WHEN g = 1 THEN $4::int ELSE $5::int END AS n) c`,
    [BIG_SESSION, profile.id, SESSIONS, BIG, perSession],
  );
  step('sessions');
  // Messages: words from a small vocabulary; every 20th row mentions "latency", a few "quokka".
  await db.raw.query(
    `INSERT INTO session_messages (session_id, sequence_number, display_index, ` +
      `role, content, is_display, is_context, is_summary, created_at)
     SELECT s.id, q, CASE WHEN q % 50 = 49 THEN NULL ELSE q - q / 50 END,
            CASE WHEN q % 50 = 49 OR q % 2 = 0 THEN 'user' ELSE 'assistant' END,
            (ARRAY['deploy the service','check the logs','the cache misses',` +
      `'rewrite the parser','plan the sprint','review the diff'])[1 + (q % 6)]
              || ' ' || md5(s.id::text || q) || CASE WHEN q % 20 = 7 THEN ' latency spike' ELSE '' END
              || CASE WHEN (hashtext(s.id::text) + q) % 50000 = 0 THEN ' quokka sighting' ELSE '' END,
            q % 50 <> 49, q >= s.next_sequence - 40, q % 50 = 49, s.created_at + (q || ' seconds')::interval
       FROM sessions s, generate_series(0, s.next_sequence - 1) q`,
  );
  step('messages');
  // A third of every session's rows go to the archive table.
  await db.raw.exec(
    `
    WITH moved AS (
      DELETE FROM session_messages m USING sessions s
       WHERE m.session_id = s.id AND m.sequence_number < s.next_sequence / 3 RETURNING m.*)
    INSERT INTO session_messages_archive (session_id, sequence_number, display_index, ` +
      `role, content, thinking, is_context,
      is_display, is_plan, is_compression, is_summary, is_compression_critical, is_recall, is_agent_note, metadata,
      elapsed_seconds, tool_call_count, token_count, tool_calls, tool_call_id, name, files, images, created_at)
    SELECT session_id, sequence_number, display_index, role, content, thinking, is_context, is_display, is_plan,
      is_compression, is_summary, is_compression_critical, is_recall, is_agent_note, metadata, elapsed_seconds,
      tool_call_count, token_count, tool_calls, tool_call_id, name, files, images, created_at FROM moved`,
  );
  step('archived a third');
  await ensureSearchIndexes(db);
  // The seed's own indexes (GIN on content, as its store creates them), so the
  // bare `content ILIKE` comparison in bench/search.ts runs as the seed would.
  await db.raw.exec(
    `
    CREATE INDEX IF NOT EXISTS idx_session_messages_content_trgm ON session_messages USING gin (content gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS idx_session_messages_archive_content_trgm ON session_messages_archive ` +
      `USING gin (content gin_trgm_ops);`,
  );
  step('trigram indexes');
  for (const table of ['sessions', 'session_messages', 'session_messages_archive'])
    await db.raw.exec(`VACUUM ANALYZE ${table}`);
  step('vacuum analyze');
  const counts = await db.raw.query<{ hot: number; archived: number }>(
    `SELECT (SELECT count(*)::int FROM session_messages) AS hot` +
      `, (SELECT count(*)::int FROM session_messages_archive) AS archived`,
  );
  console.log(
    `seeded ${SESSIONS} sessions, ${counts[0]!.hot + counts[0]!.archived}` +
      ` messages (${counts[0]!.archived} archived)` +
      ` in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  await db.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
