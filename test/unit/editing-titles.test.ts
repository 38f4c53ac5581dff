import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyGeneratedTitle,
  applyHeuristicTitle,
  canAutoTitle,
  cleanGeneratedTitle,
  forkTitle,
  heuristicTitle,
  shortenAtWord,
  TITLE_MAX_CHARS,
  TITLE_PROMPT,
  titlePromptInput,
} from '../../src/domain/titles.js';

describe('heuristicTitle', () => {
  it('takes the first line only', () => {
    expect(heuristicTitle('Fix the login bug\nIt fails when the password has a quote')).toBe('Fix the login bug');
  });

  it('skips code fences and takes the first line with words', () => {
    expect(heuristicTitle('```ts\nconst x = 1;\n```\nWhy does this not compile?')).toBe('Why does this not compile?');
    expect(heuristicTitle('```\nunterminated fence\nstill code')).toBeNull();
  });

  it('removes URLs and keeps link labels', () => {
    expect(heuristicTitle('Summarize https://example.com/a/very/long/path?x=1 for me')).toBe('Summarize for me');
    expect(heuristicTitle('Read [the docs](https://x.dev/docs) first')).toBe('Read the docs first');
  });

  it('strips markdown headings, list markers, emphasis and inline code', () => {
    expect(heuristicTitle('## **Refactor** the `parse_args` _helper_')).toBe('Refactor the parse_args helper');
    expect(heuristicTitle('- [ ] add tests')).toBe('add tests');
    expect(heuristicTitle('> quoted question here')).toBe('quoted question here');
  });

  it('keeps underscores inside identifiers', () => {
    expect(heuristicTitle('rename snake_case_name to camelCase')).toBe('rename snake_case_name to camelCase');
  });

  it('collapses whitespace', () => {
    expect(heuristicTitle('  lots   of\tspace   here ')).toBe('lots of space here');
  });

  it('cuts long text at a word boundary with an ellipsis', () => {
    const t = heuristicTitle(
      'Please explain in detail how the garbage collector of the JVM decides when to run a full collection',
    )!;
    expect(t.endsWith('…')).toBe(true);
    expect(Array.from(t).length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
    expect(t).toBe('Please explain in detail how the garbage collector of the…');
  });

  it('hard-cuts one giant word', () => {
    const t = heuristicTitle('x'.repeat(200))!;
    expect(Array.from(t).length).toBe(TITLE_MAX_CHARS);
    expect(t.endsWith('…')).toBe(true);
  });

  it('returns null for empty or noise-only text', () => {
    expect(heuristicTitle('')).toBeNull();
    expect(heuristicTitle('   \n\n ')).toBeNull();
    expect(heuristicTitle('https://example.com')).toBeNull();
    expect(heuristicTitle('---\n***')).toBeNull();
  });

  it('never exceeds the limit nor splits a code point (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (s) => {
        const t = heuristicTitle(s);
        if (t === null) return;
        expect(Array.from(t).length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
        expect(t).not.toMatch(/\n/);
        expect(t).toBe(t.trim());
        // no lone surrogate halves
        expect(t).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      }),
    );
  });
});

describe('shortenAtWord', () => {
  it('leaves short text alone and counts emoji as one character', () => {
    expect(shortenAtWord('short', 10)).toBe('short');
    const emoji = '😀'.repeat(10);
    expect(shortenAtWord(emoji, 10)).toBe(emoji);
    expect(Array.from(shortenAtWord('😀'.repeat(11), 10)).length).toBe(10);
  });
});

describe('canAutoTitle', () => {
  it('lets only DEFAULT and HEURISTIC titles be upgraded by a generated title', () => {
    expect(canAutoTitle('DEFAULT', 'GENERATED')).toBe(true);
    expect(canAutoTitle('HEURISTIC', 'GENERATED')).toBe(true);
    expect(canAutoTitle('GENERATED', 'GENERATED')).toBe(false);
    expect(canAutoTitle('MANUAL', 'GENERATED')).toBe(false);
    expect(canAutoTitle('IMPORTED', 'GENERATED')).toBe(false);
  });

  it('never lets the heuristic downgrade a generated or manual title', () => {
    expect(canAutoTitle('DEFAULT', 'HEURISTIC')).toBe(true);
    expect(canAutoTitle('GENERATED', 'HEURISTIC')).toBe(false);
    expect(canAutoTitle('MANUAL', 'HEURISTIC')).toBe(false);
  });

  it('applyHeuristicTitle / applyGeneratedTitle respect the source', () => {
    expect(applyHeuristicTitle('DEFAULT', 'Plan the migration')).toEqual({
      name: 'Plan the migration',
      titleSource: 'HEURISTIC',
    });
    expect(applyHeuristicTitle('MANUAL', 'Plan the migration')).toBeNull();
    expect(applyHeuristicTitle('DEFAULT', '```\n```')).toBeNull();
    expect(applyGeneratedTitle('HEURISTIC', '"Database migration plan."')).toEqual({
      name: 'Database migration plan',
      titleSource: 'GENERATED',
    });
    expect(applyGeneratedTitle('MANUAL', 'Anything')).toBeNull();
  });
});

describe('generated titles', () => {
  it('TITLE_PROMPT asks for the title only', () => {
    expect(TITLE_PROMPT).toMatch(/title only/i);
    expect(titlePromptInput('hello', 'hi there')).toContain('Assistant (start):\nhi there');
    expect(titlePromptInput('hello')).not.toContain('Assistant');
  });

  it('cleanGeneratedTitle strips quotes, Title: labels, markdown and trailing punctuation', () => {
    expect(cleanGeneratedTitle('"Fixing the Login Bug."')).toBe('Fixing the Login Bug');
    expect(cleanGeneratedTitle('Title: Rust lifetimes explained!')).toBe('Rust lifetimes explained');
    expect(cleanGeneratedTitle('**Title:** “Kafka consumer lag”')).toBe('Kafka consumer lag');
    expect(cleanGeneratedTitle('## Deploying to Fly.io\n\nSome explanation')).toBe('Deploying to Fly.io');
    expect(cleanGeneratedTitle("'Single quoted'")).toBe('Single quoted');
  });

  it('drops reasoning blocks of thinking models', () => {
    expect(cleanGeneratedTitle('<think>The user asks about X…</think>\nPostgres index tuning')).toBe(
      'Postgres index tuning',
    );
  });

  it('caps the length and returns null for nothing usable', () => {
    expect(Array.from(cleanGeneratedTitle('word '.repeat(40))!).length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
    expect(cleanGeneratedTitle('   ')).toBeNull();
    expect(cleanGeneratedTitle('"..."')).toBeNull();
  });
});

describe('forkTitle', () => {
  it('adds a (fork) suffix, numbered for forks of forks', () => {
    expect(forkTitle('Plan')).toBe('Plan (fork)');
    expect(forkTitle('Plan (fork)')).toBe('Plan (fork 2)');
    expect(forkTitle('Plan (fork 2)')).toBe('Plan (fork 3)');
    expect(forkTitle(null)).toBeNull();
  });
});
