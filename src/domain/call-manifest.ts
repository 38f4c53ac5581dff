/**
 * The manifest of one model call (issue 33 item 5): what the call was sent, as references and hashes, never copies.
 *
 * Each sent message is named by its stable message id and a hash of what was sent for it (role, text as cut by the
 * view, tool calls); what the server injected is listed beside it: the profile's system prompt (its hash is its
 * version), summaries (the summary message's id), recall excerpts (memory chunk ids), context notices (uploads,
 * pasted images: the message they ride on) and images (the file, a hash of its bytes). Every entry carries its
 * tokens (the calibrated estimate of its characters; an image's own price).
 *
 * Bounded: at most MANIFEST_MAX_ENTRIES entries are listed (the system prompt and the newest); the older rest is
 * folded into one `omitted` line (count, tokens, a hash over their refs and hashes). With refs capped at
 * MANIFEST_MAX_REF_CHARS a manifest stays under MANIFEST_MAX_BYTES of JSON whatever the session's size.
 *
 * `diffManifests` says what changed since another call: entries added, removed, and changed (same ref, another
 * hash). No I/O here.
 */
import { createHash } from 'node:crypto';
import { promptMessageChars, type PromptMessage } from './prompt.js';
import type { ChatMessage, Role } from './types.js';

export const MANIFEST_MAX_ENTRIES = 200;
export const MANIFEST_MAX_REF_CHARS = 120;
/** The JSON size no manifest exceeds: MANIFEST_MAX_ENTRIES entries of at most ~220 bytes, and the totals. */
export const MANIFEST_MAX_BYTES = 48_000;
const HASH_CHARS = 16;

export type ManifestKind = 'MESSAGE' | 'SYSTEM_PROMPT' | 'SUMMARY' | 'RECALL' | 'NOTICE' | 'IMAGE';

export interface ManifestEntry {
  kind: ManifestKind;
  /**
   * What the entry names: the message id (MESSAGE, SUMMARY, and the message a NOTICE rides on), `system`
   * (SYSTEM_PROMPT), the memory chunk id (RECALL), `<message id>/<file name>` (IMAGE).
   */
  ref: string;
  /** the sequence number of the stored message the entry is sent with (none for the system prompt) */
  seq?: number;
  /** MESSAGE and SUMMARY: the role it was sent as */
  role?: Role;
  /** the first 16 hex digits of the SHA-256 of what was sent (an image: of its bytes) */
  hash: string;
  tokens: number;
}

export interface ManifestOmitted {
  count: number;
  tokens: number;
  hash: string;
}

export interface CallManifest {
  v: 1;
  entries: ManifestEntry[];
  /** the oldest entries past MANIFEST_MAX_ENTRIES, folded; null when all are listed */
  omitted: ManifestOmitted | null;
  /** the sum of every entry's tokens, the folded ones included */
  tokens: number;
}

/** Recall excerpts injected into this call: the chunk ids, with each excerpt's text as sent. */
export interface RecalledExcerpts {
  /** the whole block appended to the latest user message */
  text: string;
  chunks: { id: string; text: string }[];
}

export interface ManifestInput {
  /** the prompt's messages as built (src/domain/prompt.ts), in the order sent */
  sent: readonly PromptMessage[];
  /** the context rows the prompt was built from */
  context: readonly ChatMessage[];
  recall?: RecalledExcerpts | null;
  /** the calibrated token estimate of `chars` characters */
  tokens(chars: number): number;
}

export const shortHash = (text: string | Buffer): string =>
  createHash('sha256').update(text).digest('hex').slice(0, HASH_CHARS);

const capRef = (ref: string) => (ref.length > MANIFEST_MAX_REF_CHARS ? ref.slice(0, MANIFEST_MAX_REF_CHARS) : ref);
const fileName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const key = (e: Pick<ManifestEntry, 'kind' | 'ref'>) => `${e.kind}:${e.ref}`;

/** `content` without an injected `suffix` (appended as `\n\n<suffix>`, or the whole content); null when absent. */
function strip(content: string, suffix: string): string | null {
  if (!suffix) return null;
  if (content === suffix) return '';
  return content.endsWith(`\n\n${suffix}`) ? content.slice(0, -suffix.length - 2) : null;
}

