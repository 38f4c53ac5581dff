/** The provider factory and the native-compaction capability check. */
import { AnthropicProvider, type CompactionBlock } from './anthropic.js';
import { OllamaProvider } from './ollama.js';
import { OpenAICompatibleProvider } from './openai.js';
import type { ChatRequest, LlmProvider } from './types.js';

export type ProviderKind = 'ollama' | 'openai' | 'anthropic';

export interface ProviderSettings {
  /** e.g. http://127.0.0.1:11434 ('' → that default) */
  ollamaHost: string;
  /** including /v1, e.g. https://api.openai.com/v1 ('' → that default) */
  openaiBaseUrl: string;
  openaiApiKey: string;
  /** e.g. https://api.anthropic.com ('' → that default) */
  anthropicBaseUrl: string;
  anthropicApiKey: string;
  /** connect timeout and idle timeout between chunks */
  timeoutMs: number;
  /** extra attempts when the connection fails before the first chunk */
  connectRetries: number;
}

export function createProvider(kind: ProviderKind, settings: ProviderSettings): LlmProvider {
  const resilience = { timeoutMs: settings.timeoutMs, connectRetries: settings.connectRetries };
  switch (kind) {
    case 'ollama':
      return new OllamaProvider({ host: settings.ollamaHost, ...resilience });
    case 'openai':
      return new OpenAICompatibleProvider({
        baseURL: settings.openaiBaseUrl,
        apiKey: settings.openaiApiKey,
        ...resilience,
      });
    case 'anthropic':
      return new AnthropicProvider({
        baseURL: settings.anthropicBaseUrl,
        apiKey: settings.anthropicApiKey,
        ...resilience,
      });
    default: {
      const never: never = kind;
      throw new Error(`unknown provider kind: ${String(never)}`);
    }
  }
}

/** A provider that can compact a conversation natively (today: Anthropic). */
export interface NativeCompactionProvider extends LlmProvider {
  compact(req: ChatRequest): Promise<CompactionBlock>;
}

export function supportsNativeCompaction(p: LlmProvider): p is NativeCompactionProvider {
  return typeof (p as Partial<NativeCompactionProvider>).compact === 'function';
}
