import { describe, expect, it } from 'vitest';
import {
  buildSummaryMessage,
  capSummaryInput,
  formatForSummary,
  formatSummariesForMeta,
  MAX_SUMMARY_INPUT_CHARS,
  META_SUMMARY_SYSTEM_PROMPT,
  needsMetaSummary,
  previewToolCall,
  previewToolResult,
  replaceSummaries,
  splitKeysLine,
  SUMMARY_SYSTEM_PROMPT,
} from '../../src/domain/compression/format.js';
import { assistant, call, note, result, summary, user, x } from './compression-fixtures.js';

describe('tool call previews', () => {
  it('shows args up to 120 chars', () => {
    expect(previewToolCall('ls', { p: '/tmp' })).toBe('→ ls({"p":"/tmp"})');
    const long = previewToolCall('write', { body: x(500) });
    expect(long).toBe(`→ write(${JSON.stringify({ body: x(500) }).slice(0, 120)}…)`);
  });
});

describe('tool result previews', () => {
  it('non-critical results are cut to an 800-char preview', () => {
    expect(previewToolResult(x(800), false)).toBe(x(800));
    const p = previewToolResult(`${x(800)}TAIL`, false);
    expect(p.startsWith(x(800))).toBe(true);
    expect(p).not.toContain('TAIL');
    expect(p).toContain('[4 more chars]');
  });

  it('critical results are verbatim up to 4000 chars, then 2000 head + 2000 tail', () => {
    expect(previewToolResult(x(4000), true)).toBe(x(4000));
    const text = `${x(2000, 'a')}${x(1000, 'Q')}${x(2000, 'z')}`;
    const p = previewToolResult(text, true);
    expect(p.startsWith(x(2000, 'a'))).toBe(true);
    expect(p.endsWith(x(2000, 'z'))).toBe(true);
    expect(p).not.toContain('Q');
    expect(p).toContain('[… 1000 chars omitted …]');
  });

  it('formatForSummary treats isCompressionCritical and critical tool names as critical', () => {
    const body = `${x(1000)}END`;
    const flagged = formatForSummary([call('1', 'custom'), result('1', body, { isCompressionCritical: true })]).text;
    expect(flagged).toContain('END');
    const byName = formatForSummary([call('2', 'read_file'), result('2', body)]).text;
    expect(byName).toContain('TOOL RESULT (read_file)');
    expect(byName).toContain('END');
    const plain = formatForSummary([call('3', 'shell'), result('3', body)]).text;
    expect(plain).not.toContain('END');
    const custom = formatForSummary([call('4', 'shell'), result('4', body)], { criticalToolNames: new Set(['shell']) });
    expect(custom.text).toContain('END');
  });

  it('labels roles, summaries and notes, and shows tool calls compactly', () => {
    const text = formatForSummary([
      summary('earlier'),
      user('hi'),
      note('reminder'),
      call('1', 'grep', { q: 'x' }, { content: 'searching' }),
    ]).text;
    expect(text).toContain('PREVIOUS SUMMARY: earlier');
    expect(text).toContain('USER: hi');
    expect(text).toContain('NOTE: reminder');
    expect(text).toContain('ASSISTANT: searching\n→ grep({"q":"x"})');
  });
});

describe('images for the summarizer', () => {
  const img = (b64: string) => result('i', 'screenshot', { metadata: { is_image: true, base64: b64 } });
  const price = () => 1026;

  it('vision profiles get images up to window × 0.25; every image is noted', () => {
    const msgs = [img('A'), img('B'), img('C'), user('look', { images: ['session_files/s/image_1.png'] })];
    const out = formatForSummary(msgs, { vision: true, window: 10_000, priceImage: price });
    expect(out.images.map((i) => i.value)).toEqual(['A', 'B']);
    expect(out.omittedImages).toBe(2);
    expect(out.text.match(/\[\+ 1 image\(s\)\]/g)).toHaveLength(4);
  });

  it('prices each image with the given function', () => {
    const msgs = [img('big'), img('small')];
    const out = formatForSummary(msgs, {
      vision: true,
      window: 4000,
      priceImage: (i) => (i.value === 'big' ? 4096 : 256),
    });
    expect(out.images.map((i) => i.value)).toEqual(['small']);
  });

  it('non-vision profiles get notes only', () => {
    const out = formatForSummary([img('A')], { vision: false, window: 100_000, priceImage: price });
    expect(out.images).toEqual([]);
    expect(out.omittedImages).toBe(1);
    expect(out.text).toContain('[+ 1 image(s)]');
  });
});

