/**
 * Prisma client factory: PGlite (embedded, on disk or in memory) when no
 * DATABASE_URL is given, a PostgreSQL server through @prisma/adapter-pg
 * otherwise. Also exposes a small raw driver for what Prisma cannot do
 * (multi-statement migration files, session-level advisory locks).
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client.js';
import { acquireDataDirLock } from './datadir-lock.js';
import { isConnectionError, isReadOnlySql, RETRY_DELAYS_MS, retryOnConnectionError } from './faults.js';

export interface RawDriver {
  /** Runs one or more statements without parameters. */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs fn on one dedicated connection (advisory locks are per connection). */
  withConnection<T>(fn: (conn: Omit<RawDriver, 'withConnection' | 'close'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

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
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url
    ? openServer(options.url, options.poolSize ?? 10, options.onConnectionError, options.lockTimeoutMs)
    : openEmbedded(options.dataDir ?? 'memory://');
}

async function openEmbedded(dataDir: string): Promise<Database> {
  const onDisk = !dataDir.startsWith('memory://');
  if (onDisk) mkdirSync(dataDir, { recursive: true });
  // Refuses (DataDirLockedError) while another live process has the directory open.
  const lock = onDisk ? await acquireDataDirLock(dataDir) : null;
  let lite: PGlite;
  try {
    lite = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(lite) });
  const conn = {
    exec: async (sql: string) => {
      await lite.exec(sql);
    },
    query: async <T>(sql: string, params: unknown[] = []) => (await lite.query<T>(sql, params)).rows,
  };
  const raw: RawDriver = {
    ...conn,
    withConnection: (fn) => fn(conn),
    close: async () => {
      await lite.close();
      lock?.release();
    },
  };
  return {
    kind: 'pglite',
    prisma,
    raw,
    close: async () => {
      await prisma.$disconnect();
      if (!lite.closed) await lite.close();
      lock?.release();
    },
  };
}

async function openServer(
  url: string,
  poolSize: number,
  onConnectionError: (error: Error) => void = () => undefined,
  lockTimeoutMs?: number,
): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // Without a listener, an idle connection's error (a restarted or terminating server) is
  // an uncaught exception that ends the process. The pool discards that connection.
  pool.on('error', onConnectionError);
  // A checked-out connection terminated between two statements emits 'error' on the client itself.
  pool.on('connect', (client) => client.on('error', onConnectionError));
  // Prisma's pool is ours too, for the same per-connection listener: the adapter drops its own
  // listener on commit/rollback, and a terminated backend's late FATAL then ended the process.
  const prismaPool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    ...(lockTimeoutMs ? { lock_timeout: lockTimeoutMs } : {}),
  });
  prismaPool.on('error', onConnectionError);
  prismaPool.on('connect', (client) => client.on('error', onConnectionError));
  const adapter = new PrismaPg(prismaPool, { disposeExternalPool: true });
  const prisma = retryOnConnectionError(new PrismaClient({ adapter }));
  const onClient = (client: pg.PoolClient | pg.Pool) => ({
    exec: async (sql: string) => {
      await client.query(sql);
    },
    query: async <T>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[],
  });
  const pooled = onClient(pool);
  const raw: RawDriver = {
    ...pooled,
    // A pooled read whose connection was terminated runs again on another one (see RETRY_DELAYS_MS).
    query: <T>(sql: string, params?: unknown[]) =>
      pooled.query<T>(sql, params).catch(async function retry(error: unknown, attempt = 0): Promise<T[]> {
        if (attempt >= RETRY_DELAYS_MS.length || !isReadOnlySql(sql) || !isConnectionError(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
        return pooled.query<T>(sql, params).catch((next: unknown) => retry(next, attempt + 1));
      }),
    withConnection: async (fn) => {
      const client = await pool.connect();
      try {
        return await fn(onClient(client));
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
  return {
    kind: 'postgres',
    prisma,
    raw,
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
