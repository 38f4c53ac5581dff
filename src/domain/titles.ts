/**
 * Session titles: an instant offline guess from the first prompt, an optional
 * small-model title, and a source that decides who may overwrite whom.
 * A manual rename always sticks; a generated title is never replaced by the
 * heuristic one.
 */
import { headOf, trimEndChars, trimStartChars } from './text.js';
import type { ChatMessage } from './types.js';

export type TitleSource = 'DEFAULT' | 'HEURISTIC' | 'GENERATED' | 'MANUAL' | 'IMPORTED';
export const TITLE_SOURCES: readonly TitleSource[] = ['DEFAULT', 'HEURISTIC', 'GENERATED', 'MANUAL', 'IMPORTED'];

/** Display width a title is cut to (characters, not UTF-16 units). */
export const TITLE_MAX_CHARS = 60;

export interface TitleUpdate {
  name: string;
  titleSource: TitleSource;
}

const ELLIPSIS = '…';

/**
 * Cut `text` to at most `max` characters at a word boundary, adding an ellipsis
 * when something was cut. A single over-long word is cut hard. Counts code
 * points so emoji and CJK are never split in half.
 */
export function shortenAtWord(text: string, max: number = TITLE_MAX_CHARS): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const room = chars.slice(0, max - 1); // leave space for the ellipsis
  let cut = room.length;
  for (let i = room.length; i > 0; i--) {
    if (/\s/.test(chars[i] ?? ' ')) {
      cut = i;
      break;
    }
  }
  // No usable boundary in the second half: a hard cut reads better than a stub.
  if (cut < Math.floor(max / 2)) cut = room.length;
  const head = chars.slice(0, cut).join('');
  return trimEndChars(head, ',;:.-–—', { whitespace: true }) + ELLIPSIS;
}

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})/;

/** Drop fenced code blocks (closed, or running to the end) line by line, leaving an empty line each. */
function dropCodeFences(text: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    if (fence === null) {
      const open = FENCE_OPEN.exec(line);
      if (open) {
        fence = open[1]!;
        out.push('');
      } else out.push(line);
    } else if (line.trim() === fence) fence = null;
  }
  return out.join('\n');
}

/**
 * Remove markdown decoration and link noise from one block of text. Every
 * pattern here is linear (checked by test/regex-safety.test.ts): a label or
 * a target cannot hold the bracket that would start the next try.
 */
