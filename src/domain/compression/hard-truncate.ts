/**
 * Last resort when the summarizer failed twice: drop the oldest whole turns
 * until the context is well under the window. No LLM call, so it cannot fail.
 */
import type { ChatMessage } from '../types.js';
import { isSystemMessage, splitTurns } from '../turns.js';
import type { Estimator } from './planner.js';

/** Half the window leaves room for the next turns before the trigger fires again. */
export const HARD_TRUNCATE_TOKEN_FRACTION = 0.5;

export interface HardTruncateOptions {
  window: number;
  estimate: Estimator;
  fraction?: number;
}

export interface HardTruncateResult {
  context: ChatMessage[];
  dropped: ChatMessage[];
}

/**
 * Keeps system messages and the newest whole turns; drops turns oldest first
 * while the estimate is at or above `fraction × window`. The newest turn holds
 * the live request and is kept even when it alone exceeds the budget — a turn
 * is never split.
 */
export function hardTruncate(context: readonly ChatMessage[], opts: HardTruncateOptions): HardTruncateResult {
  const limit = opts.window * (opts.fraction ?? HARD_TRUNCATE_TOKEN_FRACTION);
  const system = context.filter(isSystemMessage);
  const turns = splitTurns(context.filter((m) => !isSystemMessage(m)));
  let first = 0;
  // Membership, not concatenation: stored system records keep their position.
  const keptFrom = (i: number) => {
    const kept = new Set<ChatMessage>([...system, ...turns.slice(i).flatMap((t) => t.messages)]);
    return context.filter((m) => kept.has(m));
  };
  while (first < turns.length - 1 && opts.estimate(keptFrom(first)) >= limit) first++;
  return { context: keptFrom(first), dropped: turns.slice(0, first).flatMap((t) => t.messages) };
}
