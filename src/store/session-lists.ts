/**
 * The session lists: the SQL that pages, counts and scopes the sessions a
 * viewer may list (keyset pagination on (pinned, order value, id), the
 * counts kept in session_count_deltas). SessionStore (./sessions.ts) offers
 * these as its methods.
 */
import type { Database } from '../db/client.js';
import type { Prisma, Session } from '../generated/prisma/client.js';
import { type SessionScope, STAGING_PREFIX, sessionScope, type Viewer } from '../domain/policy.js';
import type { Tx } from './messages.js';

/** What a Pothos resolver's `query` adds to a sessions read (its selection drives the SQL). */
export type SessionQuery = { include?: Prisma.SessionInclude; select?: Prisma.SessionSelect };

export type SessionOrderField = 'LAST_ACTIVE' | 'CREATED_AT' | 'NAME';
export type SortDirection = 'ASC' | 'DESC';

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

const ORDER_COLUMN: Record<SessionOrderField, string> = {
  LAST_ACTIVE: 'last_active',
  CREATED_AT: 'created_at',
  NAME: 'name',
};
/** Sessions in the viewer's lists (the policy's `list` scope), as SQL on `sessions s`. */
export function listWhere(viewer: Viewer): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const sql = scopeSql(sessionScope(viewer, 'list'), 's.user_id', (value) => `$${params.push(value)}`);
  return { sql, params };
}

/** The list's scope (viewer, profile) as SQL conditions on `sessions s`, with its params and an `add` for more. */
export function listScope(options: Pick<ListOptions, 'viewer' | 'profileId'>): {
  conditions: string[];
  params: unknown[];
  add: (value: unknown) => string;
} {
  const where = listWhere(options.viewer);
  const params = [...where.params];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = [where.sql];
  if (options.profileId) conditions.push(`s.profile_id = ${add(options.profileId)}::uuid`);
  return { conditions, params, add };
}

/**
 * One page of session summaries: pinned first, then the requested order,
 * keyset-paginated on (pinned, order value, id). History is never loaded;
 * displayMessageCount is a column kept by appends.
 */
