import { describe, expect, it } from 'vitest';
import {
  planContextRepair,
  restoredCoverage,
  rowsToPromote,
  summaryCoverage,
} from '../../src/domain/summary-coverage.js';
import { makeMessage, type NewMessage } from '../../src/domain/types.js';

const row = (sequenceNumber: number, m: Partial<NewMessage> = {}) =>
  makeMessage({ role: 'user', content: `m${sequenceNumber}`, sequenceNumber, ...m });

describe('summary coverage', () => {
  it('reads covers ranges and exact lists; unknown otherwise', () => {
    expect(summaryCoverage(row(9, { isSummary: true, metadata: { covers: [2, 5] } }))).toEqual([[2, 5]]);
    expect(summaryCoverage(row(9, { isSummary: true, metadata: { coveredSequences: [1, 3] } }))).toEqual([
      [1, 1],
      [3, 3],
    ]);
    expect(summaryCoverage(row(9, { isSummary: true, metadata: { covers: ['a', 2] } }))).toBeNull();
    expect(summaryCoverage(row(9, { metadata: { covers: [2, 5] } }))).toBeNull();
  });

  it(
    'plans nothing without removed compression rows; ranges from ' +
      'summaries and live copies; fallback when a summary is silent',
    () => {
      expect(planContextRepair([row(1), row(2, { role: 'assistant' })])).toEqual({ kind: 'none' });
      expect(
        planContextRepair([
          row(8, { isSummary: true, metadata: { covers: [0, 3] } }),
          row(9, { role: 'tool', metadata: { contextCopyOf: 5 } }),
        ]),
      ).toEqual({
        kind: 'ranges',
        ranges: [
          [0, 3],
          [5, 5],
        ],
      });
      expect(planContextRepair([row(8, { isSummary: true, metadata: {} })])).toEqual({ kind: 'afterLiveSummary' });
    },
  );

  it('promotes demoted rows in range, never plans, markers, system records, or an original whose copy is live', () => {
    const candidates = [
      row(0, { isContext: false }),
      row(1, { role: 'assistant', isPlan: true, isContext: false }),
      row(2, { role: 'system', isContext: false }),
      row(3, { role: 'tool', isContext: false }),
      row(4, { role: 'tool', isContext: true, isDisplay: false, metadata: { contextCopyOf: 3 } }),
      row(5, { isSummary: true, isContext: false }),
      row(7, { isContext: false }),
    ];
    expect(rowsToPromote(candidates, [[0, 5]])).toEqual([0, 5]);
    expect(rowsToPromote(candidates, null)).toEqual([0, 7]);
  });

  it('restored live summaries cover their ranges again; demoted ones do not', () => {
    expect(
      restoredCoverage([
        row(8, { isSummary: true, metadata: { covers: [0, 3] } }),
        row(9, { isSummary: true, isContext: false, metadata: { covers: [4, 6] } }),
      ]),
    ).toEqual([[0, 3]]);
  });
});
