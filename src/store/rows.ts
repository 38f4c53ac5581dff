/** Mapping between message rows (both tables) and the domain's ChatMessage. */
import type { ChatMessage, ToolCall } from '../domain/types.js';
import { isoFromPostgresJson } from '../domain/timestamps.js';
import type { Prisma } from '../generated/prisma/client.js';

export interface MessageRow {
  sessionId: string;
  sequenceNumber: number;
  messageId: string;
  displayIndex: number | null;
  role: string;
  content: string;
  thinking: string | null;
  isContext: boolean;
  isDisplay: boolean;
  isPlan: boolean;
  isCompression: boolean;
  isSummary: boolean;
  isCompressionCritical: boolean;
  isRecall: boolean;
  isAgentNote: boolean;
  metadata: unknown;
  elapsedSeconds: number | null;
  toolCallCount: number | null;
  tokenCount: number | null;
  toolCalls: unknown;
  toolCallId: string | null;
  name: string | null;
  files: string[] | null;
  images: string[] | null;
  createdAt: Date;
}

/** A stored message as the API sees it: the domain message plus where it lives. */
export interface StoredMessage extends ChatMessage {
  sessionId: string;
  displayIndex: number | null;
  archived: boolean;
}

/** A message as the API answers it: stored, or a JSON snapshot or page row whose createdAt is already a string. */
export type MessageShape = Omit<StoredMessage, 'createdAt'> & { createdAt: Date | string };

export function toStoredMessage(row: MessageRow, archived: boolean): StoredMessage {
  return {
    sessionId: row.sessionId,
    sequenceNumber: row.sequenceNumber,
    messageId: row.messageId,
    displayIndex: row.displayIndex,
    archived,
    role: row.role as ChatMessage['role'],
    content: row.content,
    thinking: row.thinking,
    isContext: row.isContext,
    isDisplay: row.isDisplay,
    isPlan: row.isPlan,
    isCompression: row.isCompression,
    isSummary: row.isSummary,
    isCompressionCritical: row.isCompressionCritical,
    isRecall: row.isRecall,
    isAgentNote: row.isAgentNote,
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
    elapsedSeconds: row.elapsedSeconds,
    toolCallCount: row.toolCallCount,
    tokenCount: row.tokenCount,
    toolCalls: (row.toolCalls ?? []) as ToolCall[],
    toolCallId: row.toolCallId,
    name: row.name,
    files: row.files ?? [],
    images: row.images ?? [],
    createdAt: row.createdAt,
  };
}

/**
 * A row of a JSON page (json_agg over bothTablesSql, any of its column sets) as the message it is, in place: the
 * same keys toStoredMessage gives, createdAt as the ISO string the API answers, the empty defaults for null lists and
 * metadata; a column the page did not read stays absent. No copy: a page is parsed for this one use.
 */
export function fromPageRow(row: Omit<MessageRow, 'createdAt'> & { createdAt?: string; archived: boolean }) {
  if (row.createdAt !== undefined) row.createdAt = isoFromPostgresJson(row.createdAt);
  if (row.metadata === null) row.metadata = {};
  if (row.toolCalls === null) row.toolCalls = [];
  if (row.files === null) row.files = [];
  if (row.images === null) row.images = [];
  return row as unknown as MessageShape;
}

export function toRowData(
  sessionId: string,
  message: ChatMessage,
  displayIndex: number | null,
): Prisma.SessionMessageCreateManyInput {
  return {
    sessionId,
    sequenceNumber: message.sequenceNumber,
    messageId: message.messageId,
    displayIndex,
    role: message.role,
    content: message.content,
    thinking: message.thinking,
    isContext: message.isContext,
    isDisplay: message.isDisplay,
    isPlan: message.isPlan,
    isCompression: message.isCompression,
    isSummary: message.isSummary,
    isCompressionCritical: message.isCompressionCritical,
    isRecall: message.isRecall,
    isAgentNote: message.isAgentNote,
    metadata: message.metadata as Prisma.InputJsonValue,
    elapsedSeconds: message.elapsedSeconds,
    toolCallCount: message.toolCallCount,
    tokenCount: message.tokenCount,
    toolCalls: message.toolCalls as unknown as Prisma.InputJsonValue,
    toolCallId: message.toolCallId,
    name: message.name,
    files: message.files,
    images: message.images,
    createdAt: message.createdAt,
  };
}

