/**
 * Migration 20261205000100_message_ids on a database that holds messages already: every row of both message
 * tables gets its own id, and so does every message held in a branch (session_branches.suffix) and in a redo
 * stack (sessions.metadata.redo); what else those JSON values hold is unchanged.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, migrate } from '../src/db/migrate.js';
import { createTestDatabase, dbKind } from './support/harness.js';

const MIGRATION = '20261205000100_message_ids';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe(`migration ${MIGRATION} (${dbKind})`, { timeout: 300_000 }, () => {
  it('fills message ids in both tables, branches and redo stacks, each its own', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'migrations-ids-'));
    const { db, drop } = await createTestDatabase({ fresh: true });
    try {
      for (const name of await readdir(MIGRATIONS_DIR))
        if (name < MIGRATION) await cp(join(MIGRATIONS_DIR, name), join(dir, name), { recursive: true });
      await migrate(db, dir);

      const profile = randomUUID();
      const session = randomUUID();
      const message = (seq: number, content: string) => ({ sequenceNumber: seq, role: 'user', content, files: [] });
      const redo = { segments: [{ afterSequence: 1, messages: [message(2, 'undone')] }], nextSequence: 2 };
      await db.raw.query(
        `INSERT INTO profiles (id, key, name, model, context_window, compression_keep_recent, compression_max_tokens)
         VALUES ($1::uuid, $2, 'p', 'm', 4096, 2, 512)`,
        [profile, `ids-${profile}`],
      );
      await db.raw.query(
        `INSERT INTO sessions (id, profile_id, next_sequence, display_count, metadata)
         VALUES ($1::uuid, $2::uuid, 2, 2, $3::jsonb)`,
        [session, profile, JSON.stringify({ redo, other: 'kept' })],
      );
      await db.raw.query(
        `INSERT INTO session_messages_archive (session_id, sequence_number, display_index, role, content)
         VALUES ($1::uuid, 0, 0, 'user', 'archived')`,
        [session],
      );
      await db.raw.query(
        `INSERT INTO session_messages (session_id, sequence_number, display_index, role, content)
         VALUES ($1::uuid, 1, 1, 'assistant', 'hot')`,
        [session],
      );
      await db.raw.query(
        `INSERT INTO session_branches (session_id, name, base_sequence, suffix)
         VALUES ($1::uuid, 'branch 1', 0, $2::jsonb), ($1::uuid, 'empty', 1, '[]'::jsonb)`,
        [session, JSON.stringify([message(1, 'b1'), message(2, 'b2')])],
      );

      await cp(join(MIGRATIONS_DIR, MIGRATION), join(dir, MIGRATION), { recursive: true });
      expect(await migrate(db, dir)).toEqual([MIGRATION]);

      const rows = await db.raw.query<{ id: string; content: string }>(
        `SELECT message_id::text AS id, content FROM session_messages WHERE session_id = $1::uuid
         UNION ALL SELECT message_id::text, content FROM session_messages_archive WHERE session_id = $1::uuid`,
        [session],
      );
      const branches = await db.raw.query<{ name: string; suffix: Record<string, unknown>[] }>(
        'SELECT name, suffix FROM session_branches WHERE session_id = $1::uuid ORDER BY name',
        [session],
      );
      const [meta] = await db.raw.query<{ metadata: { redo: typeof redo; other: string } }>(
        'SELECT metadata FROM sessions WHERE id = $1::uuid',
        [session],
      );
      const branch = branches.find((b) => b.name === 'branch 1')!;
      expect(branch.suffix.map(({ messageId: _m, ...rest }) => rest)).toEqual([message(1, 'b1'), message(2, 'b2')]);
      expect(branches.find((b) => b.name === 'empty')!.suffix).toEqual([]);
      const undone = meta!.metadata.redo.segments[0]!.messages as Record<string, unknown>[];
      expect(undone.map(({ messageId: _m, ...rest }) => rest)).toEqual([message(2, 'undone')]);
      expect(meta!.metadata).toMatchObject({ other: 'kept', redo: { nextSequence: 2 } });

      const all = [...rows.map((r) => r.id), ...branch.suffix.map((m) => m.messageId), undone[0]!.messageId];
      expect(all).toHaveLength(5);
      for (const id of all) expect(id).toMatch(UUID);
      expect(new Set(all).size).toBe(5);
    } finally {
      await drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
