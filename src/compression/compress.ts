/**
 * compressAndSaveSession: the one pipeline every trigger (pre-turn, mid-turn,
 * post-turn, forced) and every strategy goes through. Plans on the view with
 * the shared planner, runs the strategy, then saves in ONE transaction:
 * demoted rows (including context-only ones: old summaries, copies) get
 * is_context = false, the new context-only rows and the is_compression marker
 * are appended, the token meter is reset to the calibrated estimate of the
 * new context, the baseline and truncated flag are cleared, and old rows are
 * archived past sessionMessagesWindow. A failure leaves the session as it was.
 * The raw-history index is written after the commit and can never fail it.
 */
import type { CompressionDeps } from './deps.js';
import { contextOrderOf, orderContext } from '../domain/context-order.js';
import { isPinned } from '../domain/context-mode.js';
import type { Estimator } from '../domain/compression/planner.js';
import type { ChatMessage, NewMessage } from '../domain/types.js';
import { NotFound } from '../store/errors.js';
import type { CompressionReason, CompressionStrategy } from '../domain/compression-kinds.js';
import { type FidelityReceipt, withReceipt } from './receipt.js';
import { compressionSettings, estimateNextPrompt, imagePrices, makeContextEstimator } from './estimate.js';
import { applyOutcome, runStrategy, type Outcome } from './strategies.js';

export interface CompressOptions {
  reason: CompressionReason;
  strategy?: CompressionStrategy;
  /** the profile's window resolved once by the caller (defaults to the profile's) */
  window?: number;
  /** enables the intra-turn fallback (mid-turn / post-turn) */
  keepRecentMessages?: number | null;
  /** the caller's real-token estimate of the next prompt, reused rather than re-derived */
  currentTokens?: number;
  signal?: AbortSignal;
}

export interface CompressionResult {
  summary: string;
  messagesBefore: number;
  messagesAfter: number;
  contextTokens: number;
  maxContextTokens: number;
  reason: CompressionReason;
  strategy: CompressionStrategy;
  fallback?: Outcome['fallback'];
  receipt: FidelityReceipt;
}

export function markerText(before: number, after: number): string {
  return `Context compressed: ${before} → ${after} messages`;
}

/** Loads what one pass needs: session, profile, settings, ordered context, estimators. */
export async function loadCompressionInput(deps: CompressionDeps, sessionId: string, window?: number) {
  const session = await deps.store.get(sessionId);
  if (!session) throw new NotFound();
  const profile = await deps.compressionStore.profile(session.profileId);
  if (!profile) throw new NotFound('Profile');
  const settings = compressionSettings(deps, profile, window);
  const all: ChatMessage[] = await deps.store.context(sessionId);
  // PINNED rows are never summarised, truncated or replaced: the strategies do not see them, but their
  // tokens count in every estimate (they stay in the context, in their place).
  const pinned = all.filter(isPinned);
  const context = pinned.length > 0 ? all.filter((m) => !isPinned(m)) : all;
  const price = await imagePrices(deps, sessionId, profile, all);
  const base = makeContextEstimator(deps, profile, settings.window, price);
  const estimate: Estimator = pinned.length > 0 ? (messages) => base(orderContext([...messages, ...pinned])) : base;
  const current = () => estimateNextPrompt(deps, session, profile, settings.window, all, price);
  return { session, profile, settings, context, pinned, price, estimate, current };
}

export function compressAndSaveSession(
  deps: CompressionDeps,
  sessionId: string,
  opts: CompressOptions,
): Promise<CompressionResult | null> {
  return deps.locks.run(sessionId, () => compressLocked(deps, sessionId, opts));
}

