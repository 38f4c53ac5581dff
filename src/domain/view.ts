/**
 * The view: what the model is actually sent. A stored message may be huge (a
 * megabyte tool result); the view caps each message so one body cannot eat the
 * window, and every size decision is made on the view, never on raw bytes —
 * deciding on raw bytes made the size guard kill sessions over prompts the
 * model never received.
 */
import type { ChatMessage } from './types.js';
import { type CalibrationSource, UNCALIBRATED } from './tokens.js';

/** `context_message_token_budget = 0` means window // 6. */
export const MESSAGE_BUDGET_WINDOW_DIVISOR = 6;
/** The output reserve is capped so a deliberately small window does not fail every check. */
export const OUTPUT_RESERVE_MAX_WINDOW_FRACTION = 0.25;

export function messageTokenBudget(configured: number, window: number): number {
  if (configured > 0) return configured;
  return Math.floor(window / MESSAGE_BUDGET_WINDOW_DIVISOR);
}

export function truncationMarker(omittedChars: number): string {
  return `\n[… ${omittedChars} chars truncated …]\n`;
}

/**
 * Head + tail of `text` within `maxChars` (marker included). Both ends are
 * kept because a command's output states what ran at the top and how it ended
 * at the bottom.
 */
export function truncateMiddle(text: string, maxChars: number, headFraction = 0.5): string {
  if (text.length <= maxChars) return text;
  const markerLen = truncationMarker(text.length).length;
  const room = Math.max(0, maxChars - markerLen);
  const head = Math.floor(room * headFraction);
  const tail = room - head;
  const omitted = text.length - head - tail;
  return text.slice(0, head) + truncationMarker(omitted) + (tail > 0 ? text.slice(text.length - tail) : '');
}

/**
 * Per-message view truncation. Returns a new array; messages within budget are
 * passed through as-is, oversized ones are shallow copies with cut content.
 * The inputs are never modified — the stored message stays complete.
 */
export function truncateOversized(
  messages: readonly ChatMessage[],
  budgetTokens: number,
  model: string,
  registry: CalibrationSource = UNCALIBRATED,
): ChatMessage[] {
  if (!(budgetTokens > 0)) return [...messages];
  const maxChars = Math.floor(budgetTokens * registry.calibrationFor(model).charsPerToken());
  return messages.map((m) =>
    m.content.length > maxChars ? { ...m, content: truncateMiddle(m.content, maxChars) } : m,
  );
}

export interface ContextSizeInput {
  estimate: number;
  window: number;
  outputReserve: number;
}

export interface ContextSizeResult {
  estimate: number;
  limit: number;
  overLimit: boolean;
}

export function contextLimit(window: number, outputReserve: number): number {
  return window - Math.min(outputReserve, window * OUTPUT_RESERVE_MAX_WINDOW_FRACTION);
}

export function evaluateContextSize(input: ContextSizeInput): ContextSizeResult {
  const limit = Math.floor(contextLimit(input.window, input.outputReserve));
  return { estimate: input.estimate, limit, overLimit: input.estimate > limit };
}
