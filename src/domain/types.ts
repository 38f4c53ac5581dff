/** Plain data shapes shared by the pure domain, services and store. No I/O here. */

export type Role = 'user' | 'assistant' | 'tool' | 'system';

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * One stored message row (hot or archived). Field names follow the seed's
 * Message in camelCase. `images` and `files` are paths relative to the
 * session-files root (e.g. `session_files/<id>/image_1.png`).
 */
export interface ChatMessage {
  sequenceNumber: number;
  role: Role;
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
  toolCalls: ToolCall[];
  toolCallId: string | null;
  name: string | null;
  metadata: Record<string, unknown>;
  elapsedSeconds: number | null;
  toolCallCount: number | null;
  tokenCount: number | null;
  files: string[];
  images: string[];
  createdAt: Date;
}

/** A message about to be appended: the store assigns sequenceNumber and createdAt. */
export type NewMessage = Partial<Omit<ChatMessage, 'sequenceNumber'>> & Pick<ChatMessage, 'role' | 'content'>;

export function makeMessage(partial: NewMessage & { sequenceNumber?: number; createdAt?: Date }): ChatMessage {
  return {
    sequenceNumber: partial.sequenceNumber ?? 0,
    role: partial.role,
    content: partial.content,
    thinking: partial.thinking ?? null,
    isContext: partial.isContext ?? true,
    isDisplay: partial.isDisplay ?? true,
    isPlan: partial.isPlan ?? false,
    isCompression: partial.isCompression ?? false,
    isSummary: partial.isSummary ?? false,
    isCompressionCritical: partial.isCompressionCritical ?? false,
    isRecall: partial.isRecall ?? false,
    isAgentNote: partial.isAgentNote ?? false,
    toolCalls: partial.toolCalls ?? [],
    toolCallId: partial.toolCallId ?? null,
    name: partial.name ?? null,
    metadata: partial.metadata ?? {},
    elapsedSeconds: partial.elapsedSeconds ?? null,
    toolCallCount: partial.toolCallCount ?? null,
    tokenCount: partial.tokenCount ?? null,
    files: partial.files ?? [],
    images: partial.images ?? [],
    createdAt: partial.createdAt ?? new Date(),
  };
}

/**
 * A call's (or a sum of calls') token counts. `promptTokens` is the whole prompt the model read,
 * cache reads and writes included; `cachedPromptTokens` of it were read from the provider's prompt
 * cache, `cacheWriteTokens` of it were written to the cache (Anthropic; 0 elsewhere).
 */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
  cacheWriteTokens: number;
}

export const ZERO_USAGE: Usage = { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0, cacheWriteTokens: 0 };
