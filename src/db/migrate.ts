/**
 * Applies prisma/migrations/<name>/migration.sql in order, under an advisory
 * lock, each in its own transaction, recorded in `_prisma_migrations` with
 * Prisma's columns and sha256 checksums so `prisma migrate status` agrees.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client.js';

/** Prisma migrate's own advisory lock key, so both never run at once. */
const PRISMA_ADVISORY_LOCK = 72707369;

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  entries.sort();
  return Promise.all(
    entries.map(async (name) => {
      const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

export class MigrationError extends Error {}

/** Returns the names of the migrations it applied (empty when up to date). */
export async function migrate(db: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(dir);
  return db.raw.withConnection(async (conn) => {
    await conn.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK]);
    try {
      await conn.exec(CREATE_TABLE);
      const done = await conn.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
        'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
      );
      const byName = new Map(done.map((row) => [row.migration_name, row]));
      const applied: string[] = [];
      for (const migration of migrations) {
        const previous = byName.get(migration.name);
        if (previous?.finished_at) {
          if (previous.checksum !== migration.checksum) {
            throw new MigrationError(`Migration ${migration.name} was modified after it was applied`);
          }
          continue;
        }
        if (previous) throw new MigrationError(`Migration ${migration.name} failed earlier; resolve it by hand`);
        const id = randomUUID();
        await conn.exec('BEGIN');
        try {
          await conn.query(
            'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())',
            [id, migration.checksum, migration.name],
          );
          await conn.exec(migration.sql);
          await conn.query(
            'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
            [id],
          );
          await conn.exec('COMMIT');
        } catch (error) {
          await conn.exec('ROLLBACK');
          throw new MigrationError(`Migration ${migration.name} failed: ${(error as Error).message}`);
        }
        applied.push(migration.name);
      }
      return applied;
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1)', [PRISMA_ADVISORY_LOCK]);
    }
  });
}

/**
 * Trigram indexes for search, created only when pg_trgm is installed: on the
 * folded message text session search matches (content_folded, migration
 * 20261130000300; databases built before it may still carry the older
 * idx_session_messages{,_archive}_content_trgm on content, which search no
 * longer uses and which can be dropped) and on memory chunks. The
 * store never installs the extension on a server database (it needs
 * privileges the service user may not have); on the embedded database,
 * which the service owns, it does.
 */
export async function ensureSearchIndexes(db: Database, log?: (msg: string) => void): Promise<boolean> {
  if (db.kind === 'pglite') await db.raw.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  const rows = await db.raw.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_trgm'`,
  );
  if (rows[0]?.n !== 1) {
    log?.(
      'pg_trgm is not installed: session search runs without an index. ' +
        'Install it once with: CREATE EXTENSION IF NOT EXISTS pg_trgm;',
    );
    return false;
  }
  await db.raw.exec(
    `
    CREATE INDEX IF NOT EXISTS idx_session_messages_folded_trgm ON session_messages ` +
      `USING gin (content_folded gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS idx_session_messages_archive_folded_trgm ON session_messages_archive ` +
      `USING gin (content_folded gin_trgm_ops);
    CREATE INDEX IF NOT EXISTS idx_memory_chunks_content_trgm ON memory_chunks USING gin (content gin_trgm_ops);
  `,
  );
  return true;
}

/** The names of the migrations the database has applied (finished, not rolled back): `/readyz` compares them. */
export async function appliedMigrations(db: Database): Promise<string[]> {
  const rows = await db.raw.query<{ migration_name: string }>(
    'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  return rows.map((r) => r.migration_name);
}
