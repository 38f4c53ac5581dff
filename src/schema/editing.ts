/** History editing: fork, undo / redo / revert, branches and tree, checkpoint / rewind, edit stats. */
import { contextModeOf } from '../domain/context-mode.js';
import type { EditStats } from '../domain/edit-stats.js';
import type { Checkpoint } from '../domain/history-edits.js';
import type { BranchSummary, SiblingInfo, TreeRow } from '../domain/tree.js';
import type { SiblingSource } from '../editing/service.js';
import { builder, type Context } from './builder.js';
import { parseMessageId } from './ids.js';
import { MessageRef } from './message.js';
import { SessionRef } from './session.js';
import { SendMessagePayload } from './turn.js';

export const MessageContextModeEnum = builder.enumType('MessageContextMode', {
  values: {
    DEFAULT: { description: 'compacted like any message' },
    PINNED: { description: 'never summarised, truncated or archived out of the model context' },
    EXCLUDED: { description: 'kept in the history and search, never sent to the model' },
  } as const,
});

const MessageSiblingsRef = builder.objectRef<SiblingInfo>('MessageSiblings').implement({
  description: 'Where a message stands among the alternatives at its position (edits, regenerated answers)',
  fields: (t) => ({
    index: t.exposeInt('index', { description: '0-based, oldest first' }),
    count: t.exposeInt('count', { description: '1 when there is no alternative' }),
  }),
});

/** One read of a session's branches per request, shared by every message of a history page. */
const siblingMemos = new WeakMap<Context, Map<string, Promise<SiblingSource>>>();

builder.objectFields(MessageRef, (t) => ({
  contextMode: t.field({
    type: MessageContextModeEnum,
    description: 'How the message takes part in the model context (setMessageContext)',
    resolve: (m) => contextModeOf(m),
  }),
  siblings: t.field({
    type: MessageSiblingsRef,
    resolve: (m, _a, ctx, info) => {
      // A subscription's context lives as long as the subscription: a memo there would answer every later event
      // with the branches of the first one (a regenerated answer's siblings as {0, 1}). Each event reads afresh.
      if (info.operation.operation === 'subscription')
        return ctx.app.editing.siblings(m.sessionId, m.sequenceNumber, new Map());
      let memo = siblingMemos.get(ctx);
      if (!memo) siblingMemos.set(ctx, (memo = new Map()));
      return ctx.app.editing.siblings(m.sessionId, m.sequenceNumber, memo);
    },
  }),
}));

const BranchRef = builder.objectRef<BranchSummary>('Branch').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    messageCount: t.exposeInt('messageCount'),
    createdAt: t.field({ type: 'DateTime', resolve: (b) => b.createdAt }),
  }),
});

const TreeRowRef = builder.objectRef<TreeRow>('TreeRow').implement({
  fields: (t) => ({
    label: t.exposeString('label', { description: 'user turn text, shortened' }),
    depth: t.exposeInt('depth'),
    active: t.exposeBoolean('active'),
    branch: t.exposeString('branch', { nullable: true }),
    sequenceNumber: t.exposeInt('sequenceNumber'),
  }),
});

const CheckpointRef = builder.objectRef<Checkpoint>('Checkpoint').implement({
  fields: (t) => ({
    goal: t.exposeString('goal'),
    afterSequenceNumber: t.exposeInt('afterSequenceNumber'),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => c.createdAt }),
  }),
});

const EditStatsRef = builder.objectRef<EditStats>('EditStats').implement({
  fields: (t) => ({
    linesAdded: t.exposeInt('linesAdded'),
    linesRemoved: t.exposeInt('linesRemoved'),
  }),
});

builder.prismaObjectFields(SessionRef, (t) => ({
  branches: t.field({
    type: [BranchRef],
    select: { id: true },
    resolve: (s, _a, ctx) => ctx.app.editing.branches(s.id),
  }),
  tree: t.field({
    type: [TreeRowRef],
    select: { id: true },
    resolve: (s, _a, ctx) => ctx.app.editing.tree(s.id),
  }),
  checkpoint: t.field({
    type: CheckpointRef,
    nullable: true,
    select: { checkpoint: true },
    resolve: (s, _a, ctx) => ctx.app.editing.checkpoint(s),
  }),
  editStats: t.field({
    type: EditStatsRef,
    select: { id: true },
    resolve: (s, _a, ctx) => ctx.app.editing.editStats(s.id),
  }),
}));

