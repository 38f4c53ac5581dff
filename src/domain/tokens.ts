/**
 * Token accounting in real prompt tokens.
 *
 * Every window decision (trigger, target, hard-truncate, size guard) is made in
 * the provider's real prompt tokens. A per-model line
 * `tokens ≈ overhead + chars × slope` is fitted to the last observations of
 * (chars of the built prompt, real prompt count); without a usable line the
 * estimate falls back to `chars / 1.8`, which was measured close to real sizes
 * where the old `chars / 3` undercounted ~1.8×.
 */
import type { ChatMessage } from './types.js';

export const MAX_OBSERVATIONS = 8;
/** Two points closer than this give a slope dominated by noise. */
export const MIN_SIZE_RATIO = 1.25;
/** Slopes outside [1/4, 1] token/char only come from truncated prompts. */
export const MIN_SLOPE = 0.25;
export const MAX_SLOPE = 1;
export const FALLBACK_CHARS_PER_TOKEN = 1.8;
/** A reported count below this fraction of what we sent means the server cut the prompt. */
export const TRUNCATION_RATIO = 0.7;

export interface CalibrationObservation {
  chars: number;
  tokens: number;
}

export interface CalibrationFit {
  overhead: number;
  slope: number;
}

export type RecordOutcome = 'recorded' | 'skipped_images' | 'truncated' | 'invalid';

export interface RecordOptions {
  /** Image tokens are not in `chars`; feeding them would skew the line. */
  hadImages?: boolean;
  /** Our estimate of the prompt that was sent; enables truncation detection. */
  sentEstimate?: number;
}

/** Least-squares fit, or null when the points cannot support one. */
export function fitLine(observations: readonly CalibrationObservation[]): CalibrationFit | null {
  if (observations.length < 2) return null;
  const xs = observations.map((o) => o.chars);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  if (minX <= 0 || maxX / minX < MIN_SIZE_RATIO) return null;
  const n = observations.length;
  const meanX = xs.reduce((a, b) => a + b, 0) / n;
  const meanY = observations.reduce((a, o) => a + o.tokens, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const o of observations) {
    sxy += (o.chars - meanX) * (o.tokens - meanY);
    sxx += (o.chars - meanX) ** 2;
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  if (!(slope >= MIN_SLOPE && slope <= MAX_SLOPE)) return null;
  return { overhead: meanY - slope * meanX, slope };
}

/** Calibration state of one model. */
export class ModelCalibration {
  private readonly points: CalibrationObservation[] = [];
  private cachedFit: CalibrationFit | null | undefined;

  get observations(): readonly CalibrationObservation[] {
    return this.points;
  }

  record(chars: number, tokens: number): void {
    this.points.push({ chars, tokens });
    if (this.points.length > MAX_OBSERVATIONS) this.points.shift();
    this.cachedFit = undefined;
  }

  fit(): CalibrationFit | null {
    if (this.cachedFit === undefined) this.cachedFit = fitLine(this.points);
    return this.cachedFit;
  }

  /** Tokens of a whole prompt of `chars` characters (includes the fitted overhead). */
  estimate(chars: number): number {
    const fit = this.fit();
    if (!fit) return fallbackTokens(chars);
    return Math.max(0, Math.ceil(fit.overhead + chars * fit.slope));
  }

  /**
   * Tokens that `chars` more characters add to an existing prompt. The
   * overhead (template, system prompt framing) is already in the baseline, so
   * only the marginal slope applies.
   */
  estimateDelta(chars: number): number {
    const fit = this.fit();
    if (!fit) return fallbackTokens(chars);
    return Math.ceil(chars * fit.slope);
  }

  /** Characters that fit in `tokens`, for converting token budgets to cut points. */
  charsPerToken(): number {
    const fit = this.fit();
    return fit ? 1 / fit.slope : FALLBACK_CHARS_PER_TOKEN;
  }
}

export function fallbackTokens(chars: number): number {
  return Math.ceil(chars / FALLBACK_CHARS_PER_TOKEN);
}

/** reported < 70% of the sent estimate: the server silently evaluated only part of the prompt. */
export function isTruncatedReport(reported: number, sentEstimate: number): boolean {
  return reported < TRUNCATION_RATIO * sentEstimate;
}

/** What an estimate reads: the calibration of one model. */
export interface CalibrationSource {
  calibrationFor(model: string): ModelCalibration;
}

/**
 * Per-model calibrations. The composition root builds one per process and
 * hands it to the turn runner (which records) and to every estimator.
 */
export class CalibrationRegistry {
  private readonly models = new Map<string, ModelCalibration>();

  calibrationFor(model: string): ModelCalibration {
    let cal = this.models.get(model);
    if (!cal) {
      cal = new ModelCalibration();
      this.models.set(model, cal);
    }
    return cal;
  }

  recordObservation(model: string, chars: number, realPromptTokens: number, opts: RecordOptions = {}): RecordOutcome {
    if (!(chars > 0) || !(realPromptTokens > 0)) return 'invalid';
    if (opts.sentEstimate !== undefined && isTruncatedReport(realPromptTokens, opts.sentEstimate)) return 'truncated';
    if (opts.hadImages) return 'skipped_images';
    this.calibrationFor(model).record(chars, realPromptTokens);
    return 'recorded';
  }

  reset(model?: string): void {
    if (model === undefined) this.models.clear();
    else this.models.delete(model);
  }
}

/** No observations and no state: an estimate without a registry uses the fallback ratio. */
export const UNCALIBRATED: CalibrationSource = Object.freeze({ calibrationFor: () => new ModelCalibration() });

/** Characters the model reads for one message: content, thinking, tool call names and JSON args. */
export function messageChars(msg: ChatMessage): number {
  let chars = msg.content.length + (msg.thinking?.length ?? 0);
  for (const call of msg.toolCalls) chars += call.name.length + JSON.stringify(call.arguments ?? {}).length;
  return chars;
}

/**
 * The last real prompt count and where it was taken. Exactly one of
 * `messageCount` (context length when counted) or `lastSequence` (highest
 * sequence number included) locates the messages appended since.
 */
export interface RealBaseline {
  promptTokens: number;
  messageCount?: number;
  lastSequence?: number;
}

/** Number of context messages appended after the baseline, or null when the baseline no longer applies. */
export function messagesSinceBaseline(baseline: RealBaseline, context: readonly ChatMessage[]): number | null {
  if (baseline.messageCount !== undefined) {
    // A shorter context means it was compressed since: the count is stale.
    if (baseline.messageCount > context.length) return null;
    return context.length - baseline.messageCount;
  }
  if (baseline.lastSequence !== undefined) {
    const last = baseline.lastSequence;
    return context.filter((m) => m.sequenceNumber > last).length;
  }
  return null;
}
