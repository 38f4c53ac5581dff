/**
 * The session store: every SQL statement about sessions and their messages.
 * Prisma for rows; raw SQL for the hot aggregates and the two-table history.
 */
import type { ChatMessage, NewMessage } from '../domain/types.js';
import { makeMessage } from '../domain/types.js';
import { orderContext } from '../domain/context-order.js';
import type { Database } from '../db/client.js';
import { isConnectionError } from '../db/faults.js';
import type { Prisma, Session } from '../generated/prisma/client.js';
import { type SessionScope, sessionScope, type Viewer } from '../domain/policy.js';
import {
  bothTablesSql,
  fromPageRow,
  MESSAGE_COLUMNS,
  type MessageColumn,
  type MessageShape,
  messageColumnsSql,
  type MessageRow,
  type StoredMessage,
  toRowData,
  toStoredMessage,
} from './rows.js';
import { parseSessionMetadata, type SessionMetadata, type SessionMetadataPatch } from '../domain/session-metadata.js';

export type SessionRow = Session;

/** What a Pothos resolver's `query` adds to a sessions read (its selection drives the SQL). */
export type SessionQuery = { include?: Prisma.SessionInclude; select?: Prisma.SessionSelect };

export type SessionOrderField = 'LAST_ACTIVE' | 'CREATED_AT' | 'NAME';
export type SortDirection = 'ASC' | 'DESC';

/** A snapshot share's cut: rows below `beforeSequence` that were saved at or before `takenAt`. */
export interface SnapshotCut {
  beforeSequence: number;
  takenAt: Date;
}

export interface ListOptions {
  viewer: Viewer;
  profileId?: string;
  orderBy: SessionOrderField;
  direction: SortDirection;
  first: number;
  after?: SessionCursor;
  /** whether the page's count is read (listPage, search); default true */
  count?: boolean;
  /** restrict to these ids (search) */
  ids?: string[];
  /**
   * keep only sessions for which this SQL condition on the session id holds
   * (search's per-session match probe), evaluated lazily in list order so
   * that only as many sessions are probed as the page needs
   */
  probe?: (idSql: string, add: (value: unknown) => string) => string;
}

export interface SessionCursor {
  pinned: boolean;
  value: string | null;
  id: string;
}

/** A transaction handle: services pass it between store calls and never look inside. */
export type Tx = Prisma.TransactionClient;

const ORDER_COLUMN: Record<SessionOrderField, string> = {
  LAST_ACTIVE: 'last_active',
  CREATED_AT: 'created_at',
  NAME: 'name',
};

export class SessionStore {
  constructor(readonly db: Database) {}

  private get prisma() {
    return this.db.prisma;
  }

  /** One round trip to the database (the health check). */
  async ping(): Promise<void> {
    await this.db.raw.query('SELECT 1');
  }

