/** Literal, case-insensitive search terms: the LIKE pattern of a term and the snippet shown around its first match. */

const SNIPPET_RADIUS = 60;

export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function snippetAround(content: string, term: string): string {
  const at = content.toLocaleLowerCase().indexOf(term.toLocaleLowerCase());
  if (at < 0) return content.slice(0, SNIPPET_RADIUS * 2);
  const start = Math.max(0, at - SNIPPET_RADIUS);
  const end = Math.min(content.length, at + term.length + SNIPPET_RADIUS);
  return `${start > 0 ? '…' : ''}${content.slice(start, end)}${end < content.length ? '…' : ''}`.replace(/\s+/g, ' ');
}
