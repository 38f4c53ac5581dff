/**
 * Session export: Markdown for reading and sharing, JSON (`ExportV1`) for a
 * lossless round trip through `importSession`. The JSON is deterministic (fixed
 * key order, free-form objects key-sorted), and `exportFingerprint` makes
 * importing the same export twice idempotent.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Checkpoint } from './history-edits.js';
import { TITLE_SOURCES, type TitleSource } from './titles.js';
import type { StoredBranch } from './tree.js';
import { type ChatMessage, newMessageId, type Usage } from './types.js';
import { ErrorCode } from './error-codes.js';

export { exportMarkdown, type MarkdownSessionInfo } from './export-markdown.js';

export const EXPORT_FORMAT = 'chat-session-export';
export const EXPORT_VERSION = 1;

// ---------------------------------------------------------------- JSON schema

const isoDate = z.iso.datetime({ offset: true });
const jsonRecord = z.record(z.string(), z.unknown());
const seq = z.number().int().min(0);

export const ExportUsage = z.object({
  promptTokens: z.number().int().min(0),
  completionTokens: z.number().int().min(0),
  cachedPromptTokens: z.number().int().min(0),
  /** left out when 0 (older exports have none): an export's fingerprint does not change with it */
  cacheWriteTokens: z.number().int().min(0).optional(),
});

export const ExportCheckpoint = z.object({
  goal: z.string(),
  afterSequenceNumber: z.number().int().min(-1),
  createdAt: isoDate,
});

export const ExportToolCall = z.object({
  id: z.string(),
  name: z.string(),
  arguments: jsonRecord,
});

export const ExportMessage = z.object({
  sequenceNumber: seq,
  /**
   * the message version's id (kept by an import: memory chunks and redo name messages by it); older exports have
   * none
   */
  messageId: z.guid().optional(),
  role: z.enum(['user', 'assistant', 'tool', 'system']),
  content: z.string(),
  thinking: z.string().nullable(),
  isContext: z.boolean(),
  isDisplay: z.boolean(),
  isPlan: z.boolean(),
  isCompression: z.boolean(),
  isSummary: z.boolean(),
  isCompressionCritical: z.boolean(),
  isRecall: z.boolean(),
  isAgentNote: z.boolean(),
  /** the row lived in session_messages_archive */
  archived: z.boolean(),
  toolCalls: z.array(ExportToolCall),
  toolCallId: z.string().nullable(),
  name: z.string().nullable(),
  metadata: jsonRecord,
  elapsedSeconds: z.number().nullable(),
  toolCallCount: z.number().int().nullable(),
  tokenCount: z.number().int().nullable(),
  files: z.array(z.string()),
  images: z.array(z.string()),
  createdAt: isoDate,
});

/** Branch suffix rows: same shape, never archived. */
export const ExportBranchMessage = ExportMessage.omit({ archived: true });

export const ExportBranch = z.object({
  name: z.string().min(1),
  baseSequence: z.number().int().min(-1),
  suffix: z.array(ExportBranchMessage),
  createdAt: isoDate,
});

export const ExportMemoryChunk = z.object({
  content: z.string(),
  breadcrumbs: z.array(z.string()),
  turnStart: z.number().int(),
  turnEnd: z.number().int(),
  firstAt: isoDate,
  lastAt: isoDate,
  /** the message versions the chunk was cut from (recall follows the current path by them); none in older exports */
  messageIds: z.array(z.guid()).optional(),
});

export const ExportSession = z.object({
  name: z.string().nullable(),
  titleSource: z.enum(TITLE_SOURCES as [TitleSource, ...TitleSource[]]),
  pinned: z.boolean(),
  createdAt: isoDate,
  lastActive: isoDate,
  usage: ExportUsage,
  planningLogs: z.unknown(),
  metadata: jsonRecord,
  profileKey: z.string().nullable(),
  checkpoint: ExportCheckpoint.nullable(),
  lastRewindReport: z.string().nullable(),
  contextTokenCount: z.number().int().min(0).nullable(),
});

export const ExportV1 = z
  .object({
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    exportedAt: isoDate,
    session: ExportSession,
    messages: z.array(ExportMessage),
    branches: z.array(ExportBranch),
    memoryChunks: z.array(ExportMemoryChunk).optional(),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<number>();
    v.messages.forEach((m, i) => {
      if (seen.has(m.sequenceNumber)) {
        ctx.addIssue({
          code: 'custom',
          path: ['messages', i, 'sequenceNumber'],
          message: `duplicate sequenceNumber ${m.sequenceNumber}`,
        });
      }
      seen.add(m.sequenceNumber);
    });
    const ids = new Set<string>();
    v.messages.forEach((m, i) => {
      if (m.messageId === undefined) return;
      if (ids.has(m.messageId))
        ctx.addIssue({ code: 'custom', path: ['messages', i, 'messageId'], message: 'duplicate messageId' });
      ids.add(m.messageId);
    });
    v.branches.forEach((b, i) => {
      // a switch puts the suffix after the rows up to baseSequence: no id may be twice in that path
      const path = new Set(v.messages.filter((m) => m.sequenceNumber <= b.baseSequence).map((m) => m.messageId));
      b.suffix.forEach((m, j) => {
        if (m.messageId === undefined) return;
        if (path.has(m.messageId))
          ctx.addIssue({
            code: 'custom',
            path: ['branches', i, 'suffix', j, 'messageId'],
            message: 'duplicate messageId',
          });
        path.add(m.messageId);
      });
    });
    const names = new Set<string>();
    v.branches.forEach((b, i) => {
      if (names.has(b.name))
        ctx.addIssue({ code: 'custom', path: ['branches', i, 'name'], message: `duplicate branch name "${b.name}"` });
      names.add(b.name);
    });
  });
