/** History editing: fork, undo / redo / revert, branches and tree, checkpoint / rewind, edit stats. */
import type { EditStats } from '../domain/edit-stats.js';
import type { Checkpoint } from '../domain/history-edits.js';
import type { BranchSummary, TreeRow } from '../domain/tree.js';
import { builder } from './builder.js';
import { SessionRef } from './session.js';

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
