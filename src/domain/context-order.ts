/**
 * Context order. The context is the `is_context` rows ordered by sequence
 * number, except rows that compression writes later but that belong earlier:
 * a summary replacing old turns must come *before* the turns it kept, and a
 * context-only copy of a shortened tool result must take its original's place.
 * Such rows carry `metadata.contextOrder`, the position they sort at
 * (e.g. `firstKeptSeq - 0.5` for a summary, `originalSeq` for a copy). Rows
 * without it sort at their own sequence number; ties keep sequence order.
 *
 * Chosen over renumbering because sequence numbers are the display history's
 * identity (gapless, append-only): compression never rewrites them.
 */
import type { ChatMessage } from './types.js';

export function contextOrderOf(m: Pick<ChatMessage, 'sequenceNumber' | 'metadata'>): number {
  const order = m.metadata?.contextOrder;
  return typeof order === 'number' && Number.isFinite(order) ? order : m.sequenceNumber;
}

/** Stable sort of context rows by their context position. Returns a new array. */
export function orderContext<T extends Pick<ChatMessage, 'sequenceNumber' | 'metadata'>>(rows: readonly T[]): T[] {
  let sorted = true;
  for (let i = 1; i < rows.length && sorted; i++) {
    if (contextOrderOf(rows[i - 1]!) > contextOrderOf(rows[i]!)) sorted = false;
  }
  if (sorted) return [...rows];
  return rows
    .map((row, index) => ({ row, index, key: contextOrderOf(row) }))
    .sort((a, b) => a.key - b.key || a.row.sequenceNumber - b.row.sequenceNumber || a.index - b.index)
    .map((e) => e.row);
}

/** Highest sequence number in a context (its last row need not hold it). */
export function maxSequence(rows: readonly Pick<ChatMessage, 'sequenceNumber'>[]): number {
  let max = -1;
  for (const r of rows) if (r.sequenceNumber > max) max = r.sequenceNumber;
  return max;
}
