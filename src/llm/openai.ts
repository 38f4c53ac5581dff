/** OpenAI-compatible adapter over the official `openai` client: /chat/completions SSE. */
import type OpenAI from 'openai';
import {
  ProtocolError,
  ResilientProvider,
  guardedFetch,
  imageMediaType,
  parseToolArguments,
  policyFrom,
  usage,
  type ResilienceOptions,
  type StreamPolicy,
} from './common.js';
import { mintToolCallId } from './ollama.js';
import { pairToolCalls } from './pairing.js';
import type { ChatChunk, ChatRequest, LlmMessage, LlmToolDefinition } from './types.js';
import type { Usage } from '../domain/types.js';

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ToolParam = OpenAI.Chat.Completions.ChatCompletionTool;
type ContentPart = OpenAI.Chat.Completions.ChatCompletionContentPart;

export interface OpenAICompatibleProviderOptions extends ResilienceOptions {
  /** Including the version prefix, e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1 */
  baseURL: string;
  /** Local OpenAI-compatible servers usually ignore it; a placeholder is sent when empty. */
  apiKey?: string;
}

export class OpenAICompatibleProvider extends ResilientProvider {
  readonly name = 'openai';
  protected readonly policy: StreamPolicy;

  constructor(private readonly opts: OpenAICompatibleProviderOptions) {
    super();
    this.policy = policyFrom('openai', opts);
  }