describe('summary input cap', () => {
  it('cuts to 32,000 chars keeping 75% head and 25% tail', () => {
    const text = `OLDEST${x(50_000)}NEWEST`;
    const out = capSummaryInput(text);
    expect(out.length).toBeLessThanOrEqual(MAX_SUMMARY_INPUT_CHARS);
    expect(out.startsWith('OLDEST')).toBe(true);
    expect(out.endsWith('NEWEST')).toBe(true);
    const [head, tail] = out.split(/\n\[… \d+ chars omitted …\]\n/);
    expect(head.length / (head.length + tail.length)).toBeCloseTo(0.75, 2);
    expect(head.length + tail.length).toBeGreaterThan(MAX_SUMMARY_INPUT_CHARS - 100);
  });

  it('formatForSummary applies the cap', () => {
    const msgs = Array.from({ length: 100 }, (_, i) => user(`${i} ${x(1000)}`));
    expect(formatForSummary(msgs).text.length).toBeLessThanOrEqual(MAX_SUMMARY_INPUT_CHARS);
    expect(formatForSummary(msgs).text).toContain('USER: 99 ');
  });
});

describe('meta-summary', () => {
  it('needs several existing summaries totalling > 10,600 chars', () => {
    expect(needsMetaSummary([summary(x(6000)), summary(x(5000))])).toBe(true);
    expect(needsMetaSummary([summary(x(5000)), summary(x(5000))])).toBe(false);
    expect(needsMetaSummary([summary(x(20_000)), user(x(20_000))])).toBe(false);
  });

  it('replaceSummaries puts the merged one in place of the first and drops the rest', () => {
    const [s1, u, s2, a] = [summary('1'), user('u'), summary('2'), assistant('a')];
    const merged = summary('merged');
    expect(replaceSummaries([s1, u, s2, a], merged)).toEqual([merged, u, a]);
    expect(formatSummariesForMeta([s1, u, s2])).toBe('SUMMARY 1:\n1\n\nSUMMARY 2:\n2');
    expect(META_SUMMARY_SYSTEM_PROMPT).toContain('KEYS:');
  });
});

describe('KEYS line', () => {
  it('splits a trailing KEYS line into breadcrumbs', () => {
    const r = splitKeysLine('- did a\n- did b\nKEYS: src/app.ts, `npm test`, DB_URL, src/app.ts\n\n');
    expect(r.summary).toBe('- did a\n- did b');
    expect(r.keys).toEqual(['src/app.ts', 'npm test', 'DB_URL']);
  });

  it('accepts bold or bulleted variants', () => {
    expect(splitKeysLine('x\n**KEYS:** a, b').keys).toEqual(['a', 'b']);
    expect(splitKeysLine('x\n- Keys: a').keys).toEqual(['a']);
  });

  it('returns a summary without the line unchanged', () => {
    const s = '- one\n- two mentions KEYS: inline';
    expect(splitKeysLine(s)).toEqual({ summary: s, keys: [] });
  });

  it('the system prompt asks for bullet points ending with one KEYS line', () => {
    expect(SUMMARY_SYSTEM_PROMPT).toMatch(/bullet/i);
    expect(SUMMARY_SYSTEM_PROMPT).toContain('KEYS: item, item');
  });
});

describe('buildSummaryMessage', () => {
  it('is a user-role, context-only summary carrying breadcrumbs', () => {
    const m = buildSummaryMessage('- did things', ['a.ts', 'JIRA-1'], { sequenceNumber: 7 });
    expect(m.role).toBe('user');
    expect(m.isSummary).toBe(true);
    expect(m.isDisplay).toBe(false);
    expect(m.isContext).toBe(true);
    expect(m.metadata.breadcrumbs).toEqual(['a.ts', 'JIRA-1']);
    expect(m.content).toContain('- did things');
    expect(m.sequenceNumber).toBe(7);
  });
});
