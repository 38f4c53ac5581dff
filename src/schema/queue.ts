/** Double-texting: the QueuedMessage node, Session.queuedMessages and cancelQueuedMessage. */
import { can } from '../domain/policy.js';
import type { QueuedMessageJson } from '../events/types.js';
import { BadInput, Forbidden } from '../store/errors.js';
import type { QueuedMessage } from '../store/queued.js';
import { queuedJson } from '../turns/service.js';
import type { Context } from './builder.js';
import { builder } from './builder.js';
import { argumentGiven } from './ids.js';
import { SessionRef } from './session.js';

export const WhileRunningEnum = builder.enumType('WhileRunning', {
  values: {
    REJECT: { description: 'answer CONFLICT (the default)' },
    QUEUE: { description: 'wait for the running turn (and the messages queued before) to end, then start a turn' },
    INTERRUPT: { description: 'cancel the running turn (its partial answer is kept) and start this one' },
    STEER: {
      description:
        'join the running turn before its next model call; if it makes none, the message is queued (as QUEUE)',
    },
  } as const,
});

export const QueuedMessageKindEnum = builder.enumType('QueuedMessageKind', {
  values: ['QUEUE', 'STEER'] as const,
});

export const QueuedMessageStatusEnum = builder.enumType('QueuedMessageStatus', {
  values: {
    PENDING: { description: 'waiting' },
    CLAIMED: { description: 'being dispatched by a server process' },
    DISPATCHED: { description: 'its message was appended: a turn started with it, or a running turn took it (STEER)' },
    CANCELLED: { description: 'cancelled before it was dispatched' },
    FAILED: { description: 'its dispatch failed PENDING_MAX_ATTEMPTS times: parked, it will not run (failureReason)' },
  } as const,
});

/** A row as the API shows it: its place in the queue while it waits. */
export async function queuedShape(ctx: Context, row: QueuedMessage, position?: number): Promise<QueuedMessageJson> {
  const waiting = row.status === 'PENDING' || row.status === 'CLAIMED';
  return queuedJson(row, waiting ? (position ?? (await ctx.app.turns.queued.position(row))) : null);
}

async function loadQueued(id: string, ctx: Context): Promise<QueuedMessageJson | Error> {
  if (!ctx.viewer) return new Error('QueuedMessage not found');
  const row = await ctx.app.turns.findQueued(ctx.viewer, id);
  return row ? queuedShape(ctx, row) : new Error('QueuedMessage not found');
}

export const QueuedMessageRef = builder.loadableNodeRef<QueuedMessageJson, string>('QueuedMessage', {
  id: { resolve: (q) => q.id },
  load: (ids, ctx) => Promise.all(ids.map((id) => loadQueued(id, ctx))),
});

QueuedMessageRef.implement({
  description:
    'A message sent with whileRunning QUEUE or STEER while a turn ran: not in the history until it is dispatched.',
  fields: (t) => ({
    content: t.exposeString('content'),
    kind: t.field({ type: QueuedMessageKindEnum, resolve: (q) => q.kind as 'QUEUE' }),
    status: t.field({ type: QueuedMessageStatusEnum, resolve: (q) => q.status as 'PENDING' }),
    createdAt: t.field({ type: 'DateTime', resolve: (q) => q.createdAt }),
    position: t.exposeInt('position', {
      nullable: true,
      description: '1-based place in the session queue; null once dispatched or cancelled',
    }),
    failureReason: t.string({
      nullable: true,
      description: 'why its dispatch failed (status FAILED); null otherwise',
      resolve: (q) => q.failureReason ?? null,
    }),
  }),
});

builder.prismaObjectFields(SessionRef, (t) => ({
  queuedMessages: t.field({
    type: [QueuedMessageRef],
    description:
      'Messages waiting for the running turn (whileRunning QUEUE / STEER), in the order they run. Owner or admin only.',
    args: { first: t.arg.int({ description: 'at most this many (default 50, at most MAX_PAGE_SIZE)' }) },
    select: { id: true, userId: true },
    resolve: async (s, args, ctx, info) => {
      if (!can(ctx.viewer, 'readContext', s))
        throw new Forbidden('Only the owner or an admin may read the queued messages');
      const first = argumentGiven(info, 'first') ? (args.first ?? 50) : 50;
      if (first < 1 || first > ctx.app.settings.maxPageSize)
        throw new BadInput(`first must be between 1 and ${ctx.app.settings.maxPageSize}`);
      const rows = await ctx.app.turns.queuedMessages(s.id, first);
      return rows.map((row, i) => queuedJson(row, i + 1));
    },
  }),
}));

builder.mutationFields((t) => ({
  cancelQueuedMessage: t.withAuth({ authenticated: true }).field({
    type: QueuedMessageRef,
    description:
      'Cancels a queued (or not yet taken steered) message; again: the same answer. ' +
      'One already dispatched answers CONFLICT.',
    args: { id: t.arg.globalID({ for: QueuedMessageRef, required: true }) },
    resolve: async (_root, args, ctx) => queuedShape(ctx, await ctx.app.turns.cancelQueued(ctx.viewer, args.id.id)),
  }),
}));
