/**
 * Which rows a compression row stands for, so history edits keep the context
 * consistent with the display history: removing a summary re-promotes the
 * rows it covered, restoring one (branch switch) demotes them again.
 *
 * Compression says what a summary covers in its metadata, either as
 * `covers: [firstSeq, lastSeq]` (src/compression) or as an exact
 * `coveredSequences: number[]`. A context-only copy of a shortened tool
 * result (`contextCopyOf: seq`) covers its original. See docs/editing.md.
 */
import type { ChatMessage } from './types.js';

type Row = Pick<
  ChatMessage,
  'sequenceNumber' | 'role' | 'isContext' | 'isPlan' | 'isCompression' | 'isSummary' | 'metadata'
>;
export type SeqRange = [number, number];

/** The ranges a summary covers, or null when it does not say (legacy / hand-made). */
export function summaryCoverage(m: Pick<ChatMessage, 'isSummary' | 'metadata'>): SeqRange[] | null {
  if (!m.isSummary) return null;
  const exact = m.metadata.coveredSequences;
  if (Array.isArray(exact) && exact.every((s) => Number.isInteger(s))) return (exact as number[]).map((s) => [s, s]);
  const range = m.metadata.covers;
  if (Array.isArray(range) && range.length === 2 && range.every((s) => Number.isInteger(s))) return [range as SeqRange];
  return null;
}

const copyOf = (m: Pick<ChatMessage, 'metadata'>): number | null =>
  typeof m.metadata.contextCopyOf === 'number' ? m.metadata.contextCopyOf : null;

/**
 * What an edit that removed `removed` must re-promote: nothing (no live
 * compression row went), the rows in `ranges`, or — when a removed summary
 * does not say what it covers — every compressible demoted row after the
 * newest summary still in the context (may restore more raw rows than
 * needed, never fewer).
 */
export type ContextRepair = { kind: 'none' } | { kind: 'ranges'; ranges: SeqRange[] } | { kind: 'afterLiveSummary' };

export function planContextRepair(removed: readonly Row[]): ContextRepair {
  const ranges: SeqRange[] = [];
  for (const m of removed) {
    if (m.isSummary) {
      const c = summaryCoverage(m);
      if (!c) return { kind: 'afterLiveSummary' };
      ranges.push(...c);
    } else {
      const original = copyOf(m);
      if (original !== null && m.isContext) ranges.push([original, original]);
    }
  }
  return ranges.length === 0 ? { kind: 'none' } : { kind: 'ranges', ranges };
}

export const inRanges = (seq: number, ranges: readonly SeqRange[]) => ranges.some(([a, b]) => a <= seq && seq <= b);

/**
 * Of the surviving candidate rows (demoted rows, and context copies, in the
 * affected span), the sequence numbers to put back in the context. Rows out
 * of the context by nature (plans, markers, stored system records) stay out;
 * an original stays out while a copy of it is in the context; in the
 * fallback, older demoted summaries stay out (their raw rows come back).
 */
export function rowsToPromote(candidates: readonly Row[], ranges: readonly SeqRange[] | null): number[] {
  const promote = candidates.filter(
    (m) =>
      !m.isContext &&
      !m.isPlan &&
      !m.isCompression &&
      m.role !== 'system' &&
      (ranges === null ? !m.isSummary : inRanges(m.sequenceNumber, ranges)),
  );
  const chosen = new Set(promote.map((m) => m.sequenceNumber));
  const copied = new Set<number>();
  for (const m of candidates) {
    const original = copyOf(m);
    if (original !== null && (m.isContext || chosen.has(m.sequenceNumber))) copied.add(original);
  }
  return promote.map((m) => m.sequenceNumber).filter((s) => !copied.has(s));
}

/** Ranges that restored live summaries / copies cover again (to demote on a branch switch). */
export function restoredCoverage(restored: readonly Row[]): SeqRange[] {
  const repair = planContextRepair(restored.filter((m) => m.isContext));
  return repair.kind === 'ranges' ? repair.ranges : [];
}
