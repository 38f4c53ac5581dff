/** Turn node and Usage/Cost types. */
import type { ToolCall } from '../domain/types.js';
import type { TurnJson } from '../events/types.js';
import type { Context } from './builder.js';
import { builder } from './builder.js';
import { ToolCallRef } from './message.js';

export const TurnStatusEnum = builder.enumType('TurnStatus', {
  values: ['RUNNING', 'WAITING_FOR_TOOL', 'COMPLETED', 'CANCELLED', 'FAILED', 'INTERRUPTED'] as const,
});

export type TurnShape = TurnJson | {
  id: string;
  sessionId: string;
  status: string;
  startedAt: Date;
  endedAt: Date | null;
  error: string | null;
  pendingToolCalls: unknown;
};

export const TurnRef = builder.loadableNodeRef<TurnShape, string>('Turn', {
  id: { resolve: (turn) => turn.id },
  load: (ids, ctx) => Promise.all(ids.map((id) => loadTurn(id, ctx))),
});

export async function loadTurn(id: string, ctx: Context): Promise<TurnShape | Error> {
  if (!/^[0-9a-f-]{36}$/i.test(id) || !ctx.viewer) return new Error('Turn not found');
  const turn = await ctx.app.db.prisma.turn.findUnique({ where: { id } });
  if (!turn) return new Error('Turn not found');
  const session = await ctx.app.sessions.findReadable(ctx.viewer, turn.sessionId);
  return session ? turn : new Error('Turn not found');
}

TurnRef.implement({
  fields: (t) => ({
    status: t.field({ type: TurnStatusEnum, resolve: (turn) => turn.status as 'RUNNING' }),
    startedAt: t.field({ type: 'DateTime', resolve: (turn) => turn.startedAt }),
    endedAt: t.field({ type: 'DateTime', nullable: true, resolve: (turn) => turn.endedAt }),
    error: t.exposeString('error', { nullable: true }),
    pendingToolCalls: t.field({
      type: [ToolCallRef],
      description: 'tool calls the client must answer with submitToolResult',
      resolve: (turn) => (turn.pendingToolCalls ?? []) as ToolCall[],
    }),
  }),
});

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
