import { describe, expect, it } from 'vitest';
import { costOf } from '../../src/domain/cost.js';
import { promptCacheKey } from '../../src/domain/prompt-cache.js';

describe('costOf with prompt caching', () => {
  const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

  it('prices cache reads at cacheRead and writes at cacheWrite, each prompt token once', () => {
    // 1000 prompt tokens: 600 read from the cache, 300 written to it, 100 plain input
    const usage = { promptTokens: 1000, completionTokens: 10, cachedPromptTokens: 600, cacheWriteTokens: 300 };
    expect(costOf(usage, price).usd).toBeCloseTo((100 * 3 + 600 * 0.3 + 300 * 3.75 + 10 * 15) / 1e6, 15);
  });

  it('falls back to cachedInput, then input; counts beyond the prompt are clamped', () => {
    expect(costOf({ promptTokens: 100, cachedPromptTokens: 40 }, { input: 1, output: 1, cachedInput: 0.5 }).usd).toBe(
      (60 + 20) / 1e6,
    );
    expect(
      costOf({ promptTokens: 100, cachedPromptTokens: 40, cacheWriteTokens: 10 }, { input: 1, output: 1 }).usd,
    ).toBe(100 / 1e6);
    expect(costOf({ promptTokens: 10, cachedPromptTokens: 8, cacheWriteTokens: 8 }, price).usd).toBeCloseTo(
      (8 * 0.3 + 2 * 3.75) / 1e6,
      15,
    );
    expect(costOf({ promptTokens: 10 }, undefined)).toEqual({ usd: 0, priced: false });
  });

  it('the prompt cache key is stable per session, differs between sessions and hides the id', () => {
    const id = '0b8f7e4e-9a55-4a43-9d43-8a2f1f8d1c10';
    expect(promptCacheKey(id)).toBe(promptCacheKey(id));
    expect(promptCacheKey(id)).not.toBe(promptCacheKey('0b8f7e4e-9a55-4a43-9d43-8a2f1f8d1c11'));
    expect(promptCacheKey(id)).toMatch(/^session-[0-9a-f]{32}$/);
    expect(promptCacheKey(id)).not.toContain(id.replace(/-/g, '').slice(0, 8));
  });
});
