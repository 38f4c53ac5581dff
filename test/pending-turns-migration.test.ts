/**
 * Migration 20261207000100_pending_turns on a database that holds queued messages and recalls already: every row of
 * both old tables is carried over into pending_turns with its id, kind, state, claim, failures and payload (a
 * recall's text as content, its fired_at as dispatched_at), the queue keeps its order, and the old tables are gone.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, migrate } from '../src/db/migrate.js';
import { createTestDatabase, dbKind } from './support/harness.js';

const MIGRATION = '20261207000100_pending_turns';

describe(`migration ${MIGRATION} (${dbKind})`, { timeout: 300_000 }, () => {
  it('carries the rows of queued_messages and recalls over, then drops both', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'migrations-pending-'));
    const { db, drop } = await createTestDatabase({ fresh: true });
    try {
      for (const name of await readdir(MIGRATIONS_DIR))
        if (name < MIGRATION) await cp(join(MIGRATIONS_DIR, name), join(dir, name), { recursive: true });
      await migrate(db, dir);

      const profile = randomUUID();
      const session = randomUUID();
      const [q1, q2, steer, r1, r2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      await db.raw.query(
        `INSERT INTO profiles (id, key, name, model, context_window, compression_keep_recent, compression_max_tokens)
         VALUES ($1::uuid, $2, 'p', 'm', 4096, 2, 512)`,
        [profile, `pending-${profile}`],
      );
      await db.raw.query(`INSERT INTO sessions (id, profile_id) VALUES ($1::uuid, $2::uuid)`, [session, profile]);
      await db.raw.query(
        `INSERT INTO queued_messages (id, session_id, kind, content, message, client_tools, idempotency_key, status,
           failures, failure_reason)
         VALUES ($1::uuid, $4::uuid, 'QUEUE', 'first', '{"role":"user","content":"first"}', '[{"name":"t"}]', 'k1',
                 'PENDING', 2, 'boom'),
                ($2::uuid, $4::uuid, 'QUEUE', 'second', '{"role":"user","content":"second"}', '[]', NULL, 'CLAIMED',
                 0, NULL),
                ($3::uuid, $4::uuid, 'STEER', 'steered', '{"role":"user","content":"steered"}', '[]', NULL,
                 'DISPATCHED', 0, NULL)`,
        [q1, q2, steer, session],
      );
      await db.raw.query(`UPDATE queued_messages SET claimed_by = 'proc', claimed_at = now() WHERE id = $1::uuid`, [
        q2,
      ]);
      await db.raw.query(
        `INSERT INTO recalls (id, session_id, owner, source, due_at, text, status, attempts, fired_at,
           message_sequence)
         VALUES ($1::uuid, $3::uuid, 'alice', 'MODEL', '2030-01-01T00:00:00Z', 'later', 'PENDING', 0, NULL, NULL),
                ($2::uuid, $3::uuid, NULL, 'USER', '2026-01-01T00:00:00Z', 'done', 'FIRED', 1,
                 '2026-01-01T00:00:01Z', 4)`,
        [r1, r2, session],
      );

      await cp(join(MIGRATIONS_DIR, MIGRATION), join(dir, MIGRATION), { recursive: true });
      expect(await migrate(db, dir)).toEqual([MIGRATION]);

      const rows = await db.raw.query<Record<string, unknown>>(
        `SELECT id::text AS id, kind, content, message, client_tools, idempotency_key, status, claimed_by, failures,
           failure_reason, owner, source, due_at, attempts, dispatched_at, message_sequence, seq::int AS seq
         FROM pending_turns WHERE session_id = $1::uuid ORDER BY seq`,
        [session],
      );
      const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
      // The queue keeps its order; the recalls (created in one instant here) follow it.
      expect(rows.slice(0, 3).map((r) => [r.id, r.kind, r.content, r.status])).toEqual([
        [q1, 'QUEUE', 'first', 'PENDING'],
        [q2, 'QUEUE', 'second', 'CLAIMED'],
        [steer, 'STEER', 'steered', 'DISPATCHED'],
      ]);
      const recalls = rows.slice(3).sort((a, b) => String(a.content).localeCompare(String(b.content)));
      expect(recalls.map((r) => [r.id, r.kind, r.content, r.status])).toEqual([
        [r2, 'RECALL', 'done', 'FIRED'],
        [r1, 'RECALL', 'later', 'PENDING'],
      ]);
      const [first, second] = rows;
      const [done, later] = recalls;
      expect(json(first!.message)).toEqual({ role: 'user', content: 'first' });
      expect(json(first!.client_tools)).toEqual([{ name: 't' }]);
      expect(first).toMatchObject({ idempotency_key: 'k1', failures: 2, failure_reason: 'boom' });
      expect(second).toMatchObject({ claimed_by: 'proc' });
      expect(later).toMatchObject({ owner: 'alice', source: 'MODEL', message: null, attempts: 0 });
      expect(new Date(later!.due_at as string).toISOString()).toBe('2030-01-01T00:00:00.000Z');
      expect(done).toMatchObject({ source: 'USER', attempts: 1, message_sequence: 4 });
      expect(new Date(done!.dispatched_at as string).toISOString()).toBe('2026-01-01T00:00:01.000Z');

      // A row added after the migration comes after the carried ones.
      await db.raw.query(
        `INSERT INTO pending_turns (id, session_id, kind, content) VALUES ($1::uuid, $2::uuid, 'QUEUE', 'new')`,
        [randomUUID(), session],
      );
      const [last] = await db.raw.query<{ seq: number }>(
        `SELECT seq::int AS seq FROM pending_turns WHERE content = 'new' AND session_id = $1::uuid`,
        [session],
      );
      expect(last!.seq).toBeGreaterThan(Math.max(...rows.map((r) => r.seq as number)));

      const old = await db.raw.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('queued_messages', 'recalls')
           AND table_schema = current_schema()`,
      );
      expect(old[0]!.n).toBe(0);
    } finally {
      await drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
