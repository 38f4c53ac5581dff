import { describe, expect, it } from 'vitest';
import { hardTruncate } from '../../src/domain/compression/hard-truncate.js';
import { assistant, call, charTokens, result, snapshot, summary, system, user, x } from './compression-fixtures.js';

describe('hardTruncate', () => {
  it('drops oldest whole turns until under half the window', () => {
    const t1 = [user(x(100)), assistant(x(100))];
    const t2 = [user(x(100)), call('1'), result('1', x(100))];
    const t3 = [user(x(50)), assistant(x(50))];
    const ctx = [...t1, ...t2, ...t3];
    const before = snapshot(ctx);
    // t3 alone ~100 tokens, t2 + t3 ~ 320: limit 0.5 × 500 = 250
    const r = hardTruncate(ctx, { window: 500, estimate: charTokens });
    expect(r.context).toEqual(t3);
    expect(r.dropped).toEqual([...t1, ...t2]);
    expect(snapshot(ctx)).toEqual(before);
  });

  it('stops as soon as the estimate is strictly below the limit', () => {
    const t1 = [user(x(100))];
    const t2 = [user(x(100))];
    const t3 = [user(x(100))];
    const r1 = hardTruncate([...t1, ...t2, ...t3], { window: 400, estimate: charTokens });
    expect(r1.context).toEqual(t3);
    const r2 = hardTruncate([...t1, ...t2, ...t3], { window: 402, estimate: charTokens });
    expect(r2.context).toEqual([...t2, ...t3]);
  });

  it('keeps system messages in place and the newest turn even if it alone is too big', () => {
    const s = system('rules');
    const t1 = [user('a')];
    const t2 = [user(x(5000))];
    const r = hardTruncate([s, ...t1, ...t2], { window: 100, estimate: charTokens });
    expect(r.context).toEqual([s, ...t2]);
  });

  it('prices the stub with what is kept: the bound covers everything kept', () => {
    const t1 = [user(x(100))];
    const t2 = [user(x(100))];
    const t3 = [user(x(100))];
    const stub = summary(x(60));
    // 300 tokens of turns, limit 0.5 × 500 = 250: without the stub t2 + t3 (200) would stay; with it, 260 ≥ 250.
    const plain = hardTruncate([...t1, ...t2, ...t3], { window: 500, estimate: charTokens });
    expect(plain.context).toEqual([...t2, ...t3]);
    const r = hardTruncate([...t1, ...t2, ...t3], {
      window: 500,
      estimate: charTokens,
      stub: (d) => (d.length ? stub : null),
    });
    expect(r.context).toEqual(t3);
    expect(r.stub).toBe(stub);
    expect(charTokens([stub, ...r.context])).toBeLessThan(250);
  });

  it('drops a leading summary first and changes nothing when already small', () => {
    const sm = summary(x(1000));
    const t = [user('a'), assistant('b')];
    expect(hardTruncate([sm, ...t], { window: 1000, estimate: charTokens }).context).toEqual(t);
    expect(hardTruncate(t, { window: 1000, estimate: charTokens })).toEqual({ context: t, dropped: [], stub: null });
  });
});
