/**
 * The message store: every SQL statement about a session's history, the two
 * tables session_messages (hot) and session_messages_archive, and the session
 * row's counters that move with them. SessionStore (./sessions.ts) extends it
 * with the sessions rows, so callers keep one handle.
 */
import { withoutExcluded } from '../domain/context-mode.js';
import type { ChatMessage, NewMessage } from '../domain/types.js';
import { makeMessage } from '../domain/types.js';
import { orderContext } from '../domain/context-order.js';
import type { Database } from '../db/client.js';
import { isConnectionError } from '../db/faults.js';
import type { Prisma } from '../generated/prisma/client.js';
import {
  bothTablesSql,
  MESSAGE_COLUMNS,
  type MessageRow,
  type StoredMessage,
  toRowData,
  toStoredMessage,
} from './rows.js';

/** A transaction handle: services pass it between store calls and never look inside. */
export type Tx = Prisma.TransactionClient;

/** A snapshot share's cut: rows below `beforeSequence` that were saved at or before `takenAt`. */
export interface SnapshotCut {
  beforeSequence: number;
  takenAt: Date;
}

export class MessageStore {
  constructor(readonly db: Database) {}

  protected get prisma() {
    return this.db.prisma;
  }

  /**
   * Appends messages with gapless sequence numbers: the session row is
   * locked by the counter update, so concurrent writers queue up.
   */
  async append(
    sessionId: string,
    messages: NewMessage[],
    tx?: Tx,
    options: { turnId?: string; answerId?: string } = {},
  ): Promise<StoredMessage[]> {
    let attempted: StoredMessage[] | null = null;
    const run = async (t: Tx) => {
      const displayAdded = messages.filter((m) => m.isDisplay !== false).length;
      const counters = await t.$queryRawUnsafe<{ next_sequence: number; display_count: number }[]>(
        `UPDATE sessions SET next_sequence = next_sequence + $2, display_count = display_count + $3, last_active = now()
         WHERE id = $1::uuid RETURNING next_sequence, display_count`,
        sessionId,
        messages.length,
        displayAdded,
      );
      const counter = counters[0];
      if (!counter) throw new Error(`append: session ${sessionId} does not exist`);
      let sequence = counter.next_sequence - messages.length;
      let displayIndex = counter.display_count - displayAdded;
      const now = new Date();
      const ids = await this.answerIds(t, sessionId, messages, options.answerId ?? options.turnId);
      const stored = messages.map((m, i) => {
        const message = makeMessage({
          ...m,
          messageId: m.messageId ?? ids[i],
          sequenceNumber: sequence++,
          createdAt: m.createdAt ?? now,
        });
        const index = message.isDisplay ? displayIndex++ : null;
        return { message, index };
      });
      attempted = stored.map(({ message, index }) => ({ ...message, sessionId, displayIndex: index, archived: false }));
      await t.sessionMessage.createMany({
        data: stored.map(({ message, index }) => toRowData(sessionId, message, index)),
      });
      return attempted;
    };
    // Appends are the turn's hot path: under pool pressure they queue for a
    // connection (up to 30 s) rather than failing after Prisma's 2 s maxWait.
    if (tx) return run(tx);
    const once = () => this.prisma.$transaction(run, { maxWait: 30_000, timeout: 30_000 });
    try {
      return await once();
    } catch (error) {
      // A terminated or reset connection: if the commit went through, the
      // rows are there (same sequence numbers, same content) and are the
      // answer; otherwise nothing was written and the append runs again.
      if (!isConnectionError(error)) throw error;
      const tried = attempted as StoredMessage[] | null;
      if (tried && (await this.committed(sessionId, tried))) return tried;
      return once();
    }
  }