builder.mutationFields((t) => {
  const authed = t.withAuth({ authenticated: true });
  return {
    forkSession: authed.field({
      type: SessionRef,
      args: { id: t.arg.globalID({ for: SessionRef, required: true }) },
      resolve: (_root, args, ctx) => ctx.app.editing.fork(ctx.viewer, args.id.id),
    }),
    undoLastTurn: authed.field({
      type: SessionRef,
      args: { id: t.arg.globalID({ for: SessionRef, required: true }) },
      resolve: (_root, args, ctx) => ctx.app.editing.undoLastTurn(ctx.viewer, args.id.id),
    }),
    redo: authed.field({
      type: SessionRef,
      args: { id: t.arg.globalID({ for: SessionRef, required: true }) },
      resolve: (_root, args, ctx) => ctx.app.editing.redo(ctx.viewer, args.id.id),
    }),
    revertSession: authed.field({
      type: SessionRef,
      args: { id: t.arg.globalID({ for: SessionRef, required: true }), sequenceNumber: t.arg.int({ required: true }) },
      resolve: (_root, args, ctx) => ctx.app.editing.revert(ctx.viewer, args.id.id, args.sequenceNumber),
    }),
    markBranch: authed.field({
      type: BranchRef,
      args: { id: t.arg.globalID({ for: SessionRef, required: true }), name: t.arg.string() },
      resolve: (_root, args, ctx) => ctx.app.editing.markBranch(ctx.viewer, args.id.id, args.name),
    }),
    switchBranch: authed.field({
      type: SessionRef,
      args: { id: t.arg.globalID({ for: SessionRef, required: true }), branch: t.arg.string({ required: true }) },
      resolve: (_root, args, ctx) => ctx.app.editing.switchBranch(ctx.viewer, args.id.id, args.branch),
    }),
    editMessage: authed.field({
      type: SendMessagePayload,
      description:
        'A sibling of a user message: the edited text at the same position, answered by a new turn. ' +
        'The old path stays as a branch.',
      args: { messageId: t.arg.id({ required: true }), content: t.arg.string({ required: true }) },
      resolve: async (_root, args, ctx) => {
        const started = await ctx.app.editing.editMessage(
          ctx.viewer,
          parseMessageId(String(args.messageId)),
          args.content,
        );
        return { ...started, queued: null };
      },
    }),
    regenerate: authed.field({
      type: SendMessagePayload,
      description: 'A sibling answer: a new turn answering the user message before this assistant message.',
      args: { messageId: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        return {
          ...(await ctx.app.editing.regenerate(ctx.viewer, parseMessageId(String(args.messageId)))),
          queued: null,
        };
      },
    }),
    switchSibling: authed.field({
      type: SessionRef,
      description: 'Makes the branch holding sibling `index` of this message current (its newest leaf).',
      args: { messageId: t.arg.id({ required: true }), index: t.arg.int({ required: true }) },
      resolve: (_root, args, ctx) => {
        return ctx.app.editing.switchSibling(ctx.viewer, parseMessageId(String(args.messageId)), args.index);
      },
    }),
    setMessageContext: authed.field({
      type: MessageRef,
      description:
        'Pins (never summarised, truncated or archived out of the context) or excludes (kept in the history and ' +
        'search, never sent to the model) one message, or resets it; an assistant message with tool calls and ' +
        'its tool results change together. Owner or admin; a message off the current path is CONFLICT, a pin ' +
        'the window cannot hold CONTEXT_TOO_LARGE.',
      args: { messageId: t.arg.id({ required: true }), mode: t.arg({ type: MessageContextModeEnum, required: true }) },
      resolve: (_root, args, ctx) =>
        ctx.app.editing.setMessageContext(ctx.viewer, parseMessageId(String(args.messageId)), args.mode),
    }),
    markCheckpoint: authed.field({
      type: CheckpointRef,
      args: { id: t.arg.globalID({ for: SessionRef, required: true }), goal: t.arg.string({ required: true }) },
      resolve: (_root, args, ctx) => ctx.app.editing.markCheckpoint(ctx.viewer, args.id.id, args.goal),
    }),
    rewindSession: authed.field({
      type: SessionRef,
      args: { id: t.arg.globalID({ for: SessionRef, required: true }), report: t.arg.string({ required: true }) },
      resolve: (_root, args, ctx) => ctx.app.editing.rewind(ctx.viewer, args.id.id, args.report),
    }),
  };
});
