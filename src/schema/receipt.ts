/**
 * The fidelity receipt of a compaction (src/domain/compression/receipt.ts), as
 * `ContextCompressed.receipt` (events.ts) and `Session.compressions { receipt }`
 * (compression.ts, read from the compression markers where it is stored).
 */
import type { Anchor } from '../domain/compression/anchors.js';
import type { FidelityReceipt } from '../domain/compression/receipt.js';
import { builder } from './builder.js';

const AnchorRef = builder.objectRef<Anchor>('Anchor').implement({
  description: 'A concrete fact of compacted text: an id, a version, a date, a path, a URL…',
  fields: (t) => ({
    kind: t.exposeString('kind', {
      description: 'identifier, number, version, date, path, url, email, code, quoted or key',
    }),
    value: t.exposeString('value', { description: 'verbatim' }),
  }),
});

export const CompressionReceiptRef = builder.objectRef<FidelityReceipt>('CompressionReceipt').implement({
  description:
    'What a compaction did with the anchors of the region it replaced: every anchor found is kept by the summary, ' +
    're-appended verbatim in its "kept facts" block, or listed as dropped (lists capped at 200, counts exact).',
  fields: (t) => ({
    found: t.exposeInt('found'),
    keptBySummary: t.exposeInt('keptBySummary'),
    reAppended: t.exposeInt('reAppended'),
    dropped: t.exposeInt('dropped'),
    budgetTokens: t.exposeInt('budgetTokens', {
      description: 'the kept-facts budget: 15% of the region, at least 256 (0 when nothing could be appended)',
    }),
    keptBySummaryAnchors: t.field({ type: [AnchorRef], resolve: (r) => r.anchors.keptBySummary }),
    reAppendedAnchors: t.field({ type: [AnchorRef], resolve: (r) => r.anchors.reAppended }),
    droppedAnchors: t.field({ type: [AnchorRef], resolve: (r) => r.anchors.dropped }),
  }),
});

export function receiptOf(value: unknown): FidelityReceipt | null {
  const r = value as FidelityReceipt | undefined;
  return r && typeof r === 'object' && typeof r.found === 'number' && r.anchors ? r : null;
}
