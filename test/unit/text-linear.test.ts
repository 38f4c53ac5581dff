/**
 * The hand-written replacements for quadratic regexes answer exactly what the
 * regexes answered (property tests against the old patterns on short inputs,
 * where the old patterns are still fast).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headOf, trimEndChars, trimStartChars } from '../../src/domain/text.js';
import { inlineScripts, isHashedAsset } from '../../src/web/serve.js';

const alphabet = (chars: string) => fc.string({ unit: fc.constantFrom(...Array.from(chars)), maxLength: 40 });

describe('linear text helpers', () => {
  it('trimEndChars / trimStartChars equal the anchored character-class regexes', () => {
    fc.assert(
      fc.property(alphabet('ab .,;\t\n—😀'), (s) => {
        expect(trimEndChars(s, '.,;—', { whitespace: true })).toBe(s.replace(/[\s.,;—]+$/u, ''));
        expect(trimStartChars(s, '.', { whitespace: true })).toBe(s.replace(/^[\s.]+/u, ''));
        expect(trimEndChars(s, '😀.')).toBe(s.replace(/[😀.]+$/u, ''));
      }),
    );
  });

  it('headOf never splits a surrogate pair', () => {
    expect(headOf('a😀', 2)).toBe('a');
    expect(headOf('ab😀', 4)).toBe('ab😀');
    expect(headOf('x'.repeat(10), 4)).toBe('xxxx');
  });

  it('isHashedAsset equals the old `[name]-[hash].ext` regex', () => {
    const old = /^\/assets\/.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;
    const paths = fc.oneof(
      alphabet('aZ9_-./').map((s) => `/assets/${s}`),
      alphabet('aZ9_-.').map((s) => `/assets/index-${s}`),
      alphabet('ab-/').map((s) => `/${s}`),
    );
    fc.assert(
      fc.property(paths, (p) => {
        expect(isHashedAsset(p)).toBe(old.test(p));
      }),
      { numRuns: 2000 },
    );
    expect(isHashedAsset('/assets/index-BqUe7x9a.js')).toBe(true);
    expect(isHashedAsset('/assets/index-Bq-e_x9a.css')).toBe(true);
    expect(isHashedAsset('/assets/-BqUe7x9a.js')).toBe(false);
  });

  it('inlineScripts equals the old script-body regex', () => {
    const old = (html: string) =>
      [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)]
        .map((m) => m[1]!)
        .filter((c) => c.trim().length > 0);
    const parts = fc.array(
      fc.constantFrom(
        '<script>',
        '<SCRIPT type="module">',
        '<script src="/a.js">',
        '</script>',
        '</SCRIPT>',
        'x=1;',
        ' ',
        '<p>',
        '>',
      ),
      {
        maxLength: 12,
      },
    );
    fc.assert(
      fc.property(parts, (p) => {
        expect(inlineScripts(p.join(''))).toEqual(old(p.join('')));
      }),
      { numRuns: 2000 },
    );
  });
});
