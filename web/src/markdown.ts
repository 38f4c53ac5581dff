/**
 * A small, safe markdown renderer. The input is HTML-escaped before any markup
 * is produced, so the output only ever holds the tags emitted here: p, br,
 * pre/code, strong, em, a (http(s) only, rel=noopener noreferrer), ul/ol/li,
 * blockquote, h3–h6, hr. No attribute carries user text except an escaped href.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const FENCE = /^\s{0,3}(```+|~~~+)\s*([\w+#.-]*)/;
// Every pattern here is linear (test/regex-safety.test.ts): a text group starts
// with a non-blank so the blank run before it cannot be split two ways.
const LIST_ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])[ \t]+(\S.*)?$/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(\S.*)?$/;
/** A line longer than this is shown as escaped text, without inline markup: the work per line stays bounded. */
export const INLINE_MAX = 8 * 1024;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;

export function renderMarkdown(source: string): string {
  const lines = source
    .replace(/\r\n?/g, '\n')
    .replace(/\u0000/g, '')
    .split('\n');
  const out: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) out.push(`<p>${paragraph.map(inline).join('<br>')}</p>`);
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1]!;
      const code: string[] = [];
      // An unclosed fence (a streaming answer) runs to the end.
      while (++i < lines.length && !lines[i]!.trimStart().startsWith(marker)) code.push(lines[i]!);
      const lang = fence[2] ? ` class="language-${escapeHtml(fence[2])}"` : '';
      out.push(`<pre><code${lang}>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = Math.min(6, heading[1]!.length + 2);
      out.push(`<h${level}>${inline(headingText(heading[2] ?? ''))}</h${level}>`);
      continue;
    }
    if (RULE.test(line)) {
      flush();
      out.push('<hr>');
      continue;
    }
    if (QUOTE.test(line)) {
      flush();
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) quoted.push(QUOTE.exec(lines[i++]!)![1]!);
      i--;
      out.push(`<blockquote>${renderMarkdown(quoted.join('\n'))}</blockquote>`);
      continue;
    }
    if (LIST_ITEM.test(line)) {
      flush();
      i = list(lines, i, out) - 1;
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return out.join('');
}

/** A run of list items from lines[start]; returns the index after it. Deeper-indented items nest. */
function list(lines: string[], start: number, out: string[]): number {
  const first = LIST_ITEM.exec(lines[start]!)!;
  const indent = first[1]!.length;
  const ordered = /\d/.test(first[2]!);
  const items: string[] = [];
  let i = start;
  while (i < lines.length) {
    const m = LIST_ITEM.exec(lines[i]!);
    if (m && m[1]!.length < indent) break;
    if (m && m[1]!.length === indent) {
      if (/\d/.test(m[2]!) !== ordered) break;
      items.push(inline(m[3] ?? ''));
      i++;
    } else if (m) {
      const nested: string[] = [];
      i = list(lines, i, nested);
      items[items.length - 1] += nested.join('');
    } else if (lines[i]!.trim() && /^\s+/.test(lines[i]!)) {
      items[items.length - 1] += `<br>${inline(lines[i]!.trim())}`;
      i++;
    } else break;
  }
  const tag = ordered ? 'ol' : 'ul';
  const startAt = ordered ? parseInt(first[2]!, 10) : 1;
  const startAttr = ordered && startAt !== 1 ? ` start="${startAt}"` : '';
  out.push(`<${tag}${startAttr}>${items.map((item) => `<li>${item}</li>`).join('')}</${tag}>`);
  return i;
}

/** A heading's text without the closing `#` run and blanks (`## Title ##` → `Title`). */
function headingText(text: string): string {
  let end = text.length;
  const blank = () => {
    while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  };
  blank();
  while (end > 0 && text[end - 1] === '#') end--;
  blank();
  return text.slice(0, end);
}

/**
 * Code spans: a run of n backticks up to the next run of exactly n, found in
 * one pass over the runs (the regex form rescans the line for every run).
 */
function codeSpans(s: string, hold: (html: string) => string): string {
  const runs: { start: number; len: number }[] = [];
  for (let i = 0; i < s.length; ) {
    if (s[i] !== '`') {
      i++;
      continue;
    }
    let j = i;
    while (j < s.length && s[j] === '`') j++;
    runs.push({ start: i, len: j - i });
    i = j;
  }
  const nextSame: number[] = new Array(runs.length).fill(-1);
  const seen = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    nextSame[k] = seen.get(runs[k]!.len) ?? -1;
    seen.set(runs[k]!.len, k);
  }
  let out = '';
  let pos = 0;
  for (let k = 0; k < runs.length; ) {
    const m = nextSame[k]!;
    if (m < 0) {
      k++;
      continue;
    }
    const open = runs[k]!;
    const close = runs[m]!;
    const code = s.slice(open.start + open.len, close.start);
    out += s.slice(pos, open.start) + hold(`<code>${code.trim() || code}</code>`);
    pos = close.start + close.len;
    k = m + 1;
  }
  return out + s.slice(pos);
}

/** Inline markup on one escaped line: code spans first (verbatim), then links, bold, italic. */
export function inline(text: string): string {
  if (text.length > INLINE_MAX) return escapeHtml(text);
  const spans: string[] = [];
  const hold = (html: string) => `\u0000${spans.push(html) - 1}\u0000`;
  let s = escapeHtml(text.replace(/\u0000/g, ''));
  s = codeSpans(s, hold);
  s = s.replace(/\[([^[\]\n]+)\]\(\s*(https?:\/\/[^\s()]+)\s*\)/g, (_m, label: string, href: string) =>
    hold(`<a href="${href}" rel="noopener noreferrer" target="_blank">${emphasis(label)}</a>`),
  );
  s = s.replace(
    /(^|[\s(])(https?:\/\/[^\s<]+[^\s<.,;:!?)'"&])/g,
    (_m, pre: string, href: string) =>
      pre + hold(`<a href="${href}" rel="noopener noreferrer" target="_blank">${href}</a>`),
  );
  s = emphasis(s);
  // Held spans may hold others (a code span inside a link label): resolve until none is left.
  while (s.includes('\u0000')) s = s.replace(/\u0000(\d+)\u0000/g, (_m, n: string) => spans[Number(n)]!);
  return s;
}

function emphasis(s: string): string {
  return (
    s
      // A span cannot hold its own delimiter pair, so a try stops at the next one.
      .replace(/\*\*(?=\S)((?:[^*]|\*(?!\*))*?\S)\*\*/g, '<strong>$1</strong>')
      .replace(/(^|[^\w])__(?=\S)((?:[^_]|_(?!_))*?\S)__(?!\w)/g, '$1<strong>$2</strong>')
      .replace(/(^|[^\w*])\*(?![\s*])([^*\n]*?[^\s*])\*(?![\w*])/g, '$1<em>$2</em>')
      .replace(/(^|[^\w])_(?![\s_])([^_\n]*?[^\s_])_(?!\w)/g, '$1<em>$2</em>')
      .replace(/~~(?=\S)((?:[^~]|~(?!~))*?\S)~~/g, '<del>$1</del>')
  );
}
