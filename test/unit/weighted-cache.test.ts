/**
 * Yoga's parser caches bounded by what they hold (src/http/limits.ts): a parsed document keeps its whole token
 * chain, comments included, so entries alone do not bound memory (20 comment-padded 1 MB queries held ~860 MB with
 * Yoga's default cache of 1,024 entries).
 */
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { documentTokens, parserCaches, WeightedCache } from '../../src/http/limits.js';

describe('documentTokens', () => {
  it('counts every token of the chain, comments included', () => {
    const plain = parse('{ a }');
    // <SOF> { a } <EOF>
    expect(documentTokens(plain)).toBe(5);
    expect(documentTokens(parse(`{ a }\n${'#\n'.repeat(100)}`))).toBe(105);
    expect(documentTokens(parse('{ a }', { noLocation: true }))).toBe(0);
  });
});

describe('WeightedCache', () => {
  const cache = () => new WeightedCache<number>(3, 100, (n) => n);

  it('evicts the least recently used entry when over its entries', () => {
    const c = cache();
    c.set('a', 1);
    c.set('b', 1);
    c.set('c', 1);
    expect(c.get('a')).toBe(1);
    c.set('d', 1);
    expect(c.get('b')).toBeUndefined();
    expect([c.get('a'), c.get('c'), c.get('d')]).toEqual([1, 1, 1]);
    expect(c.size()).toEqual({ entries: 3, weight: 3 * (2 + 1) });
  });

  it('evicts by weight (the key counts, 2 bytes a character) and keeps nothing heavier than the budget', () => {
    const c = cache();
    c.set('a', 40);
    c.set('b', 40);
    c.set('c', 40);
    expect(c.size()).toEqual({ entries: 2, weight: 84 });
    expect(c.get('a')).toBeUndefined();
    c.set('huge', 99);
    expect(c.get('huge')).toBeUndefined();
    expect(c.size().weight).toBeLessThanOrEqual(100);
  });

  it('replaces an entry without counting it twice', () => {
    const c = cache();
    c.set('a', 10);
    c.set('a', 20);
    expect(c.size()).toEqual({ entries: 1, weight: 22 });
  });

  it("holds Yoga's documents within the budget however they are padded", () => {
    const { documentCache } = parserCaches(4 * 1024 * 1024);
    for (let i = 0; i < 50; i++) {
      const text = `{ a${i} }\n${'#\n'.repeat(10_000)}`;
      documentCache.set(text, parse(text));
    }
    const { entries, weight } = documentCache.size();
    expect(weight).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(entries).toBeLessThan(50);
    expect(entries).toBeGreaterThan(0);
  });
});
