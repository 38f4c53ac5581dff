/** Message and ToolCall, and the Message node. */
import { can } from '../auth/policy.js';
import type { StoredMessage } from '../store/rows.js';
import { messageByKey } from '../store/lookups.js';
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

export const MessageRef = builder.loadableNodeRef<MessageShape, string>('Message', {
  id: { resolve: (m) => `${m.sessionId}:${m.sequenceNumber}` },
  load: (ids, ctx) => Promise.all(ids.map((raw) => loadMessage(raw, ctx))),
});

export async function loadMessage(raw: string, ctx: Context): Promise<MessageShape | Error> {
  const [sessionId = '', seq = ''] = raw.split(':');
  if (!/^\d+$/.test(seq)) return new Error('Message not found');
  const session = ctx.viewer ? await ctx.app.sessions.findReadable(ctx.viewer, sessionId).catch(() => null) : null;
  if (!session) return new Error('Message not found');
  const found = await messageByKey(ctx.app.db, sessionId, Number(seq));
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