  /** Of `ids`, the sessions that still exist. */
  async existing(ids: readonly string[]): Promise<Set<string>> {
    const rows = await this.prisma.session.findMany({
      where: { id: { in: ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id)) } },
      select: { id: true },
    });
    return new Set(rows.map((r) => r.id));
  }

  create(input: {
    profileId: string;
    userId: string | null;
    name?: string | null;
    titleSource?: string;
    externalId?: string | null;
  }) {
    return this.prisma.session.create({
      data: {
        profileId: input.profileId,
        userId: input.userId,
        name: input.name ?? null,
        titleSource: input.titleSource ?? (input.name ? 'MANUAL' : 'DEFAULT'),
        externalId: input.externalId ?? null,
      },
    });
  }

  /** The owner's session with this client-made chat id (POST /api/chat), if any. */
  byExternalId(userId: string, externalId: string): Promise<SessionRow | null> {
    return this.prisma.session.findFirst({ where: { userId, externalId } });
  }

  get(id: string) {
    return this.prisma.session.findUnique({ where: { id } });
  }

  /** Sessions in the viewer's lists (the policy's `list` scope), as SQL on `sessions s`. */
  listWhere(viewer: Viewer): { sql: string; params: unknown[] } {
    const params: unknown[] = [];
    const sql = scopeSql(sessionScope(viewer, 'list'), 's.user_id', (value) => `$${params.push(value)}`);
    return { sql, params };
  }

  /** The list's scope (viewer, profile) as SQL conditions on `sessions s`, with its params and an `add` for more. */
  listScope(options: Pick<ListOptions, 'viewer' | 'profileId'>): {
    conditions: string[];
    params: unknown[];
    add: (value: unknown) => string;
  } {
    const where = this.listWhere(options.viewer);
    const params = [...where.params];
    const add = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const conditions = [where.sql];
    if (options.profileId) conditions.push(`s.profile_id = ${add(options.profileId)}::uuid`);
    return { conditions, params, add };
  }

  /** The policy's `read` scope as a Prisma filter, so a read is one query. */
  readWhere(viewer: Viewer): Prisma.SessionWhereInput {
    const scope = sessionScope(viewer, 'read');
    if ('all' in scope) return {};
    if ('owned' in scope) return { userId: { not: null } };
    return { userId: scope.userId };
  }

  /** One session the viewer may read, or null; `query` is Pothos' selection (one statement, the access rule in it). */
  findReadable(viewer: Viewer, id: string, query: SessionQuery = {}): Promise<SessionRow | null> {
    return this.prisma.session.findFirst({
      ...(query as object),
      where: { id, ...this.readWhere(viewer) },
    }) as Promise<SessionRow | null>;
  }

  /**
   * A session the viewer may read and one page of its display history, in
   * one statement on the raw driver (the `session(id:) { history }` read):
   * the access rule is in the filter, the page's bounds are computed from the
   * row's display_count the way `pageWindow` does, and the page comes back as
   * one JSON array beside the session's columns. Null when the viewer may not
   * read the session (or it does not exist). With `columns`, the page's rows
   * carry only those (and the key and display position): less for PostgreSQL
   * to build into JSON and for this process to parse, for a caller that knows
   * which fields it will read.
   */
  async readableWithPage(
    viewer: Viewer,
    id: string,
    bounds: PageBounds,
    columns: ReadonlySet<MessageColumn> | null = null,
  ): Promise<{ session: SessionRow; rows: MessageShape[] } | null> {
    const params: unknown[] = [id];
    const add = (value: unknown) => `$${params.push(value)}`;
    const scope = scopeSql(sessionScope(viewer, 'read'), 's.user_id', add);
    // A cursor may name any position (even past 2^53): positions are int columns, so clamping at 2^31 selects the
    // same rows, and bigint arithmetic cannot overflow.
    const position = (value: number) => `${add(Math.min(value, 2 ** 31))}::bigint`;
    const lower = position(bounds.lower);
    const upper = bounds.before === null ? 's.display_count' : `LEAST(${position(bounds.before)}, s.display_count)`;
    const [lo, hi] =
      bounds.first === null
        ? [`GREATEST(${lower}, ${upper} - ${add(bounds.size)}::bigint)`, `GREATEST(${lower}, ${upper})`]
        : [lower, `GREATEST(${lower}, LEAST(${upper}, ${lower} + ${add(bounds.first)}::bigint))`];
    const range = 'session_id = s.id AND display_index >= b.lo AND display_index < b.hi';
    const selected = columns ? messageColumnsSql(columns) : MESSAGE_COLUMNS;
    const pageJson = `(SELECT json_agg(m ORDER BY m."displayIndex") FROM (${bothTablesSql(range, selected)}) m)`;
    const sql = `SELECT ${SESSION_COLUMNS_OF_S}, ${pageJson} AS page
      FROM sessions s CROSS JOIN LATERAL (SELECT ${lo} AS lo, ${hi} AS hi) b
      WHERE s.id = $1::uuid AND ${scope}`;
    type PageRow = Omit<MessageRow, 'createdAt'> & { createdAt: string; archived: boolean };
    const [found] = await this.db.raw.query<SessionRow & { page: PageRow[] | null }>(sql, params, { prepare: true });
    if (!found) return null;
    const { page, ...session } = found;
    // createdAt as the string the DateTime scalar answers (timestamps.ts), not a Date to parse and print again
    const rows = (page ?? []).map(fromPageRow);
    return { session: session as SessionRow, rows };
  }

  /**
   * One page of session summaries: pinned first, then the requested order,
   * keyset-paginated on (pinned, order value, id). History is never loaded;
   * displayMessageCount is a column kept by appends.
   */
  async list(
    options: ListOptions,
    query: SessionQuery = {},
    tx?: Tx,
  ): Promise<{ rows: SessionRow[]; hasNextPage: boolean }> {
    const { conditions, params, add } = this.listScope(options);
    if (options.ids) conditions.push(`s.id = ANY(${add(options.ids)}::uuid[])`);
    const { value, dir } = keyset(options, conditions, add);
    const order = `ORDER BY s.pinned DESC, ${value} ${dir}, s.id ${dir}`;
    // A probe filters the ordered ids from outside (OFFSET 0 keeps it out of
    // the subquery), so the LIMIT stops the walk: a subquery scan keeps the
    // sort order, and the probe runs for the sessions read, not for all.
    const probe = options.probe?.('o.id', add);
    const limit = add(options.first + 1);
    const client = tx ?? this.prisma;
    const rows = await client.$queryRawUnsafe<Record<string, unknown>[]>(
      probe
        ? `SELECT o.id FROM (SELECT s.id FROM sessions s WHERE ${conditions.join(' AND ')} ${order} OFFSET 0) o
            WHERE ${probe} LIMIT ${limit}`
        : `SELECT s.id FROM sessions s WHERE ${conditions.join(' AND ')} ${order} LIMIT ${limit}`,
      ...params,
    );
    const ids = rows.slice(0, options.first).map((r) => r.id as string);
    const full = (await client.session.findMany({ ...(query as object), where: { id: { in: ids } } })) as SessionRow[];
    const byId = new Map(full.map((s) => [s.id, s]));
    return { rows: ids.map((id) => byId.get(id)!).filter(Boolean), hasNextPage: rows.length > options.first };
  }

  /**
   * The plain list page in ONE statement: the exact count (the sum of the
   * scope's rows in session_count_deltas, which triggers on sessions append
   * to; no session is counted), the page of full session rows
   * (first + 1, for hasNextPage) joined laterally to it, and each row's
   * preview (the `previews` rule). The same conditions, order and keyset as
   * `list`. Runs on the raw driver: no Prisma result conversion on the hot
   * read. Each row carries `preview`, which Session.preview reads.
   */
  async listPage(
    options: Omit<ListOptions, 'ids' | 'probe'>,
  ): Promise<{ rows: (SessionRow & { preview: string | null })[]; hasNextPage: boolean; totalCount: number | null }> {
    const { conditions: scope, params, add } = this.listScope(options);
    const conditions = [...scope];
    const { value, dir } = keyset(options, conditions, add);
    const limit = add(options.first + 1);
    const columns = SESSION_COLUMNS_OF_S;
    // The count's row is always there, so an empty page still answers its count (p.* then null). Without
    // `count` that row is a constant and no session is counted.
    const counts = options.count === false ? null : countScope(options, add);
    const counted = counts
      ? `SELECT coalesce(sum(d.n), 0)::int AS total, count(*)::int AS deltas
          FROM session_count_deltas d WHERE ${counts}`
      : 'SELECT NULL::int AS total, 0 AS deltas';
    const sql = `SELECT c.total, c.deltas, p.*, left(coalesce(
        (SELECT m.content FROM session_messages m WHERE m.session_id = p.id AND m.display_index = p."displayCount" - 1),
        (SELECT a.content FROM session_messages_archive a
          WHERE a.session_id = p.id AND a.display_index = p."displayCount" - 1)
      ), 200) AS preview
      FROM (${counted}) c
      LEFT JOIN LATERAL (
        SELECT ${columns}, ${value} AS sort_value FROM sessions s WHERE ${conditions.join(' AND ')}
        ORDER BY s.pinned DESC, ${value} ${dir}, s.id ${dir} LIMIT ${limit}
      ) p ON true
      ORDER BY p.pinned DESC, p.sort_value ${dir}, p.id ${dir}`;
    const result = await this.db.raw.query<Record<string, unknown>>(sql, params, { prepare: true });
    const totalCount = options.count === false ? null : Number(result[0]?.total ?? 0);
    if (counts && Number(result[0]?.deltas ?? 0) > COMPACT_DELTAS) await this.compactCounts(options);
    const found = result.filter((r) => r.id !== null && r.id !== undefined);
    const rows = found.slice(0, options.first).map((r) => {
      const { total: _total, deltas: _deltas, sort_value: _sort, ...row } = r;
      return row as unknown as SessionRow & { preview: string | null };
    });
    return { rows, hasNextPage: found.length > options.first, totalCount };
  }

  /**
   * Folds the list scope's count deltas into one row per (owner, profile), in
   * one statement: each delta is deleted by exactly one compaction, which
   * re-inserts its value, so the sum never changes, whatever runs alongside
   * (a concurrent compaction skips the rows this one deleted; deltas written
   * meanwhile are left for the next one).
   */
  async compactCounts(options: Pick<ListOptions, 'viewer' | 'profileId'>): Promise<void> {
    const params: unknown[] = [];
    const where = countScope(options, (value) => `$${params.push(value)}`);
    await this.db.raw.query(
      `WITH moved AS (DELETE FROM session_count_deltas d WHERE ${where} RETURNING owned, owner, profile_id, n)
       INSERT INTO session_count_deltas (owned, owner, profile_id, n)
       SELECT owned, owner, profile_id, sum(n)::int FROM moved GROUP BY 1, 2, 3 HAVING sum(n) <> 0`,
      params,
    );
  }

  /** Sessions by id with a Pothos selection (any order). */
  byIds(ids: readonly string[], query: SessionQuery = {}): Promise<SessionRow[]> {
    return this.prisma.session.findMany({ ...(query as object), where: { id: { in: [...ids] } } }) as Promise<
      SessionRow[]
    >;
  }

  static cursorOf(row: SessionRow, orderBy: SessionOrderField): SessionCursor {
    const value =
      orderBy === 'NAME' ? (row.name ?? '') : (orderBy === 'CREATED_AT' ? row.createdAt : row.lastActive).toISOString();
    return { pinned: row.pinned, value, id: row.id };
  }

  async count(
    viewer: Viewer,
    profileId?: string,
    ids?: string[],
    probe?: ListOptions['probe'],
    tx?: Tx,
  ): Promise<number> {
    const where = this.listWhere(viewer);
    const params = [...where.params];
    const conditions = [where.sql];
    const add = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (profileId) conditions.push(`s.profile_id = ${add(profileId)}::uuid`);
    if (ids) conditions.push(`s.id = ANY(${add(ids)}::uuid[])`);
    if (probe) conditions.push(probe('s.id', add));
    const rows = await (tx ?? this.prisma).$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM sessions s WHERE ${conditions.join(' AND ')}`,
      ...params,
    );
    return rows[0]?.n ?? 0;
  }

  /** Preview (newest display message, shortened) for many sessions in one query. */
  async previews(sessionIds: readonly string[]): Promise<Map<string, string | null>> {
    if (sessionIds.length === 0) return new Map();
    const rows = await this.prisma.$queryRawUnsafe<{ id: string; preview: string | null }[]>(
      `SELECT s.id, left(coalesce(
          (SELECT m.content FROM session_messages m WHERE m.session_id = s.id ` +
        `AND m.display_index = s.display_count - 1),
          (SELECT a.content FROM session_messages_archive a WHERE a.session_id = s.id ` +
        `AND a.display_index = s.display_count - 1)
        ), 200) AS preview
       FROM sessions s WHERE s.id = ANY($1::uuid[])`,
      sessionIds,
    );
    return new Map(rows.map((r) => [r.id, r.preview]));
  }

  setPinned(id: string, pinned: boolean) {
    return this.prisma.session.update({ where: { id }, data: { pinned } });
  }

  setName(id: string, name: string, titleSource: string) {
    return this.prisma.session.update({ where: { id }, data: { name, titleSource } });
  }

  /** Renames only while the title's source is one of `from` (a manual rename that landed meanwhile wins). */
  async renameIfTitleFrom(id: string, from: readonly string[], name: string, titleSource: string): Promise<boolean> {
    const written = await this.prisma.session.updateMany({
      where: { id, titleSource: from.length === 1 ? from[0]! : { in: [...from] } },
      data: { name, titleSource },
    });
    return written.count > 0;
  }

  /** The typed view of a session row's metadata. */
  static metadataOf(session: Pick<Session, 'metadata'>): SessionMetadata {
    return parseSessionMetadata(session.metadata);
  }

  /**
   * Merges `patch` into the stored metadata in one statement
   * (`(metadata - remove) || set`), so keys this writer does not name are
   * kept, whoever wrote them meanwhile. Returns the updated row.
   */
  async patchMetadata(id: string, patch: SessionMetadataPatch, tx?: Tx): Promise<Session | null> {
    return this.updateReturning(id, [this.metadataSql(2)], [JSON.stringify(patch.set ?? {}), patch.remove ?? []], tx);
  }

  /**
   * After a model call: the metadata patch, the usage folded in (added to the
   * stored totals in SQL) and the context's size. Returns the updated row.
   */
  async recordCall(
    id: string,
    input: {
      metadata: SessionMetadataPatch;
      usage: { promptTokens: number; completionTokens: number; cachedPromptTokens: number; cacheWriteTokens: number };
      contextTokenCount: number;
    },
  ): Promise<Session | null> {
    const total = (key: string, param: number) => `coalesce((usage->>'${key}')::float8, 0) + $${param}`;
    return this.updateReturning(
      id,
      [
        this.metadataSql(2),
        `usage = jsonb_build_object('promptTokens', ${total('promptTokens', 4)}, ` +
          `'completionTokens', ${total('completionTokens', 5)},
           'cachedPromptTokens', ${total('cachedPromptTokens', 6)},
           'cacheWriteTokens', ${total('cacheWriteTokens', 8)})`,
        'context_token_count = $7',
      ],
      [
        JSON.stringify(input.metadata.set ?? {}),
        input.metadata.remove ?? [],
        input.usage.promptTokens,
        input.usage.completionTokens,
        input.usage.cachedPromptTokens,
        input.contextTokenCount,
        input.usage.cacheWriteTokens,
      ],
    );
  }

  /**
   * Locks the session row for the rest of `tx` and reads its message
   * counter: a writer that saw another counter works on a stale history.
   * Null when the session is gone.
   */
  async lockCounter(sessionId: string, tx: Tx): Promise<number | null> {
    const rows = await tx.$queryRawUnsafe<{ next_sequence: number }[]>(
      'SELECT next_sequence FROM sessions WHERE id = $1::uuid FOR UPDATE',
      sessionId,
    );
    return rows[0]?.next_sequence ?? null;
  }

  /** A compression's bookkeeping: the metadata patch and the context's new size. */
  async recordCompression(id: string, patch: SessionMetadataPatch, contextTokenCount: number, tx?: Tx): Promise<void> {
    await this.updateReturning(
      id,
      [this.metadataSql(2), 'context_token_count = $4'],
      [JSON.stringify(patch.set ?? {}), patch.remove ?? [], contextTokenCount],
      tx,
    );
  }

  /** Appends one entry to planning_logs (an array; anything else there starts over). */
  async appendPlanningLog(id: string, entry: Record<string, unknown>): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `UPDATE sessions SET planning_logs =
         (CASE WHEN jsonb_typeof(planning_logs) = 'array' THEN planning_logs ELSE '[]'::jsonb END) ` +
        `|| jsonb_build_array($2::jsonb)
       WHERE id = $1::uuid`,
      id,
      JSON.stringify(entry),
    );
  }

  /** `metadata = (metadata - $remove) || $set`, the set object at $first and the removed keys at $first+1. */
  private metadataSql(first: number): string {
    return (
      `metadata = (CASE WHEN jsonb_typeof(metadata) = 'object' THEN metadata ELSE '{}'::jsonb END ` +
      `- $${first + 1}::text[]) || $${first}::jsonb`
    );
  }

  private async updateReturning(
    id: string,
    assignments: string[],
    params: unknown[],
    tx?: Tx,
  ): Promise<Session | null> {
    const rows = await (tx ?? this.prisma).$queryRawUnsafe<Session[]>(
      `UPDATE sessions SET ${assignments.join(', ')} WHERE id = $1::uuid RETURNING ${SESSION_COLUMNS}`,
      id,
      ...params,
    );
    return rows[0] ?? null;
  }

  /**
   * Deletes the session; with `still`, only if it still matches those criteria at the moment of the delete (a bulk
   * delete's filter, read earlier: a session pinned in between is kept).
   */
  async delete(id: string, still?: { userId: string; pinned?: false; profileId?: string }): Promise<boolean> {
    const result = await this.prisma.session.deleteMany({
      where: {
        id,
        ...(still && {
          userId: still.userId,
          ...(still.pinned === false && { pinned: false }),
          ...(still.profileId && { profileId: still.profileId }),
        }),
      },
    });
    return result.count > 0;
  }

  /**
   * Appends messages with gapless sequence numbers: the session row is
   * locked by the counter update, so concurrent writers queue up.
   */
  async append(
    sessionId: string,
    messages: NewMessage[],
    tx?: Tx,
    options: { turnId?: string } = {},
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
      const ids = await this.answerIds(t, sessionId, messages, options.turnId);
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
   * GraphQL answers. Once per turn: a later append of the same turn (the tool loop, a recovery's partial) finds it
   * taken, in the history or the archive, and its messages get fresh ids. Runs under the session's row lock.
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
    return orderContext(rows.map((r) => toStoredMessage(r, r.archived)));
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

/** The sessions row as Prisma's Session, for the statements that return it from raw SQL. */
const SESSION_COLUMNS =
  `id, profile_id AS "profileId", user_id AS "userId", name, ` +
  `title_source AS "titleSource", pinned,
  context_token_count AS "contextTokenCount", created_at AS "createdAt", last_active AS "lastActive",
  planning_logs AS "planningLogs", usage, metadata, checkpoint, last_rewind_report AS "lastRewindReport",
  next_sequence AS "nextSequence", display_count AS "displayCount", external_id AS "externalId"`;
/** SESSION_COLUMNS qualified by the alias `s`. */
const SESSION_COLUMNS_OF_S = SESSION_COLUMNS.replace(/(^|,\s*)([a-z_]+)/g, '$1s.$2');

/**
 * A history page's bounds before the session's display count is known (see `pageWindow`): the lower position (after
 * the `after` cursor), the `before` cursor's position (null: the end), and either `first` or the page `size` back
 * from the upper bound.
 */
export interface PageBounds {
  lower: number;
  before: number | null;
  first: number | null;
  size: number;
}

/** A policy scope as an SQL condition on a sessions owner column (`s.user_id`); `add` binds a parameter. */
/** A list count reads this many delta rows at most before it compacts them (SessionStore.compactCounts). */
export const COMPACT_DELTAS = 32;

/** The list scope (viewer, profile) as a condition on `session_count_deltas d`. */
function countScope(options: Pick<ListOptions, 'viewer' | 'profileId'>, add: (value: unknown) => string): string {
  const scope = sessionScope(options.viewer, 'list');
  const owner = 'all' in scope ? 'TRUE' : 'owned' in scope ? 'd.owned' : `d.owned AND d.owner = ${add(scope.userId)}`;
  return options.profileId ? `${owner} AND d.profile_id = ${add(options.profileId)}::uuid` : owner;
}

export function scopeSql(scope: SessionScope, ownerColumn: string, add: (value: unknown) => string): string {
  if ('all' in scope) return 'TRUE';
  if ('owned' in scope) return `${ownerColumn} IS NOT NULL`;
  return `${ownerColumn} = ${add(scope.userId)}`;
}

/**
 * The list's order and keyset: the sort expression and direction, and (after a
 * cursor) the condition that starts the page past it, pushed onto `conditions`.
 * NAME may be null: it is ordered on coalesce so the keyset comparison is total.
 */
function keyset(
  options: Pick<ListOptions, 'orderBy' | 'direction' | 'after'>,
  conditions: string[],
  add: (value: unknown) => string,
): { value: string; dir: 'ASC' | 'DESC' } {
  const column = `s.${ORDER_COLUMN[options.orderBy]}`;
  const dir = options.direction === 'ASC' ? 'ASC' : 'DESC';
  const cmp = dir === 'ASC' ? '>' : '<';
  const value = options.orderBy === 'NAME' ? `coalesce(${column}, '')` : column;
  if (options.after) {
    const { pinned, value: v, id } = options.after;
    const vParam = options.orderBy === 'NAME' ? add(v ?? '') : `${add(v)}::timestamptz`;
    const idParam = `${add(id)}::uuid`;
    const pParam = add(pinned);
    conditions.push(
      `(s.pinned < ${pParam} OR (s.pinned = ${pParam} AND (${value} ${cmp} ${vParam} ` +
        `OR (${value} = ${vParam} AND s.id ${cmp} ${idParam}))))`,
    );
  }
  return { value, dir };
}
