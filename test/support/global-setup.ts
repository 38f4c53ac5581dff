/**
 * Once per test run, before any worker starts (vitest `globalSetup`):
 *
 * - names the run (TEST_DB_RUN), so every database it makes on the server can be found and dropped at the end, also
 *   after a worker died;
 * - on a PostgreSQL server (TEST_DATABASE_URL), makes the run's template database: migrated, search indexes built,
 *   pg_trgm installed. Test databases are cloned from it (databases.ts), not migrated one by one. Databases of runs
 *   whose process is gone are dropped too;
 * - names the file where test files write why they skip (skips.ts), which count-reporter.ts prints.
 *
 * The workers are forked after this ran, so they inherit the environment it sets.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const serverUrl = process.env.TEST_DATABASE_URL;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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

/** Drops the databases of this run, and of runs whose process is no longer alive. */
async function dropDatabases(which: (run: string, pid: number) => boolean): Promise<void> {
  await withClient(serverUrl!, async (c) => {
    const { rows } = await c.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'chat\\_test\\_%' OR datname LIKE 'chat\\_tpl\\_%'",
    );
    for (const { datname } of rows) {
      const m = /^chat_(?:test|tpl)_(r(\d+)x[a-z0-9]+)_/.exec(datname);
      if (!m || !which(m[1]!, Number(m[2]))) continue;
      if (datname.startsWith('chat_tpl_')) await c.query(`ALTER DATABASE ${datname} IS_TEMPLATE false`);
      await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  });
}

export default async function setup(): Promise<() => Promise<void>> {
  const run = `r${process.pid}x${Date.now().toString(36)}`;
  process.env.TEST_DB_RUN = run;
  const skipsDir = mkdtempSync(join(tmpdir(), 'vitest-skips-'));
  process.env.TEST_SKIPS_FILE = join(skipsDir, 'skips.jsonl');

  if (serverUrl) {
    await dropDatabases((_run, pid) => !alive(pid));
    const template = `chat_tpl_${run}_migrated`;
    await withClient(serverUrl, (c) => c.query(`CREATE DATABASE ${template}`));
    const url = new URL(serverUrl);
    url.pathname = `/${template}`;
    await withClient(url.toString(), (c) => c.query('CREATE EXTENSION IF NOT EXISTS pg_trgm').catch(() => undefined));
    const { openDatabase } = await import('../../src/db/client.js');
    const { ensureSearchIndexes, migrate } = await import('../../src/db/migrate.js');
    const db = await openDatabase({ url: url.toString(), poolSize: 1 });
    try {
      await migrate(db);
      await ensureSearchIndexes(db, () => undefined);
    } finally {
      await db.close();
    }
    await withClient(serverUrl, (c) => c.query(`ALTER DATABASE ${template} IS_TEMPLATE true`));
    process.env.TEST_DB_TEMPLATE = template;
  }

  return async () => {
    rmSync(skipsDir, { recursive: true, force: true });
    if (serverUrl) await dropDatabases((r) => r === run);
  };
}
