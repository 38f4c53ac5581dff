/** Usage and Cost: a turn's or a session's token counts and their price. */
import { builder } from './builder.js';

export const UsageRef = builder
  .objectRef<{ promptTokens: number; completionTokens: number; cachedPromptTokens: number }>('Usage')
  .implement({
    fields: (t) => ({
      promptTokens: t.exposeInt('promptTokens'),
      completionTokens: t.exposeInt('completionTokens'),
      cachedPromptTokens: t.exposeInt('cachedPromptTokens'),
      totalTokens: t.int({ resolve: (u) => u.promptTokens + u.completionTokens }),
    }),
  });

export const CostRef = builder.objectRef<{ usd: number; priced: boolean }>('Cost').implement({
  fields: (t) => ({
    usd: t.exposeFloat('usd'),
    priced: t.exposeBoolean('priced', { description: 'false when the model has no known price' }),
  }),
});
