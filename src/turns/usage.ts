/**
 * A turn's usage: the sum of its model calls, and what each call records in the session (the calibration of the
 * model's token count, the context baseline, the context size).
 */
import type { Logger } from 'pino';
import type { SessionMetadataPatch } from '../domain/session-metadata.js';
import type { CalibrationRegistry, RealBaseline } from '../domain/tokens.js';
import { type Usage, ZERO_USAGE } from '../domain/types.js';
import type { RunContext } from './run-types.js';
import type { TurnRunStore } from './run-store.js';
import { retryOnLockTimeout } from './save-retry.js';

export class TurnUsage {
  /** the sum of the turn's model calls so far */
  total: Usage = { ...ZERO_USAGE };

  constructor(
    private readonly deps: { calibration: CalibrationRegistry; log: Logger },
    private readonly store: TurnRunStore,
    private readonly turnId: string,
  ) {}

  async record(
    ctx: RunContext,
    usage: Usage | null,
    call: { estimate: number; chars: number; hadImages: boolean; lastSequence: number },
  ) {
    if (!usage) return;
    this.total = {
      promptTokens: this.total.promptTokens + usage.promptTokens,
      completionTokens: this.total.completionTokens + usage.completionTokens,
      cachedPromptTokens: this.total.cachedPromptTokens + usage.cachedPromptTokens,
      cacheWriteTokens: this.total.cacheWriteTokens + usage.cacheWriteTokens,
      // Any call of the turn counted from characters (the server reported no usage) marks the turn's usage estimated.
      ...(this.total.estimated || usage.estimated ? { estimated: true } : {}),
    };
    // A count from characters is no observation: it neither calibrates the model nor sets the context baseline.
    if (usage.estimated) {
      ctx.session = await this.store.recordCall(ctx.session.id, {
        metadata: {},
        usage,
        contextTokenCount: call.estimate,
        turnUsage: this.total,
      });
      return;
    }
    const outcome = this.deps.calibration.recordObservation(ctx.profile.model, call.chars, usage.promptTokens, {
      hadImages: call.hadImages,
      // Ollama cuts an oversized prompt to about half the window: a prompt we put below half
      // the window cannot have been cut, and an uncalibrated estimate must not block the fit.
      sentEstimate: call.estimate >= ctx.window / 2 ? call.estimate : undefined,
    });
    const truncated = outcome === 'truncated';
    let metadata: SessionMetadataPatch;
    if (truncated) {
      // A truncated report is not a baseline: keep the previous one, raise the flag, keep the honest meter.
      metadata = { set: { contextTruncated: true } };
      this.deps.log.warn(
        { sessionId: ctx.session.id, reported: usage.promptTokens, estimate: call.estimate },
        'context.truncated_prompt',
      );
    } else {
      metadata = {
        set: { baseline: { promptTokens: usage.promptTokens, lastSequence: call.lastSequence } satisfies RealBaseline },
      };
    }
    const record = {
      metadata,
      usage,
      contextTokenCount: truncated ? call.estimate : usage.promptTokens,
      turnUsage: this.total,
    };
    ctx.session = await retryOnLockTimeout(() => this.store.recordCall(ctx.session.id, record), this.deps.log, {
      turnId: this.turnId,
    });
  }
}
