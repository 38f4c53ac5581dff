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
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;

export function renderMarkdown(source: string): string {
  const lines = source.replace(/\r\n?/g, '\n').replace(/\u0000/g, '').split('\n');
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
      out.push(`<h${level}>${inline(heading[2]!)}</h${level}>`);
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
      items.push(inline(m[3]!));
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

/** Inline markup on one escaped line: code spans first (verbatim), then links, bold, italic. */
export function inline(text: string): string {
  const spans: string[] = [];
  const hold = (html: string) => `\u0000${spans.push(html) - 1}\u0000`;
  let s = escapeHtml(text.replace(/\u0000/g, ''));
  s = s.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_m, _t, code: string) => hold(`<code>${code.trim() || code}</code>`));
  s = s.replace(/\[([^\]\n]+)\]\(\s*(https?:\/\/[^\s)]+)\s*\)/g, (_m, label: string, href: string) =>
    hold(`<a href="${href}" rel="noopener noreferrer" target="_blank">${emphasis(label)}</a>`),
  );
  s = s.replace(/(^|[\s(])(https?:\/\/[^\s<]+[^\s<.,;:!?)'"&])/g, (_m, pre: string, href: string) =>
    pre + hold(`<a href="${href}" rel="noopener noreferrer" target="_blank">${href}</a>`),
  );
  s = emphasis(s);
  // Held spans may hold others (a code span inside a link label): resolve until none is left.
  while (s.includes('\u0000')) s = s.replace(/\u0000(\d+)\u0000/g, (_m, n: string) => spans[Number(n)]!);
  return s;
}

function emphasis(s: string): string {
  return s
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^\w])__(?=\S)([\s\S]*?\S)__(?!\w)/g, '$1<strong>$2</strong>')
    .replace(/(^|[^\w*])\*(?![\s*])([^*\n]*?[^\s*])\*(?![\w*])/g, '$1<em>$2</em>')
    .replace(/(^|[^\w])_(?![\s_])([^_\n]*?[^\s_])_(?!\w)/g, '$1<em>$2</em>')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '<del>$1</del>');
}
