import { describe, expect, it } from 'vitest';
import {
  capNewToolResults,
  capToolResults,
  MIN_KEEP_MESSAGES,
  pruneOldToolResults,
  pruneToBudget,
  shakeOldToolResults,
  SPILL_HEAD_CHARS,
  spillOldToolResults,
  TOOL_RESULT_MAX_CHARS,
  TOOL_RESULT_PRUNE_CHARS,
  TOOL_RESULT_SHAKE_CHARS,
} from '../../src/domain/compression/tool-results.js';
import type { ChatMessage } from '../../src/domain/types.js';
import { assistant, call, charTokens, result, snapshot, system, user, x } from './compression-fixtures.js';

const body = (n: number) => `HEAD${x(n - 8)}TAIL`;

/** n tool groups, each [call, result(size)] */
function groups(n: number, size: number): ChatMessage[] {
  return Array.from({ length: n }, (_, i) => [call(`g${i}`), result(`g${i}`, body(size))]).flat();
}

describe('capping', () => {
  it('caps oversized tool results head + tail, leaves others alone', () => {
    const big = result('1', body(TOOL_RESULT_MAX_CHARS + 5000));
    const small = result('2', 'ok');
    const u = user(x(TOOL_RESULT_MAX_CHARS + 5000));
    const [cBig, cSmall, cUser] = capNewToolResults([big, small, u]);
    expect(cBig.content.length).toBeLessThanOrEqual(TOOL_RESULT_MAX_CHARS);
    expect(cBig.content.startsWith('HEAD')).toBe(true);
    expect(cBig.content.endsWith('TAIL')).toBe(true);
    expect(cBig.content).toMatch(/chars truncated/);
    expect(cSmall).toBe(small);
    expect(cUser).toBe(u);
  });

  it('capToolResults reports the count and never mutates the input', () => {
    const msgs = [result('1', body(TOOL_RESULT_MAX_CHARS + 1)), result('2', 'x')];
    const before = snapshot(msgs);
    const r = capToolResults(msgs);
    expect(r.changed).toBe(1);
    expect(snapshot(msgs)).toEqual(before);
  });
});

describe('prune / shake older tool results', () => {
  it('prune: the last 3 results keep the normal cap, older ones are cut to the prune size', () => {
    const msgs = groups(5, 10_000);
    const r = pruneOldToolResults(msgs);
    const tools = r.messages.filter((m) => m.role === 'tool');
    expect(tools.slice(0, 2).every((m) => m.content.length <= TOOL_RESULT_PRUNE_CHARS)).toBe(true);
    expect(tools.slice(2).every((m) => m.content.length === 10_000)).toBe(true);
    expect(r.changed).toBe(2);
  });

  it('shake: older results go down to the shake size', () => {
    const r = shakeOldToolResults(groups(4, 5000));
    const tools = r.messages.filter((m) => m.role === 'tool');
    expect(tools[0].content.length).toBeLessThanOrEqual(TOOL_RESULT_SHAKE_CHARS);
    expect(tools[0].content.endsWith('TAIL')).toBe(true);
    expect(tools.slice(1).every((m) => m.content.length === 5000)).toBe(true);
  });

  it('shake leaves a spilled body (and its pointer) alone', () => {
    const spilled = result('s', `${x(3000)}\n[pointer]`, { metadata: { spilled: 'file://x' } });
    const msgs = [call('s'), spilled, ...groups(3, 10)];
    expect(shakeOldToolResults(msgs).messages[1]).toBe(spilled);
  });
});

describe('spill', () => {
  it('moves old long bodies out through store, keeping the head and a pointer line', () => {
    const msgs = groups(5, TOOL_RESULT_PRUNE_CHARS + 100);
    const stored: Array<[string, string]> = [];
    const r = spillOldToolResults(msgs, (id, b) => {
      stored.push([id, b]);
      return `spill/${id}.txt`;
    });
    expect(r.spilled).toBe(2);
    expect(stored.map(([id]) => id)).toEqual(['g0', 'g1']);
    expect(stored[0][1]).toBe(msgs[1].content);
    const first = r.messages[1];
    expect(first.content.startsWith(msgs[1].content.slice(0, SPILL_HEAD_CHARS))).toBe(true);
    expect(first.content).toContain('spill/g0.txt');
    expect(first.content.length).toBeLessThan(SPILL_HEAD_CHARS + 200);
    expect(first.metadata.spilled).toBe('spill/g0.txt');
    expect(r.messages.slice(4)).toEqual(msgs.slice(4));
    expect(msgs[1].content.length).toBe(TOOL_RESULT_PRUNE_CHARS + 100);
  });

  it('leaves short, already spilled and declined bodies alone', () => {
    const already = result('a', x(TOOL_RESULT_PRUNE_CHARS + 1), { metadata: { spilled: 'p' } });
    const short = result('b', x(TOOL_RESULT_PRUNE_CHARS));
    const declined = result('c', x(TOOL_RESULT_PRUNE_CHARS + 1));
    const msgs = [call('a'), already, call('b'), short, call('c'), declined, ...groups(3, 10)];
    const seen: string[] = [];
    const r = spillOldToolResults(msgs, (id) => {
      seen.push(id);
      return null;
    });
    expect(seen).toEqual(['c']);
    expect(r.spilled).toBe(0);
    expect(r.messages).toEqual(msgs);
  });
});

describe('pruneToBudget', () => {
  it('does not reshuffle when under ¾ · budget after the caps', () => {
    const msgs = [user('hi'), ...groups(2, 100)];
    const r = pruneToBudget(msgs, { budgetTokens: 10_000, estimate: charTokens });
    expect(r.messages).toEqual(msgs);
    expect(r.dropped).toEqual([]);
  });

  it('caps first, and stops there when that is enough', () => {
    const msgs = [user('hi'), call('1'), result('1', body(TOOL_RESULT_MAX_CHARS * 2))];
    const r = pruneToBudget(msgs, { budgetTokens: 50_000, estimate: charTokens });
    expect(r.dropped).toEqual([]);
    expect(r.changed).toBe(1);
    expect(r.messages[2].content.length).toBeLessThanOrEqual(TOOL_RESULT_MAX_CHARS);
  });

  it('drops the oldest messages until under ¾ · budget and prepends a stub summary', () => {
    const msgs = [user('first request'), assistant('a'), ...groups(6, 1000), user('latest'), assistant('done')];
    const r = pruneToBudget(msgs, { budgetTokens: 4000, estimate: charTokens });
    expect(r.dropped.length).toBeGreaterThan(0);
    expect(r.dropped[0]).toBe(msgs[0]);
    const [stub, ...kept] = r.messages;
    expect(stub.isSummary).toBe(true);
    expect(stub.isDisplay).toBe(false);
    expect(stub.content).toContain(`${r.dropped.length} message(s)`);
    expect(stub.content).toContain('first request');
    expect(charTokens(kept)).toBeLessThanOrEqual(3000);
    expect(kept).toEqual(msgs.slice(r.dropped.length));
    expect(kept[0].role).not.toBe('tool');
  });

  it('keeps at least MIN_KEEP_MESSAGES and keeps system messages', () => {
    const s = system('rules');
    const msgs = [s, ...groups(6, 1000)];
    const r = pruneToBudget(msgs, { budgetTokens: 10, estimate: charTokens });
    const kept = r.messages.filter((m) => !m.isSummary && m.role !== 'system');
    expect(kept.length).toBeGreaterThanOrEqual(MIN_KEEP_MESSAGES);
    expect(r.messages[0]).toBe(s);
    expect(r.messages[1].isSummary).toBe(true);
  });
});
