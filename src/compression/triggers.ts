/**
 * When compression runs, via the turn runner's hooks:
 *   pre-turn   before the first call: the estimate (incoming message and its
 *              images included — it is already stored) ≥ threshold × window;
 *   mid-turn   before every later call, keeping max(12, keepRecent × 2)
 *              recent messages of the long turn (intra-turn fallback);
 *   post-turn  a worker after TurnEnded, same check, and unconditionally when
 *              the last call's prompt came back truncated.
 * Each pass compresses toward target × window (0.65) so the 0.90 trigger does
 * not re-fire a few messages later. Recall rides on turnContext.
 */
import type { CompressionDeps } from './deps.js';
import { parseSessionMetadata } from '../domain/session-metadata.js';
import { contextLimit } from '../domain/view.js';
import type { RunContext, TurnHooks } from '../turns/runner.js';
import { compressAndSaveSession, compressLocked, loadCompressionInput } from './compress.js';
import { compressionSettings } from './estimate.js';
import { recallContext } from './recall.js';

/**
 * threshold × window, or lower when the size guard (window − output reserve,
 * the reserve capped at a quarter of the window) would refuse the call first:
 * on small windows the guard sits below 90%, and a prompt between the two
 * would end the turn with "too large" instead of being compressed.
 */
export function triggerTokens(deps: CompressionDeps, threshold: number, window: number): number {
  return Math.min(threshold * window, contextLimit(window, deps.config.outputReserveTokens));
}

async function preOrMid(deps: CompressionDeps, ctx: RunContext, reason: 'PRETURN' | 'MIDTURN'): Promise<void> {
  await deps.locks.idle(ctx.session.id);
  if (!deps.config.contextCompressionEnabled) return;
  const settings = compressionSettings(deps, ctx.profile, ctx.window);
  const tokens = await ctx.estimate();
  if (tokens < triggerTokens(deps, settings.threshold, ctx.window)) return;
  try {
    await compressAndSaveSession(deps, ctx.session.id, {
      reason,
      window: ctx.window,
      currentTokens: tokens,
      keepRecentMessages: reason === 'MIDTURN' ? settings.midTurnKeepMessages : null,
      signal: ctx.signal,
    });
  } finally {
    // Whatever it saved (or half did), the call reads the context again.
    ctx.contextChanged?.();
  }
}

/**
 * The post-turn worker: decision and pass both under the session lock, taken
 * synchronously, so a next turn's pre-turn check waits for it.
 */
export function postTurn(deps: CompressionDeps, sessionId: string, window?: number): Promise<void> {
  return deps.locks.run(sessionId, async () => {
    if (!deps.config.contextCompressionEnabled) return;
    const input = await loadCompressionInput(deps, sessionId, window);
    const truncated = parseSessionMetadata(input.session.metadata).contextTruncated === true;
    const tokens = input.current();
    if (!truncated && tokens < triggerTokens(deps, input.settings.threshold, input.settings.window)) return;
    const result = await compressLocked(deps, sessionId, {
      reason: 'POSTTURN',
      window: input.settings.window,
      currentTokens: tokens,
      keepRecentMessages: input.settings.midTurnKeepMessages,
    });
    if (!result && truncated) deps.log.warn({ sessionId }, 'compressor.truncated_but_nothing_to_compact');
  });
}

export function compressionHooks(deps: CompressionDeps): TurnHooks {
  const recall = recallContext(deps);
  return {
    beforeFirstCall: (ctx) => preOrMid(deps, ctx, 'PRETURN'),
    beforeNextCall: (ctx) => preOrMid(deps, ctx, 'MIDTURN'),
    turnContext: (ctx) => recall(ctx),
    afterTurn: (ctx) => postTurn(deps, ctx.session.id, ctx.window),
  };
}
