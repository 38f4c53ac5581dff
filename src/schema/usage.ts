/** Usage and Cost: a turn's or a session's token counts and their price. */
import { builder } from './builder.js';

export const UsageRef = builder
  .objectRef<{
    promptTokens: number;
    completionTokens: number;
    cachedPromptTokens: number;
    cacheWriteTokens: number;
    estimated?: boolean;
  }>('Usage')
  .implement({
    fields: (t) => ({
      promptTokens: t.exposeInt('promptTokens', {
        description: 'the whole prompt the model read, cache reads and writes included',
      }),
      completionTokens: t.exposeInt('completionTokens'),
      estimated: t.boolean({
        description:
          "a turn's usage (TurnEnded.usage): true when the provider reported no usage for one of its calls (a strict " +
          'OpenAI-compatible server that refuses stream_options) and its tokens were counted from characters; ' +
          "a session's sum does not carry the mark",
        resolve: (u) => u.estimated === true,
      }),
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
