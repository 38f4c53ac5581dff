/** Turn: the node, `turn(id:)`, Session.activeTurn, and the turn mutations. */
import { TURN_STATUSES } from '../domain/turn-status.js';
import type { ToolCall } from '../domain/types.js';
import type { TurnJson } from '../events/types.js';
import type { Context } from './builder.js';
import DataLoader from 'dataloader';
import { builder } from './builder.js';
import { MessageRef, type MessageShape, ToolCallRef } from './message.js';
import { SessionRef } from './session.js';
import { QueuedMessageRef, queuedShape, WhileRunningEnum } from './queue.js';
import type { QueuedMessage } from '../store/queued.js';

export const TurnStatusEnum = builder.enumType('TurnStatus', { values: TURN_STATUSES });

export type TurnShape =
  | TurnJson
  | {
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
  const turn = await ctx.app.reads.turn(id);
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

const ToolDefinitionInput = builder.inputType('ToolDefinitionInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string({ required: true }),
    parameters: t.field({ type: 'JSON', required: true, description: 'JSON Schema of the arguments' }),
  }),
});

const SendMessageInput = builder.inputType('SendMessageInput', {
  fields: (t) => ({
    sessionId: t.globalID({ for: SessionRef, required: true }),
    content: t.string({ required: true }),
    images: t.field({ type: ['File'] }),
    files: t.field({ type: ['File'] }),
    hidden: t.boolean({
      defaultValue: false,
      description: "machine payload (form submission): no files written, not shown as the user's words",
    }),
    clientTools: t.field({
      type: [ToolDefinitionInput],
      description: 'tools the client will execute; calls arrive as ToolCallRequested events',
    }),
    idempotencyKey: t.string({ description: 'same key within 24 h returns the same turn instead of starting another' }),
    whileRunning: t.field({
      type: WhileRunningEnum,
      defaultValue: 'REJECT',
      description: 'what happens when a turn is already running in the session',
    }),
  }),
});

const SubmitToolResultInput = builder.inputType('SubmitToolResultInput', {
  fields: (t) => ({
    turnId: t.globalID({ for: TurnRef, required: true }),
    toolCallId: t.string({ required: true }),
    content: t.string({ required: true }),
    isError: t.boolean({ defaultValue: false }),
    critical: t.boolean({ defaultValue: false, description: 'keep verbatim through compression' }),
  }),
});

export const SendMessagePayload = builder
  .objectRef<{ turn: TurnShape; userMessage: import('./message.js').MessageShape; queued: QueuedMessage | null }>(
    'SendMessagePayload',
  )
  .implement({
    fields: (t) => ({
      turn: t.field({
        type: TurnRef,
        description: 'the turn that answers the message: QUEUED while it waits (QUEUE), the running one (STEER)',
        resolve: (p) => p.turn,
      }),
      userMessage: t.field({
        type: MessageRef,
        description:
          'the stored message; while it waits (queued is set) the message as it will be stored, sequenceNumber -1',
        resolve: (p) => p.userMessage,
      }),
      queued: t.field({
        type: QueuedMessageRef,
        nullable: true,
        description: 'set when the message waits (whileRunning QUEUE or STEER with a turn running)',
        resolve: (p, _a, ctx) => (p.queued ? queuedShape(ctx, p.queued) : null),
      }),
    }),
  });

builder.objectFields(QueuedMessageRef, (t) => ({
  turn: t.field({
    type: TurnRef,
    nullable: true,
    description: 'QUEUE: its turn (QUEUED until dispatched); STEER: the turn it joins, or the turn it became',
    resolve: async (q, _a, ctx) => {
      if (!q.turnId) return null;
      const turn = await loadTurn(q.turnId, ctx);
      return turn instanceof Error ? null : turn;
    },
  }),
}));

builder.mutationFields((t) => ({
  sendMessage: t.withAuth({ authenticated: true }).field({
    type: SendMessagePayload,
    description:
      'Starts a turn. Its progress arrives on sessionEvents. While a turn runs, whileRunning decides (default REJECT).',
    args: { input: t.arg({ type: SendMessageInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.app.turns.sendMessage(ctx.viewer, {
        ...input,
        sessionId: input.sessionId.id,
        whileRunning: input.whileRunning ?? 'REJECT',
        clientTools: input.clientTools?.map((c) => ({ ...c, parameters: c.parameters })) ?? null,
      }),
  }),
  cancelTurn: t.withAuth({ authenticated: true }).field({
    type: TurnRef,
    args: { turnId: t.arg.globalID({ for: TurnRef, required: true }) },
    resolve: (_root, args, ctx) => ctx.app.turns.cancel(ctx.viewer, args.turnId.id),
  }),
  submitToolResult: t.withAuth({ authenticated: true }).field({
    type: TurnRef,
    args: { input: t.arg({ type: SubmitToolResultInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.app.turns.submitToolResult(ctx.viewer, { ...input, turnId: input.turnId.id }),
  }),
}));

const userMessageTurns = new WeakMap<Context, DataLoader<MessageShape, TurnShape | null, string>>();

/** One query for every user message of a page; a subscription reads afresh per event (its context lives long). */
function userMessageTurn(message: MessageShape, ctx: Context, subscription: boolean): Promise<TurnShape | null> {
  let loader = subscription ? undefined : userMessageTurns.get(ctx);
  if (!loader) {
    loader = new DataLoader(
      async (messages: readonly MessageShape[]) => {
        const turns = await ctx.app.reads.turnsOfUserMessages(messages);
        return messages.map((m) => turns.get(`${m.sessionId}:${m.sequenceNumber}`) ?? null);
      },
      { cacheKeyFn: (m) => `${m.sessionId}:${m.sequenceNumber}` },
    );
    if (!subscription) userMessageTurns.set(ctx, loader);
  }
  return loader.load(message);
}

builder.objectFields(MessageRef, (t) => ({
  turn: t.field({
    type: TurnRef,
    nullable: true,
    description:
      'For a user message, the newest turn that answered it: its status tells whether the answer completed, ' +
      'failed (error), was stopped (CANCELLED) or cut off by a restart (INTERRUPTED). Null for other messages and ' +
      'for messages no turn answered here (forked, imported, queued).',
    resolve: (m, _a, ctx, info) =>
      m.role === 'user' && m.sequenceNumber >= 0
        ? userMessageTurn(m, ctx, info.operation.operation === 'subscription')
        : null,
  }),
  stopped: t.boolean({
    description:
      'An answer cut short on purpose (cancelTurn, or a message sent with whileRunning INTERRUPT): its content is ' +
      'what had streamed when it was stopped.',
    resolve: (m) => (m.metadata as { cancelled?: unknown } | null)?.cancelled === true,
  }),
}));

builder.queryField('turn', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TurnRef,
    nullable: true,
    args: { id: t.arg.globalID({ for: TurnRef, required: true }) },
    resolve: async (_root, args, ctx) => {
      const turn = await loadTurn(args.id.id, ctx);
      return turn instanceof Error ? null : turn;
    },
  }),
);

builder.prismaObjectFields(SessionRef, (t) => ({
  activeTurn: t.field({
    type: TurnRef,
    nullable: true,
    select: { id: true },
    resolve: (s, _a, ctx) => ctx.app.turns.activeTurn(s.id),
  }),
}));
