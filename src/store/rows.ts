/** Mapping between message rows (both tables) and the domain's ChatMessage. */
import type { ChatMessage, ToolCall } from '../domain/types.js';
import type { Prisma } from '../generated/prisma/client.js';

export interface MessageRow {
  sessionId: string;
  sequenceNumber: number;
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

export function toStoredMessage(row: MessageRow, archived: boolean): StoredMessage {
  return {
    sessionId: row.sessionId,
    sequenceNumber: row.sequenceNumber,
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

export function toRowData(
  sessionId: string,
  message: ChatMessage,
  displayIndex: number | null,
): Prisma.SessionMessageCreateManyInput {
  return {
    sessionId,
    sequenceNumber: message.sequenceNumber,
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

/** Column list shared by the raw queries over both message tables. */
export const MESSAGE_COLUMNS =
  `session_id AS "sessionId", sequence_number AS "sequenceNumber", ` +
  `display_index AS "displayIndex",
  role, content, thinking, is_context AS "isContext", is_display AS "isDisplay", is_plan AS "isPlan",
  is_compression AS "isCompression", is_summary AS "isSummary", is_compression_critical AS "isCompressionCritical",
  is_recall AS "isRecall", is_agent_note AS "isAgentNote", metadata, elapsed_seconds AS "elapsedSeconds",
  tool_call_count AS "toolCallCount", token_count AS "tokenCount", tool_calls AS "toolCalls",
  tool_call_id AS "toolCallId", name, files, images, created_at AS "createdAt"`;

/**
 * The rows of both message tables (archive, then hot) that match `where`, a condition on their own columns, each
 * with `archived`: the one UNION ALL every history read uses (wrap it to order or aggregate).
 */
export function bothTablesSql(where: string): string {
  return `SELECT ${MESSAGE_COLUMNS}, true AS archived FROM session_messages_archive WHERE ${where}
    UNION ALL
    SELECT ${MESSAGE_COLUMNS}, false AS archived FROM session_messages WHERE ${where}`;
}