export function buildCallManifest(input: ManifestInput): CallManifest {
  const bySeq = new Map(input.context.map((m) => [m.sequenceNumber, m]));
  const entries: ManifestEntry[] = [];
  let recallPlaced = false;
  const images = (p: PromptMessage, source: ChatMessage) => {
    for (const image of p.images)
      entries.push({
        kind: 'IMAGE',
        ref: capRef(`${source.messageId}/${fileName(image.path)}`),
        seq: source.sequenceNumber,
        hash: shortHash(Buffer.from(image.b64.slice(image.b64.indexOf(',') + 1), 'base64')),
        tokens: image.tokens,
      });
  };
  for (const p of input.sent) {
    if (p.sequenceNumber === -1) {
      entries.push({ kind: 'SYSTEM_PROMPT', ref: 'system', hash: shortHash(p.content), tokens: tok(input, p.content) });
      continue;
    }
    const source = bySeq.get(p.sequenceNumber);
    if (!source) continue;
    const seq = source.sequenceNumber;
    // The user message that carries image_view results' images: its images are the tool result's.
    if (p.role === 'user' && source.role === 'tool') {
      images(p, source);
      continue;
    }
    let content = p.content;
    const recalled = input.recall && !recallPlaced && p.role === 'user' ? strip(content, input.recall.text) : null;
    if (recalled !== null) content = recalled;
    const noticeText = typeof source.metadata.contextNotice === 'string' ? source.metadata.contextNotice : '';
    const withoutNotice = strip(content, noticeText);
    if (withoutNotice !== null) content = withoutNotice;
    const summary = source.isSummary || p.compaction !== undefined;
    entries.push({
      kind: summary ? 'SUMMARY' : 'MESSAGE',
      ref: source.messageId,
      seq,
      role: p.role,
      hash: shortHash(JSON.stringify([p.role, content, p.toolCalls, p.toolCallId, p.name])),
      tokens: input.tokens(promptMessageChars({ content, toolCalls: p.toolCalls })),
    });
    if (withoutNotice !== null)
      entries.push({
        kind: 'NOTICE',
        ref: source.messageId,
        seq,
        hash: shortHash(noticeText),
        tokens: tok(input, noticeText),
      });
    images(p, source);
    if (recalled !== null && input.recall) {
      recallPlaced = true;
      for (const chunk of input.recall.chunks)
        entries.push({
          kind: 'RECALL',
          ref: capRef(chunk.id),
          seq,
          hash: shortHash(chunk.text),
          tokens: tok(input, chunk.text),
        });
    }
  }
  return bounded(entries);
}

const tok = (input: Pick<ManifestInput, 'tokens'>, text: string) => input.tokens(text.length);

/** The system prompt and the newest entries, MANIFEST_MAX_ENTRIES at most; the older rest folded. */
function bounded(entries: ManifestEntry[]): CallManifest {
  const tokens = entries.reduce((n, e) => n + e.tokens, 0);
  if (entries.length <= MANIFEST_MAX_ENTRIES) return { v: 1, entries, omitted: null, tokens };
  const system = entries.filter((e) => e.kind === 'SYSTEM_PROMPT');
  const rest = entries.filter((e) => e.kind !== 'SYSTEM_PROMPT');
  const cut = rest.length - (MANIFEST_MAX_ENTRIES - system.length);
  const folded = rest.slice(0, cut);
  return {
    v: 1,
    entries: [...system, ...rest.slice(cut)],
    omitted: {
      count: folded.length,
      tokens: folded.reduce((n, e) => n + e.tokens, 0),
      hash: shortHash(folded.map((e) => `${key(e)}=${e.hash}`).join('\n')),
    },
    tokens,
  };
}

export interface ManifestDiff {
  added: ManifestEntry[];
  removed: ManifestEntry[];
  /** entries of this call whose ref was sent before with another hash */
  changed: ManifestEntry[];
  unchanged: number;
  /** this call's tokens minus the other's */
  tokenDelta: number;
  /** the folded older part differs (its entries are not named) */
  omittedChanged: boolean;
}

/** The lowest sequence number a manifest lists, when it folded older entries (below it, nothing is named). */
function listedFrom(m: CallManifest): number {
  if (!m.omitted) return Number.NEGATIVE_INFINITY;
  return Math.min(...m.entries.map((e) => e.seq ?? Number.POSITIVE_INFINITY));
}

/**
 * What changed from `previous` to `current`. An entry only one side lists, older than what the other side lists
 * (folded there), is neither added nor removed: the `omittedChanged` flag speaks for the folded parts.
 */
export function diffManifests(previous: CallManifest | null, current: CallManifest): ManifestDiff {
  if (!previous)
    return {
      added: current.entries,
      removed: [],
      changed: [],
      unchanged: 0,
      tokenDelta: current.tokens,
      omittedChanged: current.omitted !== null,
    };
  const before = new Map(previous.entries.map((e) => [key(e), e]));
  const now = new Map(current.entries.map((e) => [key(e), e]));
  const prevFrom = listedFrom(previous);
  const curFrom = listedFrom(current);
  const diff: ManifestDiff = {
    added: [],
    removed: [],
    changed: [],
    unchanged: 0,
    tokenDelta: current.tokens - previous.tokens,
    omittedChanged: previous.omitted?.hash !== current.omitted?.hash,
  };
  for (const [k, e] of now) {
    const old = before.get(k);
    if (old) {
      if (old.hash === e.hash) diff.unchanged++;
      else diff.changed.push(e);
    } else if ((e.seq ?? Number.POSITIVE_INFINITY) >= prevFrom) diff.added.push(e);
  }
  for (const [k, e] of before) if (!now.has(k) && (e.seq ?? Number.POSITIVE_INFINITY) >= curFrom) diff.removed.push(e);
  return diff;
}

/** A stored manifest (JSON) read back; an unreadable one as empty. */
export function parseCallManifest(raw: unknown): CallManifest {
  const m = raw as Partial<CallManifest> | null;
  if (!m || m.v !== 1 || !Array.isArray(m.entries)) return { v: 1, entries: [], omitted: null, tokens: 0 };
  return { v: 1, entries: m.entries, omitted: m.omitted ?? null, tokens: typeof m.tokens === 'number' ? m.tokens : 0 };
}
