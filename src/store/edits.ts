/**
 * SQL for history edits (undo / redo / revert, branches, checkpoint / rewind,
 * fork). Every statement touches only the rows an edit changes: the tail
 * after a cut (both message tables, by the (session_id, sequence_number)
 * primary key), the re-inserted rows, the branch rows, and one sessions row.
 * A fork is one INSERT … SELECT per table.
 */
import type { StoredBranch } from '../domain/tree.js';
import { branchFromJson, branchToJson, type StoredBranchJson } from '../domain/tree.js';
import type { ChatMessage } from '../domain/types.js';
import type { Prisma } from '../generated/prisma/client.js';
import { bothTablesSql, type MessageRow, type StoredMessage, toRowData, toStoredMessage } from './rows.js';
import type { SessionStore } from './sessions.js';
import { activeTurnSql } from './turns.js';
import type { SessionMetadataPatch } from '../domain/session-metadata.js';

type Tx = Prisma.TransactionClient;

/** The sessions row as an edit sees it, read under `FOR UPDATE`. */
export interface LockedSession {
  id: string;
  userId: string | null;
  metadata: Record<string, unknown>;
  checkpoint: unknown;
  lastRewindReport: string | null;
  nextSequence: number;
  displayCount: number;
}

/** A fork copies message_id too: unique per session, and the fork's Message ids differ by their session part. */
const COPY_COLUMNS = `sequence_number, message_id, display_index, role, content, thinking, is_context, is_display,
  is_plan, is_compression, is_summary, is_compression_critical, is_recall, is_agent_note, metadata, elapsed_seconds,
  tool_call_count, token_count, tool_calls, tool_call_id, name, files, images, created_at`;

export class EditStore {
  constructor(private readonly store: SessionStore) {}

  private get prisma() {
    return this.store.db.prisma;
  }

  /** Points a session's attachment paths (files, images, notices) at another session's directory. */
  async rebaseFilePaths(
    tx: Prisma.TransactionClient,
    sessionId: string,
    fromPrefix: string,
    toPrefix: string,
  ): Promise<void> {
    for (const table of ['session_messages', 'session_messages_archive']) {
      await tx.$executeRawUnsafe(
        `UPDATE ${table} SET
           files = ARRAY(SELECT replace(f, $2, $3) FROM unnest(files) AS f),
           images = ARRAY(SELECT replace(i, $2, $3) FROM unnest(images) AS i),
           metadata = replace(metadata::text, $2, $3)::jsonb
         WHERE session_id = $1::uuid AND (cardinality(files) > 0 ` +
          `OR cardinality(images) > 0 OR strpos(metadata::text, $2) > 0)`,
        sessionId,
        fromPrefix,
        toPrefix,
      );
    }
  }

  /**
   * Locks the session row for the rest of the transaction. sendMessage's
   * append updates the same row before it inserts the turn, so an edit and a
   * new turn serialize: whichever commits second sees the other.
   */
  async lockSession(tx: Tx, sessionId: string): Promise<LockedSession | null> {
    const rows = await tx.$queryRawUnsafe<LockedSession[]>(
      `SELECT id, user_id AS "userId", metadata, checkpoint, last_rewind_report AS "lastRewindReport",
              next_sequence AS "nextSequence", display_count AS "displayCount"
         FROM sessions WHERE id = $1::uuid FOR UPDATE`,
      sessionId,
    );
    const row = rows[0];
    return row ? { ...row, metadata: (row.metadata ?? {}) as Record<string, unknown> } : null;
  }

