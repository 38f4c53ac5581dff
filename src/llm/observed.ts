/**
 * Model calls as seen from outside the turn code: a provider wrapped so that every call is an OpenTelemetry span
 * named and attributed by the GenAI semantic conventions (`chat {model}`, `gen_ai.*`), a child of its turn's span
 * when the call carries the session's prompt-cache key, and is reported to an optional observer (the metrics).
 * `@opentelemetry/api` is a no-op until an SDK is registered in the process (docs/operations.md).
 */
import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Usage } from '../domain/types.js';
import { supportsNativeCompaction } from './index.js';
import type { ChatChunk, ChatRequest, LlmProvider } from './types.js';

export const TRACER_NAME = 'chat-session-service';

export interface ModelCallReport {
  provider: string;
  model: string;
  operation: 'chat' | 'compact';
  seconds: number;
  /** the error's class name when the call failed */
  error: string | null;
  usage: Usage | null;
}

export interface ModelCallObserver {
  modelCall(report: ModelCallReport): void;
}

/** The turn span a call belongs to, by the prompt-cache key its session's calls carry (src/events/observed.ts). */
export type TurnSpans = (cacheKey: string) => Span | undefined;

export function observeProvider(
  provider: LlmProvider,
  kind: string,
  turnSpans: TurnSpans,
  observer?: ModelCallObserver,
): LlmProvider {
  const tracer = trace.getTracer(TRACER_NAME);
  const start = (req: ChatRequest, operation: 'chat' | 'compact') => {
    const parent = req.cacheKey ? turnSpans(req.cacheKey) : undefined;
    const ctx = parent ? trace.setSpan(context.active(), parent) : context.active();
    const span = tracer.startSpan(
      `${operation} ${req.model}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': operation === 'chat' ? 'chat' : 'compact',
          'gen_ai.provider.name': kind,
          'gen_ai.system': kind,
          'gen_ai.request.model': req.model,
          ...(req.maxTokens !== undefined ? { 'gen_ai.request.max_tokens': req.maxTokens } : {}),
          ...(req.temperature !== undefined ? { 'gen_ai.request.temperature': req.temperature } : {}),
        },
      },
      ctx,
    );
    const began = performance.now();
    return (usage: Usage | null, error: unknown, finish?: string) => {
      if (usage) {
        span.setAttribute('gen_ai.usage.input_tokens', usage.promptTokens);
        span.setAttribute('gen_ai.usage.output_tokens', usage.completionTokens);
      }
      if (finish) span.setAttribute('gen_ai.response.finish_reasons', [finish]);
      const errorType = error ? ((error as Error).name ?? 'Error') : null;
      if (errorType) {
        span.setAttribute('error.type', errorType);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      }
      span.end();
      observer?.modelCall({
        provider: kind,
        model: req.model,
        operation,
        seconds: (performance.now() - began) / 1000,
        error: errorType,
        usage,
      });
    };
  };
  const wrapped: LlmProvider = {
    name: provider.name,
    async *streamChat(req: ChatRequest): AsyncIterable<ChatChunk> {
      const end = start(req, 'chat');
      let usage: Usage | null = null;
      let finish: string | undefined;
      let failure: unknown = null;
      try {
        for await (const chunk of provider.streamChat(req)) {
          if (chunk.type === 'usage') usage = chunk.usage;
          if (chunk.type === 'done') finish = chunk.reason;
          yield chunk;
        }
      } catch (error) {
        failure = error;
        throw error;
      } finally {
        // Also when the caller stops reading (a stop, a repeat guard): the call ends there.
        end(usage, failure, finish);
      }
    },
    async complete(req) {
      const end = start(req, 'chat');
      try {
        const result = await provider.complete(req);
        end(result.usage, null);
        return result;
      } catch (error) {
        end(null, error);
        throw error;
      }
    },
  };
  if (!supportsNativeCompaction(provider)) return wrapped;
  return Object.assign(wrapped, {
    async compact(req: ChatRequest) {
      const end = start(req, 'compact');
      try {
        const block = await provider.compact(req);
        end(null, null);
        return block;
      } catch (error) {
        end(null, error);
        throw error;
      }
    },
  });
}
