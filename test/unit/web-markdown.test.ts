/** The web client's markdown renderer: normal markup still renders, adversarial lines render without blowing up. */
import { describe, expect, it } from 'vitest';
import { INLINE_MAX, inline, renderMarkdown } from '../../web/src/markdown.js';

describe('markdown renderer', () => {
  it('renders code spans, links, emphasis, headings and lists', () => {
    expect(inline('use `a` and ``b ` c``')).toBe('use <code>a</code> and <code>b ` c</code>');
    expect(inline('``` not closed ``')).toBe('``` not closed ``');
    expect(inline('[site](https://x.test/a) **bold *it* x** __b__ ~~gone~~')).toBe(
      '<a href="https://x.test/a" rel="noopener noreferrer" target="_blank">site</a> ' +
        '<strong>bold <em>it</em> x</strong> <strong>b</strong> <del>gone</del>',
    );
    expect(renderMarkdown('## Title ##')).toBe('<h4>Title</h4>');
    expect(renderMarkdown('#   ')).toBe('<h3></h3>');
    expect(renderMarkdown('- one\n- two\n  - deep\n1. x')).toBe(
      '<ul><li>one</li><li>two<ul><li>deep</li></ul></li></ul><ol><li>x</li></ol>',
    );
  });

  it('renders adversarial lines of 200,000 characters', () => {
    for (const ch of ['[', '(', '*', '`', '_', '~', '#', '- ', '** ', '`a', '[a](', '![', '<a', '-\t']) {
      const line = ch.repeat(Math.ceil(200_000 / ch.length));
      const html = renderMarkdown(line);
      expect(html.length).toBeGreaterThan(0);
    }
    // Up to INLINE_MAX a line gets inline markup; beyond it, escaped text only.
    const long = `**x** ${'a'.repeat(INLINE_MAX)}`;
    expect(inline(long)).toBe(long);
    expect(inline('`'.repeat(5000) + 'x')).toBe('`'.repeat(5000) + 'x');
  });
});
