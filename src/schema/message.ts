/** Message and ToolCall, and the Message node. */
import { can } from '../domain/policy.js';
import { messageLocalId, parseMessageLocalId } from '../domain/message-ids.js';
import { type MessageShape, toStoredMessage } from '../store/rows.js';
import { builder } from './builder.js';
import type { Context } from './builder.js';

export const MessageRoleEnum = builder.enumType('MessageRole', {
  values: ['USER', 'ASSISTANT', 'TOOL', 'SYSTEM'] as const,
});

export const ToolCallRef = builder.objectRef<{ id: string; name: string; arguments: unknown }>('ToolCall').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    arguments: t.field({ type: 'JSON', resolve: (c) => c.arguments ?? {} }),
  }),
});

/** Messages arrive as StoredMessage or as JSON snapshots from events (createdAt a string). */
export type { MessageShape };

/** A message's id is its version's uuid in its session (`Message:<session>:<messageId>`, src/domain/message-ids.ts). */
export const MessageRef = builder.loadableNodeRef<MessageShape, string>('Message', {
  id: { resolve: (m) => messageLocalId(m) },
  load: (ids, ctx) => Promise.all(ids.map((raw) => loadMessage(raw, ctx))),
});

/**
 * The message of a local id: by its uuid wherever it lives in the session's tables (the active path, hot or
 * archived), or, for an old positional id, the row at that sequence number now.
 */
export async function loadMessage(raw: string, ctx: Context): Promise<MessageShape | Error> {
  const ref = parseMessageLocalId(raw);
  if (!ref) return new Error('Message not found');
  const { sessionId } = ref;
  const session = ctx.viewer ? await ctx.app.sessions.findReadable(ctx.viewer, sessionId).catch(() => null) : null;
  if (!session) return new Error('Message not found');
  const found =
    'messageId' in ref
      ? await ctx.app.reads.messageById(sessionId, ref.messageId)
      : await ctx.app.reads.messageByKey(sessionId, ref.sequenceNumber);
  if (!found) return new Error('Message not found');
  // Rows that are not displayed (summaries, hidden payloads) belong to the context: owner or admin only.
  if (!found.row.isDisplay && !can(ctx.viewer, 'readContext', session)) return new Error('Message not found');
  return toStoredMessage(found.row, found.archived);
}

MessageRef.implement({
  fields: (t) => ({
    sequenceNumber: t.exposeInt('sequenceNumber'),
    role: t.field({ type: MessageRoleEnum, resolve: (m) => m.role.toUpperCase() as 'USER' }),
    content: t.exposeString('content'),
    thinking: t.exposeString('thinking', { nullable: true }),
    isContext: t.exposeBoolean('isContext'),
    isDisplay: t.exposeBoolean('isDisplay'),
    isPlan: t.exposeBoolean('isPlan'),
    isCompression: t.exposeBoolean('isCompression'),
    isSummary: t.exposeBoolean('isSummary'),
    isCompressionCritical: t.exposeBoolean('isCompressionCritical'),
    isRecall: t.exposeBoolean('isRecall'),
    isAgentNote: t.exposeBoolean('isAgentNote'),
    toolCalls: t.field({ type: [ToolCallRef], resolve: (m) => m.toolCalls }),
    toolCallId: t.exposeString('toolCallId', { nullable: true }),
    name: t.exposeString('name', { nullable: true }),
    metadata: t.field({ type: 'JSON', resolve: (m) => m.metadata }),
    elapsedSeconds: t.exposeFloat('elapsedSeconds', { nullable: true }),
    toolCallCount: t.exposeInt('toolCallCount', { nullable: true }),
    tokenCount: t.exposeInt('tokenCount', { nullable: true }),
    files: t.exposeStringList('files'),
    images: t.exposeStringList('images'),
    archived: t.exposeBoolean('archived'),
    createdAt: t.field({ type: 'DateTime', resolve: (m) => m.createdAt }),
  }),
});
