/**
 * Test databases, made once per worker and reset per use.
 *
 * Opening a PGlite instance (the WebAssembly Postgres) is the costliest step of a test file: seconds on a loaded
 * machine, against a tenth of a second to empty one. So each vitest worker keeps the databases its files gave back,
 * already migrated, and hands one out again after a reset: every table but `_prisma_migrations` truncated (sequences
 * restarted), the connection's session state discarded. A database whose schema a test changed (a table, column,
 * function, trigger, index or database setting differs from when it was made) is not reused but closed.
 *
 * On a PostgreSQL server (TEST_DATABASE_URL) the same, with databases cloned from a template that global-setup.ts
 * migrated once for the run (`CREATE DATABASE … TEMPLATE`), and dropped by its teardown.
 *
 * `fresh: true` gives a brand-new, unmigrated database instead (the migration tests need one).
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type Database, openDatabase, openPGlite } from '../../src/db/client.js';
import { ensureSearchIndexes, migrate } from '../../src/db/migrate.js';

export const serverUrl = process.env.TEST_DATABASE_URL;

export interface TestDatabaseOptions {
  /** install pg_trgm (PostgreSQL; default true) — false implies fresh */
  trigram?: boolean;
  poolSize?: number;
  lockTimeoutMs?: number;
  /** a brand-new database with no migration applied */
  fresh?: boolean;
}

export interface TestDatabase {
  db: Database;
  /** gives the database back (closed, and reset for the next user); idempotent */
  drop(): Promise<void>;
  /** the server database's URL (PostgreSQL only) */
  url?: string;
}

/** What a reset cannot undo: the database's shape. A database whose shape changed is not handed out again. */
const SHAPE_SQL = `SELECT md5(coalesce(string_agg(x, E'\\n' ORDER BY x), '')) AS shape FROM (
  SELECT 'rel ' || c.relname || ' ' || c.relkind::text || ' ' || coalesce((
    SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text || ' ' ||
      coalesce(pg_get_expr(d.adbin, d.adrelid), ''), ',' ORDER BY a.attnum)
    FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '') AS x
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
  UNION ALL SELECT 'idx ' || indexrelid::regclass::text || ' ' || pg_get_indexdef(indexrelid)
    FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public'
  UNION ALL SELECT 'fn ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || md5(p.prosrc)
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
  UNION ALL SELECT 'trg ' || t.tgname || ' ' || t.tgenabled::text FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND NOT t.tgisinternal
  UNION ALL SELECT 'ext ' || extname || ' ' || extversion FROM pg_extension
  UNION ALL SELECT 'op ' || oprname || ' ' || oprcode::text FROM pg_operator o
    JOIN pg_namespace n ON n.oid = o.oprnamespace WHERE n.nspname = 'public'
  UNION ALL SELECT 'set ' || array_to_string(setconfig, ',') FROM pg_db_role_setting s
    JOIN pg_database d ON d.oid = s.setdatabase WHERE d.datname = current_database()
  UNION ALL SELECT 'mig ' || migration_name || ' ' || checksum || ' ' || (finished_at IS NOT NULL)::text
    FROM "_prisma_migrations"
) shape`;

const TABLES_SQL = `SELECT tablename AS name FROM pg_tables
  WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY tablename`;

async function truncateSql(query: (sql: string) => Promise<{ name: string }[]>): Promise<string> {
  const tables = await query(TABLES_SQL);
  return `TRUNCATE ${tables.map((t) => `"${t.name}"`).join(', ')} RESTART IDENTITY CASCADE`;
}

// ---------------------------------------------------------------------------------------------------------------
// PGlite: instances of this worker, migrated, waiting to be handed out again.

interface IdleLite {
  lite: PGlite;
  shape: string;
}
const idleLites: IdleLite[] = [];

async function shapeOf(query: (sql: string) => Promise<{ shape: string }[]>): Promise<string> {
  return (await query(SHAPE_SQL))[0]!.shape;
}

/**
 * This worker's two starting points, made on first use: an empty cluster, and one migrated with its search indexes
 * built (and that one's shape). Loading a dump takes about a third of the time of initialising a cluster.
 */
let dumps: Promise<{ empty: Blob; migrated: Blob; shape: string }> | undefined;
const templateDumps = () =>
  (dumps ??= (async () => {
    const lite = await openPGlite('memory://');
    const empty = await lite.dumpDataDir('none');
    const db = await openDatabase({ pglite: lite });
    await migrate(db);
    await ensureSearchIndexes(db, () => undefined);
    await db.close();
    const shape = await shapeOf(async (sql) => (await lite.query<{ shape: string }>(sql)).rows);
    const migrated = await lite.dumpDataDir('none');
    await lite.close();
    return { empty, migrated, shape };
  })());

