import { describe, expect, it } from 'vitest';
import { extractEntities, MAX_ENTITIES, mergeBreadcrumbs } from '../../src/domain/entities.js';

describe('extractEntities', () => {
  it('finds paths, URLs, backtick commands, config keys, tickets, amounts and emails', () => {
    const text = [
      'Edited src/domain/tokens.ts and ./scripts/run.sh, see README.md.',
      'Docs at https://example.com/docs?a=1.',
      'Run `npm run build` then set DATABASE_URL and NAVI_AUTH_ENABLED.',
      'Tracked in PROJ-1234, costs $12.50 (or 30 EUR).',
      'Mail ops@example.org for access.',
    ].join('\n');
    const e = extractEntities(text);
    for (const expected of [
      'src/domain/tokens.ts',
      './scripts/run.sh',
      'README.md',
      'https://example.com/docs?a=1',
      'npm run build',
      'DATABASE_URL',
      'NAVI_AUTH_ENABLED',
      'PROJ-1234',
      '$12.50',
      '30 EUR',
      'ops@example.org',
    ]) {
      expect(e).toContain(expected);
    }
  });

  it('does not report a URL or an email a second time as a path', () => {
    const e = extractEntities('see https://github.com/org/repo/blob/main/a.ts and me@host.io');
    expect(e).toEqual(['https://github.com/org/repo/blob/main/a.ts', 'me@host.io']);
  });

  it('orders by appearance and deduplicates case-insensitively', () => {
    expect(extractEntities('ABC-1 then src/a.ts then abc-1 then src/a.ts')).toEqual(['ABC-1', 'src/a.ts']);
  });

  it('ignores plain words and sentences', () => {
    expect(extractEntities('hello there, how are you today? Fine.')).toEqual([]);
  });

  it('caps the list', () => {
    const text = Array.from({ length: 50 }, (_, i) => `KEY_${i}`).join(' ');
    expect(extractEntities(text)).toHaveLength(MAX_ENTITIES);
    expect(extractEntities(text, 5)).toEqual(['KEY_0', 'KEY_1', 'KEY_2', 'KEY_3', 'KEY_4']);
  });
});

describe('mergeBreadcrumbs', () => {
  it('puts the summarizer keys first, dedupes and caps', () => {
    expect(mergeBreadcrumbs(['Deploy on Monday', 'src/a.ts'], ['SRC/A.TS', 'B_KEY', ' '])).toEqual([
      'Deploy on Monday',
      'src/a.ts',
      'B_KEY',
    ]);
    expect(mergeBreadcrumbs(['a', 'b'], ['c'], 2)).toEqual(['a', 'b']);
  });
});
