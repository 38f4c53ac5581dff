import { describe, expect, it } from 'vitest';
import {
  buildReceipt,
  KEPT_FACTS_HEADER,
  KEPT_FACTS_MIN_TOKENS,
  keptFactsBudget,
  keptAnchorsOf,
  keptFactsOf,
} from '../../src/domain/compression/receipt.js';
import { nativeCompactionCarrier } from '../../src/domain/compression/full-replace.js';
import { isLoneSummary } from '../../src/domain/compression/planner.js';
import { withReceipt } from '../../src/compression/receipt.js';
import { assistant, summary, user } from './compression-fixtures.js';

describe('buildReceipt', () => {
  it('every anchor is kept by the summary, re-appended or dropped; newest first within the budget', () => {
    const region = [
      user('old: ZX-1001 and v1.0.0-rc1'),
      assistant('mid: 2027-02-19'),
      user('new: v3.14.15-rc2, ZX-1001 again'),
    ];
    const { receipt, block } = buildReceipt(region, 'summary mentions 2027-02-19', 256);
    expect(receipt.found).toBe(4);
    expect(receipt.anchors.keptBySummary.map((a) => a.value)).toEqual(['2027-02-19']);
    // newest first: ZX-1001 and v3.14.15-rc2 are last mentioned in the newest message
    expect(receipt.anchors.reAppended.map((a) => a.value)).toEqual(['ZX-1001', 'v3.14.15-rc2', 'v1.0.0-rc1']);
    expect(block).toBe(`${KEPT_FACTS_HEADER}\n- ZX-1001\n- v3.14.15-rc2\n- v1.0.0-rc1]`);
    expect(receipt.dropped).toBe(0);
  });

  it('what does not fit the budget is listed as dropped, never lost silently', () => {
    const region = Array.from({ length: 400 }, (_, i) => user(`ticket ZX-${1000 + i} at /srv/data/file-${i}.log`));
    const budget = keptFactsBudget(1000);
    expect(budget).toBe(KEPT_FACTS_MIN_TOKENS);
    expect(keptFactsBudget(10_000)).toBe(1500);
    const { receipt, block } = buildReceipt(region, '', budget);
    expect(receipt.found).toBe(800);
    expect(receipt.reAppended + receipt.dropped).toBe(800);
    expect(receipt.dropped).toBeGreaterThan(0);
    expect(Math.ceil(block.length / 4)).toBeLessThanOrEqual(budget + 10);
    // the newest are the ones kept
    expect(receipt.anchors.reAppended[0]!.value).toBe('ZX-1399');
  });

  it('meta-summary: an earlier block competes again, and what leaves it is dropped', () => {
    const earlier = summary(`[Summary]\n- vague\n\n${KEPT_FACTS_HEADER}\n- v3.14.15-rc2\n- gateway rollout]`, {
      metadata: { breadcrumbs: ['port 8443'] },
    });
    expect(keptFactsOf(earlier.content).map((a) => a.value)).toEqual(['v3.14.15-rc2', 'gateway rollout']);
    const { receipt } = buildReceipt([earlier, user('then 2027-02-19')], 'vague again', 256);
    expect(receipt.anchors.reAppended.map((a) => a.value)).toEqual(
      expect.arrayContaining(['v3.14.15-rc2', 'gateway rollout', 'port 8443', '2027-02-19']),
    );
    const none = buildReceipt([earlier], 'vague', 0);
    expect(none.block).toBe('');
    expect(none.receipt.dropped).toBe(none.receipt.found);
  });
});

describe('what a summary kept in its own words', () => {
  it('a merge still answers for it: re-appended or dropped, never lost because the quotes went', () => {
    // The first summary kept "Blue Harbor 7" and `rotateKeys()` unquoted: the extractor no longer sees them.
    const first = withReceipt(
      {
        dropped: [user('The project is "Blue Harbor 7"; the job calls `rotateKeys()`.')],
        added: [summary('[Summary]\n- They named Blue Harbor 7 and rotateKeys() in passing.')],
        summary: 'x',
        keys: [],
      },
      (ms) => ms.reduce((n, m) => n + m.content.length, 0),
    );
    expect(first.receipt).toMatchObject({ found: 2, keptBySummary: 2, reAppended: 0 });
    const earlier = first.added[0]!;
    expect(keptAnchorsOf(earlier.metadata).map((a) => a.value)).toEqual(['Blue Harbor 7', 'rotateKeys()']);
    // The merge's summary drops both: they are re-appended, or listed as dropped when nothing may be appended.
    const merged = buildReceipt([earlier, user('later')], '- vague', 256);
    expect(merged.receipt.anchors.reAppended.map((a) => a.value)).toEqual(['Blue Harbor 7', 'rotateKeys()']);
    expect(buildReceipt([earlier], '- vague', 0).receipt.anchors.dropped.map((a) => a.value)).toEqual([
      'Blue Harbor 7',
      'rotateKeys()',
    ]);
  });
});

describe('withReceipt on outcomes', () => {
  const charEstimate = (ms: readonly { content: string }[]) => ms.reduce((n, m) => n + m.content.length, 0);

  it('native compaction (opaque): the kept facts are a row of their own right before the block', () => {
    const region = [user('ship v3.14.15-rc2 on 2027-02-19'), assistant('ok')];
    const kept = [user('next'), assistant('fine')];
    const rest = [...region, ...kept];
    const carrier = nativeCompactionCarrier(rest, { end: 2, messages: region }, { content: 'opaque block' });
    const out = withReceipt({ dropped: region, added: [carrier], summary: 'opaque block', keys: [] }, charEstimate);
    expect(out.added).toHaveLength(2);
    expect(out.added[0]!.content).toBe('opaque block');
    const facts = out.added[1]!;
    expect(facts).toMatchObject({ role: 'user', isSummary: true, isDisplay: false });
    expect(facts.content).toContain('- v3.14.15-rc2');
    expect(facts.metadata.contextOrder).toBeLessThan(carrier.metadata.contextOrder as number);
    expect(out.receipt).toMatchObject({ found: 2, reAppended: 2, dropped: 0 });
    // The pair is still a lone carrier: not compacted again.
    expect(isLoneSummary([facts, carrier])).toBe(true);
  });

  it('no summary row to append to (LOCAL shortening tool results): what went is listed as dropped', () => {
    const region = [user('ZX-4471')];
    const copy = { ...user('shortened'), isDisplay: false };
    const out = withReceipt({ dropped: region, added: [copy], summary: 'local', keys: [] }, charEstimate);
    expect(out.added).toEqual([copy]);
    expect(out.receipt).toMatchObject({ found: 1, reAppended: 0, dropped: 1, budgetTokens: 0 });
  });
});
