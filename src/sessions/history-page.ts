/**
 * One page of a session's display history, hot and archived rows seamlessly (Session.history, SharedSession.history).
 */
import { encodeIndexCursor } from './cursors.js';
import type { StoredMessage } from '../store/rows.js';
import type { SessionStore, SnapshotCut } from '../store/sessions.js';
import { type PageArgs, pageWindow } from './paging.js';

export interface HistoryEdge {
  cursor: string;
  displayIndex: number;
  node: StoredMessage;
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
  const rows = await store.displayRange(session.id, start, end, cut);
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
