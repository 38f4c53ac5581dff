/** Scheduled recalls: the Recall node, Session.recalls, scheduleRecall and cancelRecall. */
import { can } from '../domain/policy.js';
import type { Recall } from '../store/recalls.js';
import { BadInput, Forbidden } from '../store/errors.js';
import type { Context } from './builder.js';
import { builder } from './builder.js';
import { argumentGiven } from './ids.js';
import { loadMessage, MessageRef } from './message.js';
import { loadTurn, TurnRef } from './turn.js';
import { SessionRef } from './session.js';

export const RecallStatusEnum = builder.enumType('RecallStatus', {
  values: {
    PENDING: { description: 'waiting for its time' },
    CLAIMED: { description: 'due and being fired by a server process' },
    FIRED: { description: 'its message was appended and a turn started' },
    CANCELLED: { description: 'cancelled before it fired' },
    FAILED: { description: 'its firing failed PENDING_MAX_ATTEMPTS times: parked, it will not fire (failureReason)' },
  } as const,
});

export const RecallSourceEnum = builder.enumType('RecallSource', {
  values: {
    USER: { description: 'scheduleRecall' },
    MODEL: { description: 'the model, through the schedule_recall tool' },
  } as const,
});

/** Recalls are the session owner's (and an admin's), like the context: readers who cannot write do not see them. */
async function loadRecall(id: string, ctx: Context): Promise<Recall | Error> {
  if (!ctx.viewer) return new Error('Recall not found');
  const recall = await ctx.app.recalls.findReadable(ctx.viewer, id);
  if (!recall) return new Error('Recall not found');
  const session = await ctx.app.reads.session(recall.sessionId);
  return session && can(ctx.viewer, 'readContext', session) ? recall : new Error('Recall not found');
}

export const RecallRef = builder.loadableNodeRef<Recall, string>('Recall', {
  id: { resolve: (r) => r.id },
  load: (ids, ctx) => Promise.all(ids.map((id) => loadRecall(id, ctx))),
});

RecallRef.implement({
  description: 'A message scheduled to arrive in a session at `dueAt` (isRecall: true), answered by a turn.',
  fields: (t) => ({
    session: t.field({
      type: SessionRef,
      resolve: async (r, _a, ctx) => (await ctx.app.reads.session(r.sessionId))!,
    }),
    dueAt: t.field({ type: 'DateTime', resolve: (r) => r.dueAt }),
    text: t.exposeString('text'),
    status: t.field({ type: RecallStatusEnum, resolve: (r) => r.status as 'PENDING' }),
    source: t.field({ type: RecallSourceEnum, resolve: (r) => r.source as 'USER' }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.createdAt }),
    firedAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.firedAt }),
    cancelledAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.cancelledAt }),
    failureReason: t.exposeString('failureReason', {
      nullable: true,
      description: 'why its firing failed (status FAILED); null otherwise',
    }),
    message: t.field({
      type: MessageRef,
      nullable: true,
      description: 'the is_recall message, once fired',
      resolve: async (r, _a, ctx) => {
        if (r.messageSequence === null) return null;
        const m = await loadMessage(`${r.sessionId}:${r.messageSequence}`, ctx);
        return m instanceof Error ? null : m;
      },
    }),
    turn: t.field({
      type: TurnRef,
      nullable: true,
      description: 'the turn that answered it, once fired',
      resolve: async (r, _a, ctx) => {
        if (!r.turnId) return null;
        const turn = await loadTurn(r.turnId, ctx);
        return turn instanceof Error ? null : turn;
      },
    }),
  }),
});

builder.prismaObjectFields(SessionRef, (t) => ({
  recalls: t.field({
    type: [RecallRef],
    description:
      'Scheduled recalls: pending (and claimed) ones first, soonest first; ' +
      'with includeFinished, then fired and cancelled ones, newest first. Owner or admin only.',
    args: {
      includeFinished: t.arg.boolean({ defaultValue: false }),
      first: t.arg.int({ description: 'at most this many (default 50, at most MAX_PAGE_SIZE)' }),
    },
    select: { id: true, userId: true },
    resolve: async (s, args, ctx, info) => {
      if (!can(ctx.viewer, 'readContext', s)) throw new Forbidden('Only the owner or an admin may read the recalls');
      const first = argumentGiven(info, 'first') ? (args.first ?? 50) : 50;
      if (first < 1 || first > ctx.app.settings.maxPageSize)
        throw new BadInput(`first must be between 1 and ${ctx.app.settings.maxPageSize}`);
      return ctx.app.recalls.list(s.id, { includeFinished: args.includeFinished === true, first });
    },
  }),
}));

builder.mutationFields((t) => ({
  scheduleRecall: t.withAuth({ authenticated: true }).field({
    type: RecallRef,
    description:
      'Schedules `text` to arrive in the session at `at` as an isRecall message, answered by a turn. ' +
      'Fires exactly once, on whichever server process sees it first; ' +
      'a session busy with a turn gets it when that turn ends.',
    args: {
      sessionId: t.arg.globalID({ for: SessionRef, required: true }),
      at: t.arg({ type: 'DateTime', required: true }),
      text: t.arg.string({ required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.app.recalls.schedule(ctx.viewer, { sessionId: args.sessionId.id, at: args.at, text: args.text }),
  }),
  cancelRecall: t.withAuth({ authenticated: true }).field({
    type: RecallRef,
    description: 'Cancels a pending recall (again: the same answer). One that already fired answers CONFLICT.',
    args: { id: t.arg.globalID({ for: RecallRef, required: true }) },
    resolve: (_root, args, ctx) => ctx.app.recalls.cancel(ctx.viewer, args.id.id),
  }),
}));
