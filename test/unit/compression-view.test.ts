import { describe, expect, it } from 'vitest';
import { buildPrompt } from '../../src/domain/prompt.js';
import { CalibrationRegistry } from '../../src/domain/tokens.js';
import type { ChatMessage } from '../../src/domain/types.js';
import { evaluateContextSize, messageTokenBudget, truncateMiddle, truncateOversized } from '../../src/domain/view.js';
import { assistant, result, snapshot, user, x } from './compression-fixtures.js';

describe('messageTokenBudget', () => {
  it('auto (0) is window // 6', () => {
    expect(messageTokenBudget(0, 60_000)).toBe(10_000);
    expect(messageTokenBudget(0, 32_769)).toBe(5461);
  });
  it('a configured budget wins', () => {
    expect(messageTokenBudget(2000, 60_000)).toBe(2000);
  });
});

describe('truncateMiddle', () => {
  it('keeps head and tail with a marker naming the cut size, within maxChars', () => {
    const text = `HEAD${x(2000)}TAIL`;
    const out = truncateMiddle(text, 200);
    expect(out.length).toBeLessThanOrEqual(200);
    expect(out.startsWith('HEAD')).toBe(true);
    expect(out.endsWith('TAIL')).toBe(true);
    const marker = /\n\[… (\d+) chars truncated …\]\n/.exec(out);
    expect(marker).not.toBeNull();
    expect(Number(marker?.[1])).toBe(text.length - (out.length - (marker?.[0].length ?? 0)));
  });
  it('leaves short text alone', () => {
    expect(truncateMiddle('abc', 10)).toBe('abc');
  });
});

describe('truncateOversized', () => {
  const reg = () => new CalibrationRegistry();

  it('cuts content longer than the budget in the view only', () => {
    const big = result('c1', `START${x(5000)}END`);
    const small = user('hello');
    const input = [small, big];
    const before = snapshot(input);
    const view = truncateOversized(input, 100, 'm', reg());
    expect(snapshot(input)).toEqual(before);
    expect(view[0]).toBe(small);
    expect(view[1]).not.toBe(big);
    expect(view[1].content.length).toBeLessThanOrEqual(180);
    expect(view[1].content).toMatch(/\[… \d+ chars truncated …\]/);
    expect(view[1].content.startsWith('START')).toBe(true);
    expect(view[1].content.endsWith('END')).toBe(true);
    expect(view[1].toolCallId).toBe('c1');
  });

  it('converts the token budget with the calibrated chars-per-token', () => {
    const r = reg();
    r.recordObservation('m', 1000, 500);
    r.recordObservation('m', 2000, 1000);
    const view = truncateOversized([assistant(x(250))], 100, 'm', r);
    expect(view[0].content.length).toBeLessThanOrEqual(200);
    expect(truncateOversized([assistant(x(200))], 100, 'm', r)[0].content).toBe(x(200));
  });

  it('a non-positive budget disables truncation', () => {
    const m = assistant(x(10_000));
    expect(truncateOversized([m], 0, 'm', reg())[0]).toBe(m);
  });
});

describe('evaluateContextSize', () => {
  it('limit is window − outputReserve', () => {
    expect(evaluateContextSize({ estimate: 7952, window: 10_000, outputReserve: 2048 })).toEqual({
      estimate: 7952,
      limit: 7952,
      overLimit: false,
    });
    expect(evaluateContextSize({ estimate: 7953, window: 10_000, outputReserve: 2048 }).overLimit).toBe(true);
  });

  it('caps the reserve at a quarter of the window', () => {
    expect(evaluateContextSize({ estimate: 700, window: 1000, outputReserve: 2048 })).toEqual({
      estimate: 700,
      limit: 750,
      overLimit: false,
    });
    expect(evaluateContextSize({ estimate: 800, window: 1000, outputReserve: 2048 }).overLimit).toBe(true);
  });
});

describe('buildPrompt prices the view', () => {
  const rules = {
    model: 'm',
    vision: true,
    window: 6000,
    messageTokenBudget: 0,
    fallbackImageTokens: 1024,
    systemPrompt: '',
    images: new Map(),
  };

  it('prices the truncated view, not the raw message', () => {
    const registry = new CalibrationRegistry();
    const estimate = (context: ChatMessage[], messageTokenBudget = 0) =>
      buildPrompt({ ...rules, registry, messageTokenBudget, context }).estimate;
    // budget = 6000 // 6 = 1000 tokens = 1800 chars at the fallback rate
    expect(estimate([result('c', x(1_000_000))])).toBeLessThanOrEqual(1000);
    expect(estimate([user(x(180))])).toBe(100);
    expect(estimate([result('c', x(1_000_000))], 100)).toBeLessThanOrEqual(100);
  });

  it('adds image costs', () => {
    const images = new Map([['a.png', { path: 'a.png', bytes: 100, tokens: 1026, b64: 'B64' }]]);
    const prompt = buildPrompt({
      ...rules,
      registry: new CalibrationRegistry(),
      images,
      context: [user(x(180), { images: ['a.png'] })],
    });
    expect(prompt.estimate).toBe(1126);
  });
});
