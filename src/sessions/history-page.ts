/**
 * One page of a session's display history, hot and archived rows seamlessly (Session.history, SharedSession.history).
 */
import { encodeIndexCursor } from './cursors.js';
import type { MessageColumn, MessageShape } from '../store/rows.js';
import type { SessionRow, SessionStore, SnapshotCut } from '../store/sessions.js';
import type { Viewer } from '../domain/policy.js';
import { type PageArgs, pageBounds, pageWindow, windowOf } from './paging.js';

export interface HistoryEdge {
  cursor: string;
  displayIndex: number;
  node: MessageShape;
}

export interface HistoryPage {
  edges: HistoryEdge[];
  totalCount: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

export async function historyPage(
  store: SessionStore,
  session: { id: string; displayCount: number },
  args: PageArgs,
  maxPageSize: number,
  /** a snapshot share: only the rows that existed when it was taken */
  cut?: SnapshotCut,
): Promise<HistoryPage> {
  const total = session.displayCount;
  const { start, end } = pageWindow(args, total, maxPageSize);
  return pageOf(await store.displayRange(session.id, start, end, cut), start, end, total);
}

/**
 * `session(id:)` with its history page in one statement (SessionStore.readableWithPage): the session row (null when
 * the viewer may not read it) and the page its `history` field answers.
 */
export async function readableWithHistoryPage(
  store: SessionStore,
  viewer: Viewer,
  id: string,
  args: PageArgs,
  maxPageSize: number,
  /** only these message columns (and the key), for a caller that knows which fields will be read; null: all */
  columns: ReadonlySet<MessageColumn> | null = null,
): Promise<{ session: SessionRow; page: HistoryPage } | null> {
  const bounds = pageBounds(args, maxPageSize);
  const found = await store.readableWithPage(viewer, id, bounds, columns);
  if (!found) return null;
  const total = found.session.displayCount;
  const { start, end } = windowOf(bounds, total);
  return { session: found.session, page: pageOf(found.rows, start, end, total) };
}

function pageOf(rows: MessageShape[], start: number, end: number, total: number): HistoryPage {
  const edges = rows.map((node) => ({
    cursor: encodeIndexCursor(node.displayIndex!),
    displayIndex: node.displayIndex!,
    node,
  }));
  return {
    edges,
    totalCount: total,
    pageInfo: {
      hasNextPage: end < total,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
