/**
 * The dry run (`compressionPlan`): the same planner and strategy code as the
 * real run, without calling any LLM and without saving anything.
 */
import type { CompressionDeps } from './deps.js';
import { fullReplacePrefix, nativeCompactionPrefix } from '../domain/compression/full-replace.js';
import { summaryRuns } from '../domain/compression/planner.js';
import { isSystemMessage } from '../domain/turns.js';
import { supportsNativeCompaction } from '../llm/index.js';
import { BadInput } from '../store/errors.js';
import { loadCompressionInput } from './compress.js';
import { applyOutcome, localStrategy, planFor } from './strategies.js';
import type { CompressionStrategy } from '../domain/compression-kinds.js';

export interface CompressionPlanResult {
  wouldCompress: boolean;
  strategy: CompressionStrategy;
  contextTokens: number;
  contextWindow: number;
  messagesToSummarize: number;
  messagesToKeep: number;
  estimatedTokensAfter: number;
}

/** A summary is expected at about a tenth of what it replaces, never above the summary max tokens. */
export function summaryAllowance(summarizedTokens: number, maxTokens: number): number {
  return Math.min(maxTokens, Math.ceil(summarizedTokens / 10));
}

export async function compressionPlan(
  deps: CompressionDeps,
  sessionId: string,
  strategy: CompressionStrategy,
  keepRecentMessages?: number | null,
): Promise<CompressionPlanResult> {
  const input = await loadCompressionInput(deps, sessionId);
  const { settings, context, estimate } = input;
  const base = { strategy, contextTokens: input.current(), contextWindow: settings.window };
  // The strategies never see the PINNED rows (loadCompressionInput sets them aside), but they stay.
  const pinned = input.pinned.length;
  const none = {
    ...base,
    wouldCompress: false,
    messagesToSummarize: 0,
    messagesToKeep: context.length + pinned,
    estimatedTokensAfter: base.contextTokens,
  };
  const keep = keepRecentMessages === undefined ? settings.midTurnKeepMessages : keepRecentMessages;
  const rest = context.filter((m) => !isSystemMessage(m));
  switch (strategy) {
    case 'SUMMARY': {
      const plan = planFor(context, { settings, estimate, keepRecentMessages: keep });
      if (!plan.wouldCompress) return none;
      return {
        ...base,
        wouldCompress: true,
        messagesToSummarize: plan.toSummarize.length,
        messagesToKeep: plan.toKeep.length + plan.systemMessages.length + pinned,
        // One summary per contiguous run (more than one after an adaptive swap).
        estimatedTokensAfter:
          plan.keptTokens +
          summaryRuns(plan, context).reduce(
            (n, run) => n + summaryAllowance(estimate(run.messages), settings.maxTokens),
            0,
          ),
      };
    }
    case 'FULL_REPLACE':
    case 'NATIVE': {
      if (strategy === 'NATIVE' && !supportsNativeCompaction(deps.provider(input.profile))) {
        throw new BadInput(
          `Provider "${input.profile.provider}" has no native compaction; use SUMMARY, FULL_REPLACE or LOCAL`,
        );
      }
      const prefix = strategy === 'NATIVE' ? nativeCompactionPrefix(rest) : fullReplacePrefix(rest);
      if (!prefix) return none;
      const kept = context.filter((m) => !prefix.messages.includes(m));
      return {
        ...base,
        wouldCompress: true,
        messagesToSummarize: prefix.messages.length,
        messagesToKeep: kept.length + pinned,
        estimatedTokensAfter: estimate(kept) + summaryAllowance(estimate(prefix.messages), settings.maxTokens),
      };
    }
    case 'LOCAL': {
      const env = {
        deps,
        profile: input.profile,
        settings,
        estimate,
        price: input.price,
        keepRecentMessages: keep,
        onStart: async () => undefined,
      };
      const outcome = await localStrategy(context, env);
      if (!outcome) return none;
      const next = applyOutcome(context, outcome);
      return {
        ...base,
        wouldCompress: true,
        messagesToSummarize: outcome.dropped.length,
        messagesToKeep: context.length - outcome.dropped.length + pinned,
        estimatedTokensAfter: estimate(next),
      };
    }
  }
}
