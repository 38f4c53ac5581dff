/**
 * Anchors: the concrete facts a summary tends to lose and a user later asks
 * for — identifiers and issue keys (`ZX-4471`, `#1234`), config keys, numbers
 * with units, versions, dates and times, file paths, URLs, e-mail addresses,
 * code symbols in backticks and quoted names, plus the KEYS (breadcrumbs) an
 * earlier summary carried. Deterministic and pure: the same text always gives
 * the same anchors, in the same order. Every pattern is linear (a run cannot
 * restart a try inside itself), as in src/domain/entities.ts.
 */
import { trimEndChars } from '../text.js';

export type AnchorKind =
  | 'identifier'
  | 'number'
  | 'version'
  | 'date'
  | 'path'
  | 'url'
  | 'email'
  | 'code'
  | 'quoted'
  | 'key';

export const ANCHOR_KINDS: readonly AnchorKind[] = [
  'identifier',
  'number',
  'version',
  'date',
  'path',
  'url',
  'email',
  'code',
  'quoted',
  'key',
];

export interface Anchor {
  kind: AnchorKind;
  value: string;
}

/** Text beyond this (per message) is not scanned: the scan stays bounded whatever a message holds. */
export const ANCHOR_SCAN_MAX = 64 * 1024;

const trimPunct = (s: string) => trimEndChars(s, '.,;:!?)]}>\'"');

interface Pattern {
  kind: AnchorKind;
  re: RegExp;
  group?: number;
  clean?: (s: string) => string | null;
}

const URL_RE = /\bhttps?:\/\/[^\s<>"'`]+/g;
const EMAIL_RE = /(?:^|[^\w.+-])([\w.+-]{1,64}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})(?![\w-])/g;
const CODE_RE = /`([^`\n]{2,160})`/g;
const QUOTED_RE = /"([^"\n]{2,80})"/g;
const CURLY_QUOTED_RE = /“([^“”\n]{2,80})”/g;
const PATH_RE = /(?:^|[^\w/.@:-])((?:~|\.{1,2})?\/?(?:[\w.@-]+\/)+[\w.@-]+)(?![\w/])/g;
const FILE_RE =
  /(?:^|[^\w/.@:-])([\w-]+\.(?:ts|tsx|js|mjs|py|rs|go|java|rb|md|json|ya?ml|toml|ini|cfg|conf|sql|sh|txt|csv|pdf|png|log))(?![\w/])/g;
const DATE_RE = /(?:^|[^\w-])(\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:\d{2})?)?)(?![\w-])/g;
const TIME_RE = /(?:^|[^\w:.])(\d{1,2}:\d{2}(?::\d{2})?(?: ?(?:UTC|[AaPp][Mm]))?)(?![\w:])/g;
const VERSION_RE = /(?:^|[^\w.])(v\d+(?:\.\d+)+(?:-[0-9A-Za-z]+)?|\d+\.\d+\.\d+(?:-[0-9A-Za-z]+)?)(?![\w.])/g;
const TICKET_RE = /\b[A-Z][A-Z0-9]{1,9}-\d+\b/g;
const ISSUE_RE = /(?:^|[^\w#&])(#\d{2,7})(?!\w)/g;
const CONFIG_KEY_RE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;
const UNIT_RE =
  /(?:^|[^\w.,])(\d+(?:[.,]\d+)? ?(?:ms|s|min|h|KB|MB|GB|TB|KiB|MiB|GiB|kB|px|rpm|km|kg|tokens|USD|EUR|GBP|%|°C|°F))(?![\w%°])/g;
const AMOUNT_RE = /[$€£¥] ?\d[\d,]*(?:\.\d+)?/g;

const PATTERNS: Pattern[] = [
  { kind: 'url', re: URL_RE, clean: trimPunct },
  { kind: 'email', re: EMAIL_RE, group: 1 },
  { kind: 'code', re: CODE_RE, group: 1, clean: (s) => s.trim() || null },
  { kind: 'quoted', re: QUOTED_RE, group: 1, clean: (s) => s.trim() || null },
  { kind: 'quoted', re: CURLY_QUOTED_RE, group: 1, clean: (s) => s.trim() || null },
  { kind: 'path', re: PATH_RE, group: 1, clean: trimPunct },
  { kind: 'path', re: FILE_RE, group: 1 },
  { kind: 'date', re: DATE_RE, group: 1 },
  { kind: 'date', re: TIME_RE, group: 1 },
  { kind: 'version', re: VERSION_RE, group: 1 },
  { kind: 'identifier', re: TICKET_RE },
  { kind: 'identifier', re: ISSUE_RE, group: 1 },
  { kind: 'key', re: CONFIG_KEY_RE },
  { kind: 'number', re: UNIT_RE, group: 1 },
  { kind: 'number', re: AMOUNT_RE, clean: (s) => s.trim() },
];

/** Kinds whose value stands for itself; a date inside a path is the path's, a version inside a URL the URL's. */
const CONTAINERS: ReadonlySet<AnchorKind> = new Set(['url', 'email', 'code', 'quoted', 'path']);

/**
 * The anchors of one text in order of appearance, deduplicated by value. A
 * value found inside a larger anchor (a date inside a URL) is not listed a
 * second time: the larger one carries it verbatim.
 */
export function extractAnchors(text: string): Anchor[] {
  const scan = text.length > ANCHOR_SCAN_MAX ? text.slice(0, ANCHOR_SCAN_MAX) : text;
  const hits: { index: number; end: number; anchor: Anchor }[] = [];
  for (const p of PATTERNS) {
    for (const m of scan.matchAll(p.re)) {
      const raw = m[p.group ?? 0]!;
      const value = p.clean ? p.clean(raw) : raw;
      if (!value) continue;
      const index = (m.index ?? 0) + m[0].indexOf(raw);
      hits.push({ index, end: index + value.length, anchor: { kind: p.kind, value } });
    }
  }
  hits.sort((a, b) => a.index - b.index || b.end - a.end);
  const out: Anchor[] = [];
  const seen = new Set<string>();
  let containerEnd = -1;
  for (const h of hits) {
    if (h.index < containerEnd) continue;
    if (CONTAINERS.has(h.anchor.kind)) containerEnd = h.end;
    if (seen.has(h.anchor.value)) continue;
    seen.add(h.anchor.value);
    out.push(h.anchor);
  }
  return out;
}

/** Whether `text` carries the anchor verbatim. */
export function containsAnchor(text: string, anchor: Anchor): boolean {
  return text.includes(anchor.value);
}
