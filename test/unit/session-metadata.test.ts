import { describe, expect, it } from 'vitest';
import { parseSessionMetadata } from '../../src/domain/session-metadata.js';

describe('session metadata', () => {
  it('reads the known keys and ignores the rest', () => {
    expect(
      parseSessionMetadata({
        baseline: { promptTokens: 120, lastSequence: 4 },
        contextTruncated: true,
        injected_chunk_ids: ['a', 'b'],
        streamRules: { fired: ['repeat_line'] },
        lastCompression: { at: '2026-01-01T00:00:00.000Z', reason: 'manual', marker: 9 },
        importedFrom: 'chatgpt',
        someFutureKey: { kept: true },
      }),
    ).toEqual({
      baseline: { promptTokens: 120, lastSequence: 4 },
      contextTruncated: true,
      injected_chunk_ids: ['a', 'b'],
      streamRules: { fired: ['repeat_line'] },
      lastCompression: { at: '2026-01-01T00:00:00.000Z', reason: 'manual', marker: 9 },
      importedFrom: 'chatgpt',
    });
  });

  it('reads a malformed key as absent and anything but an object as empty', () => {
    expect(
      parseSessionMetadata({ baseline: 'big', contextTruncated: 'yes', streamRules: { fired: 'x' }, redo: [] }),
    ).toEqual({});
    for (const value of [null, undefined, 'text', 42, []]) expect(parseSessionMetadata(value)).toEqual({});
  });
});
