/**
 * Prisma client factory: PGlite (embedded, on disk or in memory) when no
 * DATABASE_URL is given, a PostgreSQL server through @prisma/adapter-pg
 * otherwise. Also exposes a small raw driver for what Prisma cannot do
 * (multi-statement migration files, session-level advisory locks).
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { acquireDataDirLock } from './datadir-lock.js';
import { isConnectionError, isReadOnlySql, RETRY_DELAYS_MS, retryOnConnectionError } from './faults.js';

export interface RawDriver {
  /** Runs one or more statements without parameters. */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
  /** Runs fn on one dedicated connection (advisory locks are per connection). */
  withConnection<T>(fn: (conn: Omit<RawDriver, 'withConnection' | 'close' | 'boundedQuery'>) => Promise<T>): Promise<T>;
  /**
   * One read bounded by a statement timeout, JIT off, sent as ONE statement (search: no transaction, no SET per
   * request). On a PostgreSQL server it runs on a small pool of its own, opened on first use, whose connections carry
   * both settings (and UTC) from their start; on PGlite it runs as any other query (the caller bounds it by a timer).
   */
  boundedQuery<T = Record<string, unknown>>(sql: string, params: unknown[], timeoutMs: number): Promise<T[]>;
  close(): Promise<void>;
}

export interface QueryOptions {
  /**
   * A hot statement with few distinct texts (the history page, the session list): on a PostgreSQL server it is a
   * named prepared statement, parsed and planned once per connection instead of on every request (that planning was
   * half of the database's CPU per history page; docs/performance.md). Ignored on PGlite and when
   * DATABASE_PREPARED_STATEMENTS=false.
   */
  prepare?: boolean;
}

/** At most this many distinct texts are prepared per process; others run unnamed (a connection keeps each one). */
const MAX_PREPARED_TEXTS = 256;

export interface Database {
  kind: 'pglite' | 'postgres';
  prisma: PrismaClient;
  raw: RawDriver;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgresql://… ; unset → PGlite */
  url?: string;
  /** PGlite data directory; `memory://` for an in-memory database */
  dataDir?: string;
  poolSize?: number;
  /**
   * Told when an idle pooled connection dies (the server restarted, an admin
   * terminated it): the pool drops it and the next query opens a new one.
   */
  onConnectionError?: (error: Error) => void;
  /**
   * PostgreSQL lock_timeout of the service's statements: a row lock not granted by then fails (answered BUSY) instead
   * of waiting on.
   */
  lockTimeoutMs?: number;
  /** Named prepared statements for `{ prepare: true }` queries (default true; off behind a pooler without them) */
  preparedStatements?: boolean;
  /**
   * An embedded instance already open (from `openPGlite`), which the Database does not own: its close() leaves the
   * instance open (the tests keep one per worker and reset it between files).
   */
  pglite?: PGlite;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url
    ? openServer(
        options.url,
        options.poolSize ?? 10,
        options.onConnectionError,
        options.lockTimeoutMs,
        options.preparedStatements ?? true,
      )
    : options.pglite
      ? overPGlite(options.pglite, null, false)
      : openEmbedded(options.dataDir ?? 'memory://');
}

/**
 * The statement's name when it is to be prepared: a digest of its text (the same text always gets the same name, two
 * texts never share one), for at most MAX_PREPARED_TEXTS texts.
 */
