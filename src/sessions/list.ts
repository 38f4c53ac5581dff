/**
 * One page of the session list (`sessions`), plain or searched: the page-size
 * rule, the keyset cursor and, for a search, the match positions per session.
 */
import type { Viewer } from '../auth/policy.js';
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
}

export interface SessionListEdge {
  cursor: string;
  node: SessionRow;
  matches: SearchMatches | null;
}

export interface SessionListPage {
  edges: SessionListEdge[];
  totalCount: number;
  /** false only for a search with more matching sessions than the count cap (totalCount is then the cap) */
  totalCountIsExact: boolean;
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
  const options = { viewer, profileId: args.profileId, orderBy: args.orderBy, direction: args.direction, first, after };
  // A search answers page, count (exact up to a cap) and match positions together (src/search/service.ts).
  const { rows, hasNextPage, totalCount, totalCountIsExact, matches } = args.search?.trim()
    ? await search.search(options, query, args.search)
    : await Promise.all([store.list(options, query), store.count(viewer, args.profileId)]).then(([page, count]) => ({
        ...page,
        totalCount: count,
        totalCountIsExact: true,
        matches: null,
      }));
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
