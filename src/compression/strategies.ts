/**
 * The strategies on one pipeline. Each turns the current context into an
 * Outcome: context rows to demote (is_context = false) and new context-only
 * rows to add. None of them touches the display history (dual buffer): a
 * shortened tool result is a context-only copy placed where its original was
 * (metadata.contextOrder), never an edit of the stored row.
 */
import type { CompressionDeps } from './deps.js';
import type { CompressionStrategy } from '../domain/compression-kinds.js';
import { buildSummaryMessage, splitKeysLine } from '../domain/compression/format.js';
import {
  buildStubSummaryMessage,
  coveredRange,
  fullReplaceCarrier,
  fullReplacePrefix,
  localStubSummary,
  nativeCompactionCarrier,
  nativeCompactionPrefix,
} from '../domain/compression/full-replace.js';
import { HARD_TRUNCATE_TOKEN_FRACTION, hardTruncate, withStub } from '../domain/compression/hard-truncate.js';
import {
  planCompression,
  summaryRuns,
  type CompressionPlan,
  type Estimator,
  type SummaryRun,
} from '../domain/compression/planner.js';
import {
  capToolResults,
  pruneOldToolResults,
  pruneToBudget,
  shakeOldToolResults,
  spillOldToolResults,
} from '../domain/compression/tool-results.js';
import { contextOrderOf, maxSequence, orderContext } from '../domain/context-order.js';
import type { ImageRef } from '../domain/image-tokens.js';
import { isSystemMessage } from '../domain/turns.js';
import type { ChatMessage } from '../domain/types.js';
import { messageTokenBudget, truncateOversized } from '../domain/view.js';
import type { ProfileRow as Profile } from '../store/profiles.js';
import { supportsNativeCompaction } from '../llm/index.js';
import { BadInput } from '../store/errors.js';
import { toLlmMessages } from '../turns/context.js';
import { sentView, type CompressionSettings } from './estimate.js';
import { summarizeMessages } from './summarize.js';

export interface Outcome {
  dropped: ChatMessage[];
  /** new context-only rows (sequence numbers are placeholders until saved) */
  added: ChatMessage[];
  summary: string;
  keys: string[];
  /** what actually ran when the strategy fell back */
  fallback?: 'retry' | 'hard_truncate';
}

export interface StrategyEnv {
  deps: CompressionDeps;
  profile: Profile;
  settings: CompressionSettings;
  estimate: Estimator;
  price: (img: ImageRef) => number;
  keepRecentMessages: number | null;
  /** CompressionStarted: called only once the strategy knows the context can shrink */
  onStart(): Promise<void>;
  signal?: AbortSignal;
}

/** Summary rows sit right before the first message they kept. */
function orderBefore(context: readonly ChatMessage[], first: ChatMessage | undefined): number {
  return first ? contextOrderOf(first) - 0.5 : maxSequence(context) + 0.5;
}

export function planFor(
  context: readonly ChatMessage[],
  env: Pick<StrategyEnv, 'settings' | 'estimate' | 'keepRecentMessages'>,
  widen = 0,
): CompressionPlan {
  return planCompression(context, {
    keepRecent: env.settings.keepRecent + widen,
    keepRecentMessages: env.keepRecentMessages === null ? null : env.keepRecentMessages + widen,
    window: env.settings.window,
    target: env.settings.target,
    estimate: env.estimate,
  });
}

function summaryOutcome(
  context: readonly ChatMessage[],
  toSummarize: ChatMessage[],
  toKeep: ChatMessage[],
  text: { summary: string; keys: string[] },
  extra: Record<string, unknown> = {},
): Outcome {
  const row = buildSummaryMessage(text.summary, text.keys, {
    metadata: { ...extra, contextOrder: orderBefore(context, toKeep[0]), covers: coveredRange(toSummarize) },
  });
  return { dropped: toSummarize, added: [row], summary: row.content, keys: text.keys };
}

/**
 * One summary row per contiguous run of the plan (`summaryRuns`), each placed
 * right before the kept message that follows its run, so the view stays in
 * chronological order after an adaptive swap. `texts[i]` summarizes run i.
 */
export function runsOutcome(
  context: readonly ChatMessage[],
  runs: readonly SummaryRun[],
  texts: readonly { summary: string; keys: string[] }[],
): Outcome {
  const rows = runs.map((run, i) =>
    buildSummaryMessage(texts[i]!.summary, texts[i]!.keys, {
      metadata: { contextOrder: orderBefore(context, run.before), covers: coveredRange(run.messages) },
    }),
  );
  return {
    dropped: runs.flatMap((r) => r.messages),
    added: rows,
    summary: rows.map((r) => r.content).join('\n\n'),
    keys: [...new Set(texts.flatMap((t) => t.keys))],
  };
}