  /**
   * The ids a turn's append gives: the first message a turn stores takes the turn's id as its message id (a uuid
   * too), so the answer's id is known while it streams (the AI SDK's `start` chunk names it) and stays the one
   * GraphQL answers. Once per turn: a later append of the same turn (a recovery's partial) finds it taken, in the
   * history or the archive, and its messages get fresh ids. The tool loop's later answers propose their own id
   * (`answerId`, domain/message-ids.ts followingAnswerId), taken the same way. Runs under the session's row lock.
   */
  private async answerIds(
    t: Tx,
    sessionId: string,
    messages: NewMessage[],
    turnId: string | undefined,
  ): Promise<(string | undefined)[]> {
    if (!turnId || messages.length === 0 || messages[0]!.messageId) return [];
    const taken = await t.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM session_messages WHERE session_id = $1::uuid AND message_id = $2::uuid
       UNION ALL SELECT 1 FROM session_messages_archive WHERE session_id = $1::uuid AND message_id = $2::uuid LIMIT 1`,
      sessionId,
      turnId,
    );
    return taken.length > 0 ? [] : [turnId];
  }

  private async committed(sessionId: string, messages: StoredMessage[]): Promise<boolean> {
    const rows = await this.prisma.$queryRawUnsafe<{ sequence_number: number; role: string; content: string }[]>(
      'SELECT sequence_number, role, content FROM session_messages ' +
        'WHERE session_id = $1::uuid AND sequence_number = ANY($2::int[])',
      sessionId,
      messages.map((m) => m.sequenceNumber),
    );
    const bySequence = new Map(rows.map((r) => [Number(r.sequence_number), r]));
    return messages.every(
      (m) =>
        bySequence.get(m.sequenceNumber)?.role === m.role && bySequence.get(m.sequenceNumber)?.content === m.content,
    );
  }

  /** Flips is_context on rows by sequence number in both tables, whatever their is_display. */
  async setContextFlag(sessionId: string, sequenceNumbers: number[], flag: boolean, tx?: Tx): Promise<void> {
    if (sequenceNumbers.length === 0) return;
    const client = tx ?? this.prisma;
    for (const table of ['session_messages', 'session_messages_archive']) {
      await client.$executeRawUnsafe(
        `UPDATE ${table} SET is_context = $3 WHERE session_id = $1::uuid AND sequence_number = ANY($2::int[])`,
        sessionId,
        sequenceNumbers,
        flag,
      );
    }
  }

  async updateMessage(
    sessionId: string,
    sequenceNumber: number,
    data: Partial<Pick<ChatMessage, 'content' | 'metadata' | 'isContext'>>,
    tx?: Tx,
  ): Promise<void> {
    const client = tx ?? this.prisma;
    await client.sessionMessage.updateMany({
      where: { sessionId, sequenceNumber },
      data: { ...data, metadata: data.metadata as Prisma.InputJsonValue | undefined },
    });
  }

  /**
   * One message by sequence number, wherever it lives (the hot table, else
   * the archive): two primary-key probes, never the whole history.
   */
  async message(sessionId: string, sequenceNumber: number, tx?: Tx): Promise<StoredMessage | null> {
    const client = tx ?? this.prisma;
    const rows = await client.$queryRawUnsafe<(MessageRow & { archived: boolean })[]>(
      `(SELECT ${MESSAGE_COLUMNS}, false AS archived FROM session_messages WHERE session_id = $1::uuid ` +
        `AND sequence_number = $2)
       UNION ALL
       (SELECT ${MESSAGE_COLUMNS}, true AS archived FROM session_messages_archive WHERE session_id = $1::uuid ` +
        `AND sequence_number = $2)
       LIMIT 1`,
      sessionId,
      sequenceNumber,
    );
    const row = rows[0];
    return row ? toStoredMessage(row, row.archived) : null;
  }

  /** Every stored row (hot then archived, by sequence). */
  async allMessages(sessionId: string, tx?: Tx): Promise<StoredMessage[]> {
    const client = tx ?? this.prisma;
    const rows = await client.$queryRawUnsafe<(MessageRow & { archived: boolean })[]>(
      `${bothTablesSql('session_id = $1::uuid')} ORDER BY "sequenceNumber"`,
      sessionId,
    );
    return rows.map((r) => toStoredMessage(r, r.archived));
  }

  /** The rows after `sequenceNumber` (hot and archived, by sequence): a turn's own messages. */
  async messagesAfter(sessionId: string, sequenceNumber: number, tx?: Tx): Promise<StoredMessage[]> {
    const client = tx ?? this.prisma;
    const rows = await client.$queryRawUnsafe<(MessageRow & { archived: boolean })[]>(
      `SELECT ${MESSAGE_COLUMNS}, true AS archived FROM session_messages_archive WHERE session_id = $1::uuid ` +
        `AND sequence_number > $2
       UNION ALL
       SELECT ${MESSAGE_COLUMNS}, false AS archived FROM session_messages WHERE session_id = $1::uuid ` +
        `AND sequence_number > $2
       ORDER BY "sequenceNumber"`,
      sessionId,
      sequenceNumber,
    );
    return rows.map((r) => toStoredMessage(r, r.archived));
  }

  /** The session's message counter (moves with every saved message), or null when the session is gone. */
  async nextSequence(sessionId: string): Promise<number | null> {
    const [row] = await this.db.raw.query<{ n: number }>(
      'SELECT next_sequence AS n FROM sessions WHERE id = $1::uuid',
      [sessionId],
    );
    return row ? Number(row.n) : null;
  }

  /**
   * The model's context rebuilt from stored rows: `[m for m in all if m.is_context]`,
   * in context order (compression rows placed by metadata.contextOrder, see domain/context-order).
   */
  async context(sessionId: string, tx?: Tx): Promise<StoredMessage[]> {
    const sql =
      `SELECT ${MESSAGE_COLUMNS}, true AS archived FROM session_messages_archive ` +
      `WHERE session_id = $1::uuid AND is_context
       UNION ALL
       SELECT ${MESSAGE_COLUMNS}, false AS archived FROM session_messages WHERE session_id = $1::uuid AND is_context
       ORDER BY "sequenceNumber"`;
    // Outside a transaction the whole context goes through the driver directly: Prisma's
    // raw-result conversion cost ~10 ms per 1,000 rows, on every model call.
    const rows = tx
      ? await tx.$queryRawUnsafe<(MessageRow & { archived: boolean })[]>(sql, sessionId)
      : await this.db.raw.query<MessageRow & { archived: boolean }>(sql, [sessionId]);
    // EXCLUDED rows stay in the history and search, never in what the model is sent (domain/context-mode).
    return withoutExcluded(orderContext(rows.map((r) => toStoredMessage(r, r.archived))));
  }

  /**
   * Display rows with display_index in [from, to), hot and archived together.
   * display_index is dense (appends number it; edits only cut the tail), so
   * any page is two index range scans, as fast deep as at the end.
   */
  /**
   * Display rows with `from <= display_index < to`; for a snapshot link only the rows that existed when it was
   * taken: below its sequence cut AND saved no later than it (a revert or edit reuses sequence numbers, so the cut
   * alone would let later messages in).
   */
  async displayRange(sessionId: string, from: number, to: number, cut?: SnapshotCut): Promise<StoredMessage[]> {
    if (to <= from) return [];
    const where = cut === undefined ? '' : ' AND sequence_number < $4 AND created_at <= $5';
    const rows = await this.prisma.$queryRawUnsafe<(MessageRow & { archived: boolean })[]>(
      `SELECT * FROM (${bothTablesSql(`session_id = $1::uuid AND display_index >= $2 AND display_index < $3${where}`)}
       ) m ORDER BY "displayIndex"`,
      sessionId,
      from,
      to,
      ...(cut === undefined ? [] : [cut.beforeSequence, cut.takenAt]),
    );
    return rows.map((r) => toStoredMessage(r, r.archived));
  }

  /** Moves rows with sequence_number < threshold to the archive table. Returns how many moved. */
  async archiveOldMessages(sessionId: string, threshold: number, tx?: Tx): Promise<number> {
    const run = async (t: Tx) => {
      const moved = await t.$executeRawUnsafe(
        `WITH moved AS (
           DELETE FROM session_messages WHERE session_id = $1::uuid AND sequence_number < $2 RETURNING *
         )
         INSERT INTO session_messages_archive (session_id, sequence_number, message_id, display_index, role, content,
           thinking, is_context, is_display, is_plan, is_compression, is_summary, is_compression_critical, is_recall,
           is_agent_note, metadata, elapsed_seconds, tool_call_count, token_count, tool_calls, tool_call_id, name,
           files, images, created_at)
         SELECT session_id, sequence_number, message_id, display_index, role, content, thinking, is_context,
           is_display, is_plan,
           is_compression, is_summary, is_compression_critical, is_recall, is_agent_note, metadata, elapsed_seconds,
           tool_call_count, token_count, tool_calls, tool_call_id, name, files, images, created_at FROM moved`,
        sessionId,
        threshold,
      );
      return moved;
    };
    return tx ? run(tx) : this.prisma.$transaction(run);
  }

  async getArchivedMessages(sessionId: string, options: { afterSequence?: number; limit?: number } = {}) {
    const rows = await this.prisma.sessionMessageArchive.findMany({
      where: { sessionId, sequenceNumber: { gt: options.afterSequence ?? -1 } },
      orderBy: { sequenceNumber: 'asc' },
      take: options.limit ?? 1000,
    });
    return rows.map((r) => toStoredMessage(r, true));
  }

  /** Archives when the hot table holds more than `window` rows of this session. */
  async archiveBeyondWindow(sessionId: string, window: number, tx?: Tx): Promise<number> {
    const client = tx ?? this.prisma;
    const hot = await client.$queryRawUnsafe<{ n: number; max: number | null }[]>(
      `SELECT count(*)::int AS n, max(sequence_number) AS max FROM session_messages WHERE session_id = $1::uuid`,
      sessionId,
    );
    const { n, max } = hot[0] ?? { n: 0, max: null };
    if (n <= window || max === null) return 0;
    // Keep the newest `window` rows hot, but never archive a row still in the context.
    const thresholdRows = await client.$queryRawUnsafe<{ t: number | null }[]>(
      `SELECT least(
         (SELECT sequence_number FROM session_messages WHERE session_id = $1::uuid ` +
        `ORDER BY sequence_number DESC OFFSET $2 LIMIT 1) + 1,
         (SELECT min(sequence_number) FROM session_messages WHERE session_id = $1::uuid AND is_context)
       ) AS t`,
      sessionId,
      window - 1,
    );
    const threshold = thresholdRows[0]?.t;
    if (threshold === null || threshold === undefined) return 0;
    return this.archiveOldMessages(sessionId, threshold, tx);
  }

  /** Deletes every row after `sequenceNumber` (both tables) and resets the counters. */
  async truncateAfter(sessionId: string, sequenceNumber: number, tx: Tx): Promise<StoredMessage[]> {
    const removed = await this.messagesAfter(sessionId, sequenceNumber, tx);
    for (const table of ['session_messages', 'session_messages_archive']) {
      await tx.$executeRawUnsafe(
        `DELETE FROM ${table} WHERE session_id = $1::uuid AND sequence_number > $2`,
        sessionId,
        sequenceNumber,
      );
    }
    await this.resetCounters(sessionId, tx);
    return removed;
  }

  async resetCounters(sessionId: string, tx: Tx): Promise<void> {
    await tx.$executeRawUnsafe(
      `UPDATE sessions SET
         next_sequence = coalesce((SELECT max(sequence_number) + 1 FROM (
            SELECT sequence_number FROM session_messages WHERE session_id = $1::uuid
            UNION ALL SELECT sequence_number FROM session_messages_archive WHERE session_id = $1::uuid) x), 0),
         display_count = coalesce((SELECT max(display_index) + 1 FROM (
            SELECT display_index FROM session_messages WHERE session_id = $1::uuid
            UNION ALL SELECT display_index FROM session_messages_archive WHERE session_id = $1::uuid) y), 0)
       WHERE id = $1::uuid`,
      sessionId,
    );
  }

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn, { timeout: 60_000, maxWait: 30_000 });
  }

  /**
   * An append that waits up to `lockWaitMs` for the session's row lock instead
   * of the connection's DATABASE_LOCK_TIMEOUT_MS: the deferred save of an
   * answer whose final save timed out (src/turns/save-retry.ts).
   */
  appendWaitingForLock(
    sessionId: string,
    messages: NewMessage[],
    lockWaitMs: number,
    options: { turnId?: string } = {},
  ): Promise<StoredMessage[]> {
    return this.prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(lockWaitMs))}`);
        return this.append(sessionId, messages, tx, options);
      },
      { timeout: lockWaitMs + 30_000, maxWait: 30_000 },
    );
  }
}
