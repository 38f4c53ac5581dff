/** Keyset paging over dense display positions: no OFFSET anywhere. */
import { BadInput } from '../store/errors.js';
import { decodeIndexCursor } from './cursors.js';

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export const DEFAULT_HISTORY_PAGE = 50;

/** The [start, end) window of display positions a connection page covers. */
export function pageWindow(args: PageArgs, total: number, maxPageSize: number): { start: number; end: number } {
  for (const [name, value] of [
    ['first', args.first],
    ['last', args.last],
  ] as const) {
    if (value != null && (value < 0 || value > maxPageSize)) {
      throw new BadInput(`${name} must be between 0 and ${maxPageSize}`);
    }
  }
  if (args.first != null && args.last != null) throw new BadInput('Pass either first or last, not both');
  const lower = args.after ? decodeIndexCursor(args.after) + 1 : 0;
  const upper = args.before ? Math.min(decodeIndexCursor(args.before), total) : total;
  if (args.first != null) return { start: lower, end: Math.max(lower, Math.min(upper, lower + args.first)) };
  // The default page follows the cap; only an explicit size above it is refused.
  const size = args.last ?? Math.min(DEFAULT_HISTORY_PAGE, maxPageSize);
  return { start: Math.max(lower, upper - size), end: Math.max(lower, upper) };
}
