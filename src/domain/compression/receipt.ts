/**
 * The fidelity receipt of one compaction: the anchors of the region being
 * replaced (src/domain/compression/anchors.ts), which of them the new text
 * (summary, stub, carrier) still holds, which are re-appended verbatim in a
 * bounded "kept facts" block, and which did not fit and are listed as dropped.
 * Nothing is lost silently: every anchor found is in exactly one of the three
 * lists. Pure.
 */
import type { ChatMessage } from '../types.js';
import { ANCHOR_KINDS, type Anchor, type AnchorKind, containsAnchor, extractAnchors } from './anchors.js';

/** The block's budget: this share of the region's tokens… */
export const KEPT_FACTS_SHARE = 0.15;
/** …and never less than this. */
export const KEPT_FACTS_MIN_TOKENS = 256;
export const KEPT_FACTS_HEADER = '[Kept facts, verbatim from the compacted messages:';
/** Receipt lists are capped (counts stay exact): the stored receipt is bounded whatever the region holds. */
export const RECEIPT_LIST_MAX = 200;

export interface FidelityReceipt {
  found: number;
  keptBySummary: number;
  reAppended: number;
  dropped: number;
  budgetTokens: number;
  anchors: { keptBySummary: Anchor[]; reAppended: Anchor[]; dropped: Anchor[] };
}

interface Ranked {
  anchor: Anchor;
  mentions: number;
  /** index of the newest message mentioning it */
  last: number;
}

/** The anchors listed in an earlier receipt's kept-facts block (they compete again in a meta-summary). */
export function keptFactsOf(text: string): Anchor[] {
  const at = text.lastIndexOf(KEPT_FACTS_HEADER);
  if (at < 0) return [];
  const out: Anchor[] = [];
  for (const line of text.slice(at + KEPT_FACTS_HEADER.length + 1).split('\n')) {
    if (!line.startsWith('- ')) break;
    const closes = line.endsWith(']');
    const value = closes ? line.slice(2, -1) : line.slice(2);
    const kind: AnchorKind = extractAnchors(value).find((a) => a.value === value)?.kind ?? 'key';
    if (value) out.push({ kind, value });
    if (closes) break;
  }
  return out;
}

function messageText(m: ChatMessage): string {
  const calls = m.toolCalls.map((c) => JSON.stringify(c.arguments)).join('\n');
  return calls ? `${m.content}\n${calls}` : m.content;
}

/** Every anchor of the region with how often and how recently it is mentioned. */
export function regionAnchors(region: readonly ChatMessage[]): Ranked[] {
  const byValue = new Map<string, Ranked>();
  const note = (anchor: Anchor, i: number) => {
    const r = byValue.get(anchor.value);
    if (r) {
      r.mentions++;
      r.last = i;
    } else byValue.set(anchor.value, { anchor, mentions: 1, last: i });
  };
  region.forEach((m, i) => {
    const text = messageText(m);
    for (const a of extractAnchors(text)) note(a, i);
    for (const a of keptFactsOf(text)) if (!byValue.has(a.value) || a.kind === 'key') note(a, i);
    const crumbs = m.isSummary && Array.isArray(m.metadata.breadcrumbs) ? m.metadata.breadcrumbs : [];
    for (const k of crumbs) if (typeof k === 'string' && k.trim()) note({ kind: 'key', value: k.trim() }, i);
    // What an earlier summary kept in its own words (a quoted name unquoted, a symbol without backticks) is no
    // longer an anchor to the extractor: the row remembers it (keptAnchorsOf), so a later merge still answers for it.
    if (m.isSummary) for (const a of keptAnchorsOf(m.metadata)) if (!byValue.has(a.value)) note(a, i);
  });
  return [...byValue.values()];
}

/** Metadata key of a summary row: the anchors of its region that its summary text kept (receipt.keptBySummary). */
export const KEPT_ANCHORS_KEY = 'keptAnchors';

export function keptAnchorsOf(metadata: Record<string, unknown>): Anchor[] {
  const list = metadata[KEPT_ANCHORS_KEY];
  if (!Array.isArray(list)) return [];
  return list.flatMap((a) => {
    const { kind, value } = (a ?? {}) as Partial<Anchor>;
    return typeof value === 'string' && value && typeof kind === 'string' && ANCHOR_KINDS.includes(kind)
      ? [{ kind, value }]
      : [];
  });
}

const lineTokens = (a: Anchor) => Math.ceil((a.value.length + 3) / 4);

export function keptFactsBudget(regionTokens: number): number {
  return Math.max(KEPT_FACTS_MIN_TOKENS, Math.floor(regionTokens * KEPT_FACTS_SHARE));
}

/**
 * The receipt for replacing `region` by text holding `after`, and the block
 * to append (empty when nothing is missing or nothing may be appended:
 * `budgetTokens` 0). Missing anchors go in newest first, then most mentioned.
 */
export function buildReceipt(
  region: readonly ChatMessage[],
  after: string,
  budgetTokens: number,
): { receipt: FidelityReceipt; block: string } {
  const ranked = regionAnchors(region);
  const kept = ranked.filter((r) => containsAnchor(after, r.anchor));
  const missing = ranked
    .filter((r) => !containsAnchor(after, r.anchor))
    .sort((a, b) => b.last - a.last || b.mentions - a.mentions);
  const reAppended: Anchor[] = [];
  const dropped: Anchor[] = [];
  let used = Math.ceil(KEPT_FACTS_HEADER.length / 4) + 1;
  for (const r of missing) {
    const cost = lineTokens(r.anchor);
    if (budgetTokens > 0 && used + cost <= budgetTokens) {
      reAppended.push(r.anchor);
      used += cost;
    } else dropped.push(r.anchor);
  }
  const block =
    reAppended.length === 0 ? '' : `${KEPT_FACTS_HEADER}\n${reAppended.map((a) => `- ${a.value}`).join('\n')}]`;
  const cap = (list: Anchor[]) => list.slice(0, RECEIPT_LIST_MAX);
  return {
    receipt: {
      found: ranked.length,
      keptBySummary: kept.length,
      reAppended: reAppended.length,
      dropped: dropped.length,
      budgetTokens,
      anchors: {
        keptBySummary: cap(kept.map((r) => r.anchor)),
        reAppended: cap(reAppended),
        dropped: cap(dropped),
      },
    },
    block,
  };
}
