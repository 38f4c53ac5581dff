/**
 * Breadcrumb extraction: the concrete handles (paths, links, commands, keys,
 * tickets, amounts, addresses) a user later searches dropped history by. Runs
 * on dropped text too, so even the hard-truncate path (no summarizer, no KEYS
 * line) leaves breadcrumbs.
 */

import { HEURISTIC_TEXT_MAX, trimEndChars } from './text.js';

export const MAX_ENTITIES = 30;
/** Text beyond this is not scanned: a breadcrumb list is capped long before, and the scan stays bounded. */
export const ENTITY_SCAN_MAX = 256 * 1024;
export const MAX_BREADCRUMBS = 40;

type Extractor = { re: RegExp; group?: number; clean?: (s: string) => string | null };

const trimTrailingPunct = (s: string) => trimEndChars(s, '.,;:!?)]}>\'"');

const URL_RE = /\bhttps?:\/\/[^\s<>"'`]+/g;
// Patterns that must not start inside a run consume the character before the run
// (group 1 is the value): a try inside the run then fails at once, where `\b`
// restarted a scan at every `.`/`+`/`-`, and the ReDoS checker can follow it
// (it misjudges lookbehinds).
const EMAIL_RE = /(?:^|[^\w.+-])([\w.+-]{1,64}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})(?![\w-])/g;
const BACKTICK_RE = /`([^`\n]{2,160})`/g;
// Paths with a slash, and bare file names with a known extension. Two patterns, not one
// alternation: the union is flagged by the ReDoS checker even though each half is linear.
const PATH_RE = /(?:^|[^\w/.@:-])((?:~|\.{1,2})?\/?(?:[\w.@-]+\/)+[\w.@-]+)(?![\w/])/g;
const FILE_RE =
  /(?:^|[^\w/.@:-])([\w-]+(?:\.[\w-]+)*\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|java|rb|md|json|ya?ml|toml|ini|cfg|conf|sql|sh|txt|csv|html|css|env|lock|log|pdf|png|jpe?g|svg|xml))(?![\w/])/g;
const CONFIG_KEY_RE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;
const TICKET_RE = /\b[A-Z][A-Z0-9]{1,9}-\d+\b/g;
const AMOUNT_RE = /[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:\s?[kKmM]\b)?/g;
const AMOUNT_CODE_RE = /(?:^|[^\w,.$€£¥])(\d[\d,]*(?:\.\d+)?\s?(?:USD|EUR|GBP|RUB))\b/g;

const EXTRACTORS: Extractor[] = [
  { re: URL_RE, clean: trimTrailingPunct },
  { re: EMAIL_RE, group: 1 },
  { re: BACKTICK_RE, group: 1, clean: (s) => s.trim() || null },
  { re: PATH_RE, group: 1, clean: trimTrailingPunct },
  { re: FILE_RE, group: 1, clean: trimTrailingPunct },
  { re: CONFIG_KEY_RE },
  { re: TICKET_RE },
  { re: AMOUNT_RE, clean: (s) => s.trim() },
  { re: AMOUNT_CODE_RE, group: 1, clean: (s) => s.trim() },
];

interface Hit {
  index: number;
  value: string;
}

/**
 * Entities in order of first appearance, deduplicated (case-insensitive),
 * capped. URLs and emails are blanked out before the path scan so a link is
 * not reported a second time as a path.
 */
export function extractEntities(text: string, cap: number = MAX_ENTITIES): string[] {
  // Chunk by chunk, in order, until the cap is reached: the work is bounded by
  // ENTITY_SCAN_MAX whatever the history holds.
  const found: string[] = [];
  const seen = new Set<string>();
  const end = Math.min(text.length, ENTITY_SCAN_MAX);
  for (let start = 0; start < end && found.length < cap; ) {
    let stop = Math.min(end, start + HEURISTIC_TEXT_MAX);
    if (stop < end) {
      const space = text.lastIndexOf(' ', stop);
      const nl = text.lastIndexOf('\n', stop);
      const boundary = Math.max(space, nl);
      if (boundary > start + HEURISTIC_TEXT_MAX / 2) stop = boundary;
    }
    for (const value of entitiesIn(text.slice(start, stop))) {
      const key = value.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      found.push(value);
      if (found.length >= cap) break;
    }
    start = stop;
  }
  return found;
}

/** `text` with each match of `re` (its group 1 when it has one) replaced by spaces, so indexes stay put. */
function blank(text: string, re: RegExp): string {
  return text.replace(re, (whole: string, value?: unknown) =>
    typeof value === 'string'
      ? whole.slice(0, whole.indexOf(value)) + ' '.repeat(value.length)
      : ' '.repeat(whole.length),
  );
}

function entitiesIn(text: string): string[] {
  const hits: Hit[] = [];
  let scan = text;
  let withoutPaths = text;
  for (const ex of EXTRACTORS) {
    // A file name inside a path was the path's (the single alternation tried the path first).
    if (ex.re === PATH_RE) withoutPaths = blank(scan, PATH_RE);
    for (const m of (ex.re === FILE_RE ? withoutPaths : scan).matchAll(ex.re)) {
      const raw = m[ex.group ?? 0];
      const value = ex.clean ? ex.clean(raw) : raw;
      if (value) hits.push({ index: (m.index ?? 0) + m[0].indexOf(raw), value });
    }
    if (ex.re === URL_RE || ex.re === EMAIL_RE) scan = blank(scan, ex.re);
  }
  hits.sort((a, b) => a.index - b.index);
  return hits.map((h) => h.value);
}

function dedupe(values: readonly string[], cap: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const v of values) {
    const key = v.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v);
    if (out.length >= cap) break;
  }
  return out;
}

/** The summarizer's KEYS first (it chose them), then extracted entities; deduplicated and capped. */
export function mergeBreadcrumbs(
  keys: readonly string[],
  entities: readonly string[],
  cap: number = MAX_BREADCRUMBS,
): string[] {
  return dedupe(
    [...keys, ...entities].map((s) => s.trim()).filter((s) => s.length > 0),
    cap,
  );
}
