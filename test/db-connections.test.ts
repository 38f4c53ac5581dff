/**
 * A PostgreSQL server that drops idle connections (a restart, an admin's
 * pg_terminate_backend, a failover) must not take the service down: both
 * pools (the raw driver's and Prisma's) report the lost connection and the
 * next query opens a new one. Runs against the server (TEST_DATABASE_URL).
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import { createTestDatabase, serverUrl } from './support/harness.js';
import { needsServer, skipping } from './support/skips.js';

const skipped = skipping('server connections', needsServer());
describe.skipIf(skipped)('server connections', () => {
  it('survives the server terminating its idle connections, and the next queries reconnect', async () => {
    const { db: owner, drop } = await createTestDatabase();
    let db: Database | undefined;
    try {
      const [{ name }] = await owner.raw.query<{ name: string }>('SELECT current_database() AS name');
      const url = new URL(serverUrl!);
      url.pathname = `/${name}`;
      const lost: Error[] = [];
      db = await openDatabase({ url: url.toString(), poolSize: 2, onConnectionError: (error) => lost.push(error) });
      // One idle connection in each pool.
      await db.raw.query('SELECT 1');
      await db.prisma.$queryRawUnsafe('SELECT 1');

      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      try {
        const killed = await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ' +
            `datname = $1 AND pid <> pg_backend_pid() AND application_name = ''`,
          [name],
        );
        expect(killed.rowCount).toBeGreaterThanOrEqual(2);
      } finally {
        await admin.end();
      }

      await expect.poll(() => lost.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
      expect(lost.every((e) => /terminat/i.test(e.message))).toBe(true);
      // The broken connections are gone from the pools: the next queries work.
      expect(await db.raw.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(await db.prisma.$queryRawUnsafe<{ one: number }[]>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await db?.close();
      await drop();
    }
  });
});
