import { describe, expect, it } from 'vitest';
import { planCompression, wouldCompress } from '../../src/domain/compression/planner.js';
import { turnImportance } from '../../src/domain/compression/importance.js';
import type { ChatMessage } from '../../src/domain/types.js';
import { assistant, call, charTokens, note, result, summary, system, user, x } from './compression-fixtures.js';

const BIG = 1_000_000;
const plan = (ctx: ChatMessage[], opts: Partial<Parameters<typeof planCompression>[1]> = {}) =>
  planCompression(ctx, { keepRecent: 4, window: BIG, estimate: charTokens, ...opts });

function turns(n: number, size = 10): ChatMessage[][] {
  return Array.from({ length: n }, (_, i) => [user(`q${i} ${x(size)}`), assistant(`a${i} ${x(size)}`)]);
}

describe('planCompression — turns', () => {
  it('keeps the last keepRecent turns and summarizes the rest', () => {
    const t = turns(6);
    const p = plan(t.flat());
    expect(p.toSummarize).toEqual([...t[0], ...t[1]]);
    expect(p.toKeep).toEqual(t.slice(2).flat());
    expect(p.wouldCompress).toBe(true);
    expect(p.mode).toBe('turns');
    expect(p.keptTokens).toBe(charTokens(p.toKeep));
  });

  it('shrinks keepRecent until the kept region fits window × target', () => {
    const t = turns(6, 100);
    const perTurn = charTokens(t[0]);
    // two turns fit 0.65 × window, three do not
    const window = Math.ceil((2.5 * perTurn) / 0.65);
    const p = plan(t.flat(), { window });
    expect(p.toKeep).toEqual(t.slice(4).flat());
    expect(p.keptTokens).toBeLessThanOrEqual(window * 0.65);
    expect(p.budget).toBeCloseTo(window * 0.65);
  });

  it('honours a custom target', () => {
    const t = turns(6, 100);
    const perTurn = charTokens(t[0]);
    const p = plan(t.flat(), { window: 10 * perTurn, target: 0.35 });
    expect(p.toKeep).toEqual(t.slice(3).flat());
  });

  it('never drops the newest turn, even when it alone exceeds the budget', () => {
    const t = turns(3, 1000);
    const p = plan(t.flat(), { window: 100 });
    expect(p.toKeep).toEqual(t[2]);
    expect(p.wouldCompress).toBe(true);
  });

  it('nothing to compress when every turn is already kept', () => {
    const t = turns(3);
    const p = plan(t.flat());
    expect(p.wouldCompress).toBe(false);
    expect(p.toSummarize).toEqual([]);
    expect(p.mode).toBe('none');
    expect(wouldCompress(t.flat(), { keepRecent: 4, window: BIG, estimate: charTokens })).toBe(false);
  });

  it('a lone summary before the kept turns is not something to compact (automatic or forced)', () => {
    const t = turns(2, 1000);
    const ctx = [summary(`[Summary] ${x(2000)}`), ...t.flat()];
    // Over the window, so an automatic trigger would fire: still nothing to summarise but the summary.
    const p = plan(ctx, { keepRecent: 2, window: 7000 });
    expect(charTokens(ctx)).toBeGreaterThan(0.75 * 7000);
    expect(p.wouldCompress).toBe(false);
    expect(p.toSummarize).toEqual([]);
    expect(p.toKeep).toEqual(ctx);
    expect(p.mode).toBe('none');
    // Two summaries can be merged, and a summary with a real turn can shrink: those still compress.
    expect(plan([summary('s1'), summary('s2'), ...t.flat()], { keepRecent: 2 }).wouldCompress).toBe(true);
    expect(plan([summary('s1'), ...turns(3).flat()], { keepRecent: 2 }).toSummarize).toHaveLength(3);
  });

  it('separates system messages; they are never summarized', () => {
    const s = system('policy');
    const t = turns(6);
    const p = plan([s, ...t.flat()]);
    expect(p.systemMessages).toEqual([s]);
    expect(p.toSummarize).not.toContain(s);
    expect(p.toKeep).not.toContain(s);
  });

  it('an agent note is not a user turn', () => {
    const [u1, a1, u2, a2, n, a3] = [
      user('u1'),
      assistant('a1'),
      user('u2'),
      assistant('a2'),
      note('n'),
      assistant('a3'),
    ];
    const p = plan([u1, a1, u2, a2, n, a3], { keepRecent: 1 });
    expect(p.toKeep).toEqual([u2, a2, n, a3]);
    expect(p.toSummarize).toEqual([u1, a1]);
  });

  it('existing summaries are summarizable and do not count as turns', () => {
    const s = summary('old summary');
    const t = turns(3);
    const p = plan([s, ...t.flat()], { keepRecent: 2 });
    expect(p.toSummarize).toEqual([s, ...t[0]]);
    expect(p.wouldCompress).toBe(true);
  });

  it('without keepRecentMessages a single long turn cannot be compressed', () => {
    const ctx = [user('do it'), call('1'), result('1', x(5000)), call('2'), result('2', x(5000))];
    const p = plan(ctx, { window: 1000 });
    expect(p.wouldCompress).toBe(false);
    expect(p.toKeep).toEqual(ctx);
  });
});

