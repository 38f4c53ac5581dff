/**
 * One page of the session list (`sessions`), plain or searched: the page-size
 * rule, the keyset cursor and, for a search, the match positions per session.
 */
import type { Viewer } from '../domain/policy.js';
import type { SearchService } from '../search/service.js';
import type { SearchMatches } from '../store/search.js';
import { decodeJsonCursor, encodeJsonCursor } from './cursors.js';
import { BadInput } from '../store/errors.js';
import {
  type SessionCursor,
  type SessionQuery,
  type SessionOrderField,
  type SessionRow,
  SessionStore,
  type SortDirection,
} from '../store/sessions.js';

export const DEFAULT_SESSION_PAGE = 50;

export interface SessionListArgs {
  first: number;
  /** whether the caller chose `first` (a default larger than the cap is clamped; an explicit one is refused) */
  firstGiven: boolean;
  after?: string | null;
  profileId?: string;
  search?: string | null;
  orderBy: SessionOrderField;
  direction: SortDirection;
  /** read totalCount (and totalCountIsExact); false when the selection asks for neither (default true) */
  count?: boolean;
}

export interface SessionListEdge {
  cursor: string;
  node: SessionRow;
  matches: SearchMatches | null;
}

export interface SessionListPage {
  edges: SessionListEdge[];
  /** null when the page was read without its count (`count: false`) */
  totalCount: number | null;
  /** false only for a search with more matching sessions than the count cap (totalCount is then the cap) */
  totalCountIsExact: boolean | null;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

const isSessionCursor = (v: unknown): v is SessionCursor =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as SessionCursor).pinned === 'boolean' &&
  typeof (v as SessionCursor).id === 'string' &&
  /^[0-9a-f-]{36}$/i.test((v as SessionCursor).id);

export interface SessionListDeps {
  store: SessionStore;
  search: SearchService;
  maxPageSize: number;
}

/** `query` is the Pothos selection of the page's sessions, so it drives the SQL. */
export async function listSessions(
  { store, search, maxPageSize }: SessionListDeps,
  viewer: Viewer,
  args: SessionListArgs,
  query: SessionQuery,
): Promise<SessionListPage> {
  const first = args.firstGiven ? args.first : Math.min(args.first, maxPageSize);
  if (first < 0 || first > maxPageSize) throw new BadInput(`first must be between 0 and ${maxPageSize}`);
  const after = args.after ? decodeJsonCursor(args.after, isSessionCursor) : undefined;
  const options = {
    viewer,
    profileId: args.profileId,
    orderBy: args.orderBy,
    direction: args.direction,
    first,
    after,
    count: args.count ?? true,
  };
  // A search answers page, count (exact up to a cap) and match positions together (src/search/service.ts).
  const { rows, hasNextPage, totalCount, totalCountIsExact, matches } = args.search?.trim()
    ? await search.search(options, query, args.search)
    : { ...(await plainPage(store, options, query)), totalCountIsExact: options.count ? true : null, matches: null };
  const edges = rows.map((node) => ({
    cursor: encodeJsonCursor(SessionStore.cursorOf(node, args.orderBy)),
    node,
    matches: matches?.get(node.id) ?? null,
  }));
  return {
    edges,
    totalCount,
    totalCountIsExact,
    pageInfo: {
      hasNextPage,
      hasPreviousPage: Boolean(after),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/** The page's count, which a page read with `count: false` does not have (its resolvers are never reached then). */
export function countOf(page: SessionListPage): { totalCount: number; totalCountIsExact: boolean } {
  if (page.totalCount === null || page.totalCountIsExact === null) throw new Error('session page read without count');
  return { totalCount: page.totalCount, totalCountIsExact: page.totalCountIsExact };
}

/** What a Pothos selection asks beyond the session's own columns (relations): then Prisma reads the rows. */
export const wantsRelations = (query: SessionQuery) =>
  Object.keys(query.include ?? {}).length > 0 || Object.keys(query.select ?? {}).length > 0;

/**
 * The plain list: one statement (count, page, previews). Only a selection
 * with relations (profile, contextWindow, cost) adds Prisma's read of the
 * page's rows, by id, keeping the statement's order and previews.
 */
async function plainPage(store: SessionStore, options: Parameters<SessionStore['listPage']>[0], query: SessionQuery) {
  const page = await store.listPage(options);
  if (!wantsRelations(query) || page.rows.length === 0) return page;
  const full = await store.byIds(
    page.rows.map((r) => r.id),
    query,
  );
  const byId = new Map(full.map((row) => [row.id, row]));
  const rows = page.rows.flatMap((r) => {
    const row = byId.get(r.id);
    return row ? [Object.assign(row, { preview: r.preview })] : [];
  });
  return { ...page, rows };
}
