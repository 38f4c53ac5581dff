/** SessionEvent interface, its members, and the two subscriptions. */
import { GraphQLError } from 'graphql';
import type { SessionEvent, SessionListEvent } from '../events/types.js';
import { ErrorCode } from '../domain/error-codes.js';
import { COMPRESSION_REASONS } from '../domain/compression-kinds.js';
import { CompressionReceiptRef, receiptOf } from './receipt.js';
import { builder } from './builder.js';
import { sessionGlobalId, turnGlobalId } from './ids.js';
import { MessageRef, ToolCallRef } from './message.js';
import { SessionRef, TitleSourceEnum } from './session.js';
import { TurnRef } from './turn.js';
import { QueuedMessageRef } from './queue.js';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { UsageRef } from './usage.js';
import { MessageContextModeEnum } from './editing.js';

type Of<K extends SessionEvent['type']> = Extract<SessionEvent, { type: K }>;

export const CompressionReasonEnum = builder.enumType('CompressionReason', {
  values: COMPRESSION_REASONS,
});
export const CompressionStrategyEnum = builder.enumType('CompressionStrategy', {
  values: {
    SUMMARY: { description: 'LLM summary of old turns (the default)' },
    FULL_REPLACE: { description: 'whole prefix replaced by one continuation summary' },
    NATIVE: { description: 'provider-native compaction block, where the provider has one' },
    LOCAL: { description: 'no LLM: tool-result prune/shake/spill, then hard truncate' },
  } as const,
});

const SessionEventRef = builder.interfaceRef<SessionEvent>('SessionEvent').implement({
  description:
    "Every event of a session's stream. eventId is a resumable cursor: pass the last one seen as `after` " +
    'to get what was missed, exactly once, in order. ' +
    'When the log no longer holds everything after `after` (a restart, or trimmed past the retention) ' +
    'the stream starts with EventsReset: refetch the history; ' +
    'fragments of a turn whose TurnStarted is lost are then not sent, its end is.',
  resolveType: (event) => event.type,
  fields: (t) => ({
    eventId: t.exposeString('eventId'),
    sessionId: t.id({ resolve: (e) => sessionGlobalId(e.sessionId) }),
    at: t.field({ type: 'DateTime', resolve: (e) => e.at }),
  }),
});

/** The `fields` option of an event's object type, for the event `K`. */
type EventFields<K extends SessionEvent['type']> = NonNullable<
  Parameters<ReturnType<typeof builder.objectRef<Of<K>>>['implement']>[0]['fields']
>;

function eventType<K extends SessionEvent['type']>(name: K, fields: EventFields<K>) {
  return builder.objectRef<Of<K>>(name).implement({
    interfaces: [SessionEventRef],
    isTypeOf: (value) => (value as SessionEvent).type === name,
    fields,
  });
}

eventType('TurnStarted', (t) => ({
  turn: t.field({ type: TurnRef, resolve: (e: Of<'TurnStarted'>) => e.turn }),
  userMessage: t.field({ type: MessageRef, resolve: (e: Of<'TurnStarted'>) => e.userMessage }),
}));
eventType('TextDelta', (t) => ({
  turnId: t.id({ resolve: (e: Of<'TextDelta'>) => turnGlobalId(e.turnId) }),
  text: t.exposeString('text'),
}));
eventType('ThinkingDelta', (t) => ({
  turnId: t.id({ resolve: (e: Of<'ThinkingDelta'>) => turnGlobalId(e.turnId) }),
  text: t.exposeString('text'),
}));
eventType('ToolCallRequested', (t) => ({
  turnId: t.id({ resolve: (e: Of<'ToolCallRequested'>) => turnGlobalId(e.turnId) }),
  toolCall: t.field({ type: ToolCallRef, resolve: (e: Of<'ToolCallRequested'>) => e.toolCall }),
  clientSide: t.exposeBoolean('clientSide', {
    description: 'true when the client must run it and call submitToolResult',
  }),
}));
eventType('MessageSaved', (t) => ({
  turnId: t.id({ nullable: true, resolve: (e: Of<'MessageSaved'>) => (e.turnId ? turnGlobalId(e.turnId) : null) }),
  message: t.field({ type: MessageRef, resolve: (e: Of<'MessageSaved'>) => e.message }),
}));
eventType('CompressionStarted', (t) => ({
  contextTokens: t.exposeInt('contextTokens'),
  maxContextTokens: t.exposeInt('maxContextTokens'),
  receipt: t.field({
    type: CompressionReceiptRef,
    nullable: true,
    description: 'The fidelity receipt: what became of the anchors of the replaced region',
    // The event carries none (the receipt comes with ContextCompressed): always null.
    resolve: () => null,
  }),
}));
eventType('ContextCompressed', (t) => ({
  reason: t.field({ type: CompressionReasonEnum, resolve: (e: Of<'ContextCompressed'>) => e.reason }),
  strategy: t.field({
    type: CompressionStrategyEnum,
    resolve: (e: Of<'ContextCompressed'>) => e.strategy,
  }),
  summary: t.exposeString('summary'),
  messagesBefore: t.exposeInt('messagesBefore'),
  messagesAfter: t.exposeInt('messagesAfter'),
  contextTokens: t.exposeInt('contextTokens'),
  maxContextTokens: t.exposeInt('maxContextTokens'),
  receipt: t.field({
    type: CompressionReceiptRef,
    nullable: true,
    description: 'The fidelity receipt: what became of the anchors of the replaced region',
    resolve: (e: Of<'ContextCompressed'>) => receiptOf(e.receipt),
  }),
}));
eventType('SessionRenamed', (t) => ({
  name: t.exposeString('name'),
  titleSource: t.field({
    type: TitleSourceEnum,
    resolve: (e: Of<'SessionRenamed'>) => e.titleSource,
  }),
}));
eventType('TurnEnded', (t) => ({
  turn: t.field({ type: TurnRef, resolve: (e: Of<'TurnEnded'>) => e.turn }),
  assistantMessage: t.field({ type: MessageRef, nullable: true, resolve: (e: Of<'TurnEnded'>) => e.assistantMessage }),
  usage: t.field({ type: UsageRef, resolve: (e: Of<'TurnEnded'>) => e.usage }),
}));
eventType('TurnFailed', (t) => ({
  turn: t.field({ type: TurnRef, resolve: (e: Of<'TurnFailed'>) => e.turn }),
  code: t.exposeString('code'),
  message: t.exposeString('message'),
}));