/** Summary, retried once with a wider keep window, then hard truncation (no LLM, cannot fail). */
export async function summaryStrategy(context: ChatMessage[], env: StrategyEnv): Promise<Outcome | null> {
  const plan = planFor(context, env);
  if (!plan.wouldCompress) return null;
  await env.onStart();
  const wider = planFor(context, env, 2);
  const attempts = wider.wouldCompress ? [plan, wider] : [plan, plan];
  for (const [i, attempt] of attempts.entries()) {
    try {
      const runs = summaryRuns(attempt, context);
      const texts = [];
      for (const run of runs) {
        texts.push(
          await summarizeMessages(env.deps, env.profile, env.settings, run.messages, env.price, { signal: env.signal }),
        );
      }
      const out = runsOutcome(context, runs, texts);
      return i > 0 ? { ...out, fallback: 'retry' } : out;
    } catch (error) {
      if (env.signal?.aborted) throw error;
      env.deps.log.warn({ err: error, attempt: i + 1 }, 'compressor.summary_failed');
    }
  }
  return hardTruncateOutcome(context, env, plan);
}

/**
 * Drops the oldest whole turns until under half the window. A stub summary
 * (built from structure, no LLM) says what went, so the model knows history
 * exists and recall can reach it.
 */
export function hardTruncateOutcome(
  context: ChatMessage[],
  env: Pick<StrategyEnv, 'settings' | 'estimate'>,
  plan: CompressionPlan,
): Outcome {
  // The bound (half the window) covers everything kept, the stub summary included.
  const opts = {
    window: env.settings.window,
    estimate: env.estimate,
    stub: (dropped: readonly ChatMessage[]) => (dropped.length > 0 ? buildStubSummaryMessage(dropped) : null),
  };
  let dropped = hardTruncate(context, opts).dropped;
  if (dropped.length === 0) {
    // Already under the bound: drop what the plan would have summarized, unless its stub breaks the bound.
    const planSet = new Set(plan.toSummarize);
    const kept = context.filter((m) => !planSet.has(m));
    const fits =
      env.estimate(withStub(kept, buildStubSummaryMessage(plan.toSummarize))) <
      env.settings.window * HARD_TRUNCATE_TOKEN_FRACTION;
    dropped = fits ? plan.toSummarize : hardTruncate(context, { ...opts, force: true }).dropped;
    if (dropped.length === 0) dropped = plan.toSummarize;
  }
  const dropSet = new Set(dropped);
  const kept = context.filter((m) => !dropSet.has(m) && !isSystemMessage(m));
  const text = splitKeysLine(localStubSummary(dropped));
  return {
    ...summaryOutcome(context, dropped, kept, text, { local: true, hardTruncated: true }),
    fallback: 'hard_truncate',
  };
}

export async function fullReplaceStrategy(context: ChatMessage[], env: StrategyEnv): Promise<Outcome | null> {
  const rest = context.filter((m) => !isSystemMessage(m));
  const prefix = fullReplacePrefix(rest);
  if (!prefix) return null;
  await env.onStart();
  let text: { summary: string; keys: string[] };
  try {
    text = await summarizeMessages(env.deps, env.profile, env.settings, prefix.messages, env.price, {
      continuation: true,
      signal: env.signal,
    });
  } catch (error) {
    if (env.signal?.aborted) throw error;
    env.deps.log.warn({ err: error }, 'compressor.full_replace_summary_failed');
    text = splitKeysLine(localStubSummary(prefix.messages));
  }
  const row = fullReplaceCarrier(prefix, text);
  return { dropped: prefix.messages, added: [row], summary: row.content, keys: text.keys };
}

export async function nativeStrategy(context: ChatMessage[], env: StrategyEnv): Promise<Outcome | null> {
  const provider = env.deps.provider(env.profile);
  if (!supportsNativeCompaction(provider)) {
    throw new BadInput(
      `Provider "${env.profile.provider}" has no native compaction; use SUMMARY, FULL_REPLACE or LOCAL`,
    );
  }
  const rest = context.filter((m) => !isSystemMessage(m));
  const prefix = nativeCompactionPrefix(rest);
  if (!prefix) return null;
  await env.onStart();
  const budget = messageTokenBudget(env.deps.config.contextMessageTokenBudget, env.settings.window);
  const view = truncateOversized(sentView(prefix.messages), budget, env.profile.model, env.deps.calibration);
  const block = await provider.compact({
    model: env.profile.model,
    messages: toLlmMessages({ systemPrompt: env.profile.systemPrompt, view }),
    numCtx: env.settings.window,
    maxTokens: env.settings.maxTokens,
    signal: env.signal,
  });
  return {
    dropped: prefix.messages,
    added: [nativeCompactionCarrier(rest, prefix, block)],
    summary: block.content,
    keys: [],
  };
}

/** Where a spilled body can be read back in full: the original stored row. */
export function spillPointer(seq: number): string {
  return `spill:${seq}`;
}

