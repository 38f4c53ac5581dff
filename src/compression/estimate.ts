/**
 * Settings and estimators of one compression pass. Every size decision is made
 * on the prompt the model is sent — `buildPrompt` (src/domain/prompt.ts), the
 * function the runner sends with — in calibrated real tokens, against the
 * profile's window resolved once by the caller.
 */
import type { CompressionDeps } from './deps.js';
import { TOOL_RESULT_MAX_CHARS, capNewToolResults } from '../domain/compression/tool-results.js';
import type { Estimator } from '../domain/compression/planner.js';
import { imageTokensFromBase64, type ImageRef } from '../domain/image-tokens.js';
import { buildPrompt, modelView, type PromptImages } from '../domain/prompt.js';
import type { ChatMessage } from '../domain/types.js';
import { loadPromptImages } from '../files/images.js';
import type { ProfileRow as Profile } from '../store/profiles.js';
import type { SessionRow as Session } from '../store/sessions.js';
import { baselineOf, promptRules } from '../turns/prompt.js';

export interface CompressionSettings {
  window: number;
  model: string;
  threshold: number;
  target: number;
  keepRecent: number;
  /** mid-turn and post-turn: max(12, keepRecent × 2) */
  midTurnKeepMessages: number;
  temperature: number;
  maxTokens: number;
  prompt: string | null;
  vision: boolean;
}

export function compressionSettings(deps: CompressionDeps, profile: Profile, window?: number): CompressionSettings {
  const c = deps.config;
  const keepRecent = profile.compressionKeepRecent > 0 ? profile.compressionKeepRecent : c.contextKeepRecent;
  return {
    window: window ?? profile.contextWindow,
    model: profile.model,
    threshold: c.contextCompressionThreshold,
    target: c.contextCompressionTarget,
    keepRecent,
    midTurnKeepMessages: Math.max(12, keepRecent * 2),
    temperature: c.contextSummaryTemperature,
    maxTokens: profile.compressionMaxTokens > 0 ? profile.compressionMaxTokens : c.contextSummaryMaxTokens,
    prompt: profile.compressionPrompt?.trim() ? profile.compressionPrompt : null,
    vision: profile.vision,
  };
}

/**
 * A pricer of images plus the images a prompt sends, loaded once per pass.
 * Only sent images cost (a non-vision profile sends none, an image the paste
 * budget left out is not sent); `images` also gives the summarizer the bytes.
 */
export type ImagePrices = ((img: ImageRef) => number) & { readonly images?: PromptImages };

export async function imagePrices(
  deps: CompressionDeps,
  sessionId: string,
  profile: Profile,
  messages: readonly ChatMessage[],
): Promise<ImagePrices> {
  const fallback = deps.config.contextImageTokens;
  // The summarizer may attach any stored image of a vision profile, not only the ones the paste budget admitted.
  const paths = profile.vision ? new Set(messages.flatMap((m) => m.images)) : [];
  const images = await loadPromptImages(deps.files.root, sessionId, paths, fallback);
  const price = (img: ImageRef) =>
    !profile.vision
      ? 0
      : img.kind === 'path'
        ? (images.get(img.value)?.tokens ?? 0)
        : imageTokensFromBase64(img.value, fallback);
  return Object.assign(price, { images });
}

/** What the runner sends, minus images' bytes: allowlist, notices, tool-result cap. */
export function sentView(context: readonly ChatMessage[]): ChatMessage[] {
  return capNewToolResults(modelView(context), TOOL_RESULT_MAX_CHARS);
}

/**
 * The planner's estimator: a candidate context priced as the prompt it would
 * make — `buildPrompt`, the function the runner sends with.
 */
export function makeContextEstimator(
  deps: CompressionDeps,
  profile: Profile,
  window: number,
  price: ImagePrices,
): Estimator {
  const rules = promptRules(deps, profile, window);
  const images = price.images ?? new Map();
  return (messages) =>
    buildPrompt({ ...rules, context: messages, systemPrompt: profile.systemPrompt, images }).estimate;
}

/**
 * The next prompt's size the way the runner measures it: the last real count
 * plus the calibrated delta of the view appended since; a full estimate when
 * there is no baseline.
 */
export function estimateNextPrompt(
  deps: CompressionDeps,
  session: Pick<Session, 'metadata'>,
  profile: Profile,
  window: number,
  context: readonly ChatMessage[],
  price: ImagePrices,
): number {
  return buildPrompt({
    ...promptRules(deps, profile, window),
    context,
    systemPrompt: profile.systemPrompt,
    images: price.images ?? new Map(),
    baseline: baselineOf(session),
  }).estimate;
}
