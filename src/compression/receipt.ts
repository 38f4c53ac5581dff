/**
 * Puts the fidelity receipt (src/domain/compression/receipt.ts) on a
 * strategy's outcome, before anything is saved: the anchors of the replaced
 * region that the new rows lost are appended verbatim to the summary row in a
 * "kept facts" block (budget: 15% of the region's tokens, at least 256). A
 * provider-native block is opaque, so its kept facts go in a row of their own
 * right before it. An outcome without a summary row (LOCAL shortening tool
 * results only) appends nothing: what it lost is listed as dropped.
 */
import type { Estimator } from '../domain/compression/planner.js';
import {
  buildReceipt,
  type FidelityReceipt,
  KEPT_ANCHORS_KEY,
  keptFactsBudget,
} from '../domain/compression/receipt.js';
import { contextOrderOf } from '../domain/context-order.js';
import { makeMessage, type ChatMessage } from '../domain/types.js';
import type { Outcome } from './strategies.js';

export type { FidelityReceipt };

export function withReceipt(outcome: Outcome, estimate: Estimator): Outcome & { receipt: FidelityReceipt } {
  if (outcome.dropped.length === 0) return { ...outcome, receipt: buildReceipt([], '', 0).receipt };
  const after = outcome.added.map((m) => m.content).join('\n');
  const native = outcome.added.find((m) => m.metadata.nativeCompaction === true);
  const summaryIndex = outcome.added.findLastIndex((m) => m.isSummary);
  const canAppend = native !== undefined || summaryIndex >= 0;
  const { receipt, block } = buildReceipt(
    outcome.dropped,
    after,
    canAppend ? keptFactsBudget(estimate(outcome.dropped)) : 0,
  );
  // The summary row remembers what its text kept, so that a later merge answers for it too (keptAnchorsOf).
  const kept = receipt.anchors.keptBySummary;
  const remember = (m: ChatMessage): ChatMessage =>
    kept.length === 0 ? m : { ...m, metadata: { ...m.metadata, [KEPT_ANCHORS_KEY]: kept } };
  if (native) {
    if (!block) return { ...outcome, receipt };
    const facts: ChatMessage = makeMessage({
      role: 'user',
      content: block,
      isSummary: true,
      isDisplay: false,
      metadata: { keptFacts: true, contextOrder: contextOrderOf(native) - 0.25, [KEPT_ANCHORS_KEY]: kept },
    });
    return { ...outcome, added: [...outcome.added, facts], receipt };
  }
  if (!block) {
    const added = outcome.added.map((m, i) => (i === summaryIndex ? remember(m) : m));
    return { ...outcome, added, receipt };
  }
  const added = outcome.added.map((m, i) =>
    i === summaryIndex ? remember({ ...m, content: `${m.content}\n\n${block}` }) : m,
  );
  const summary = outcome.added.length === 1 ? added[0]!.content : `${outcome.summary}\n\n${block}`;
  return { ...outcome, added, summary, receipt };
}
