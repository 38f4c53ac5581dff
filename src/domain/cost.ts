/** What a usage costs under the configured price table (USD per million tokens). */
export interface Usage {
  promptTokens?: number;
  completionTokens?: number;
  /** prompt tokens read from the provider's prompt cache (part of promptTokens) */
  cachedPromptTokens?: number;
  /** prompt tokens written to the provider's prompt cache (part of promptTokens; Anthropic) */
  cacheWriteTokens?: number;
}

export interface ModelPrice {
  input: number;
  output: number;
  /** price of a cache read; `cachedInput` is its older name */
  cacheRead?: number;
  cachedInput?: number;
  /** price of a cache write (Anthropic charges more than the input price) */
  cacheWrite?: number;
}

/**
 * Every prompt token is priced once: cache reads at `cacheRead` (else `cachedInput`, else `input`),
 * cache writes at `cacheWrite` (else `input`), the rest at `input`. The stored prompt count includes
 * both (OpenAI's prompt_tokens includes its cached tokens; the Anthropic adapter adds the cache
 * figures to input_tokens, which excludes them), so they are taken out of it, never added on top.
 * A model without a price costs 0, unpriced.
 */
export function costOf(usage: Usage, price: ModelPrice | undefined): { usd: number; priced: boolean } {
  if (!price) return { usd: 0, priced: false };
  const prompt = usage.promptTokens ?? 0;
  const read = Math.min(usage.cachedPromptTokens ?? 0, prompt);
  const write = Math.min(usage.cacheWriteTokens ?? 0, prompt - read);
  const usd =
    ((prompt - read - write) * price.input +
      read * (price.cacheRead ?? price.cachedInput ?? price.input) +
      write * (price.cacheWrite ?? price.input) +
      (usage.completionTokens ?? 0) * price.output) /
    1_000_000;
  return { usd, priced: true };
}