describe('planCompression — intra-turn fallback', () => {
  const longTurn = () => {
    const u = user('build the thing');
    const groups = [0, 1, 2].map((i) => [call(`c${i}`), result(`c${i}`, `r${i} ${x(100)}`)]);
    const wide = [call('w', 'shell'), result('w', 'w1'), result('w', 'w2')];
    wide[0].toolCalls.push({ id: 'w2', name: 'shell', arguments: {} });
    wide[2].toolCallId = 'w2';
    return { u, groups, wide };
  };

  it('keeps the request + newest N messages, summarizes older messages of the turn', () => {
    const { u, groups } = longTurn();
    const ctx = [u, ...groups.flat()];
    const p = plan(ctx, { keepRecentMessages: 4 });
    expect(p.mode).toBe('intra-turn');
    expect(p.toKeep).toEqual([u, ...groups[1], ...groups[2]]);
    expect(p.toSummarize).toEqual(groups[0]);
  });

  it('never splits a tool group: N is rounded down to whole groups', () => {
    const { u, groups, wide } = longTurn();
    const ctx = [u, ...groups[0], ...wide, ...groups[2]];
    const p = plan(ctx, { keepRecentMessages: 4 });
    expect(p.toKeep).toEqual([u, ...groups[2]]);
    expect(p.toSummarize).toEqual([...groups[0], ...wide]);
  });

  it('always keeps at least the newest group even when it exceeds N', () => {
    const { u, groups, wide } = longTurn();
    const p = plan([u, ...groups[0], ...wide], { keepRecentMessages: 1 });
    expect(p.toKeep).toEqual([u, ...wide]);
  });

  it('retries with 2 messages when the requested window finds nothing', () => {
    const { u, groups } = longTurn();
    const ctx = [u, ...groups.flat()];
    const p = plan(ctx, { keepRecentMessages: 12 });
    expect(p.toKeep).toEqual([u, ...groups[2]]);
    expect(p.toSummarize).toEqual([...groups[0], ...groups[1]]);
    expect(p.wouldCompress).toBe(true);
  });

  it('shrinks the kept messages until they fit the budget', () => {
    const { u, groups } = longTurn();
    const ctx = [u, ...groups.flat()];
    const window = Math.ceil((charTokens([u, ...groups[2]]) + 10) / 0.65);
    const p = plan(ctx, { keepRecentMessages: 6, window });
    expect(p.toKeep).toEqual([u, ...groups[2]]);
    expect(p.keptTokens).toBeLessThanOrEqual(window * 0.65);
  });

  it('is used when the newest whole turn does not fit, and summarizes earlier turns too', () => {
    const { u, groups } = longTurn();
    const old = turns(2);
    const ctx = [...old.flat(), u, ...groups.flat()];
    const window = Math.ceil((charTokens([u, ...groups[2]]) + 10) / 0.65);
    const p = plan(ctx, { keepRecentMessages: 12, window });
    expect(p.mode).toBe('intra-turn');
    expect(p.toSummarize).toEqual([...old.flat(), ...groups[0], ...groups[1]]);
    expect(p.toKeep).toEqual([u, ...groups[2]]);
  });

  it('prefers whole turns when they fit, even with keepRecentMessages set', () => {
    const t = turns(6);
    const p = plan(t.flat(), { keepRecentMessages: 2 });
    expect(p.mode).toBe('turns');
    expect(p.toKeep).toEqual(t.slice(2).flat());
  });

  it('the request is the last real user message, not a later agent note', () => {
    const { u, groups } = longTurn();
    const n = note('keep going');
    const ctx = [u, ...groups[0], n, ...groups[1], ...groups[2]];
    const p = plan(ctx, { keepRecentMessages: 2 });
    expect(p.toKeep[0]).toBe(u);
    expect(p.toSummarize).toContain(n);
  });
});

describe('planCompression — adaptive importance', () => {
  const important = () => [user('We decided: never deploy on Fridays. Remember this.'), assistant('Agreed.')];
  const filler = (text: string) => [user(text), assistant('👍')];

  it('swaps an important old turn in place of a filler recent one', () => {
    const t1 = important();
    const t2 = filler('ok');
    const t3 = filler('thanks');
    const t4 = [user('what is next?'), assistant('the release')];
    const p = plan([...t1, ...t2, ...t3, ...t4], { keepRecent: 3 });
    expect(p.toKeep).toEqual([...t1, ...t3, ...t4]);
    expect(p.toSummarize).toEqual(t2);
  });

  it('does not swap when adaptive is off', () => {
    const t1 = important();
    const t2 = filler('ok');
    const t3 = filler('thanks');
    const p = plan([...t1, ...t2, ...t3], { keepRecent: 2, adaptive: false });
    expect(p.toSummarize).toEqual(t1);
  });

  it('never gives up the newest turn', () => {
    const t1 = important();
    const t2 = filler('ok');
    const p = plan([...t1, ...t2], { keepRecent: 1 });
    expect(p.toKeep).toEqual(t2);
    expect(p.toSummarize).toEqual(t1);
  });

  it('does not swap when the important turn would not fit the budget', () => {
    const t1 = [user(`Remember: ${x(2000)}`), assistant('Agreed.')];
    const t2 = filler('ok');
    const t3 = filler('thanks');
    const p = plan([...t1, ...t2, ...t3], { keepRecent: 2, window: 1000 });
    expect(p.toKeep).toEqual([...t2, ...t3]);
  });

  it('turnImportance ranks critical results, errors, decisions and long text over filler', () => {
    const score = (messages: ChatMessage[]) => turnImportance({ messages });
    expect(score(filler('ok'))).toBeLessThan(0);
    expect(score(filler('thanks!'))).toBeLessThan(0);
    expect(
      score([user('look'), call('1', 'custom'), result('1', 'data', { isCompressionCritical: true })]),
    ).toBeGreaterThanOrEqual(3);
    expect(score([user('run'), call('1'), result('1', 'Traceback: error in main')])).toBeGreaterThanOrEqual(2);
    expect(score([user('We decided to use Postgres'), assistant('ok')])).toBeGreaterThanOrEqual(2);
    expect(score([user(x(1500))])).toBeGreaterThan(score([user(x(100))]));
    expect(score([user('what time is it')])).toBe(0);
  });
});
