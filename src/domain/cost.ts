/** What a usage costs under the configured price table (USD per million tokens). */
export interface Usage {
  promptTokens?: number;
  completionTokens?: number;
  cachedPromptTokens?: number;
}

export interface ModelPrice {
  input: number;
  output: number;
  cachedInput?: number;
}

/** Cached prompt tokens are priced at `cachedInput` (else `input`); a model without a price costs 0, unpriced. */
export function costOf(usage: Usage, price: ModelPrice | undefined): { usd: number; priced: boolean } {
  if (!price) return { usd: 0, priced: false };
  const prompt = usage.promptTokens ?? 0;
  const cached = Math.min(usage.cachedPromptTokens ?? 0, prompt);
  const usd =
    ((prompt - cached) * price.input +
      cached * (price.cachedInput ?? price.input) +
      (usage.completionTokens ?? 0) * price.output) /
    1_000_000;
  return { usd, priced: true };
}