eventType('MessageContextChanged', (t) => ({
  mode: t.field({
    type: MessageContextModeEnum,
    resolve: (e: Of<'MessageContextChanged'>) => e.mode as 'DEFAULT',
  }),
  messageIds: t.idList({
    description: 'the message and its tool pair, whose contextMode is now `mode`',
    resolve: (e: Of<'MessageContextChanged'>) => e.messageIds,
  }),
}));
eventType('MessageQueued', (t) => ({
  queued: t.field({ type: QueuedMessageRef, resolve: (e: Of<'MessageQueued'>) => e.queued }),
}));
eventType('QueuedMessageDispatched', (t) => ({
  queuedId: t.id({ resolve: (e: Of<'QueuedMessageDispatched'>) => encodeGlobalID('QueuedMessage', e.queuedId) }),
  turnId: t.id({ resolve: (e: Of<'QueuedMessageDispatched'>) => turnGlobalId(e.turnId) }),
  steered: t.exposeBoolean('steered', { description: 'true when a running turn took it (STEER)' }),
}));
eventType('QueuedMessageCancelled', (t) => ({
  queuedId: t.id({ resolve: (e: Of<'QueuedMessageCancelled'>) => encodeGlobalID('QueuedMessage', e.queuedId) }),
}));
eventType('QueuedMessageFailed', (t) => ({
  queuedId: t.id({ resolve: (e: Of<'QueuedMessageFailed'>) => encodeGlobalID('QueuedMessage', e.queuedId) }),
  failureReason: t.exposeString('failureReason', { description: 'why its dispatch failed, the last time' }),
}));
eventType('RecallFailed', (t) => ({
  recallId: t.id({ resolve: (e: Of<'RecallFailed'>) => encodeGlobalID('Recall', e.recallId) }),
  failureReason: t.exposeString('failureReason', { description: 'why its firing failed, the last time' }),
}));
eventType('MessageSteered', (t) => ({
  turnId: t.id({ resolve: (e: Of<'MessageSteered'>) => turnGlobalId(e.turnId) }),
  queuedId: t.id({ resolve: (e: Of<'MessageSteered'>) => encodeGlobalID('QueuedMessage', e.queuedId) }),
  message: t.field({ type: MessageRef, resolve: (e: Of<'MessageSteered'>) => e.message }),
}));
eventType('TurnInterrupted', (t) => ({
  turnId: t.id({
    description: 'the cancelled turn (its TurnEnded, status CANCELLED, came before)',
    resolve: (e: Of<'TurnInterrupted'>) => turnGlobalId(e.turnId),
  }),
  byTurnId: t.id({ resolve: (e: Of<'TurnInterrupted'>) => turnGlobalId(e.byTurnId) }),
}));

export const EventsResetReasonEnum = builder.enumType('EventsResetReason', {
  values: {
    RESTARTED: { description: 'the event log restarted (a server restart, or Redis lost the stream)' },
    TRIMMED: { description: 'events past EVENT_RETENTION were dropped from the log' },
  } as const,
});
eventType('EventsReset', (t) => ({
  reason: t.field({ type: EventsResetReasonEnum, resolve: (e: Of<'EventsReset'>) => e.reason }),
}));

const SessionListEventRef = builder.objectRef<SessionListEvent>('SessionListEvent').implement({
  description: 'What a session list (sidebar) needs to stay current without polling.',
  fields: (t) => ({
    kind: t.exposeString('kind'),
    sessionId: t.id({ resolve: (e) => sessionGlobalId(e.sessionId) }),
    session: t.field({
      type: SessionRef,
      nullable: true,
      resolve: async (e, _a, ctx) =>
        e.kind === 'deleted' || !ctx.viewer ? null : ctx.app.sessions.findReadable(ctx.viewer, e.sessionId),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  sessionEvents: t.withAuth({ authenticated: true }).field({
    type: SessionEventRef,
    args: { sessionId: t.arg.globalID({ for: SessionRef, required: true }), after: t.arg.string() },
    subscribe: async (_root, args, ctx) => {
      const id = args.sessionId.id;
      await ctx.app.sessions.readable(ctx.viewer, id);
      if (args.after != null && !/^\d+(-\d+)?$/.test(args.after)) {
        throw new GraphQLError('Malformed after cursor', { extensions: { code: ErrorCode.BAD_USER_INPUT } });
      }
      return ctx.app.reads.sessionEvents(id, args.after);
    },
    resolve: (event) => event,
  }),
  sessionListEvents: t.withAuth({ authenticated: true }).field({
    type: SessionListEventRef,
    subscribe: (_root, _args, ctx) => ctx.app.reads.listEvents(ctx.viewer),
    resolve: (event) => event,
  }),
}));
