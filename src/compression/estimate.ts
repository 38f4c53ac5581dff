/**
 * Settings and estimators of one compression pass. Every size decision is made
 * on the view the model is sent (allowlist, context notices, tool-result cap,
 * per-message truncation, the injected system prompt), in calibrated real
 * tokens, against the profile's window resolved once by the caller.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '../app.js';
import { TOOL_RESULT_MAX_CHARS, capNewToolResults } from '../domain/compression/tool-results.js';
import type { Estimator } from '../domain/compression/planner.js';
import { imageTokensFromBase64, imageTokensFromBytes, type ImageRef } from '../domain/image-tokens.js';
import { realBaselineEstimate, type RealBaseline } from '../domain/tokens.js';
import type { ChatMessage } from '../domain/types.js';
import { makeMessage } from '../domain/types.js';
import { makeViewEstimator, messageTokenBudget, truncateOversized } from '../domain/view.js';
import type { Profile, Session } from '../generated/prisma/client.js';
import { modelView } from '../turns/context.js';

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

export function compressionSettings(app: App, profile: Profile, window?: number): CompressionSettings {
  const c = app.config;
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

/** Prices every image of `messages` from its own header (files read once), unreadable → contextImageTokens. */
export async function imagePrices(app: App, messages: readonly ChatMessage[]): Promise<(img: ImageRef) => number> {
  const fallback = app.config.contextImageTokens;
  const prices = new Map<string, number>();
  for (const m of messages) {
    for (const rel of m.images) {
      if (prices.has(rel)) continue;
      prices.set(rel, fallback);
      if (!rel.startsWith('session_files/') || rel.includes('..')) continue;
      try {
        prices.set(rel, imageTokensFromBytes(await readFile(join(app.files.root, rel)), fallback));
      } catch {
        /* unreadable: flat price */
      }
    }
  }
  return (img) => (img.kind === 'path' ? (prices.get(img.value) ?? fallback) : imageTokensFromBase64(img.value, fallback));
}

function systemPromptMessage(profile: Profile): ChatMessage[] {
  return profile.systemPrompt ? [makeMessage({ role: 'system', content: profile.systemPrompt, sequenceNumber: -1 })] : [];
}

/** What the runner sends, minus images' bytes: allowlist, notices, tool-result cap. */
export function sentView(context: readonly ChatMessage[]): ChatMessage[] {
  return capNewToolResults(modelView(context), TOOL_RESULT_MAX_CHARS);
}

/**
 * The planner's estimator: a candidate context priced as the prompt it would
 * make (system prompt included), each message truncated as the view truncates it.
 */
export function makeContextEstimator(app: App, profile: Profile, window: number, price: (img: ImageRef) => number): Estimator {
  const view = makeViewEstimator({
    model: profile.model,
    window,
    messageBudget: app.config.contextMessageTokenBudget,
    imageTokens: price,
  });
  const system = systemPromptMessage(profile);
  return (messages) => view([...system, ...sentView(messages)]);
}

/**
 * The next prompt's size the way the runner measures it: the last real count
 * plus the calibrated delta of the view appended since; a full estimate when
 * there is no baseline.
 */
export function estimateNextPrompt(
  app: App,
  session: Pick<Session, 'metadata'>,
  profile: Profile,
  window: number,
  context: readonly ChatMessage[],
  price: (img: ImageRef) => number,
): number {
  const budget = messageTokenBudget(app.config.contextMessageTokenBudget, window);
  const view = truncateOversized(sentView(context), budget, profile.model);
  const withSystem = [...systemPromptMessage(profile), ...view];
  const baseline = ((session.metadata ?? {}) as { baseline?: RealBaseline }).baseline ?? null;
  return realBaselineEstimate({
    baseline,
    context: [...context],
    view: view.length > 0 ? withSystem : view,
    model: profile.model,
    imageTokens: price,
  });
}
