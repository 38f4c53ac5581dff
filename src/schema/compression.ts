/**
 * Compression and memory: compactSession, compressionPlan, memorySearch. Thin resolvers over src/compression and
 * src/compression/compact.ts.
 */
import { sessionScope } from '../domain/policy.js';
import type { CompressionPlanResult } from '../compression/plan.js';
import type { MemoryHit, MemoryScope } from '../store/memory.js';
import type { CompactResult } from '../compression/compact.js';
import { BadInput } from '../store/errors.js';
import { builder } from './builder.js';
import { CompressionStrategyEnum } from './events.js';
import { argumentGiven, parseGlobalId } from './ids.js';
import { SessionRef } from './session.js';
import type { StoredMessage } from '../store/rows.js';
import { CompressionReceiptRef, receiptOf } from './receipt.js';
import { CompressionReasonEnum } from './events.js';

const CompressionPlanRef = builder.objectRef<CompressionPlanResult>('CompressionPlan').implement({
  fields: (t) => ({
    wouldCompress: t.exposeBoolean('wouldCompress'),
    strategy: t.field({ type: CompressionStrategyEnum, resolve: (p) => p.strategy }),
    contextTokens: t.exposeInt('contextTokens'),
    contextWindow: t.exposeInt('contextWindow'),
    messagesToSummarize: t.exposeInt('messagesToSummarize'),
    messagesToKeep: t.exposeInt('messagesToKeep'),
    estimatedTokensAfter: t.exposeInt('estimatedTokensAfter'),
  }),
});

const MemoryChunkRef = builder.objectRef<MemoryHit>('MemoryChunk').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    content: t.exposeString('content'),
    breadcrumbs: t.exposeStringList('breadcrumbs'),
    turnStart: t.exposeInt('turnStart'),
    turnEnd: t.exposeInt('turnEnd'),
    firstAt: t.field({ type: 'DateTime', resolve: (c) => c.firstAt }),
    lastAt: t.field({ type: 'DateTime', resolve: (c) => c.lastAt }),
    score: t.exposeFloat('score'),
  }),
});

const CompactSessionPayloadRef = builder.objectRef<CompactResult>('CompactSessionPayload').implement({
  fields: (t) => ({
    session: t.field({ type: SessionRef, resolve: (p) => p.session }),
    summary: t.exposeString('summary'),
    messagesBefore: t.exposeInt('messagesBefore'),
    messagesAfter: t.exposeInt('messagesAfter'),
  }),
});

const CompressionRecordRef = builder.objectRef<StoredMessage>('CompressionRecord').implement({
  description: 'One compaction of the session, as its marker recorded it.',
  fields: (t) => ({
    at: t.field({ type: 'DateTime', resolve: (m) => m.createdAt }),
    reason: t.field({ type: CompressionReasonEnum, resolve: (m) => String(m.metadata.reason) as 'FORCED' }),
    strategy: t.field({
      type: CompressionStrategyEnum,
      resolve: (m) => String(m.metadata.strategy ?? 'SUMMARY') as 'SUMMARY',
    }),
    messagesBefore: t.int({ resolve: (m) => Number(m.metadata.messagesBefore ?? 0) }),
    messagesAfter: t.int({ resolve: (m) => Number(m.metadata.messagesAfter ?? 0) }),
    summary: t.string({ resolve: (m) => String(m.metadata.summary ?? '') }),
    receipt: t.field({
      type: CompressionReceiptRef,
      nullable: true,
      description: 'null for compactions recorded before receipts existed',
      resolve: (m) => receiptOf(m.metadata.receipt),
    }),
  }),
});

builder.prismaObjectFields(SessionRef, (t) => ({
  compressions: t.field({
    type: [CompressionRecordRef],
    description: 'The compactions of this session, oldest first (the newest 100), each with its fidelity receipt.',
    select: { id: true },
    resolve: (s, _a, ctx) => ctx.app.reads.compressionMarkers(s.id),
  }),
}));

builder.queryFields((t) => ({
  compressionPlan: t.withAuth({ authenticated: true }).field({
    type: CompressionPlanRef,
    description: 'Dry run of compression: what a compaction would summarize and keep now, without doing it.',
    args: {
      sessionId: t.arg.globalID({ for: SessionRef, required: true }),
      strategy: t.arg({ type: CompressionStrategyEnum, defaultValue: 'SUMMARY' }),
    },
    resolve: async (_root, args, ctx) => {
      const session = await ctx.app.sessions.readable(ctx.viewer, args.sessionId.id);
      return ctx.app.compression.plan(session.id, args.strategy ?? 'SUMMARY');
    },
  }),
  memorySearch: t.withAuth({ authenticated: true }).field({
    type: [MemoryChunkRef],
    description:
      "Verbatim excerpts of history that compression removed from the model's window (scope raw). " +
      'Each term is looked up as words, its last part as a prefix (`deploy` finds `deployment`, ' +
      '`memory.ts` finds `src/compression/memory.ts`); ' +
      'when fewer than `first` chunks match, chunks containing a term as a substring fill the rest (`ploy`). ' +
      'Ranked by a score in [0, 1]: ' +
      'the mean of the share of terms present and the trigram word similarity ' +
      '(the share alone without pg_trgm); ' +
      'ties go to the most recent.',
    args: {
      // A plain id: an empty one means every readable session, which the relay plugin would refuse.
      sessionId: t.arg.id(),
      query: t.arg.string({ required: true }),
      first: t.arg.int({ defaultValue: 5 }),
    },
    resolve: async (_root, args, ctx, info) => {
      const viewer = ctx.viewer;
      const first = argumentGiven(info, 'first')
        ? (args.first ?? 5)
        : Math.min(args.first ?? 5, ctx.app.settings.maxPageSize);
      if (first < 1 || first > ctx.app.settings.maxPageSize)
        throw new BadInput(`first must be between 1 and ${ctx.app.settings.maxPageSize}`);
      let scope: MemoryScope;
      if (args.sessionId) {
        const session = await ctx.app.sessions.readable(viewer, parseGlobalId(String(args.sessionId), 'Session'));
        scope = { sessionIds: [session.id] };
      } else {
        scope = sessionScope(viewer, 'read');
      }
      return ctx.app.reads.memorySearch({ scope, query: args.query, first });
    },
  }),
}));

builder.mutationField('compactSession', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CompactSessionPayloadRef,
    description: 'Forced /compact: bypasses the threshold. NOTHING_TO_COMPACT when nothing can be compressed.',
    args: {
      id: t.arg.globalID({ for: SessionRef, required: true }),
      strategy: t.arg({ type: CompressionStrategyEnum, defaultValue: 'SUMMARY' }),
    },
    resolve: (_root, args, ctx) => ctx.app.compaction.compact(ctx.viewer, args.id.id, args.strategy ?? 'SUMMARY'),
  }),
);
