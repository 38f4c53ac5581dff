/**
 * `sessions.metadata`: the typed view of what the services keep there, and
 * the patch they write. Reading is tolerant (a key of the wrong shape reads
 * as absent, so old rows still load); writing is a patch the store merges
 * into the stored object, so keys a reader does not know survive every write
 * and two writers of different keys never undo each other.
 */
import type { StreamRuleLedger } from './repeat-guard.js';
import type { RealBaseline } from './tokens.js';

export interface LastCompression {
  at: string;
  reason: string;
  marker?: number;
}

export interface SessionMetadata {
  /** the provider's last real prompt count, the base of every estimate */
  baseline?: RealBaseline;
  /** the provider reported a prompt it had cut: the context no longer fits */
  contextTruncated?: boolean;
  /** raw-history chunks already recalled into this session's context */
  injected_chunk_ids?: string[];
  /** the undo stack's redo side (src/editing owns the segments' shape) */
  redo?: { segments: unknown[]; nextSequence?: number };
  /** stream rules (repeat guard) that already fired in this session */
  streamRules?: StreamRuleLedger;
  lastCompression?: LastCompression;
  importedFrom?: string;
  chatgptConversationId?: string;
}

export type SessionMetadataKey = keyof SessionMetadata;

/** What a write changes: keys in `set` replace theirs, keys in `remove` go; every other key stays. */
export interface SessionMetadataPatch {
  set?: SessionMetadata;
  remove?: SessionMetadataKey[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The known keys of a stored metadata value; anything malformed reads as absent. */
export function parseSessionMetadata(value: unknown): SessionMetadata {
  if (!isRecord(value)) return {};
  const out: SessionMetadata = {};
  const {
    baseline,
    contextTruncated,
    injected_chunk_ids,
    redo,
    streamRules,
    lastCompression,
    importedFrom,
    chatgptConversationId,
  } = value;
  if (isRecord(baseline) && typeof baseline.promptTokens === 'number')
    out.baseline = baseline as unknown as RealBaseline;
  if (typeof contextTruncated === 'boolean') out.contextTruncated = contextTruncated;
  if (Array.isArray(injected_chunk_ids)) out.injected_chunk_ids = injected_chunk_ids.map(String);
  if (isRecord(redo) && Array.isArray(redo.segments)) out.redo = redo as SessionMetadata['redo'];
  if (isRecord(streamRules) && Array.isArray(streamRules.fired))
    out.streamRules = streamRules as unknown as StreamRuleLedger;
  if (isRecord(lastCompression) && typeof lastCompression.at === 'string')
    out.lastCompression = lastCompression as unknown as LastCompression;
  if (typeof importedFrom === 'string') out.importedFrom = importedFrom;
  if (typeof chatgptConversationId === 'string') out.chatgptConversationId = chatgptConversationId;
  return out;
}
