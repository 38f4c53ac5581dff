/**
 * Session export: Markdown for reading and sharing, JSON (`ExportV1`) for a
 * lossless round trip through `importSession`. The JSON is deterministic (fixed
 * key order, free-form objects key-sorted), and `exportFingerprint` makes
 * importing the same export twice idempotent.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Checkpoint } from './history-edits.js';
import { publicUploadNotices } from './upload-notices.js';
import { TITLE_SOURCES, type TitleSource } from './titles.js';
import type { StoredBranch } from './tree.js';
import { type ChatMessage, newMessageId, type Usage } from './types.js';
import { ErrorCode } from './error-codes.js';

export const EXPORT_FORMAT = 'chat-session-export';
export const EXPORT_VERSION = 1;

// ---------------------------------------------------------------- markdown

export interface MarkdownSessionInfo {
  name: string | null;
  createdAt: Date;
  lastActive: Date;
}

/** A fence longer than any backtick run inside, so content cannot close it. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}`;
}

function details(summary: string, body: string): string {
  return `<details>\n<summary>${escapeHtml(summary)}</summary>\n\n${body}\n\n</details>`;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attachments(m: ChatMessage): string | null {
  const all = [...m.images, ...m.files];
  return all.length > 0 ? `_Attachments: ${all.map((p) => `\`${p}\``).join(', ')}_` : null;
}

function renderMessage(m: ChatMessage): string | null {
  const parts: string[] = [];
  switch (m.role) {
    case 'user':
      parts.push(m.isAgentNote ? '## Note' : '## User');
      break;
    case 'assistant':
      parts.push('## Assistant');
      break;
    case 'system':
      parts.push('## System');
      break;
    case 'tool':
      return details(`Tool result${m.name ? `: ${m.name}` : ''}`, fenced(m.content));
  }
  if (m.thinking && m.thinking.trim()) parts.push(details('Thinking', m.thinking.trim()));
  if (m.content.trim()) parts.push(publicUploadNotices(m.content.trim()));
  for (const call of m.toolCalls) {
    parts.push(`**Tool call: \`${call.name}\`**\n\n${fenced(JSON.stringify(call.arguments, null, 2), 'json')}`);
  }
  const att = attachments(m);
  if (att) parts.push(att);
  return parts.join('\n\n');
}

/**
 * Readable Markdown: title, dates, then the display history. Compression
 * markers and context-only rows are skipped; thinking and tool results are
 * collapsed, tool calls shown as JSON.
 */
export function exportMarkdown(session: MarkdownSessionInfo, messages: readonly ChatMessage[]): string {
  const out: string[] = [
    `# ${session.name && session.name.trim() ? session.name.trim() : 'Untitled session'}`,
    `- Created: ${session.createdAt.toISOString()}\n- Last active: ${session.lastActive.toISOString()}`,
    '---',
  ];
  const ordered = [...messages].sort((a, b) => a.sequenceNumber - b.sequenceNumber);
  for (const m of ordered) {
    if (!m.isDisplay || m.isCompression) continue;
    const block = renderMessage(m);
    if (block) out.push(block);
  }
  return out.join('\n\n') + '\n';
}

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

/** An imported message is a new message version: it gets a new id (the export format carries none). */
function decodeMessage(m: z.infer<typeof ExportBranchMessage>): ChatMessage {
  return {
    sequenceNumber: m.sequenceNumber,
    messageId: newMessageId(),
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
