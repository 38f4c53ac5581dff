/**
 * The single compression decision point. Both the dry run (`wouldCompress`)
 * and the real compression call this, so the prediction and the result can
 * never drift apart. The planner only partitions: every input message lands in
 * exactly one of systemMessages / toSummarize / toKeep.
 */
import type { ChatMessage } from '../types.js';
import type { Span, Turn } from '../turns.js';
import { atomicUnits, isSystemMessage, lastRealUserIndex, splitTurns } from '../turns.js';
import { FILLER_TURN_SCORE, IMPORTANT_TURN_SCORE, turnImportance } from './importance.js';

/** After compression the kept region should fit this share of the window, so the 90% trigger does not re-fire soon. */
export const DEFAULT_COMPRESSION_TARGET = 0.65;
/** Mid-turn retry width when the requested intra-turn window found nothing to summarize. */
export const RETRY_KEEP_RECENT_MESSAGES = 2;

export type Estimator = (messages: readonly ChatMessage[]) => number;

export interface PlanOptions {
  /** Conversational turns kept verbatim (at least the newest one always is). */
  keepRecent: number;
  /** Enables the intra-turn fallback: keep the request + this many newest messages. */
  keepRecentMessages?: number | null;
  window: number;
  target?: number;
  /** Prices a message list in real prompt tokens (calibrated, on the view). */
  estimate: Estimator;
  /** Swap important old turns in for filler recent ones (default true). */
  adaptive?: boolean;
  criticalToolNames?: ReadonlySet<string>;
}

export type PlanMode = 'turns' | 'intra-turn' | 'none';

export interface CompressionPlan {
  toSummarize: ChatMessage[];
  toKeep: ChatMessage[];
  systemMessages: ChatMessage[];
  keptTokens: number;
  /** True only when there is something to summarize, i.e. the partition can shrink the context. */
  wouldCompress: boolean;
  mode: PlanMode;
  /** window × target, the size the kept region was fitted to. */
  budget: number;
}

export function planCompression(context: readonly ChatMessage[], opts: PlanOptions): CompressionPlan {
  const systemMessages = context.filter(isSystemMessage);
  const rest = context.filter((m) => !isSystemMessage(m));
  const budget = opts.window * (opts.target ?? DEFAULT_COMPRESSION_TARGET);
  const fits = (mask: boolean[]) => opts.estimate(select(rest, mask, true)) <= budget;

  const byTurns = planByTurns(rest, opts, budget);
  if (byTurns && fits(byTurns.mask)) {
    const mask = opts.adaptive === false ? byTurns.mask : swapImportantTurns(rest, byTurns, opts, budget);
    return buildPlan(rest, mask, systemMessages, opts, budget, 'turns');
  }
  if (opts.keepRecentMessages != null) {
    let mask = planIntraTurn(rest, opts.keepRecentMessages, opts.estimate, budget);
    if (!mask.includes(false)) mask = planIntraTurn(rest, RETRY_KEEP_RECENT_MESSAGES, opts.estimate, budget);
    if (mask.includes(false)) return buildPlan(rest, mask, systemMessages, opts, budget, 'intra-turn');
  }
  if (byTurns) return buildPlan(rest, byTurns.mask, systemMessages, opts, budget, 'turns');
  return buildPlan(
    rest,
    rest.map(() => true),
    systemMessages,
    opts,
    budget,
    'none',
  );
}

/** A contiguous run of summarized messages and the kept message right after it (its summary goes before that one). */
export interface SummaryRun {
  messages: ChatMessage[];
  before: ChatMessage | undefined;
}

/**
 * The summarized messages as contiguous runs in context order (system rows,
 * never summarized, do not break a run). Without an adaptive swap there is one
 * run, before the kept region. When an important old turn is kept in place of
 * a recent filler, the turns on each side of it form separate runs, each
 * summarized where it stood, so the model's view stays chronological. The
 * intra-turn fallback keeps the seed's layout: one run, its summary before
 * the kept request.
 */
export function summaryRuns(
  plan: Pick<CompressionPlan, 'toSummarize' | 'toKeep' | 'mode'>,
  context: readonly ChatMessage[],
): SummaryRun[] {
  if (plan.toSummarize.length === 0) return [];
  if (plan.mode !== 'turns') return [{ messages: [...plan.toSummarize], before: plan.toKeep[0] }];
  const summarized = new Set(plan.toSummarize);
  const kept = new Set(plan.toKeep);
  const runs: SummaryRun[] = [];
  let current: ChatMessage[] = [];
  for (const m of context) {
    if (summarized.has(m)) current.push(m);
    else if (kept.has(m) && current.length > 0) {
      runs.push({ messages: current, before: m });
      current = [];
    }
  }
  if (current.length > 0) runs.push({ messages: current, before: undefined });
  return runs;
}

/** Convenience for the dry run: same partition, boolean answer. */
export function wouldCompress(context: readonly ChatMessage[], opts: PlanOptions): boolean {
  return planCompression(context, opts).wouldCompress;
}

function select(messages: readonly ChatMessage[], mask: readonly boolean[], want: boolean): ChatMessage[] {
  return messages.filter((_, i) => mask[i] === want);
}

/**
 * A region that is one summary (or one provider-native compaction block) and nothing else: re-summarising it pays a
 * model call and shrinks nothing, so no strategy treats it as something to compact.
 */