/** Each message column as the raw queries over both message tables select it, in MESSAGE_COLUMNS' order. */
const MESSAGE_COLUMN_SQL = {
  sessionId: 'session_id AS "sessionId"',
  sequenceNumber: 'sequence_number AS "sequenceNumber"',
  messageId: 'message_id AS "messageId"',
  displayIndex: 'display_index AS "displayIndex"',
  role: 'role',
  content: 'content',
  thinking: 'thinking',
  isContext: 'is_context AS "isContext"',
  isDisplay: 'is_display AS "isDisplay"',
  isPlan: 'is_plan AS "isPlan"',
  isCompression: 'is_compression AS "isCompression"',
  isSummary: 'is_summary AS "isSummary"',
  isCompressionCritical: 'is_compression_critical AS "isCompressionCritical"',
  isRecall: 'is_recall AS "isRecall"',
  isAgentNote: 'is_agent_note AS "isAgentNote"',
  metadata: 'metadata',
  elapsedSeconds: 'elapsed_seconds AS "elapsedSeconds"',
  toolCallCount: 'tool_call_count AS "toolCallCount"',
  tokenCount: 'token_count AS "tokenCount"',
  toolCalls: 'tool_calls AS "toolCalls"',
  toolCallId: 'tool_call_id AS "toolCallId"',
  name: 'name',
  files: 'files',
  images: 'images',
  createdAt: 'created_at AS "createdAt"',
} as const satisfies Record<keyof MessageRow, string>;

export type MessageColumn = keyof MessageRow;

export const isMessageColumn = (name: string): name is MessageColumn => Object.hasOwn(MESSAGE_COLUMN_SQL, name);

/** Column list shared by the raw queries over both message tables. */
export const MESSAGE_COLUMNS = Object.values(MESSAGE_COLUMN_SQL).join(', ');

/** What a chat transcript shows of a message. */
const TRANSCRIPT_COLUMNS: ReadonlySet<MessageColumn> = new Set(['role', 'content', 'createdAt']);
/** The columns that may be large or are JSON (PostgreSQL builds them into the page and this process parses them). */
const BULKY_COLUMNS: ReadonlySet<MessageColumn> = new Set(['thinking', 'metadata', 'toolCalls', 'files', 'images']);
const SCALAR_COLUMNS: ReadonlySet<MessageColumn> = new Set(
  (Object.keys(MESSAGE_COLUMN_SQL) as MessageColumn[]).filter((column) => !BULKY_COLUMNS.has(column)),
);

/**
 * The smallest of three fixed column sets that holds `columns`: the transcript's, every column but the bulky ones,
 * or all (null). A page reads one of three SQL texts whatever the selection, so the prepared statements stay few
 * (a selection per text would let a client fill every connection with its variations).
 */
export function columnTier(columns: ReadonlySet<MessageColumn>): ReadonlySet<MessageColumn> | null {
  const within = (tier: ReadonlySet<MessageColumn>) => [...columns].every((column) => tier.has(column));
  if (within(TRANSCRIPT_COLUMNS)) return TRANSCRIPT_COLUMNS;
  if (within(SCALAR_COLUMNS)) return SCALAR_COLUMNS;
  return null;
}

/** messageColumnsSql's text per set (columnTier's sets are constants: built once per process). */
const columnsSqlOf = new WeakMap<ReadonlySet<MessageColumn>, string>();

/**
 * Some of the columns, in MESSAGE_COLUMNS' order: the key (session, sequence number), the message id and the
 * display position always, then those named. A row read with it lacks the others: for a reader that is told which
 * fields will be asked for (the prefetched history page, through columnTier).
 */
export function messageColumnsSql(columns: ReadonlySet<MessageColumn>): string {
  let sql = columnsSqlOf.get(columns);
  if (sql === undefined) {
    const always: MessageColumn[] = ['sessionId', 'sequenceNumber', 'messageId', 'displayIndex'];
    sql = (Object.keys(MESSAGE_COLUMN_SQL) as MessageColumn[])
      .filter((column) => always.includes(column) || columns.has(column))
      .map((column) => MESSAGE_COLUMN_SQL[column])
      .join(', ');
    columnsSqlOf.set(columns, sql);
  }
  return sql;
}

/**
 * The rows of both message tables (archive, then hot) that match `where`, a condition on their own columns, each
 * with `archived`: the one UNION ALL every history read uses (wrap it to order or aggregate).
 */
export function bothTablesSql(where: string, columns = MESSAGE_COLUMNS): string {
  return `SELECT ${columns}, true AS archived FROM session_messages_archive WHERE ${where}
    UNION ALL
    SELECT ${columns}, false AS archived FROM session_messages WHERE ${where}`;
}