  async hasActiveTurn(tx: Tx, sessionId: string): Promise<boolean> {
    const rows = await tx.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM turns t WHERE t.session_id = $1::uuid AND ${activeTurnSql('t')}`,
      sessionId,
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  private async select(
    tx: Tx,
    sessionId: string,
    where: string,
    params: unknown[],
    suffix = '',
  ): Promise<StoredMessage[]> {
    const rows = await tx.$queryRawUnsafe<(MessageRow & { archived: boolean })[]>(
      `SELECT * FROM (${bothTablesSql(`session_id = $1::uuid AND ${where}`)}) m ORDER BY "sequenceNumber" ${suffix}`,
      sessionId,
      ...params,
    );
    return rows.map((r) => toStoredMessage(r, r.archived));
  }

  /** Rows with sequence_number > seq, oldest first. */
  rowsAfter(tx: Tx, sessionId: string, seq: number): Promise<StoredMessage[]> {
    return this.select(tx, sessionId, 'sequence_number > $2', [seq]);
  }

  /**
   * The rows an assistant message with tool calls is paired with (pin / exclude move together): for a tool
   * result its assistant message and that message's results, for an assistant message its results.
   */
  async toolPairRows(tx: Tx, sessionId: string, target: StoredMessage): Promise<StoredMessage[]> {
    let owner: StoredMessage | null = target;
    if (target.role === 'tool' && target.toolCallId !== null) {
      const call = JSON.stringify([{ id: target.toolCallId }]);
      const where = `role = 'assistant' AND sequence_number < $2 AND tool_calls @> $3::jsonb`;
      owner = (await this.select(tx, sessionId, where, [target.sequenceNumber, call], 'DESC LIMIT 1'))[0] ?? null;
    }
    if (!owner || owner.role !== 'assistant' || owner.toolCalls.length === 0) return [target];
    const ids = owner.toolCalls.map((c) => c.id);
    // Its results are the tool rows right after it: a call id can come back in a later turn (a server that sends
    // none gets `call_<n>`; imports), so the search stops at the next row that is not a tool result.
    const next = await this.select(
      tx,
      sessionId,
      `role <> 'tool' AND sequence_number > $2`,
      [owner.sequenceNumber],
      'ASC LIMIT 1',
    );
    const end = next[0]?.sequenceNumber ?? Number.MAX_SAFE_INTEGER;
    const where = `role = 'tool' AND sequence_number > $2 AND sequence_number < $4 AND tool_call_id = ANY($3::text[])`;
    return [owner, ...(await this.select(tx, sessionId, where, [owner.sequenceNumber, ids, end]))];
  }

  /** The PINNED rows on the active path (their context copies aside). */
  pinnedRows(tx: Tx, sessionId: string): Promise<StoredMessage[]> {
    return this.select(tx, sessionId, `metadata->>'contextMode' = 'PINNED' AND metadata->'contextCopyOf' IS NULL`, []);
  }

  /**
   * Sets metadata.contextMode (DEFAULT removes it) on the rows `sequences` and on their context copies
   * (metadata.contextCopyOf), in both tables.
   */
  async setContextMode(tx: Tx, sessionId: string, sequences: number[], mode: string): Promise<void> {
    const set =
      mode === 'DEFAULT' ? `metadata - 'contextMode'` : `metadata || jsonb_build_object('contextMode', $3::text)`;
    for (const table of ['session_messages', 'session_messages_archive']) {
      await tx.$executeRawUnsafe(
        `UPDATE ${table} SET metadata = ${set} WHERE session_id = $1::uuid AND (sequence_number = ANY($2::int[]) ` +
          `OR (jsonb_typeof(metadata->'contextCopyOf') = 'number' ` +
          `AND (metadata->>'contextCopyOf')::int = ANY($2::int[])))` +
          (mode === 'DEFAULT' ? ' AND $3::text IS NOT NULL' : ''),
        sessionId,
        sequences,
        mode,
      );
    }
  }

  /** rowsAfter outside a transaction (reads: siblings). */
  rowsAfterNow(sessionId: string, seq: number): Promise<StoredMessage[]> {
    return this.select(this.prisma as unknown as Tx, sessionId, 'sequence_number > $2', [seq]);
  }

  async rowAt(tx: Tx, sessionId: string, seq: number): Promise<StoredMessage | null> {
    return (await this.select(tx, sessionId, 'sequence_number = $2', [seq]))[0] ?? null;
  }

  /** The active-path row (hot or archived) holding this message id, or null. */
  async rowById(tx: Tx, sessionId: string, messageId: string): Promise<StoredMessage | null> {
    return (await this.select(tx, sessionId, 'message_id = $2::uuid', [messageId]))[0] ?? null;
  }

  /** The newest row (or null in an empty session). */
  async lastRow(tx: Tx, sessionId: string): Promise<StoredMessage | null> {
    return (await this.select(tx, sessionId, 'TRUE', [], 'DESC LIMIT 1'))[0] ?? null;
  }

  /** Sequence of the newest row before `seq`, -1 when there is none. */
  async previousSequence(tx: Tx, sessionId: string, seq: number): Promise<number> {
    const rows = await tx.$queryRawUnsafe<{ s: number | null }[]>(
      `SELECT greatest(
         (SELECT max(sequence_number) FROM session_messages WHERE session_id = $1::uuid AND sequence_number < $2),
         (SELECT max(sequence_number) FROM session_messages_archive WHERE session_id = $1::uuid ` +
        `AND sequence_number < $2)) AS s`,
      sessionId,
      seq,
    );
    return rows[0]?.s ?? -1;
  }

  /** Sequence of the newest real user message (not a note, summary, marker or recall), or null. */
  async lastRealUserSequence(tx: Tx, sessionId: string): Promise<number | null> {
    const where = `role = 'user' AND NOT is_agent_note AND NOT is_summary AND NOT is_compression AND NOT is_recall`;
    const rows = await tx.$queryRawUnsafe<{ s: number | null }[]>(
      `SELECT greatest(
         (SELECT max(sequence_number) FROM session_messages WHERE session_id = $1::uuid AND ${where}),
         (SELECT max(sequence_number) FROM session_messages_archive WHERE session_id = $1::uuid AND ${where})) AS s`,
      sessionId,
    );
    return rows[0]?.s ?? null;
  }

  /** Sequence of the newest user-turn message (a real user message or a recall) before `seq`, or null. */
  async userTurnBefore(tx: Tx, sessionId: string, seq: number): Promise<number | null> {
    const where = `sequence_number < $2 AND role = 'user' AND NOT (is_agent_note OR is_summary OR is_compression)`;
    const rows = await tx.$queryRawUnsafe<{ s: number | null }[]>(
      `SELECT greatest(
         (SELECT max(sequence_number) FROM session_messages WHERE session_id = $1::uuid AND ${where}),
         (SELECT max(sequence_number) FROM session_messages_archive WHERE session_id = $1::uuid AND ${where})) AS s`,
      sessionId,
      seq,
    );
    return rows[0]?.s ?? null;
  }

  /**
   * Deletes every row after `seq` in both tables and sets the counters from
   * what is left: display_index is dense and only the tail was cut, so the
   * next display index is the largest one left + 1 (two index probes).
   */
  async deleteAfter(tx: Tx, sessionId: string, seq: number): Promise<number> {
    let deleted = 0;
    for (const table of ['session_messages', 'session_messages_archive']) {
      deleted += await tx.$executeRawUnsafe(
        `DELETE FROM ${table} WHERE session_id = $1::uuid AND sequence_number > $2`,
        sessionId,
        seq,
      );
    }
    await tx.$executeRawUnsafe(
      `UPDATE sessions SET
         next_sequence = coalesce(greatest(
           (SELECT max(sequence_number) FROM session_messages WHERE session_id = $1::uuid),
           (SELECT max(sequence_number) FROM session_messages_archive WHERE session_id = $1::uuid)), -1) + 1,
         display_count = coalesce(greatest(
           (SELECT max(display_index) FROM session_messages WHERE session_id = $1::uuid),
           (SELECT max(display_index) FROM session_messages_archive WHERE session_id = $1::uuid)), -1) + 1,
         last_active = now()
       WHERE id = $1::uuid`,
      sessionId,
    );
    return deleted;
  }

  /**
   * Re-inserts rows (redo, branch switch) keeping their sequence numbers,
   * which the caller guarantees sort after every row left. Display rows get
   * fresh contiguous display indexes from display_count, so paging stays dense.
   */
  async insertRows(tx: Tx, sessionId: string, rows: readonly ChatMessage[]): Promise<StoredMessage[]> {
    if (rows.length === 0) return [];
    const displayAdded = rows.filter((m) => m.isDisplay).length;
    const maxSeq = Math.max(...rows.map((m) => m.sequenceNumber));
    const counters = await tx.$queryRawUnsafe<{ display_count: number }[]>(
      `UPDATE sessions SET display_count = display_count + $2, next_sequence = greatest(next_sequence, $3 + 1), ` +
        `last_active = now()
       WHERE id = $1::uuid RETURNING display_count`,
      sessionId,
      displayAdded,
      maxSeq,
    );
    let index = counters[0]!.display_count - displayAdded;
    const stored = rows.map((m) => ({ message: m, displayIndex: m.isDisplay ? index++ : null }));
    await tx.sessionMessage.createMany({ data: stored.map((s) => toRowData(sessionId, s.message, s.displayIndex)) });
    return stored.map((s) => ({ ...s.message, sessionId, displayIndex: s.displayIndex, archived: false }));
  }

  /** Sequence of the newest summary still in the context at or before `upTo`, -1 when none. */
  async newestLiveSummary(tx: Tx, sessionId: string, upTo: number): Promise<number> {
    const where = 'sequence_number <= $2 AND is_summary AND is_context';
    const rows = await tx.$queryRawUnsafe<{ s: number | null }[]>(
      `SELECT greatest(
         (SELECT max(sequence_number) FROM session_messages WHERE session_id = $1::uuid AND ${where}),
         (SELECT max(sequence_number) FROM session_messages_archive WHERE session_id = $1::uuid AND ${where})) AS s`,
      sessionId,
      upTo,
    );
    return rows[0]?.s ?? -1;
  }

  /** Rows in [from, to] that a context repair looks at: demoted rows and context copies. */
  repairCandidates(tx: Tx, sessionId: string, from: number, to: number): Promise<StoredMessage[]> {
    if (to < from) return Promise.resolve([]);
    return this.select(
      tx,
      sessionId,
      `sequence_number >= $2 AND sequence_number <= $3 AND (NOT is_context OR metadata->'contextCopyOf' IS NOT NULL)`,
      [from, to],
    );
  }

  /** Takes every live row in the ranges (clipped at `upTo`) out of the context. */
  async demoteRanges(tx: Tx, sessionId: string, ranges: readonly [number, number][], upTo: number): Promise<void> {
    const merged: [number, number][] = [];
    for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
      const last = merged.at(-1);
      if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
      else merged.push([a, b]);
    }
    for (const [a, b] of merged) {
      if (Math.min(b, upTo) < a) continue;
      for (const table of ['session_messages', 'session_messages_archive']) {
        await tx.$executeRawUnsafe(
          `UPDATE ${table} SET is_context = false WHERE session_id = $1::uuid ` +
            `AND sequence_number >= $2 AND sequence_number <= $3 AND is_context`,
          sessionId,
          a,
          Math.min(b, upTo),
        );
      }
    }
  }

  setContextFlag(tx: Tx, sessionId: string, seqs: number[], flag: boolean): Promise<void> {
    return this.store.setContextFlag(sessionId, seqs, flag, tx);
  }

  // ---- branches ----

  async branches(sessionId: string, tx?: Tx): Promise<StoredBranch[]> {
    const client = tx ?? this.prisma;
    const rows = await client.sessionBranch.findMany({
      where: { sessionId },
      orderBy: [{ createdAt: 'asc' }, { name: 'asc' }],
    });
    return rows.map((r) =>
      branchFromJson({
        name: r.name,
        baseSequence: r.baseSequence,
        suffix: r.suffix as unknown as StoredBranchJson['suffix'],
        createdAt: r.createdAt.toISOString(),
      }),
    );
  }

  async saveBranch(tx: Tx, sessionId: string, branch: StoredBranch): Promise<void> {
    // Rows captured from the table carry where they lived; the branch keeps only the message.
    const json = branchToJson({
      ...branch,
      suffix: branch.suffix.map((m) => {
        const { sessionId: _s, displayIndex: _d, archived: _a, ...message } = m as StoredMessage;
        return message;
      }),
    });
    const data = {
      baseSequence: json.baseSequence,
      suffix: json.suffix as unknown as Prisma.InputJsonValue,
      createdAt: branch.createdAt,
    };
    await tx.sessionBranch.upsert({
      where: { sessionId_name: { sessionId, name: branch.name } },
      create: { sessionId, name: branch.name, ...data },
      update: data,
    });
  }

  async deleteBranch(tx: Tx, sessionId: string, name: string): Promise<void> {
    await tx.sessionBranch.deleteMany({ where: { sessionId, name } });
  }

  /** Rows of the active path with sequence_number ≤ seq (what a branch shares), counted on the index. */
  async countUpTo(sessionId: string, seq: number): Promise<number> {
    const rows = await this.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT (SELECT count(*) FROM session_messages WHERE session_id = $1::uuid AND sequence_number <= $2)
            + (SELECT count(*) FROM session_messages_archive WHERE session_id = $1::uuid ` +
        `AND sequence_number <= $2) AS n`,
      sessionId,
      seq,
    );
    return Number(rows[0]?.n ?? 0);
  }

  // ---- session state ----

  async updateState(
    tx: Tx,
    sessionId: string,
    data: { metadata?: SessionMetadataPatch; checkpoint?: unknown; lastRewindReport?: string | null },
  ): Promise<void> {
    // Merged, not rewritten: keys this edit does not name stay as they are.
    if (data.metadata) await this.store.patchMetadata(sessionId, data.metadata, tx);
    await tx.session.update({
      where: { id: sessionId },
      data: {
        ...(data.checkpoint !== undefined && {
          checkpoint:
            data.checkpoint === null
              ? (null as unknown as Prisma.InputJsonValue)
              : (data.checkpoint as Prisma.InputJsonValue),
        }),
        ...(data.lastRewindReport !== undefined && { lastRewindReport: data.lastRewindReport }),
        lastActive: new Date(),
      },
    });
  }

  /**
   * Copies a session under a new id: the sessions row (with the given
   * overrides), then one INSERT … SELECT per table (hot rows, archived rows,
   * branches, raw-history chunks). Returns the new id.
   */
  async fork(
    tx: Tx,
    sourceId: string,
    fields: { userId: string | null; name: string | null; titleSource: string; metadata: Record<string, unknown> },
  ): Promise<{ id: string; rows: number }> {
    const created = await tx.$queryRawUnsafe<{ id: string }[]>(
      `INSERT INTO sessions (id, profile_id, user_id, name, title_source, pinned, context_token_count, ` +
        `created_at, last_active,
          planning_logs, usage, metadata, checkpoint, last_rewind_report, next_sequence, display_count)
       SELECT gen_random_uuid(), profile_id, $2, $3, $4, false, context_token_count, now(), now(),
          planning_logs, '{}'::jsonb, $5::jsonb, checkpoint, last_rewind_report, next_sequence, display_count
         FROM sessions WHERE id = $1::uuid
       RETURNING id`,
      sourceId,
      fields.userId,
      fields.name,
      fields.titleSource,
      JSON.stringify(fields.metadata),
    );
    const id = created[0]!.id;
    let rows = 1;
    rows += await tx.$executeRawUnsafe(
      `INSERT INTO session_messages (session_id, ${COPY_COLUMNS})
       SELECT $2::uuid, ${COPY_COLUMNS} FROM session_messages WHERE session_id = $1::uuid`,
      sourceId,
      id,
    );
    rows += await tx.$executeRawUnsafe(
      `INSERT INTO session_messages_archive (session_id, ${COPY_COLUMNS}, archived_at)
       SELECT $2::uuid, ${COPY_COLUMNS}, archived_at FROM session_messages_archive WHERE session_id = $1::uuid`,
      sourceId,
      id,
    );
    rows += await tx.$executeRawUnsafe(
      `INSERT INTO session_branches (session_id, name, base_sequence, suffix, created_at)
       SELECT $2::uuid, name, base_sequence, suffix, created_at FROM session_branches WHERE session_id = $1::uuid`,
      sourceId,
      id,
    );
    rows += await tx.$executeRawUnsafe(
      `INSERT INTO memory_chunks (id, session_id, content, content_hash, breadcrumbs, ` +
        `turn_start, turn_end, message_ids, first_at, last_at, created_at)
       SELECT gen_random_uuid(), $2::uuid, content, content_hash, breadcrumbs, ` +
        `turn_start, turn_end, message_ids, first_at, last_at, created_at
         FROM memory_chunks WHERE session_id = $1::uuid`,
      sourceId,
      id,
    );
    return { id, rows };
  }
}
