/** Ollama adapter over the official `ollama` client: POST /api/chat, NDJSON stream. */
import { randomUUID } from 'node:crypto';
import type { Message as OllamaMessage, Tool as OllamaTool } from 'ollama';
import {
  ResilientProvider,
  guardedFetch,
  parseToolArguments,
  policyFrom,
  usage,
  type ResilienceOptions,
  type StreamPolicy,
} from './common.js';
import { pairToolCalls } from './pairing.js';
import type { ChatChunk, ChatRequest, LlmMessage, LlmToolDefinition } from './types.js';

export interface OllamaProviderOptions extends ResilienceOptions {
  /** e.g. http://127.0.0.1:11434 */
  host: string;
}

export class OllamaProvider extends ResilientProvider {
  readonly name = 'ollama';
  protected readonly policy: StreamPolicy;
  private readonly host: string;

  constructor(opts: OllamaProviderOptions) {
    super();
    this.host = opts.host || 'http://127.0.0.1:11434';
    this.policy = policyFrom('ollama', opts);
  }

  protected async *openStream(req: ChatRequest, signal: AbortSignal): AsyncIterable<ChatChunk> {
    // A client per attempt: its fetch follows this attempt's signal and checks the NDJSON. The SDK is loaded on the
    // first stream, not at start (idle memory, docs/performance.md).
    const { Ollama } = await import('ollama');
    const client = new Ollama({
      host: this.host,
      fetch: guardedFetch(signal, { contentTypes: ['application/x-ndjson', 'application/json'], ndjson: true }),
    });
    const options: Record<string, number> = {};
    if (req.numCtx !== undefined) options.num_ctx = req.numCtx;
    if (req.temperature !== undefined) options.temperature = req.temperature;
    if (req.maxTokens !== undefined) options.num_predict = req.maxTokens;

    const stream = await client.chat({
      model: req.model,
      messages: pairToolCalls(req.messages).map(toOllamaMessage),
      stream: true,
      ...(req.think !== undefined ? { think: req.think } : {}),
      ...(req.tools?.length ? { tools: req.tools.map(toOllamaTool) } : {}),
      options,
    });
    const onAbort = () => stream.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    // Ollama gives no tool-call ids (or, in some builds, the same ones every turn), and its wire
    // format never sends them back: ids only pair our stored calls with their results and name
    // spilled bodies. A given id is kept only while it is unique in this request and response.
    const seen = new Set(
      req.messages.flatMap((m) => [...(m.toolCalls ?? []).map((c) => c.id), ...(m.toolCallId ? [m.toolCallId] : [])]),
    );
    try {
      for await (const part of stream) {
        const m = part.message;
        if (m?.thinking) yield { type: 'thinking', text: m.thinking };
        if (m?.content) yield { type: 'text', text: m.content };
        for (const tc of m?.tool_calls ?? []) {
          const given = (tc as { id?: unknown }).id;
          const id = typeof given === 'string' && given && !seen.has(given) ? given : mintToolCallId();
          seen.add(id);
          yield {
            type: 'tool_call',
            call: { id, name: tc.function.name, arguments: parseToolArguments(tc.function.arguments) },
          };
        }
        if (part.done) {
          // prompt_eval_count is what Ollama really evaluated: after a silent
          // truncation it is smaller than the prompt that was sent.
          yield { type: 'usage', usage: usage(part.prompt_eval_count ?? 0, part.eval_count ?? 0) };
          yield { type: 'done', reason: part.done_reason || 'stop' };
          return;
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}

/** A fresh tool-call id, unique within any session (stored with the call, so stable from then on). */
export function mintToolCallId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

function toOllamaMessage(m: LlmMessage): OllamaMessage {
  const out: OllamaMessage = { role: m.role, content: m.content };
  if (m.images?.length) out.images = m.images;
  if (m.thinking) out.thinking = m.thinking;
  if (m.toolCalls?.length) {
    out.tool_calls = m.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } }));
  }
  if (m.role === 'tool' && m.name) out.tool_name = m.name;
  return out;
}

function toOllamaTool(t: LlmToolDefinition): OllamaTool {
  return {
    type: 'function',
    function: {
      name: t.name,
      description: t.description,
      parameters: t.parameters as OllamaTool['function']['parameters'],
    },
  };
}
