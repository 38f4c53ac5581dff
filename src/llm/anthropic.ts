/**
 * Anthropic Messages API adapter over plain fetch: POST /v1/messages with SSE.
 *
 * Native compaction (`compact`) assumes this wire format (context-management beta):
 *   request header  `anthropic-beta: compact-2026-01-12`
 *   request body    `context_management: { edits: [{ type: "compact_20260112" }] }`
 *   response        `content: [{ type: "compaction", content: "<summary>", ... }, ...]`
 * The block is stored whole and sent back verbatim, first, as an assistant
 * message of its own (`{ role: "assistant", content: [<block>] }`), with the
 * beta header on every request that carries it. Thinking blocks are kept with
 * their signatures (`thinking_block` chunks) and replayed in their assistant
 * messages, so the turns kept after a compaction block reach the API unchanged.
 */
import {
  HttpStatusError,
  ProtocolError,
  statusErrorOf,
  ResilientProvider,
  guardedFetch,
  imageMediaType,
  parseJsonData,
  parseToolArguments,
  policyFrom,
  readSse,
  resilientRequest,
  usage,
  type ResilienceOptions,
  type StreamPolicy,
} from './common.js';
import { pairToolCalls } from './pairing.js';
import type { ChatChunk, ChatRequest, LlmMessage, LlmToolDefinition } from './types.js';
import { trimEndChars } from '../domain/text.js';

export const ANTHROPIC_VERSION = '2023-06-01';
export const COMPACT_BETA = 'compact-2026-01-12';
export const COMPACT_EDIT_TYPE = 'compact_20260112';
const DEFAULT_MAX_TOKENS = 8192;

export interface AnthropicProviderOptions extends ResilienceOptions {
  /** e.g. https://api.anthropic.com (a trailing /v1 is accepted too) */
  baseURL: string;
  apiKey: string;
}

/** The provider's compaction block, to be sent back verbatim in place of the summarized history. */
export interface CompactionBlock {
  type: 'compaction';
  content: string;
  /** any other field the API sent (e.g. a signature), kept as is */
  [field: string]: unknown;
}

type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

export class AnthropicProvider extends ResilientProvider {
  readonly name = 'anthropic';
  protected readonly policy: StreamPolicy;
  private readonly url: string;