  protected async *openStream(req: ChatRequest, signal: AbortSignal): AsyncIterable<ChatChunk> {
    // The SDK is loaded on the first stream, not at start (idle memory, docs/performance.md).
    const { default: OpenAIClient } = await import('openai');
    const client = new OpenAIClient({
      baseURL: this.opts.baseURL || 'https://api.openai.com/v1',
      apiKey: this.opts.apiKey || 'not-needed',
      maxRetries: 0, // retries are ours (before the first chunk only)
      timeout: Math.max(this.policy.timeoutMs * 2, 600_000), // ours fires first
      logLevel: 'off',
      fetch: guardedFetch(signal, { contentTypes: ['text/event-stream'] }),
    });
    const refused = refusedExtensions(this.opts.baseURL);
    const body = (): OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming => ({
      model: req.model,
      messages: pairToolCalls(req.messages).map(toOpenAIMessage),
      stream: true,
      ...(refused.has('stream_options') ? {} : { stream_options: { include_usage: true } }),
      ...(req.tools?.length ? { tools: req.tools.map(toOpenAITool) } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
      ...(req.cacheKey && !req.coreFieldsOnly && !refused.has('prompt_cache_key')
        ? { prompt_cache_key: req.cacheKey }
        : {}),
    });
    let first = body();
    let stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
    try {
      stream = await client.chat.completions.create(first, { signal });
    } catch (error) {
      // A strict server refusing a field the service added: once without it, remembered for this base URL.
      const field = refusedField(error, first);
      if (!field) throw error;
      refused.add(field);
      first = body();
      stream = await client.chat.completions.create(first, { signal });
    }
    // Without stream_options the server reports no usage: estimated from the text, and marked so.
    const estimateUsage = !('stream_options' in first);
    let outputChars = 0;

    // Tool-call deltas arrive in pieces keyed by index; emitted once complete.
    const pending = new Map<number, { id: string; name: string; args: string }>();
    let finish: string | undefined;
    let reported: Usage | undefined;
    function* flushCalls(): Generator<ChatChunk> {
      for (const [index, c] of [...pending.entries()].sort((a, b) => a[0] - b[0])) {
        yield {
          type: 'tool_call',
          call: { id: c.id || mintToolCallId(), name: c.name, arguments: parseToolArguments(c.args) },
        };
      }
      pending.clear();
    }

    let received = 0;
    for await (const chunk of stream) {
      received++;
      if (chunk.usage) {
        reported = usage(
          chunk.usage.prompt_tokens ?? 0,
          chunk.usage.completion_tokens ?? 0,
          // prompt_tokens includes the cached tokens; OpenAI reports no cache writes.
          chunk.usage.prompt_tokens_details?.cached_tokens ?? 0,
        );
      }
      for (const choice of chunk.choices ?? []) {
        const delta = (choice.delta ?? {}) as typeof choice.delta & {
          reasoning_content?: unknown;
          reasoning?: unknown;
        };
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (typeof reasoning === 'string' && reasoning) yield { type: 'thinking', text: reasoning };
        if (delta.content) {
          outputChars += delta.content.length;
          yield { type: 'text', text: delta.content };
        }
        for (const tc of delta.tool_calls ?? []) {
          const cur = pending.get(tc.index) ?? { id: '', name: '', args: '' };
          if (tc.id) cur.id = tc.id;
          if (tc.function?.name) cur.name += tc.function.name;
          if (tc.function?.arguments) cur.args += tc.function.arguments;
          pending.set(tc.index, cur);
        }
        if (choice.finish_reason) {
          finish = choice.finish_reason;
          yield* flushCalls();
        }
      }
    }
    if (finish === undefined && reported === undefined) {
      throw new ProtocolError(
        received
          ? 'stream ended without finish_reason or usage'
          : 'no SSE data events in the response (not an OpenAI stream)',
      );
    }
    yield* flushCalls();
    if (!reported && estimateUsage) reported = estimatedUsage(first, outputChars);
    if (reported) yield { type: 'usage', usage: reported };
    yield { type: 'done', reason: finish ?? 'stop' };
  }
}

/**
 * Fields this service adds beyond the core chat-completions request, and `stream_options` (core, but refused by some
 * servers): when a server answers 400 naming one, the request is sent again once without it, and every later request
 * to that base URL leaves it out (for the life of the process).
 */
const OPTIONAL_FIELDS = ['prompt_cache_key', 'stream_options'] as const;
const refusedByBaseUrl = new Map<string, Set<string>>();

function refusedExtensions(baseURL: string): Set<string> {
  let set = refusedByBaseUrl.get(baseURL);
  if (!set) refusedByBaseUrl.set(baseURL, (set = new Set()));
  return set;
}

/** The optional field a 400 names (and the request sent), or null. */
function refusedField(error: unknown, sent: object): string | null {
  // The guarded fetch throws HttpStatusError; the openai client may wrap it (as the cause of its own error).
  for (let e: unknown = error, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if ((e as { status?: unknown }).status !== 400) continue;
    const text = `${(e as Error).message ?? ''} ${JSON.stringify((e as { error?: unknown }).error ?? '')}`;
    const field = OPTIONAL_FIELDS.find((name) => name in sent && text.includes(name));
    if (field) return field;
  }
  return null;
}

/** Usage estimated from characters (4 per token) when the server reports none: marked `estimated`. */
function estimatedUsage(sent: { messages: unknown; tools?: unknown }, outputChars: number): Usage {
  const promptChars = JSON.stringify(sent.messages).length + (sent.tools ? JSON.stringify(sent.tools).length : 0);
  return { ...usage(Math.ceil(promptChars / 4), Math.ceil(outputChars / 4), 0), estimated: true };
}

function toOpenAIMessage(m: LlmMessage): MessageParam {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content };
    case 'assistant': {
      const out: OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam = {
        role: 'assistant',
        content: m.content,
      };
      if (m.toolCalls?.length) {
        out.tool_calls = m.toolCalls.map((c) => ({
          id: c.id,
          type: 'function' as const,
          function: { name: c.name, arguments: JSON.stringify(c.arguments) },
        }));
        if (!m.content) out.content = null;
      }
      return out;
    }
    case 'user': {
      if (!m.images?.length) return { role: 'user', content: m.content };
      const parts: ContentPart[] = [];
      if (m.content) parts.push({ type: 'text', text: m.content });
      for (const img of m.images) {
        parts.push({ type: 'image_url', image_url: { url: `data:${imageMediaType(img)};base64,${img}` } });
      }
      return { role: 'user', content: parts };
    }
  }
}

function toOpenAITool(t: LlmToolDefinition): ToolParam {
  return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } };
}
