/** Usage and Cost: a turn's or a session's token counts and their price. */
import { builder } from './builder.js';

export const UsageRef = builder
  .objectRef<{ promptTokens: number; completionTokens: number; cachedPromptTokens: number; cacheWriteTokens: number }>(
    'Usage',
  )
  .implement({
    fields: (t) => ({
      promptTokens: t.exposeInt('promptTokens', {
        description: 'the whole prompt the model read, cache reads and writes included',
      }),
      completionTokens: t.exposeInt('completionTokens'),
      cachedPromptTokens: t.exposeInt('cachedPromptTokens', { description: 'the same as cacheReadTokens' }),
      cacheReadTokens: t.int({
        description: "prompt tokens read from the provider's prompt cache (part of promptTokens)",
        resolve: (u) => u.cachedPromptTokens,
      }),
      cacheWriteTokens: t.exposeInt('cacheWriteTokens', {
        description: "prompt tokens written to the provider's prompt cache (part of promptTokens; Anthropic only)",
      }),
      totalTokens: t.int({ resolve: (u) => u.promptTokens + u.completionTokens }),
    }),
  });

export const CostRef = builder.objectRef<{ usd: number; priced: boolean }>('Cost').implement({
  fields: (t) => ({
    usd: t.exposeFloat('usd'),
    priced: t.exposeBoolean('priced', { description: 'false when the model has no known price' }),
  }),
});
