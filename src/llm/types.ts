/** The one interface every LLM provider adapter implements. */
import type { ToolCall, Usage } from '../domain/types.js';
import { ErrorCode } from '../domain/error-codes.js';

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** base64-encoded image bytes (no data: prefix) */
  images?: string[];
  toolCalls?: ToolCall[];
  toolCallId?: string;
  name?: string;
  thinking?: string;
  /**
   * The provider's own thinking blocks of an assistant message, verbatim with
   * their signatures (Anthropic `thinking` / `redacted_thinking`), replayed as is.
   */
  thinkingBlocks?: Record<string, unknown>[];
  /** The provider's compaction block (Anthropic), sent back verbatim as a typed block instead of `content`. */
  compaction?: Record<string, unknown>;
}

export interface LlmToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments */
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  model: string;
  messages: LlmMessage[];
  tools?: LlmToolDefinition[];
  /** the model's context window, sent to Ollama as options.num_ctx */
  numCtx?: number;
  temperature?: number;
  think?: boolean;
  maxTokens?: number;
  /**
   * A stable per-session key for the provider's prompt cache (OpenAI-compatible `prompt_cache_key`).
   * Anthropic marks its cache breakpoints itself; Ollama has no such field.
   */
  cacheKey?: string;
  /** Only the core request fields: no extension such as `prompt_cache_key` (the profile's `providerExtensions`). */
  coreFieldsOnly?: boolean;
  signal?: AbortSignal;
}

export type ChatChunk =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  /** a finished provider thinking block with its signature (Anthropic), to store and replay verbatim */
  | { type: 'thinking_block'; block: Record<string, unknown> }
  | { type: 'tool_call'; call: ToolCall }
  /** promptTokens is the provider's real prompt count (Ollama prompt_eval_count) */
  | { type: 'usage'; usage: Usage }
  | { type: 'done'; reason?: string };

export interface CompleteResult {
  text: string;
  usage: Usage | null;
}

export interface LlmProvider {
  readonly name: string;
  streamChat(req: ChatRequest): AsyncIterable<ChatChunk>;
  /** Non-streaming convenience (summaries, titles): collects streamChat's text. */
  complete(req: ChatRequest): Promise<CompleteResult>;
}

/** The provider could not be reached or answered garbage; maps to PROVIDER_UNAVAILABLE. */
export class ProviderUnavailableError extends Error {
  readonly code = ErrorCode.PROVIDER_UNAVAILABLE;
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}