  constructor(private readonly opts: AnthropicProviderOptions) {
    super();
    const base = trimEndChars(opts.baseURL || 'https://api.anthropic.com', '/');
    this.url = base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`;
    this.policy = policyFrom('anthropic', opts);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      'content-type': 'application/json',
      'x-api-key': this.opts.apiKey,
      'anthropic-version': ANTHROPIC_VERSION,
      ...extra,
    };
  }

  protected async *openStream(req: ChatRequest, signal: AbortSignal): AsyncIterable<ChatChunk> {
    const doFetch = guardedFetch(signal, { contentTypes: ['text/event-stream'] });
    // A request that carries a compaction block needs the beta that produced it.
    const beta: Record<string, string> = req.messages.some((m) => m.compaction)
      ? { 'anthropic-beta': COMPACT_BETA }
      : {};
    const res = await doFetch(this.url, {
      method: 'POST',
      headers: this.headers({ accept: 'text/event-stream', ...beta }),
      body: JSON.stringify({ ...buildBody(req), stream: true }),
    });
    if (!res.ok) throw await statusErrorOf(res);
    if (!res.body) throw new ProtocolError('empty response body');

    const tools = new Map<number, { id: string; name: string; json: string }>();
    // Thinking blocks by index, completed with their signature at content_block_stop.
    const thoughts = new Map<number, Record<string, unknown>>();
    let prompt = 0;
    let cached = 0;
    let written = 0;
    let output = 0;
    let stopReason: string | undefined;
    for await (const ev of readSse(res.body)) {
      const data = parseJsonData(ev.data) as Record<string, any>;
      const type = (data.type as string | undefined) ?? ev.event;
      switch (type) {
        case 'message_start': {
          const u = data.message?.usage ?? {};
          cached = u.cache_read_input_tokens ?? 0;
          written = u.cache_creation_input_tokens ?? 0;
          // input_tokens excludes cache reads/writes; the prompt the model saw is their sum.
          prompt = (u.input_tokens ?? 0) + cached + written;
          output = u.output_tokens ?? 0;
          break;
        }
        case 'content_block_start': {
          const b = data.content_block ?? {};
          if (b.type === 'tool_use') tools.set(data.index, { id: b.id, name: b.name, json: '' });
          else if (b.type === 'text' && b.text) yield { type: 'text', text: b.text };
          else if (b.type === 'thinking') {
            thoughts.set(data.index, { type: 'thinking', thinking: b.thinking ?? '', signature: b.signature ?? '' });
            if (b.thinking) yield { type: 'thinking', text: b.thinking };
          } else if (b.type === 'redacted_thinking') thoughts.set(data.index, { ...b });
          break;
        }
        case 'content_block_delta': {
          const d = data.delta ?? {};
          if (d.type === 'text_delta' && d.text) yield { type: 'text', text: d.text };
          else if (d.type === 'thinking_delta' && d.thinking) {
            const t = thoughts.get(data.index);
            if (t) t.thinking = `${t.thinking as string}${d.thinking}`;
            yield { type: 'thinking', text: d.thinking };
          } else if (d.type === 'signature_delta') {
            const t = thoughts.get(data.index);
            if (t) t.signature = `${t.signature as string}${d.signature ?? ''}`;
          } else if (d.type === 'input_json_delta') {
            const t = tools.get(data.index);
            if (t) t.json += d.partial_json ?? '';
          }
          break;
        }
        case 'content_block_stop': {
          const thought = thoughts.get(data.index);
          if (thought) {
            thoughts.delete(data.index);
            yield { type: 'thinking_block', block: thought };
          }
          const t = tools.get(data.index);
          if (t) {
            tools.delete(data.index);
            yield { type: 'tool_call', call: { id: t.id, name: t.name, arguments: parseToolArguments(t.json) } };
          }
          break;
        }
        case 'message_delta': {
          if (data.delta?.stop_reason) stopReason = data.delta.stop_reason;
          const u = data.usage ?? {};
          if (typeof u.output_tokens === 'number') output = u.output_tokens;
          if (typeof u.input_tokens === 'number') {
            cached = u.cache_read_input_tokens ?? cached;
            written = u.cache_creation_input_tokens ?? written;
            prompt = u.input_tokens + cached + written;
          }
          break;
        }
        case 'message_stop':
          yield { type: 'usage', usage: usage(prompt, output, cached, written) };
          yield { type: 'done', reason: stopReason ?? 'end_turn' };
          return;
        case 'error': {
          const e = data.error ?? {};
          throw new HttpStatusError(
            e.type === 'overloaded_error' ? 529 : 500,
            `${e.type ?? 'error'}: ${e.message ?? ''}`,
          );
        }
        default:
          break; // ping and unknown events
      }
    }
    throw new ProtocolError('stream ended before message_stop');
  }

  /**
   * Provider-native compaction: sends the conversation with the compaction edit and
   * returns the compaction block the API produced (non-streaming request).
   */
  async compact(req: ChatRequest): Promise<CompactionBlock> {
    return resilientRequest(this.policy, req.signal, async (signal) => {
      const doFetch = guardedFetch(signal, { contentTypes: ['application/json'] });
      const res = await doFetch(this.url, {
        method: 'POST',
        headers: this.headers({ 'anthropic-beta': COMPACT_BETA }),
        body: JSON.stringify({
          ...buildBody(req),
          stream: false,
          context_management: { edits: [{ type: COMPACT_EDIT_TYPE }] },
        }),
      });
      if (!res.ok) throw await statusErrorOf(res);
      const json = parseJsonData(await res.text()) as { content?: Array<Record<string, unknown>> };
      const block = json.content?.find((b) => b.type === 'compaction');
      if (!block || typeof block.content !== 'string') throw new ProtocolError('response carried no compaction block');
      // Verbatim: the API wants the block back exactly as it came.
      return { ...block, type: 'compaction', content: block.content };
    });
  }
}

const EPHEMERAL = { type: 'ephemeral' } as const;
/** Block types that may carry `cache_control` (thinking and compaction blocks may not). */
const CACHEABLE = new Set(['text', 'image', 'tool_use', 'tool_result', 'document']);

/**
 * The Messages API body (without `stream`).
 *
 * Prompt caching: `cache_control` breakpoints mark the byte-stable prefix (tools, system, history),
 * so the next call of the session reads it from the cache instead of paying for it again:
 *   1. the system block (tools and system prompt);
 *   2. the last block before the latest user message (the history every later call repeats);
 *   3. in a tool loop, the newest tool_result (the next call of the loop repeats everything up to it).
 * At most three, under the API's limit of four. The latest user message and the request-time recall
 * context appended to it stay after the breakpoints: they change from call to call.
 */
export function buildBody(req: ChatRequest): Record<string, unknown> {
  const system = req.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const messages: AnthropicMessage[] = [];
  const paired = pairToolCalls(req.messages);
  // the blocks each paired message became (the same objects `messages` holds)
  const owned: Block[][] = [];
  for (const m of paired) {
    if (m.role === 'system') {
      owned.push([]);
      continue;
    }
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks = toBlocks(m);
    owned.push(blocks);
    if (!blocks.length) continue;
    const last = messages[messages.length - 1];
    // The API wants alternating roles: merge consecutive same-role messages (tool results).
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: [...blocks] });
  }
  markHistoryBreakpoints(paired, owned);
  let maxTokens = req.maxTokens ?? DEFAULT_MAX_TOKENS;
  const body: Record<string, unknown> = { model: req.model, messages };
  if (system) body.system = [{ type: 'text', text: system, cache_control: EPHEMERAL }];
  if (req.tools?.length) body.tools = req.tools.map(toAnthropicTool);
  if (req.think) {
    maxTokens = Math.max(maxTokens, 2048);
    body.thinking = { type: 'enabled', budget_tokens: Math.max(1024, Math.floor(maxTokens / 2)) };
    // temperature must stay at its default with extended thinking
  } else if (req.temperature !== undefined) {
    body.temperature = req.temperature;
  }
  body.max_tokens = maxTokens;
  return body;
}

/** Breakpoints 2 and 3 of `buildBody`, set on the blocks in place. */
function markHistoryBreakpoints(paired: readonly LlmMessage[], owned: readonly Block[][]): void {
  let latestUser = -1;
  for (let i = paired.length - 1; i >= 0 && latestUser < 0; i--) if (paired[i]!.role === 'user') latestUser = i;
  const lastCacheable = (from: number, to: number, accept: (m: LlmMessage) => boolean): Block | undefined => {
    for (let i = to; i >= from; i--) {
      if (!accept(paired[i]!)) continue;
      const block = owned[i]!.findLast((b) => CACHEABLE.has(String(b.type)));
      if (block) return block;
    }
    return undefined;
  };
  const marks = new Set<Block>();
  const history = latestUser > 0 ? lastCacheable(0, latestUser - 1, () => true) : undefined;
  if (history) marks.add(history);
  const toolResult = lastCacheable(latestUser + 1, paired.length - 1, (m) => m.role === 'tool');
  if (toolResult) marks.add(toolResult);
  for (const block of marks) block.cache_control = EPHEMERAL;
}

function toBlocks(m: LlmMessage): Block[] {
  if (m.role === 'tool') {
    return [{ type: 'tool_result', tool_use_id: m.toolCallId ?? '', content: m.content }];
  }
  // The compaction block stands alone, exactly as the API returned it.
  if (m.compaction) return [{ ...m.compaction }];
  const blocks: Block[] = [];
  // Thinking goes back as the API sent it (signature included), before the text and tool calls;
  // thinking stored without a signature (other providers, older rows) cannot be replayed.
  if (m.role === 'assistant') for (const b of m.thinkingBlocks ?? []) blocks.push({ ...b });
  if (m.role === 'user') {
    for (const img of m.images ?? []) {
      blocks.push({ type: 'image', source: { type: 'base64', media_type: imageMediaType(img), data: img } });
    }
  }
  if (m.content) blocks.push({ type: 'text', text: m.content });
  for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments });
  return blocks;
}

function toAnthropicTool(t: LlmToolDefinition): Record<string, unknown> {
  return { name: t.name, description: t.description, input_schema: t.parameters };
}