export type ExportV1 = z.infer<typeof ExportV1>;

// ---------------------------------------------------------------- JSON export

export interface ExportSessionInput {
  name: string | null;
  titleSource: TitleSource;
  pinned: boolean;
  createdAt: Date;
  lastActive: Date;
  usage: Usage;
  planningLogs: unknown;
  metadata: Record<string, unknown>;
  profileKey: string | null;
  checkpoint: Checkpoint | null;
  lastRewindReport: string | null;
  contextTokenCount: number | null;
}

export type ExportMessageInput = ChatMessage & { archived?: boolean };

export interface MemoryChunkInput {
  content: string;
  breadcrumbs: string[];
  turnStart: number;
  turnEnd: number;
  firstAt: Date;
  lastAt: Date;
  messageIds?: string[];
}

export interface ExportInput {
  session: ExportSessionInput;
  /** every row, hot and archived, display and context-only */
  messages: readonly ExportMessageInput[];
  branches: readonly StoredBranch[];
  memoryChunks?: readonly MemoryChunkInput[];
}

/** Free-form JSON with object keys sorted, recursively (arrays keep their order). */
export function canonicalJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = canonicalJson(v);
    }
    return out;
  }
  return value;
}

function messageJson(m: ChatMessage, archived: boolean | null): Record<string, unknown> {
  const out: Record<string, unknown> = {
    sequenceNumber: m.sequenceNumber,
    messageId: m.messageId,
    role: m.role,
    content: m.content,
    thinking: m.thinking,
    isContext: m.isContext,
    isDisplay: m.isDisplay,
    isPlan: m.isPlan,
    isCompression: m.isCompression,
    isSummary: m.isSummary,
    isCompressionCritical: m.isCompressionCritical,
    isRecall: m.isRecall,
    isAgentNote: m.isAgentNote,
  };
  if (archived !== null) out.archived = archived;
  Object.assign(out, {
    toolCalls: m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: canonicalJson(c.arguments) })),
    toolCallId: m.toolCallId,
    name: m.name,
    metadata: canonicalJson(m.metadata),
    elapsedSeconds: m.elapsedSeconds,
    toolCallCount: m.toolCallCount,
    tokenCount: m.tokenCount,
    files: [...m.files],
    images: [...m.images],
    createdAt: m.createdAt.toISOString(),
  });
  return out;
}

/** Build the ExportV1 object (plain JSON values, fixed key order). */
export function buildExport(input: ExportInput, exportedAt: Date = new Date()): ExportV1 {
  const s = input.session;
  const doc: Record<string, unknown> = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: exportedAt.toISOString(),
    session: {
      name: s.name,
      titleSource: s.titleSource,
      pinned: s.pinned,
      createdAt: s.createdAt.toISOString(),
      lastActive: s.lastActive.toISOString(),
      usage: {
        promptTokens: s.usage.promptTokens,
        completionTokens: s.usage.completionTokens,
        cachedPromptTokens: s.usage.cachedPromptTokens,
        ...(s.usage.cacheWriteTokens > 0 && { cacheWriteTokens: s.usage.cacheWriteTokens }),
      },
      planningLogs: canonicalJson(s.planningLogs ?? []),
      metadata: canonicalJson(s.metadata),
      profileKey: s.profileKey,
      checkpoint: s.checkpoint
        ? {
            goal: s.checkpoint.goal,
            afterSequenceNumber: s.checkpoint.afterSequenceNumber,
            createdAt: s.checkpoint.createdAt.toISOString(),
          }
        : null,
      lastRewindReport: s.lastRewindReport,
      contextTokenCount: s.contextTokenCount,
    },
    messages: [...input.messages]
      .sort((a, b) => a.sequenceNumber - b.sequenceNumber)
      .map((m) => messageJson(m, m.archived ?? false)),
    branches: input.branches.map((b) => ({
      name: b.name,
      baseSequence: b.baseSequence,
      suffix: b.suffix.map((m) => messageJson(m, null)),
      createdAt: b.createdAt.toISOString(),
    })),
  };
  if (input.memoryChunks) {
    doc.memoryChunks = input.memoryChunks.map((c) => ({
      content: c.content,
      breadcrumbs: [...c.breadcrumbs],
      turnStart: c.turnStart,
      turnEnd: c.turnEnd,
      firstAt: c.firstAt.toISOString(),
      lastAt: c.lastAt.toISOString(),
      ...(c.messageIds && c.messageIds.length > 0 && { messageIds: [...c.messageIds] }),
    }));
  }
  return doc as ExportV1;
}

