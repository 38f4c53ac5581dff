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
  /**
   * This message version's id for life (a uuid, unique in its session): kept when the row is archived, held in a
   * branch or the redo stack and put back; a new version (edit, regenerate) gets a new one.
   */
  messageId: string;
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

/** A new message id (a random uuid; Web Crypto, no I/O). */
export const newMessageId = (): string => globalThis.crypto.randomUUID();

export function makeMessage(partial: NewMessage & { sequenceNumber?: number; createdAt?: Date }): ChatMessage {
  return {
    sequenceNumber: partial.sequenceNumber ?? 0,
    messageId: partial.messageId ?? newMessageId(),
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
  /** the server reported none (an OpenAI-compatible server that refuses stream_options): counted from characters */
  estimated?: boolean;
}

export const ZERO_USAGE: Usage = { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0, cacheWriteTokens: 0 };