function stripMarkdownNoise(text: string): string {
  return (
    dropCodeFences(text)
      // images keep their alt text, links their label
      .replace(/!\[([^[\]]*)\]\([^()]*\)/g, '$1')
      .replace(/\[([^[\]]+)\]\([^()]*\)/g, '$1')
      // bare URLs
      .replace(/\b(?:https?|ftp):\/\/[^\s)>\]]+/gi, ' ')
      .replace(/\bwww\.[^\s)>\]]+/gi, ' ')
      // html tags
      .replace(/<\/?[a-z][^<>\n]*>/gi, ' ')
      // inline code keeps its text
      .replace(/`+([^`\n]*)`+/g, '$1')
      // per line: heading, quote, list and task markers
      .replace(/^[ \t]*(?:#{1,6}[ \t]+|>+[ \t]?|[-*+][ \t]+(?:\[[ xX]\][ \t]+)?|\d+[.)][ \t]+)/gm, '')
      // emphasis markers (not underscores inside identifiers)
      // (a span cannot hold its own delimiter pair, so each try stops at the next one)
      .replace(/\*\*((?:[^*\n]|\*(?!\*))+?)\*\*/g, '$1')
      .replace(/__((?:[^_\n]|_(?!_))+?)__/g, '$1')
      .replace(/(^|[\s(])[*_]([^*_\n]+)[*_](?=[\s).,!?:;]|$)/gm, '$1$2')
      .replace(/~~((?:[^~\n]|~(?!~))+?)~~/g, '$1')
  );
}

function collapseWhitespace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * Instant offline title from the first user prompt: the first line that still
 * has words once code fences, URLs and markdown are removed, whitespace
 * collapsed, cut near {@link TITLE_MAX_CHARS} at a word boundary. Null when
 * nothing readable is left.
 */
export function heuristicTitle(firstUserText: string): string | null {
  // Only the head of a long prompt is read: the title comes from its first readable line anyway.
  const cleaned = stripMarkdownNoise(headOf(firstUserText).replace(/\r\n?/g, '\n'));
  for (const line of cleaned.split('\n')) {
    const text = collapseWhitespace(line);
    if (/[\p{L}\p{N}]/u.test(text)) return shortenAtWord(text, TITLE_MAX_CHARS);
  }
  return null;
}

/**
 * Whether an automatic title of kind `incoming` may replace the current one.
 * Only DEFAULT and HEURISTIC titles are auto-titleable; MANUAL and IMPORTED are
 * never overwritten, and the heuristic never downgrades a GENERATED title (nor
 * replaces an earlier heuristic one: the first prompt does not change).
 */
export function canAutoTitle(current: TitleSource, incoming: 'HEURISTIC' | 'GENERATED' = 'GENERATED'): boolean {
  if (incoming === 'HEURISTIC') return current === 'DEFAULT';
  return current === 'DEFAULT' || current === 'HEURISTIC';
}

/** A real user turn: typed by the user, not a note the agent wrote nor a summary carrier. */
export function isRealUserMessage(m: ChatMessage): boolean {
  return m.role === 'user' && !m.isAgentNote && !m.isSummary && !m.isCompression && !m.isRecall;
}

/** Heuristic title after the first user prompt; null when the current title must stay. */
export function applyHeuristicTitle(source: TitleSource, firstUserText: string): TitleUpdate | null {
  if (!canAutoTitle(source, 'HEURISTIC')) return null;
  const name = heuristicTitle(firstUserText);
  return name ? { name, titleSource: 'HEURISTIC' } : null;
}

/** The title the placeholder stands in for: a heuristic one from the first prompt of the history that yields one. */
export function titleFromPrompts(prompts: readonly string[]): string | null {
  for (const p of prompts) {
    const name = heuristicTitle(p);
    if (name) return name;
  }
  return null;
}

/** A session still carrying the placeholder title: its name is derived from its history on read. */
export function isPlaceholderTitle(session: { titleSource: string }): boolean {
  return session.titleSource === 'DEFAULT';
}

/** Small-model title (raw reply); null when the current title must stay or the reply is unusable. */
export function applyGeneratedTitle(source: TitleSource, rawReply: string): TitleUpdate | null {
  if (!canAutoTitle(source, 'GENERATED')) return null;
  const name = cleanGeneratedTitle(rawReply);
  return name ? { name, titleSource: 'GENERATED' } : null;
}

/** Title for a fork: `X (fork)`, then `X (fork 2)`, … so forks of forks stay readable. */
export function forkTitle(name: string | null): string | null {
  if (name == null || name.trim() === '') return null;
  const m = /^(.*) \(fork(?: (\d+))?\)$/.exec(name);
  if (!m) return `${name} (fork)`;
  const n = m[2] ? Number(m[2]) + 1 : 2;
  return `${m[1]} (fork ${n})`;
}

/** System prompt for the small model that names a session. */
export const TITLE_PROMPT = [
  'You name chat sessions.',
  'Read the conversation start and reply with a short title of 3 to 7 words that says what the user wants.',
  'Use the language of the user. ' +
    'Reply with the title only: no quotes, no "Title:" prefix, no trailing punctuation, no markdown.',
].join(' ');

/** User content sent with {@link TITLE_PROMPT}: the first prompt and, when known, the start of the reply. */
export function titlePromptInput(firstUserText: string, assistantSnippet?: string | null): string {
  const user = Array.from(firstUserText.trim()).slice(0, 1500).join('');
  const parts = [`User:\n${user}`];
  if (assistantSnippet && assistantSnippet.trim()) {
    parts.push(`Assistant (start):\n${Array.from(assistantSnippet.trim()).slice(0, 500).join('')}`);
  }
  return parts.join('\n\n');
}

const THINK_OPEN = /<think(?:ing)?>/gi;
const THINK_CLOSE = /<\/think(?:ing)?>/gi;

/** `text` without `<think>…</think>` blocks (an unclosed one runs to the end), in one pass. */
function dropThinking(text: string): string {
  let out = '';
  let pos = 0;
  for (;;) {
    THINK_OPEN.lastIndex = pos;
    const open = THINK_OPEN.exec(text);
    if (!open) return out + text.slice(pos);
    out += text.slice(pos, open.index);
    THINK_CLOSE.lastIndex = open.index + open[0].length;
    const close = THINK_CLOSE.exec(text);
    if (!close) return out;
    pos = close.index + close[0].length;
  }
}

/**
 * Turn a small model's reply into a title: drop reasoning blocks, take the
 * first non-empty line, strip a `Title:` label, markdown, surrounding quotes
 * and trailing punctuation, cap the length. Null when nothing usable remains.
 */
export function cleanGeneratedTitle(raw: string): string | null {
  // Reasoning is dropped whole (it may be long); only the head of what is left is read.
  const withoutThinking = headOf(dropThinking(raw));
  const line = withoutThinking
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (!line) return null;
  let t = line
    .replace(/^#{1,6}\s+/, '')
    .replace(/^(\*\*|__)(.*)\1$/, '$2')
    .trim();
  t = t.replace(/^\**\s*(?:(?:session|chat)\s+)?title[\s*]*[:：\-–—][\s*]*/i, '');
  const QUOTES = '"\'“”‘’«»`„';
  let prev: string;
  do {
    prev = t;
    t = t.trim().replace(/^(\*\*|__|\*|_)(.*)\1$/, '$2');
    t = trimEndChars(trimStartChars(t, QUOTES), QUOTES);
    t = trimEndChars(t, '.!?,;:…。！？、').trim();
  } while (t !== prev);
  t = collapseWhitespace(t);
  if (!/[\p{L}\p{N}]/u.test(t)) return null;
  return shortenAtWord(t, TITLE_MAX_CHARS);
}
