/** Turn node and Usage/Cost types. */
import type { ToolCall } from '../domain/types.js';
import type { TurnJson } from '../events/types.js';
import type { Context } from './builder.js';
import { builder } from './builder.js';
import { MessageRef, ToolCallRef } from './message.js';
import { parseGlobalId } from './ids.js';
import './session.js';

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

export const CostRef = builder.objectRef<{ usd: number; priced: boolean }>('Cost').implement({
  fields: (t) => ({
    usd: t.exposeFloat('usd'),
    priced: t.exposeBoolean('priced', { description: 'false when the model has no known price' }),
  }),
});

const ToolDefinitionInput = builder.inputType('ToolDefinitionInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string({ required: true }),
    parameters: t.field({ type: 'JSON', required: true, description: 'JSON Schema of the arguments' }),
  }),
});

const SendMessageInput = builder.inputType('SendMessageInput', {
  fields: (t) => ({
    sessionId: t.id({ required: true }),
    content: t.string({ required: true }),
    images: t.field({ type: ['File'] }),
    files: t.field({ type: ['File'] }),
    hidden: t.boolean({
      defaultValue: false,
      description: 'machine payload (form submission): no files written, not shown as the user\'s words',
    }),
    clientTools: t.field({
      type: [ToolDefinitionInput],
      description: 'tools the client will execute; calls arrive as ToolCallRequested events',
    }),
    idempotencyKey: t.string({ description: 'same key within 24 h returns the same turn instead of starting another' }),
  }),
});

const SubmitToolResultInput = builder.inputType('SubmitToolResultInput', {
  fields: (t) => ({
    turnId: t.id({ required: true }),
    toolCallId: t.string({ required: true }),
    content: t.string({ required: true }),
    isError: t.boolean({ defaultValue: false }),
    critical: t.boolean({ defaultValue: false, description: 'keep verbatim through compression' }),
  }),
});

const SendMessagePayload = builder
  .objectRef<{ turn: TurnShape; userMessage: import('./message.js').MessageShape }>('SendMessagePayload')
  .implement({
    fields: (t) => ({
      turn: t.field({ type: TurnRef, resolve: (p) => p.turn }),
      userMessage: t.field({ type: MessageRef, resolve: (p) => p.userMessage }),
    }),
  });

builder.mutationFields((t) => ({
  sendMessage: t.field({
    type: SendMessagePayload,
    description: 'Starts a turn. Its progress arrives on sessionEvents.',
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: SendMessageInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.app.turns.sendMessage(ctx.viewer!, {
        ...input,
        sessionId: parseGlobalId(String(input.sessionId), 'Session'),
        clientTools: input.clientTools?.map((c) => ({ ...c, parameters: c.parameters })) ?? null,
      }),
  }),
  cancelTurn: t.field({
    type: TurnRef,
    authScopes: { authenticated: true },
    args: { turnId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.app.turns.cancel(ctx.viewer!, parseGlobalId(String(args.turnId), 'Turn')),
  }),
  submitToolResult: t.field({
    type: TurnRef,
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: SubmitToolResultInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.app.turns.submitToolResult(ctx.viewer!, { ...input, turnId: parseGlobalId(String(input.turnId), 'Turn') }),
  }),
}));

builder.queryField('turn', (t) =>
  t.field({
    type: TurnRef,
    nullable: true,
    authScopes: { authenticated: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const turn = await loadTurn(parseGlobalId(String(args.id), 'Turn'), ctx);
      return turn instanceof Error ? null : turn;
    },
  }),
);

/** Cost of a usage under the configured price table (USD per million tokens). */
export function costOf(
  usage: { promptTokens?: number; completionTokens?: number; cachedPromptTokens?: number },
  price: { input: number; output: number; cachedInput?: number } | undefined,
) {
  if (!price) return { usd: 0, priced: false };
  const prompt = usage.promptTokens ?? 0;
  const cached = Math.min(usage.cachedPromptTokens ?? 0, prompt);
  const usd =
    ((prompt - cached) * price.input + cached * (price.cachedInput ?? price.input) + (usage.completionTokens ?? 0) * price.output) /
    1_000_000;
  return { usd, priced: true };
}

builder.prismaObjectFields('Session', (t) => ({
  usage: t.field({
    type: UsageRef,
    select: { usage: true },
    resolve: (s) => ({ promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0, ...(s.usage as object) }),
  }),
  cost: t.field({
    type: CostRef,
    select: { usage: true, profile: { select: { model: true } } },
    resolve: (s, _a, ctx) => costOf(s.usage as object, ctx.app.config.modelPrices[s.profile.model]),
  }),
  activeTurn: t.field({
    type: TurnRef,
    nullable: true,
    select: { id: true },
    resolve: (s, _a, ctx) => ctx.app.turns.activeTurn(s.id),
  }),
}));