async function newMigratedLite(): Promise<IdleLite> {
  const { migrated, shape } = await templateDumps();
  return { lite: await openPGlite('memory://', migrated), shape };
}

/**
 * An embedded data directory on disk, migrated (for a server started in a child process): written from this worker's
 * migrated dump, so the server neither initialises a cluster nor runs the migrations.
 */
export async function migratedDataDir(dir: string): Promise<string> {
  const lite = await openPGlite(dir, (await templateDumps()).migrated);
  await lite.close();
  return dir;
}

async function acquireLite(): Promise<TestDatabase> {
  const entry = idleLites.pop() ?? (await newMigratedLite());
  const db = await openDatabase({ pglite: entry.lite });
  let given = false;
  return {
    db,
    drop: async () => {
      if (given) return;
      given = true;
      await db.close();
      const { lite } = entry;
      if (lite.closed) return;
      try {
        // A transaction a test left open, then the connection's settings, prepared statements, temporary tables
        // and advisory locks.
        await lite.exec('ROLLBACK').catch(() => undefined);
        await lite.exec('DISCARD ALL');
        await lite.exec("SET TIME ZONE 'UTC'");
        const shape = await shapeOf(async (sql) => (await lite.query<{ shape: string }>(sql)).rows);
        if (shape !== entry.shape) throw new Error('the schema changed');
        await lite.exec(await truncateSql(async (sql) => (await lite.query<{ name: string }>(sql)).rows));
        idleLites.push(entry);
      } catch {
        await lite.close().catch(() => undefined);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL: databases cloned from the run's template, kept by this worker between uses.

/** The run's names: `chat_test_<run>_…` (global-setup.ts drops them all at the end). */
const run = process.env.TEST_DB_RUN ?? `p${process.pid}`;
const template = process.env.TEST_DB_TEMPLATE;
const idleServerDbs: { name: string; shape: string }[] = [];

function urlFor(name: string): string {
  const url = new URL(serverUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const dropServerDb = (name: string) =>
  withClient(serverUrl!, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined);

async function newServerDb(options: TestDatabaseOptions, fromTemplate: boolean): Promise<string> {
  const name = `chat_test_${run}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl!, (c) => c.query(`CREATE DATABASE ${name}${fromTemplate ? ` TEMPLATE ${template}` : ''}`));
  // pg_trgm is installed by the "DBA" (the harness), never by the service on a server.
  if (!fromTemplate && options.trigram !== false) {
    await withClient(urlFor(name), (c) => c.query('CREATE EXTENSION IF NOT EXISTS pg_trgm').catch(() => undefined));
  }
  return name;
}

async function acquireServerDb(options: TestDatabaseOptions): Promise<TestDatabase> {
  const pooled = !options.fresh && options.trigram !== false && template !== undefined;
  const reused = pooled ? idleServerDbs.pop() : undefined;
  const name = reused?.name ?? (await newServerDb(options, pooled));
  const shape =
    reused?.shape ??
    (pooled ? await withClient(urlFor(name), async (c) => shapeOf(async (sql) => (await c.query(sql)).rows)) : '');
  const url = urlFor(name);
  const db = await openDatabase({ url, poolSize: options.poolSize ?? 5, lockTimeoutMs: options.lockTimeoutMs });
  let given = false;
  return {
    db,
    url,
    drop: async () => {
      if (given) return;
      given = true;
      await db.close();
      if (!pooled) return dropServerDb(name);
      try {
        await withClient(url, async (c) => {
          await c.query("SET lock_timeout = '5s'");
          const now = await shapeOf(async (sql) => (await c.query(sql)).rows);
          if (now !== shape) throw new Error('the schema changed');
          // A pool the test opened on this database and did not close holds connections: end them.
          await c.query(
            'SELECT pg_terminate_backend(pid) FROM pg_stat_activity ' +
              'WHERE datname = current_database() AND pid <> pg_backend_pid()',
          );
          await c.query(await truncateSql(async (sql) => (await c.query(sql)).rows));
        });
        idleServerDbs.push({ name, shape });
      } catch {
        await dropServerDb(name).catch(() => undefined);
      }
    },
  };
}

/** A migrated, empty database (reused within the worker), or with `fresh` a brand-new unmigrated one. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  if (serverUrl) return acquireServerDb(options);
  if (options.fresh) {
    const lite = await openPGlite('memory://', (await templateDumps()).empty);
    const db = await openDatabase({ pglite: lite });
    return { db, drop: () => db.close().then(() => lite.close()) };
  }
  return acquireLite();
}
