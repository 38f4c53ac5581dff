/**
 * The session store: every SQL statement about the sessions rows (create,
 * read under the access policy, rename, pin, metadata and usage, delete).
 * It extends MessageStore (./messages.ts: the history's two tables) and
 * offers the lists of ./session-lists.ts as methods, so callers keep one
 * handle. Prisma for rows; raw SQL for the hot aggregates.
 */
import type { Database } from '../db/client.js';
import type { Prisma, Session } from '../generated/prisma/client.js';
import { STAGING_PREFIX, sessionScope, type Viewer } from '../domain/policy.js';
import {
  bothTablesSql,
  fromPageRow,
  MESSAGE_COLUMNS,
  type MessageColumn,
  type MessageShape,
  messageColumnsSql,
  type MessageRow,
} from './rows.js';
import { parseSessionMetadata, type SessionMetadata, type SessionMetadataPatch } from '../domain/session-metadata.js';
import { MessageStore, type Tx } from './messages.js';
import {
  COMPACT_DELTAS,
  compactCounts,
  countSessions,
  cursorOf,
  type ListOptions,
  listPage,
  listScope,
  listSessions,
  listWhere,
  SESSION_COLUMNS,
  SESSION_COLUMNS_OF_S,
  type SessionCursor,
  type SessionOrderField,
  type SessionQuery,
  scopeSql,
} from './session-lists.js';

export type { SnapshotCut, Tx } from './messages.js';
export type { ListOptions, SessionCursor, SessionOrderField, SessionQuery, SortDirection } from './session-lists.js';
export { COMPACT_DELTAS, scopeSql };

export type SessionRow = Session;

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

export class SessionStore extends MessageStore {
  /** The Prisma client Pothos' prisma plugin runs its selections on (src/schema/builder.ts, through ReadService). */
  get selectionClient(): Database['prisma'] {
    return this.prisma;
  }

  listWhere(viewer: Viewer): { sql: string; params: unknown[] } {
    return listWhere(viewer);
  }

  listScope(options: Pick<ListOptions, 'viewer' | 'profileId'>): ReturnType<typeof listScope> {
    return listScope(options);
  }

  list(options: ListOptions, query: SessionQuery = {}, tx?: Tx): Promise<{ rows: SessionRow[]; hasNextPage: boolean }> {
    return listSessions(this.db, options, query, tx);
  }

  listPage(options: Omit<ListOptions, 'ids' | 'probe'>): ReturnType<typeof listPage> {
    return listPage(this.db, options);
  }

  compactCounts(options: Pick<ListOptions, 'viewer' | 'profileId'>): Promise<void> {
    return compactCounts(this.db, options);
  }

  count(viewer: Viewer, profileId?: string, ids?: string[], probe?: ListOptions['probe'], tx?: Tx): Promise<number> {
    return countSessions(this.db, viewer, profileId, ids, probe, tx);
  }

  static cursorOf(row: SessionRow, orderBy: SessionOrderField): SessionCursor {
    return cursorOf(row, orderBy);
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

  /** The policy's `read` scope as a Prisma filter, so a read is one query. */
  readWhere(viewer: Viewer): Prisma.SessionWhereInput {
    const scope = sessionScope(viewer, 'read');
    // A session an import is still writing (owner `importing:…`) is no one's yet.
    const notStaged: Prisma.SessionWhereInput = { NOT: { userId: { startsWith: STAGING_PREFIX } } };
    if ('all' in scope) return { OR: [{ userId: null }, notStaged] };
    if ('owned' in scope) return { userId: { not: null }, ...notStaged };
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

  /** Sessions by id with a Pothos selection (any order). */
  byIds(ids: readonly string[], query: SessionQuery = {}): Promise<SessionRow[]> {
    return this.prisma.session.findMany({ ...(query as object), where: { id: { in: [...ids] } } }) as Promise<
      SessionRow[]
    >;
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
}