function preparedNames(enabled: boolean): (sql: string, options?: QueryOptions) => string | undefined {
  const names = new Map<string, string>();
  return (sql, options) => {
    if (!enabled || !options?.prepare) return undefined;
    let name = names.get(sql);
    if (name === undefined && names.size < MAX_PREPARED_TEXTS) {
      name = `chat_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;
      names.set(sql, name);
    }
    return name;
  };
}

/** A pooler that does not keep a connection's prepared statements (26000), or a name taken (42P05). */
const isPreparedStatementError = (error: unknown) =>
  ['26000', '42P05'].includes((error as { code?: string } | null)?.code ?? '');

/**
 * Opens an embedded instance with the trigram extension, in UTC (as every server connection; openServer says why).
 * `loadDataDir`: start from a dump (`dumpDataDir`) instead of an empty cluster (the tests copy a migrated one).
 */
export async function openPGlite(dataDir: string, loadDataDir?: Blob): Promise<PGlite> {
  // Loaded for the embedded database only: a service on a PostgreSQL server never holds it (idle memory).
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  const lite = await PGlite.create(dataDir, { extensions: { pg_trgm }, ...(loadDataDir ? { loadDataDir } : {}) });
  // PGlite starts in the process's TZ.
  await lite.exec("SET TIME ZONE 'UTC'");
  return lite;
}

async function openEmbedded(dataDir: string): Promise<Database> {
  const onDisk = !dataDir.startsWith('memory://');
  if (onDisk) mkdirSync(dataDir, { recursive: true });
  // Refuses (DataDirLockedError) while another live process has the directory open.
  const lock = onDisk ? await acquireDataDirLock(dataDir) : null;
  let lite: PGlite;
  try {
    lite = await openPGlite(dataDir);
  } catch (error) {
    lock?.release();
    throw error;
  }
  return overPGlite(lite, lock, true);
}

/** A Database over an open PGlite instance; `owned`: close() closes the instance (and releases the lock). */
async function overPGlite(lite: PGlite, lock: { release(): void } | null, owned: boolean): Promise<Database> {
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(lite) });
  const conn = {
    exec: async (sql: string) => {
      await lite.exec(sql);
    },
    query: async <T>(sql: string, params: unknown[] = []) => (await lite.query<T>(sql, params)).rows,
  };
  const close = async () => {
    await prisma.$disconnect();
    if (owned && !lite.closed) await lite.close();
    lock?.release();
  };
  const boundedQuery = <T>(sql: string, params: unknown[]) => conn.query<T>(sql, params);
  return { kind: 'pglite', prisma, raw: { ...conn, boundedQuery, withConnection: (fn) => fn(conn), close }, close };
}

async function openServer(
  url: string,
  poolSize: number,
  onConnectionError: (error: Error) => void = () => undefined,
  lockTimeoutMs?: number,
  preparedStatements = true,
): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const nameOf = preparedNames(preparedStatements);
  // Without a listener, an idle connection's error (a restarted or terminating server) is
  // an uncaught exception that ends the process. The pool discards that connection.
  pool.on('error', onConnectionError);
  // A checked-out connection terminated between two statements emits 'error' on the client itself.
  // Every connection in UTC, whatever the server's or the database's default: Prisma's adapter writes a timestamptz
  // without an offset (read in the session's zone: another zone stored another instant), and the raw reads' JSON
  // prints timestamps in it. Queued before anything else the connection runs (a client runs its queries in order).
  const inUtc = (client: pg.PoolClient) =>
    void client.query("SET TIME ZONE 'UTC'").catch((error: Error) => onConnectionError(error));
  pool.on('connect', (client) => {
    client.on('error', onConnectionError);
    inUtc(client);
  });
  // Prisma's pool is ours too, for the same per-connection listener: the adapter drops its own
  // listener on commit/rollback, and a terminated backend's late FATAL then ended the process.
  const prismaPool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    ...(lockTimeoutMs ? { lock_timeout: lockTimeoutMs } : {}),
  });
  prismaPool.on('error', onConnectionError);
  prismaPool.on('connect', (client) => {
    client.on('error', onConnectionError);
    inUtc(client);
  });
  const adapter = new PrismaPg(prismaPool, { disposeExternalPool: true });
  const prisma = retryOnConnectionError(new PrismaClient({ adapter }));
  const onClient = (client: pg.PoolClient | pg.Pool) => ({
    exec: async (sql: string) => {
      await client.query(sql);
    },
    query: async <T>(sql: string, params: unknown[] = [], options?: QueryOptions) => {
      const name = nameOf(sql, options);
      if (name === undefined) return (await client.query(sql, params)).rows as T[];
      try {
        return (await client.query({ name, text: sql, values: params })).rows as T[];
      } catch (error) {
        // Behind a pooler that moved this client to another backend: the same statement, unnamed.
        if (!isPreparedStatementError(error)) throw error;
        return (await client.query(sql, params)).rows as T[];
      }
    },
  });
  const pooled = onClient(pool);
  // The bounded reads' pools, one per timeout (in practice one: SEARCH_TIMEOUT_MS), opened on first use.
  const boundedPools = new Map<number, pg.Pool>();
  const boundedPool = (timeoutMs: number) => {
    let bounded = boundedPools.get(timeoutMs);
    if (!bounded) {
      bounded = new pg.Pool({
        connectionString: url,
        max: Math.max(2, Math.ceil(poolSize / 2)),
        statement_timeout: timeoutMs,
        // Startup parameters: no statement is spent on them. No JIT: the search's estimated costs (a subplan per
        // session) would otherwise buy ~0.5 s of compilation.
        options: '-c jit=off -c TimeZone=UTC',
      });
      bounded.on('error', onConnectionError);
      bounded.on('connect', (client) => client.on('error', onConnectionError));
      boundedPools.set(timeoutMs, bounded);
    }
    return bounded;
  };
  const raw: RawDriver = {
    ...pooled,
    // A pooled read whose connection was terminated runs again on another one (see RETRY_DELAYS_MS).
    query: <T>(sql: string, params?: unknown[], options?: QueryOptions) =>
      pooled.query<T>(sql, params, options).catch(async function retry(error: unknown, attempt = 0): Promise<T[]> {
        if (attempt >= RETRY_DELAYS_MS.length || !isReadOnlySql(sql) || !isConnectionError(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
        return pooled.query<T>(sql, params, options).catch((next: unknown) => retry(next, attempt + 1));
      }),
    boundedQuery: async <T>(sql: string, params: unknown[], timeoutMs: number) =>
      (await boundedPool(Math.max(1, Math.floor(timeoutMs))).query(sql, params)).rows as T[],
    withConnection: async (fn) => {
      const client = await pool.connect();
      try {
        return await fn(onClient(client));
      } finally {
        client.release();
      }
    },
    close: async () => {
      await Promise.all([...boundedPools.values()].map((p) => p.end()));
      await pool.end();
    },
  };
  return {
    kind: 'postgres',
    prisma,
    raw,
    close: async () => {
      await prisma.$disconnect();
      await raw.close();
    },
  };
}