/** The JSON export text: same input, same bytes (apart from exportedAt). */
export function exportJson(input: ExportInput, exportedAt: Date = new Date()): string {
  return JSON.stringify(buildExport(input, exportedAt), null, 2) + '\n';
}

// ---------------------------------------------------------------- import side

export class ExportParseError extends Error {
  readonly code = ErrorCode.BAD_USER_INPUT;
  constructor(
    message: string,
    readonly problems: string[] = [],
  ) {
    super(message);
    this.name = 'ExportParseError';
  }
}

export const MAX_REPORTED_PROBLEMS = 5;

function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
}

/** Validate an export's text. Throws {@link ExportParseError} listing the first problems. */
export function parseExport(text: string): ExportV1 {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ExportParseError(`Import data is not valid JSON: ${(e as Error).message}`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ExportParseError('Import data is not a session export (expected a JSON object)');
  }
  const head = raw as Record<string, unknown>;
  if (head.format !== EXPORT_FORMAT) {
    throw new ExportParseError(`Import data is not a session export (format must be "${EXPORT_FORMAT}")`);
  }
  if (head.version !== EXPORT_VERSION) {
    throw new ExportParseError(
      `Unsupported export version ${JSON.stringify(head.version)} (supported: ${EXPORT_VERSION})`,
    );
  }
  const result = ExportV1.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${pathText(i.path)}: ${i.message}`);
    const shown = problems.slice(0, MAX_REPORTED_PROBLEMS);
    const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
    throw new ExportParseError(`Invalid session export: ${shown.join('; ')}${more}`, problems);
  }
  return result.data;
}

/**
 * Stable sha256 (hex) of an export's content, ignoring exportedAt and key
 * order: the same session exported twice fingerprints the same.
 */
export function exportFingerprint(parsed: ExportV1): string {
  const { exportedAt: _ignored, ...content } = parsed;
  return createHash('sha256')
    .update(JSON.stringify(canonicalJson(content)))
    .digest('hex');
}

export interface DecodedExport {
  session: ExportSessionInput;
  messages: (ChatMessage & { archived: boolean })[];
  branches: StoredBranch[];
  memoryChunks: MemoryChunkInput[];
}

/**
 * An imported message keeps its id (ids are unique per session), so memory chunks and the redo stack still name it;
 * a message of an older export, which carries none, gets a new one.
 */
function decodeMessage(m: z.infer<typeof ExportBranchMessage>): ChatMessage {
  return {
    sequenceNumber: m.sequenceNumber,
    messageId: m.messageId ?? newMessageId(),
    role: m.role,
    content: m.content,
    thinking: m.thinking,
    isContext: m.isContext,
    isDisplay: m.isDisplay,
    isPlan: m.isPlan,
    isCompression: m.isCompression,
    isSummary: m.isSummary,
    isCompressionCritical: m.isCompressionCritical,
    isRecall: m.isRecall,
    isAgentNote: m.isAgentNote,
    toolCalls: m.toolCalls.map((c) => ({ ...c })),
    toolCallId: m.toolCallId,
    name: m.name,
    metadata: m.metadata,
    elapsedSeconds: m.elapsedSeconds,
    toolCallCount: m.toolCallCount,
    tokenCount: m.tokenCount,
    files: m.files,
    images: m.images,
    createdAt: new Date(m.createdAt),
  };
}

/** A parsed export as domain values (Dates), ready for the store. */
export function decodeExport(parsed: ExportV1): DecodedExport {
  const s = parsed.session;
  return {
    session: {
      name: s.name,
      titleSource: s.titleSource,
      pinned: s.pinned,
      createdAt: new Date(s.createdAt),
      lastActive: new Date(s.lastActive),
      usage: { ...s.usage, cacheWriteTokens: s.usage.cacheWriteTokens ?? 0 },
      planningLogs: s.planningLogs,
      metadata: s.metadata,
      profileKey: s.profileKey,
      checkpoint: s.checkpoint
        ? {
            goal: s.checkpoint.goal,
            afterSequenceNumber: s.checkpoint.afterSequenceNumber,
            createdAt: new Date(s.checkpoint.createdAt),
          }
        : null,
      lastRewindReport: s.lastRewindReport,
      contextTokenCount: s.contextTokenCount,
    },
    messages: parsed.messages.map((m) => ({ ...decodeMessage(m), archived: m.archived })),
    branches: parsed.branches.map((b) => ({
      name: b.name,
      baseSequence: b.baseSequence,
      suffix: b.suffix.map(decodeMessage),
      createdAt: new Date(b.createdAt),
    })),
    memoryChunks: (parsed.memoryChunks ?? []).map((c) => ({
      ...c,
      firstAt: new Date(c.firstAt),
      lastAt: new Date(c.lastAt),
    })),
  };
}
