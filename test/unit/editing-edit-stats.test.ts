import { describe, expect, it } from 'vitest';
import { countLines, editStatsFromTranscript, patchLineCounts, ZERO_EDIT_STATS } from '../../src/domain/edit-stats.js';
import { makeMessage, type ChatMessage, type ToolCall } from '../../src/domain/types.js';

let seq = 0;
const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({ id, name, arguments: args });
const assistant = (...calls: ToolCall[]): ChatMessage =>
  makeMessage({ role: 'assistant', content: '', toolCalls: calls, sequenceNumber: seq++ });
const result = (id: string, content = 'ok', metadata: Record<string, unknown> = {}): ChatMessage =>
  makeMessage({ role: 'tool', content, toolCallId: id, metadata, sequenceNumber: seq++ });

describe('countLines', () => {
  it('counts lines with or without a trailing newline', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\nb')).toBe(2);
    expect(countLines('a\nb\n')).toBe(2);
    expect(countLines('a\r\nb\r\n')).toBe(2);
  });
});

describe('editStatsFromTranscript', () => {
  it('counts write content lines as added', () => {
    const t = [assistant(call('1', 'write_file', { path: 'a.ts', content: 'a\nb\nc\n' })), result('1')];
    expect(editStatsFromTranscript(t)).toEqual({ linesAdded: 3, linesRemoved: 0 });
  });

  it('counts the previous content of an overwritten file as removed when the result reports it', () => {
    const t = [
      assistant(call('1', 'write', { path: 'a.ts', content: 'a\nb' })),
      result('1', 'overwrote', { previousLineCount: 5 }),
    ];
    expect(editStatsFromTranscript(t)).toEqual({ linesAdded: 2, linesRemoved: 5 });
  });

  it('counts edit old/new string lines (old_string/new_string and old_str/new_str)', () => {
    const t = [
      assistant(
        call('1', 'edit_file', { old_string: 'x\ny', new_string: 'x\ny\nz' }),
        call('2', 'str_replace', { old_str: 'one', new_str: '' }),
        call('3', 'edit', {
          edits: [
            { old_string: 'a', new_string: 'b\nc' },
            { old_string: 'd\ne', new_string: 'f' },
          ],
        }),
      ),
      result('1'),
      result('2'),
      result('3'),
    ];
    expect(editStatsFromTranscript(t)).toEqual({ linesAdded: 3 + 0 + 3, linesRemoved: 2 + 1 + 3 });
  });

  it('counts +/- lines of apply_patch without file headers', () => {
    const unified = [
      '--- a/x.ts',
      '+++ b/x.ts',
      '@@ -1,3 +1,3 @@',
      ' keep',
      '-old',
      '+new',
      '+newer',
      '--- sql comment removed',
    ].join('\n');
    expect(patchLineCounts(unified)).toEqual({ linesAdded: 2, linesRemoved: 2 });
    const codex = [
      '*** Begin Patch',
      '*** Add File: n.txt',
      '+hello',
      '*** Update File: x.ts',
      '@@',
      '-a',
      '+b',
      '*** End Patch',
    ].join('\n');
    const t = [assistant(call('1', 'apply_patch', { input: codex })), result('1', 'Done!')];
    expect(editStatsFromTranscript(t)).toEqual({ linesAdded: 2, linesRemoved: 1 });
  });

  it('skips results that report an error', () => {
    const t = [
      assistant(
        call('1', 'write_file', { content: 'a\nb' }),
        call('2', 'edit_file', { old_string: 'a', new_string: 'b' }),
      ),
      result('1', 'Error: permission denied'),
      result('2', 'failed', { isError: true }),
    ];
    expect(editStatsFromTranscript(t)).toEqual(ZERO_EDIT_STATS);
  });

  it('ignores tools that do not mutate files and results without a call', () => {
    const t = [assistant(call('1', 'read_file', { path: 'a' })), result('1', 'a\nb\nc'), result('ghost')];
    expect(editStatsFromTranscript(t)).toEqual(ZERO_EDIT_STATS);
  });

  it('matches results by id, not position, and counts each call once', () => {
    const t = [
      assistant(
        call('w', 'write_file', { content: 'a\nb\nc' }),
        call('e', 'edit_file', { old_string: 'a', new_string: 'b' }),
      ),
      result('e', 'Error: no match'),
      result('w'),
      result('w'),
    ];
    expect(editStatsFromTranscript(t)).toEqual({ linesAdded: 3, linesRemoved: 0 });
  });

  it('handles providers that reuse call ids in every turn', () => {
    const t = [
      assistant(call('call_0', 'write_file', { content: 'a' })),
      result('call_0'),
      assistant(call('call_0', 'edit_file', { old_string: 'a\nb', new_string: 'c' })),
      result('call_0'),
    ];
    expect(editStatsFromTranscript(t)).toEqual({ linesAdded: 2, linesRemoved: 2 });
  });

  it('accepts namespaced tool names and counts reported by the tool', () => {
    const t = [
      assistant(
        call('1', 'mcp__fs__write_file', { content: 'a\nb' }),
        call('2', 'functions.apply_patch', { patch: '+x' }),
      ),
      result('1'),
      result('2', 'ok', { linesAdded: 7, linesRemoved: 4 }),
    ];
    expect(editStatsFromTranscript(t)).toEqual({ linesAdded: 9, linesRemoved: 4 });
  });
});

describe('editStatsFromTranscript: running stats', () => {
  it('adds a later step onto the stats of the earlier ones', () => {
    const earlier = [
      assistant(call('0', 'edit_file', { old_string: 'a', new_string: '1\n2\n3\n4\n5\n6\n7\n8\n9\n10' })),
      result('0'),
    ];
    expect(editStatsFromTranscript(earlier)).toEqual({ linesAdded: 10, linesRemoved: 1 });
    const step = [assistant(call('1', 'write', { content: 'x\ny' })), result('1')];
    expect(editStatsFromTranscript([...earlier, ...step])).toEqual({
      linesAdded: 12,
      linesRemoved: 1,
    });
  });
});