export function isLoneSummary(region: readonly ChatMessage[]): boolean {
  // A native block's kept-facts row (src/compression/receipt.ts) belongs to it.
  const carriers = region.filter((m) => m.metadata.keptFacts !== true);
  return (
    carriers.length === 1 &&
    region.every((m) => m.isSummary || m.metadata.nativeCompaction === true) &&
    (carriers[0]!.isSummary || carriers[0]!.metadata.nativeCompaction === true)
  );
}

function buildPlan(
  rest: ChatMessage[],
  mask: boolean[],
  systemMessages: ChatMessage[],
  opts: PlanOptions,
  budget: number,
  mode: PlanMode,
): CompressionPlan {
  let toKeep = select(rest, mask, true);
  let toSummarize = select(rest, mask, false);
  if (isLoneSummary(toSummarize)) {
    toKeep = [...rest];
    toSummarize = [];
  }
  return {
    toSummarize,
    toKeep,
    systemMessages,
    keptTokens: opts.estimate(toKeep),
    wouldCompress: toSummarize.length > 0,
    mode: toSummarize.length > 0 ? mode : 'none',
    budget,
  };
}

function maskFromSpans(length: number, spans: readonly Span[]): boolean[] {
  const mask = new Array<boolean>(length).fill(false);
  for (const s of spans) for (let i = s.start; i < s.end; i++) mask[i] = true;
  return mask;
}

interface TurnPlan {
  turns: Turn[];
  kept: Set<number>;
  mask: boolean[];
}

/**
 * Keep the last `keepRecent` user turns, shrinking toward one until the kept
 * region fits the budget. Null when nothing precedes the kept turns.
 */
function planByTurns(rest: ChatMessage[], opts: PlanOptions, budget: number): TurnPlan | null {
  const turns = splitTurns(rest);
  const userTurns = turns.map((t, i) => (t.hasUser ? i : -1)).filter((i) => i >= 0);
  if (userTurns.length === 0) return null;
  let k = Math.min(Math.max(1, Math.floor(opts.keepRecent)), userTurns.length);
  const firstKept = () => userTurns[userTurns.length - k];
  while (k > 1 && opts.estimate(rest.slice(turns[firstKept()].start)) > budget) k--;
  if (turns[firstKept()].start === 0) return null;
  const kept = new Set<number>();
  for (let i = firstKept(); i < turns.length; i++) kept.add(i);
  return {
    turns,
    kept,
    mask: maskFromSpans(
      rest.length,
      [...kept].map((i) => turns[i]),
    ),
  };
}

/**
 * Adaptive partitioning: an important old turn takes the place of a filler
 * recent one, as long as the kept region still fits. The newest turn is the
 * live request and is never given up.
 */
function swapImportantTurns(rest: ChatMessage[], plan: TurnPlan, opts: PlanOptions, budget: number): boolean[] {
  const { turns } = plan;
  const kept = new Set(plan.kept);
  const newest = turns.length - 1;
  const score = turns.map((t) => turnImportance(t, opts.criticalToolNames));
  const important = turns
    .map((_, i) => i)
    .filter((i) => !kept.has(i) && turns[i].hasUser && score[i] >= IMPORTANT_TURN_SCORE)
    .sort((a, b) => score[b] - score[a] || b - a);
  for (const old of important) {
    const fillers = [...kept]
      .filter((i) => i !== newest && score[i] <= FILLER_TURN_SCORE && score[i] < score[old])
      .sort((a, b) => score[a] - score[b] || a - b);
    for (const filler of fillers) {
      const candidate = new Set(kept);
      candidate.delete(filler);
      candidate.add(old);
      const mask = maskFromSpans(
        rest.length,
        [...candidate].map((i) => turns[i]),
      );
      if (opts.estimate(select(rest, mask, true)) <= budget) {
        kept.delete(filler);
        kept.add(old);
        break;
      }
    }
  }
  return maskFromSpans(
    rest.length,
    [...kept].map((i) => turns[i]),
  );
}

/**
 * Intra-turn fallback for one long turn (one request + many tool iterations):
 * keep the current request and the newest `keepMessages` messages, rounded
 * down to whole units (always at least the newest unit), then drop the oldest
 * kept units until the region fits. Everything else — earlier turns and the
 * older part of this turn — is summarizable.
 */
function planIntraTurn(rest: ChatMessage[], keepMessages: number, estimate: Estimator, budget: number): boolean[] {
  const request = lastRealUserIndex(rest);
  const tailStart = request + 1;
  const units = atomicUnits(rest.slice(tailStart)).map((u) => ({ start: u.start + tailStart, end: u.end + tailStart }));
  const keptUnits: Span[] = [];
  let count = 0;
  for (let i = units.length - 1; i >= 0; i--) {
    const size = units[i].end - units[i].start;
    if (keptUnits.length > 0 && count + size > keepMessages) break;
    keptUnits.unshift(units[i]);
    count += size;
  }
  const spans = () => (request >= 0 ? [{ start: request, end: request + 1 }, ...keptUnits] : keptUnits);
  while (keptUnits.length > 1 && estimate(select(rest, maskFromSpans(rest.length, spans()), true)) > budget) {
    keptUnits.shift();
  }
  return maskFromSpans(rest.length, spans());
}
