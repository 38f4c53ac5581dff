/** Keyset paging over dense display positions: no OFFSET anywhere. */
import { BadInput } from '../store/errors.js';
import { decodeIndexCursor } from './cursors.js';
import type { PageBounds } from '../store/sessions.js';

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export const DEFAULT_HISTORY_PAGE = 50;

/**
 * A page's bounds from its arguments, before the total is known (a store can then compute the window in SQL):
 * refuses a size out of range and `first` with `last`.
 */
export function pageBounds(args: PageArgs, maxPageSize: number): PageBounds {
  for (const [name, value] of [
    ['first', args.first],
    ['last', args.last],
  ] as const) {
    if (value != null && (value < 0 || value > maxPageSize)) {
      throw new BadInput(`${name} must be between 0 and ${maxPageSize}`);
    }
  }
  if (args.first != null && args.last != null) throw new BadInput('Pass either first or last, not both');
  return {
    lower: args.after ? decodeIndexCursor(args.after) + 1 : 0,
    before: args.before ? decodeIndexCursor(args.before) : null,
    first: args.first ?? null,
    // The default page follows the cap; only an explicit size above it is refused.
    size: args.last ?? Math.min(DEFAULT_HISTORY_PAGE, maxPageSize),
  };
}

/** The [start, end) window of display positions that bounds cover in a history of `total` positions. */
export function windowOf(bounds: PageBounds, total: number): { start: number; end: number } {
  const { lower, first, size } = bounds;
  const upper = bounds.before === null ? total : Math.min(bounds.before, total);
  if (first !== null) return { start: lower, end: Math.max(lower, Math.min(upper, lower + first)) };
  return { start: Math.max(lower, upper - size), end: Math.max(lower, upper) };
}

/** The [start, end) window of display positions a connection page covers. */
export function pageWindow(args: PageArgs, total: number, maxPageSize: number): { start: number; end: number } {
  return windowOf(pageBounds(args, maxPageSize), total);
}