function originalSeq(m: ChatMessage): number {
  return typeof m.metadata.contextCopyOf === 'number' ? m.metadata.contextCopyOf : m.sequenceNumber;
}

/**
 * Rows of `after` that are not rows of `before` become context-only copies
 * (a changed body) or new rows (a stub summary); rows of `before` missing
 * from `after`, or replaced by a copy, are demoted.
 */
export function diffContext(
  before: readonly ChatMessage[],
  after: readonly ChatMessage[],
): { dropped: ChatMessage[]; added: ChatMessage[] } {
  const bySeq = new Map(before.map((m) => [m.sequenceNumber, m]));
  const unchanged = new Set(after.filter((m) => bySeq.get(m.sequenceNumber) === m));
  const dropped = before.filter((m) => !unchanged.has(m));
  const added: ChatMessage[] = [];
  let lastOrder = -Infinity;
  for (const [i, m] of after.entries()) {
    const original = bySeq.get(m.sequenceNumber);
    if (unchanged.has(m)) {
      lastOrder = contextOrderOf(m);
      continue;
    }
    if (original && original.sequenceNumber === m.sequenceNumber && !m.isSummary) {
      const order = contextOrderOf(original);
      added.push({
        ...m,
        isDisplay: false,
        isContext: true,
        metadata: { ...m.metadata, contextOrder: order, contextCopyOf: originalSeq(original) },
      });
      lastOrder = order;
    } else {
      const next = after.slice(i + 1).find((x) => bySeq.has(x.sequenceNumber));
      const order = next ? contextOrderOf(bySeq.get(next.sequenceNumber)!) - 0.5 : lastOrder + 0.5;
      added.push({ ...m, isDisplay: false, isContext: true, metadata: { ...m.metadata, contextOrder: order } });
    }
  }
  return { dropped, added };
}

/** No LLM: cap, spill, prune, shake tool results; drop oldest units with a stub; hard truncate if still over. */
export async function localStrategy(context: ChatMessage[], env: StrategyEnv): Promise<Outcome | null> {
  const budget = env.settings.window * env.settings.target;
  let msgs = capToolResults(context).messages;
  // The pointer names the stored row of this very result (tool-call ids need not be unique).
  msgs = spillOldToolResults(msgs, (_id, _body, m) => spillPointer(originalSeq(m))).messages;
  msgs = pruneOldToolResults(msgs).messages;
  if (env.estimate(msgs) > budget) msgs = shakeOldToolResults(msgs).messages;
  msgs = pruneToBudget(msgs, { budgetTokens: budget, estimate: env.estimate }).messages;
  if (env.estimate(msgs) > budget) {
    // The stub names every stored row gone from the context (also those pruneToBudget dropped).
    const gone = (kept: readonly ChatMessage[]) => {
      const keptSeqs = new Set(kept.map((m) => m.sequenceNumber));
      return context.filter((m) => !keptSeqs.has(m.sequenceNumber) && !m.isSummary);
    };
    const stubFor = (kept: readonly ChatMessage[]) =>
      gone(kept).length === 0 ? null : buildStubSummaryMessage(gone(kept));
    const cut = hardTruncate(
      msgs.filter((m) => !(m.isSummary && m.metadata.local === true && !context.includes(m))),
      {
        window: env.settings.window,
        estimate: env.estimate,
        stub: (_dropped, kept) => stubFor(kept),
      },
    );
    msgs = withStub(cut.context, stubFor(cut.context));
  }
  const { dropped, added } = diffContext(context, msgs);
  if (dropped.length === 0 && added.length === 0) return null;
  await env.onStart();
  const stub = added.find((m) => m.isSummary);
  const changed = added.filter((m) => !m.isSummary).length;
  const removed = dropped.length - changed;
  const summary =
    `Local compaction (no LLM): ${changed} tool result(s) shortened or spilled, ${removed} message(s) dropped.` +
    (stub ? `\n${stub.content}` : '');
  return { dropped, added, summary, keys: (stub?.metadata.breadcrumbs as string[] | undefined) ?? [] };
}

export function runStrategy(
  strategy: CompressionStrategy,
  context: ChatMessage[],
  env: StrategyEnv,
): Promise<Outcome | null> {
  switch (strategy) {
    case 'SUMMARY':
      return summaryStrategy(context, env);
    case 'FULL_REPLACE':
      return fullReplaceStrategy(context, env);
    case 'NATIVE':
      return nativeStrategy(context, env);
    case 'LOCAL':
      return localStrategy(context, env);
  }
}

/** The context after an outcome, in context order (added rows get placeholder sequence numbers past the end). */
export function applyOutcome(context: readonly ChatMessage[], outcome: Outcome): ChatMessage[] {
  const dropped = new Set(outcome.dropped);
  let next = maxSequence(context) + 1;
  const added = outcome.added.map((m) => ({ ...m, sequenceNumber: next++ }));
  return orderContext([...context.filter((m) => !dropped.has(m)), ...added]);
}
