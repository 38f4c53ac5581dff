/**
 * What a share-link holder receives is scrubbed of everything that names the
 * session, its owner or the server's disk (seed: the holder cannot "learn the
 * session and owner ids"). Tool results and tool-call arguments routinely
 * carry `/sessions/<id>/files/<name>` download URLs and
 * `…/session_files/<id>/<name>` paths; the redactor rewrites:
 *
 * - a session file URL `/sessions/<id>/files/<name>` → the share-scoped
 *   `/shared/files/<name>` (served to the token holder only, for published files);
 * - a session directory `[<data root>/]session_files/<id>` → `session_files/[session]`;
 * - any other absolute data-directory path → `[data]`;
 * - any other occurrence of the session id (raw or as a global id) → `[session]`,
 *   of the owner id → `[owner]`.
 *
 * Pure string scanning with literal needles (no pattern is built from data):
 * linear in the text, and ids match case-insensitively (ASCII).
 */

export const SHARED_FILES_PREFIX = '/shared/files/';
export const SESSION_TOKEN = '[session]';
export const OWNER_TOKEN = '[owner]';
export const DATA_TOKEN = '[data]';

export interface RedactionTargets {
  sessionId: string;
  /** forms of the session id besides the raw one (its Relay global id…) */
  sessionAliases?: string[];
  /** the owner's id and its aliases; empty for an ownerless session */
  ownerIds?: string[];
  /** absolute directories of the server (the session-files root, the data dir) */
  localRoots?: string[];
  /** `session_files` */
  filesDirName: string;
}

export interface Redactor {
  text(value: string): string;
  /** Deep copy with every string (keys included) redacted. */
  json(value: unknown): unknown;
}

/** ASCII-only lower-casing: keeps every index where it was. */
function foldAscii(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : text[i];
  }
  return out;
}

/** Replaces every case-insensitive (ASCII) occurrence of `needle`; `replace` gets the index after the match. */
function replaceEach(
  text: string,
  needle: string,
  replace: (end: number) => { with: string; skipTo?: number },
): string {
  if (!needle) return text;
  const folded = foldAscii(text);
  const target = foldAscii(needle);
  let at = folded.indexOf(target);
  if (at < 0) return text;
  let out = '';
  let from = 0;
  while (at >= 0) {
    const end = at + target.length;
    const r = replace(end);
    out += text.slice(from, at) + r.with;
    from = r.skipTo ?? end;
    at = folded.indexOf(target, from);
  }
  return out + text.slice(from);
}

const replaceAll = (text: string, needle: string, replacement: string) =>
  replaceEach(text, needle, () => ({ with: replacement }));

/** Characters that end a URL inside prose, JSON or markdown. */
const URL_END = new Set([...' \t\r\n"\'<>()[]{}`\\|^?#,;']);

function urlSegmentEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && !URL_END.has(text[i]!)) i++;
  return i;
}

export function createShareRedactor(targets: RedactionTargets): Redactor {
  const sessionForms = unique([targets.sessionId, ...(targets.sessionAliases ?? [])].flatMap(withEncoded));
  const ownerForms = unique((targets.ownerIds ?? []).flatMap(withEncoded));
  // Longest first, so `/data/session_files` is matched before `/data`; `/` alone would blank every path.
  const roots = unique((targets.localRoots ?? []).map(trimSlashes).filter((r) => r.length > 1)).sort(
    (a, b) => b.length - a.length,
  );
  const dirName = targets.filesDirName;

  const text = (input: string): string => {
    let out = input;
    for (const id of sessionForms) {
      // Download URLs become share-scoped ones (the name stays URI-encoded as it was).
      out = replaceEach(out, `/sessions/${id}/files/`, (end) => {
        const stop = urlSegmentEnd(out, end);
        return { with: `${SHARED_FILES_PREFIX}${out.slice(end, stop)}`, skipTo: stop };
      });
    }
    for (const id of sessionForms) {
      for (const root of roots) out = replaceAll(out, `${root}/${dirName}/${id}`, `${dirName}/${SESSION_TOKEN}`);
      out = replaceAll(out, `${dirName}/${id}`, `${dirName}/${SESSION_TOKEN}`);
    }
    for (const root of roots) out = replaceAll(out, root, DATA_TOKEN);
    for (const id of sessionForms) out = replaceAll(out, id, SESSION_TOKEN);
    for (const id of ownerForms) out = replaceAll(out, id, OWNER_TOKEN);
    return out;
  };

  const json = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(json);
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[text(k)] = json(v);
      return out;
    }
    return value;
  };

  return { text, json };
}

/** `/srv/data//` → `/srv/data` (a loop: `/\/+$/` backtracks quadratically on a run of slashes). */
function trimSlashes(dir: string): string {
  let end = dir.length;
  while (end > 0 && dir[end - 1] === '/') end--;
  return dir.slice(0, end);
}

function withEncoded(id: string): string[] {
  return id ? [id, encodeURIComponent(id)] : [];
}

function unique(values: string[]): string[] {
  return [...new Set(values.filter(Boolean))];
}