export async function listSessions(
  db: Database,
  options: ListOptions,
  query: SessionQuery = {},
  tx?: Tx,
): Promise<{ rows: Session[]; hasNextPage: boolean }> {
  const { conditions, params, add } = listScope(options);
  if (options.ids) conditions.push(`s.id = ANY(${add(options.ids)}::uuid[])`);
  const { value, dir } = keyset(options, conditions, add);
  const order = `ORDER BY s.pinned DESC, ${value} ${dir}, s.id ${dir}`;
  // A probe filters the ordered ids from outside (OFFSET 0 keeps it out of
  // the subquery), so the LIMIT stops the walk: a subquery scan keeps the
  // sort order, and the probe runs for the sessions read, not for all.
  const probe = options.probe?.('o.id', add);
  const limit = add(options.first + 1);
  const client = tx ?? db.prisma;
  const rows = await client.$queryRawUnsafe<Record<string, unknown>[]>(
    probe
      ? `SELECT o.id FROM (SELECT s.id FROM sessions s WHERE ${conditions.join(' AND ')} ${order} OFFSET 0) o
          WHERE ${probe} LIMIT ${limit}`
      : `SELECT s.id FROM sessions s WHERE ${conditions.join(' AND ')} ${order} LIMIT ${limit}`,
    ...params,
  );
  const ids = rows.slice(0, options.first).map((r) => r.id as string);
  const full = (await client.session.findMany({ ...(query as object), where: { id: { in: ids } } })) as Session[];
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
export async function listPage(
  db: Database,
  options: Omit<ListOptions, 'ids' | 'probe'>,
): Promise<{ rows: (Session & { preview: string | null })[]; hasNextPage: boolean; totalCount: number | null }> {
  const { conditions: scope, params, add } = listScope(options);
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
  const result = await db.raw.query<Record<string, unknown>>(sql, params, { prepare: true });
  const totalCount = options.count === false ? null : Number(result[0]?.total ?? 0);
  if (counts && Number(result[0]?.deltas ?? 0) > COMPACT_DELTAS) await compactCounts(db, options);
  const found = result.filter((r) => r.id !== null && r.id !== undefined);
  const rows = found.slice(0, options.first).map((r) => {
    const { total: _total, deltas: _deltas, sort_value: _sort, ...row } = r;
    return row as unknown as Session & { preview: string | null };
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
export async function compactCounts(db: Database, options: Pick<ListOptions, 'viewer' | 'profileId'>): Promise<void> {
  const params: unknown[] = [];
  const where = countScope(options, (value) => `$${params.push(value)}`);
  await db.raw.query(
    `WITH moved AS (DELETE FROM session_count_deltas d WHERE ${where} RETURNING owned, owner, profile_id, n)
     INSERT INTO session_count_deltas (owned, owner, profile_id, n)
     SELECT owned, owner, profile_id, sum(n)::int FROM moved GROUP BY 1, 2, 3 HAVING sum(n) <> 0`,
    params,
  );
}

export function cursorOf(row: Session, orderBy: SessionOrderField): SessionCursor {
  const value =
    orderBy === 'NAME' ? (row.name ?? '') : (orderBy === 'CREATED_AT' ? row.createdAt : row.lastActive).toISOString();
  return { pinned: row.pinned, value, id: row.id };
}

export async function countSessions(
  db: Database,
  viewer: Viewer,
  profileId?: string,
  ids?: string[],
  probe?: ListOptions['probe'],
  tx?: Tx,
): Promise<number> {
  const where = listWhere(viewer);
  const params = [...where.params];
  const conditions = [where.sql];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (profileId) conditions.push(`s.profile_id = ${add(profileId)}::uuid`);
  if (ids) conditions.push(`s.id = ANY(${add(ids)}::uuid[])`);
  if (probe) conditions.push(probe('s.id', add));
  const rows = await (tx ?? db.prisma).$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM sessions s WHERE ${conditions.join(' AND ')}`,
    ...params,
  );
  return rows[0]?.n ?? 0;
}
/** The sessions row as Prisma's Session, for the statements that return it from raw SQL. */
export const SESSION_COLUMNS =
  `id, profile_id AS "profileId", user_id AS "userId", name, ` +
  `title_source AS "titleSource", pinned,
  context_token_count AS "contextTokenCount", created_at AS "createdAt", last_active AS "lastActive",
  planning_logs AS "planningLogs", usage, metadata, checkpoint, last_rewind_report AS "lastRewindReport",
  next_sequence AS "nextSequence", display_count AS "displayCount", external_id AS "externalId"`;
/** SESSION_COLUMNS qualified by the alias `s`. */
export const SESSION_COLUMNS_OF_S = SESSION_COLUMNS.replace(/(^|,\s*)([a-z_]+)/g, '$1s.$2');

/** A list count reads this many delta rows at most before it compacts them (compactCounts). */
export const COMPACT_DELTAS = 32;

/** The list scope (viewer, profile) as a condition on `session_count_deltas d`. */
function countScope(options: Pick<ListOptions, 'viewer' | 'profileId'>, add: (value: unknown) => string): string {
  const scope = sessionScope(options.viewer, 'list');
  const notStaged = `d.owner NOT LIKE '${STAGING_PREFIX}%'`;
  const owner =
    'all' in scope
      ? notStaged
      : 'owned' in scope
        ? `d.owned AND ${notStaged}`
        : `d.owned AND d.owner = ${add(scope.userId)}`;
  return options.profileId ? `${owner} AND d.profile_id = ${add(options.profileId)}::uuid` : owner;
}

/** A policy scope as an SQL condition on a sessions owner column (`s.user_id`); `add` binds a parameter. */
export function scopeSql(scope: SessionScope, ownerColumn: string, add: (value: unknown) => string): string {
  // A session an import is still writing (owner `importing:…`) is no one's yet.
  const notStaged = `${ownerColumn} NOT LIKE '${STAGING_PREFIX}%'`;
  if ('all' in scope) return `(${ownerColumn} IS NULL OR ${notStaged})`;
  if ('owned' in scope) return `(${ownerColumn} IS NOT NULL AND ${notStaged})`;
  return `${ownerColumn} = ${add(scope.userId)}`;
}

/**
 * The list's order and keyset: the sort expression and direction, and (after a
 * cursor) the condition that starts the page past it, pushed onto `conditions`.
 * NAME may be null: it is ordered on coalesce so the keyset comparison is total.
 */
export function keyset(
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
