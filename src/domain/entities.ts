/**
 * Breadcrumb extraction: the concrete handles (paths, links, commands, keys,
 * tickets, amounts, addresses) a user later searches dropped history by. Runs
 * on dropped text too, so even the hard-truncate path (no summarizer, no KEYS
 * line) leaves breadcrumbs.
 */

export const MAX_ENTITIES = 30;
export const MAX_BREADCRUMBS = 40;

type Extractor = { re: RegExp; group?: number; clean?: (s: string) => string | null };

const trimTrailingPunct = (s: string) => s.replace(/[.,;:!?)\]}>'"]+$/, '');

const URL_RE = /\bhttps?:\/\/[^\s<>"'`]+/g;
const EMAIL_RE = /\b[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g;
const BACKTICK_RE = /`([^`\n]{2,160})`/g;
const PATH_RE =
  /(?<![\w/.@:-])((?:~|\.{1,2})?\/?(?:[\w.@-]+\/)+[\w.@-]+|[\w-]+(?:\.[\w-]+)*\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|java|rb|md|json|ya?ml|toml|ini|cfg|conf|sql|sh|txt|csv|html|css|env|lock|log|pdf|png|jpe?g|svg|xml))(?![\w/])/g;
const CONFIG_KEY_RE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;
const TICKET_RE = /\b[A-Z][A-Z0-9]{1,9}-\d+\b/g;
const AMOUNT_RE = /(?:[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:\s?[kKmM]\b)?|\b\d[\d,]*(?:\.\d+)?\s?(?:USD|EUR|GBP|RUB)\b)/g;

const EXTRACTORS: Extractor[] = [
  { re: URL_RE, clean: trimTrailingPunct },
  { re: EMAIL_RE },
  { re: BACKTICK_RE, group: 1, clean: (s) => s.trim() || null },
  { re: PATH_RE, group: 1, clean: (s) => (s.includes('/') || /\.[a-z]/i.test(s) ? trimTrailingPunct(s) : null) },
  { re: CONFIG_KEY_RE },
  { re: TICKET_RE },
  { re: AMOUNT_RE, clean: (s) => s.trim() },
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
  const hits: Hit[] = [];
  let scan = text;
  for (const ex of EXTRACTORS) {
    for (const m of scan.matchAll(ex.re)) {
      const raw = m[ex.group ?? 0];
      const value = ex.clean ? ex.clean(raw) : raw;
      if (value) hits.push({ index: m.index ?? 0, value });
    }
    if (ex.re === URL_RE || ex.re === EMAIL_RE) scan = scan.replace(ex.re, (s) => ' '.repeat(s.length));
  }
  hits.sort((a, b) => a.index - b.index);
  return dedupe(
    hits.map((h) => h.value),
    cap,
  );
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
