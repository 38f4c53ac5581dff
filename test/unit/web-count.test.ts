/** The web client's search count: exact counts as numbers, a capped one as "10,000+" (totalCountIsExact false). */
import { describe, expect, it } from 'vitest';
import { matchCount } from '../../web/src/dom.js';

describe('matchCount', () => {
  it('shows exact counts plainly and a capped count as a lower bound', () => {
    expect(matchCount(0, true)).toBe('0');
    expect(matchCount(3, true)).toBe('3');
    expect(matchCount(1204, true)).toBe('1,204');
    expect(matchCount(10_000, true)).toBe('10,000');
    expect(matchCount(10_000, false)).toBe('10,000+');
  });
});
