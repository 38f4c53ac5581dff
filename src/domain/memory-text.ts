/**
 * The raw-history index's pure side: how demoted messages are cut into
 * chunks, and how a query becomes terms (words and tsquery text). The SQL
 * that stores and ranks them is src/store/memory.ts.
 */
import type { ChatMessage } from './types.js';

/** Chunks stay small enough to inject as an excerpt and to rank meaningfully. */
export const CHUNK_MAX_CHARS = 4_000;
export const MAX_QUERY_WORDS = 8;

export interface ChunkDraft {
  content: string;
  turnStart: number;
  turnEnd: number;
  /** The stable ids of the messages the chunk was cut from (distinct, in order). */
  messageIds: string[];
  firstAt: Date;
  lastAt: Date;
}

function label(m: ChatMessage): string {
  if (m.role === 'tool') return `TOOL RESULT${m.name ? ` (${m.name})` : ''}`;
  return m.role.toUpperCase();
}

function render(m: ChatMessage): string {
  const calls = m.toolCalls.map((c) => `\n→ ${c.name}(${JSON.stringify(c.arguments ?? {})})`).join('');
  return `${label(m)}: ${m.content}${calls}`;
}

/** Whether a demoted row is original history (not a summary, a copy or a provider carrier). */
export function isIndexable(m: ChatMessage): boolean {
  return (
    !m.isSummary && !m.isCompression && m.metadata.contextCopyOf === undefined && m.metadata.nativeCompaction !== true
  );
}

/**
 * Consecutive messages packed into chunks of at most CHUNK_MAX_CHARS, each
 * message's content verbatim; a single longer message is split into pieces.
 * turnStart/turnEnd are the sequence numbers the chunk spans.
 */
export function chunkMessages(messages: readonly ChatMessage[], maxChars: number = CHUNK_MAX_CHARS): ChunkDraft[] {
  const out: ChunkDraft[] = [];
  let parts: string[] = [];
  let span: ChatMessage[] = [];
  let size = 0;
  const flush = () => {
    if (parts.length === 0) return;
    const at = span.map((m) => m.createdAt.getTime());
    out.push({
      content: parts.join('\n\n'),
      turnStart: Math.min(...span.map((m) => m.sequenceNumber)),
      turnEnd: Math.max(...span.map((m) => m.sequenceNumber)),
      messageIds: [...new Set(span.map((m) => m.messageId))],
      firstAt: new Date(Math.min(...at)),
      lastAt: new Date(Math.max(...at)),
    });
    parts = [];
    span = [];
    size = 0;
  };
  for (const m of [...messages].sort((a, b) => a.sequenceNumber - b.sequenceNumber)) {
    const text = render(m);
    if (size > 0 && size + text.length + 2 > maxChars) flush();
    if (text.length <= maxChars) {
      parts.push(text);
      span.push(m);
      size += text.length + 2;
      continue;
    }
    for (let i = 0; i < text.length; i += maxChars) {
      parts.push(text.slice(i, i + maxChars));
      span.push(m);
      flush();
    }
  }
  flush();
  return out;
}

const STOPWORDS = new Set(
  (
    'the and for are was were what which who whom this that these those ' +
    'with from into about have has had did does not you your our we they them then than there their ' +
    'when where why how can could ' +
    'would should will shall may might been being its let lets please also just any all some'
  ).split(' '),
);

/** Distinct lower-cased words of at least 3 characters, stopwords out, capped. */
export function queryWords(query: string): string[] {
  const words = (
    query.toLowerCase().match(/[\p{L}\p{N}_][\p{L}\p{N}_.\-/]*[\p{L}\p{N}_]|[\p{L}\p{N}_]/gu) ?? []
  ).filter((w) => w.length >= 3 && !STOPWORDS.has(w));
  return [...new Set(words)].slice(0, MAX_QUERY_WORDS);
}

export const likePattern = (w: string) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Longest alphanumeric run a term may have to be looked up as a word (PostgreSQL indexes words up to 2 KB; nobody types
 * those).
 */
const TERM_PART_MAX_CHARS = 100;
/**
 * Most runs a term may have to be looked up as words: each run is one more
 * `<->` level of the phrase query, and a term of thousands of dotted parts
 * ("a.a.a…") is "stack depth limit exceeded" on a server and seconds of
 * to_tsquery on PGlite. Longer terms are matched as substrings only.
 */
const TERM_MAX_PARTS = 32;

/**
 * The tsquery text (for `to_tsquery('simple', …)`) that matches `term` as
 * words of the search vector: its runs of letters and digits as consecutive
 * words, the last one as a prefix — `deploy` → `'deploy':*` (deploy,
 * deployment), `memory.ts` → `'memory' <-> 'ts':*` (src/compression/memory.ts),
 * `snake_case` → `'snake' <-> 'case':*`. Null when the term has no such run
 * (or an absurdly long one, or absurdly many): it is then matched as a substring only. The runs
 * hold only letters and digits, so quoting them cannot inject tsquery syntax.
 */
export function termQuery(term: string): string | null {
  const parts = term.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (parts.length === 0 || parts.length > TERM_MAX_PARTS || parts.some((p) => p.length > TERM_PART_MAX_CHARS))
    return null;
  return `${parts.map((p) => `'${p}'`).join(' <-> ')}:*`;
}