/** The pass itself; callers must hold the session lock (compressAndSaveSession does). */
export async function compressLocked(
  deps: CompressionDeps,
  sessionId: string,
  opts: CompressOptions,
): Promise<CompressionResult | null> {
  const strategy = opts.strategy ?? 'SUMMARY';
  let input = await loadCompressionInput(deps, sessionId, opts.window);
  const tokensBefore = opts.currentTokens ?? input.current();
  let started = false;
  const run = async (inp: typeof input) => {
    const out = await runStrategy(strategy, inp.context, {
      deps,
      profile: inp.profile,
      settings: inp.settings,
      estimate: inp.estimate,
      price: inp.price,
      keepRecentMessages: opts.keepRecentMessages ?? null,
      signal: opts.signal,
      onStart: async () => {
        if (started) return; // a re-plan after a concurrent write is the same pass
        started = true;
        await deps.bus.publish(sessionId, {
          type: 'CompressionStarted',
          contextTokens: tokensBefore,
          maxContextTokens: inp.settings.window,
        });
      },
    });
    // The fidelity receipt: what the replaced region's anchors became (kept, re-appended, dropped).
    return out && withReceipt(out, inp.estimate);
  };
  let outcome = await run(input);
  let result: CompressionResult | null = null;
  for (let attempt = 0; ; attempt++) {
    if (!outcome || (outcome.dropped.length === 0 && outcome.added.length === 0)) return null;
    const { context, estimate, settings } = input;
    const next = applyOutcome(context, outcome);
    result = {
      summary: outcome.summary,
      messagesBefore: context.length,
      messagesAfter: next.length,
      contextTokens: estimate(next),
      maxContextTokens: settings.window,
      reason: opts.reason,
      strategy,
      ...(outcome.fallback && { fallback: outcome.fallback }),
      receipt: outcome.receipt,
    };
    if (await saveOutcome(deps, sessionId, outcome, result, input.session.nextSequence)) break;
    // The history moved while the strategy ran (an append such as a task_note, or a write from
    // another process). Re-plan on the new history: a pure append leaves what was summarized
    // intact, so the paid-for outcome is kept and saved over the new tail; anything else runs
    // the strategy again. Only a pass that can no longer shrink anything answers null.
    if (attempt >= MAX_REPLANS) {
      deps.log.warn({ sessionId, reason: opts.reason }, 'compressor.skipped_stale');
      return null;
    }
    const fresh = await loadCompressionInput(deps, sessionId, opts.window);
    const rebased = rebaseOutcome(input.context, fresh.context, outcome);
    deps.log.info({ sessionId, reason: opts.reason, reused: rebased !== null }, 'compressor.replanned');
    input = fresh;
    outcome = rebased ?? (await run(fresh));
  }
  const contextTokens = result.contextTokens;

  if (deps.config.memorySearchEnabled) {
    try {
      await deps.memory.indexDemoted(sessionId, outcome.dropped, outcome.keys);
    } catch (error) {
      deps.log.warn({ err: error, sessionId }, 'compressor.index_failed');
    }
  }
  await deps.bus.publish(sessionId, { type: 'ContextCompressed', ...result });
  deps.log.info(
    {
      sessionId,
      reason: opts.reason.toLowerCase(),
      strategy,
      fallback: outcome.fallback,
      before: result.messagesBefore,
      after: result.messagesAfter,
      contextTokens,
    },
    'compressor.compressed',
  );
  return result;
}

/** How many times one pass re-plans after the history moved under it before it gives up. */
const MAX_REPLANS = 3;

/**
 * The outcome planned on `before`, moved onto `after` when the history only
 * grew in between (every row of `before` still in the context, unchanged, at
 * its place): dropped rows are swapped for their fresh copies and the new
 * rows simply stay in the kept tail. Null when anything else changed.
 */
export function rebaseOutcome(
  before: readonly ChatMessage[],
  after: readonly ChatMessage[],
  outcome: Outcome & { receipt: FidelityReceipt },
): (Outcome & { receipt: FidelityReceipt }) | null {
  const bySeq = new Map(after.map((m) => [m.sequenceNumber, m]));
  for (const m of before) {
    const f = bySeq.get(m.sequenceNumber);
    if (!f || f.content !== m.content || f.role !== m.role || contextOrderOf(f) !== contextOrderOf(m)) return null;
  }
  return { ...outcome, dropped: outcome.dropped.map((d) => bySeq.get(d.sequenceNumber)!) };
}

/**
 * Saves one pass, unless the history moved since it was read (an append or an
 * edit from elsewhere changed next_sequence): then nothing is written and the
 * next trigger plans again on the new history. Returns whether it saved.
 */
async function saveOutcome(
  deps: CompressionDeps,
  sessionId: string,
  outcome: Outcome,
  result: CompressionResult,
  readAtSequence: number,
): Promise<boolean> {
  const { store } = deps;
  // A copy is a new row: a new position and a new message id (an id names one stored message version).
  const added: NewMessage[] = outcome.added.map(({ sequenceNumber: _s, createdAt: _c, messageId: _id, ...m }) => ({
    ...m,
    isContext: true,
    isDisplay: false,
  }));
  const marker: NewMessage = {
    role: 'system',
    content: markerText(result.messagesBefore, result.messagesAfter),
    isCompression: true,
    isContext: false,
    isDisplay: true,
    metadata: {
      summary: result.summary,
      reason: result.reason,
      strategy: result.strategy,
      messagesBefore: result.messagesBefore,
      messagesAfter: result.messagesAfter,
      contextTokens: result.contextTokens,
      maxContextTokens: result.maxContextTokens,
      ...(result.fallback && { fallback: result.fallback }),
      receipt: result.receipt,
    },
  };
  return store.transaction(async (tx) => {
    if ((await deps.compressionStore.lockNextSequence(tx, sessionId)) !== readAtSequence) return false;
    // Deliberately not filtered on is_display: context-only rows (old summaries, copies) must stay demoted after
    // reload.
    await store.setContextFlag(
      sessionId,
      outcome.dropped.map((m) => m.sequenceNumber),
      false,
      tx,
    );
    const saved = await store.append(sessionId, [...added, marker], tx);
    const markerRow = saved.at(-1);
    await deps.compressionStore.recordCompression(tx, sessionId, result.contextTokens, {
      at: new Date().toISOString(),
      reason: result.reason,
      marker: markerRow?.sequenceNumber,
    });
    await store.archiveBeyondWindow(sessionId, deps.config.sessionMessagesWindow, tx);
    await deps.afterSaveWrites?.(sessionId);
    return true;
  });
}
