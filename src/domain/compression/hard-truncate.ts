/**
 * Last resort when the summarizer failed twice: drop the oldest whole turns
 * until the context is well under the window. No LLM call, so it cannot fail.
 */
import type { ChatMessage } from '../types.js';
import { isSystemMessage, splitTurns } from '../turns.js';
import type { Estimator } from './planner.js';

/** Half the window leaves room for the next turns before the trigger fires again. */
export const HARD_TRUNCATE_TOKEN_FRACTION = 0.5;

/** The row that will stand for what was dropped (a stub summary), or null for none. */
export type StubBuilder = (dropped: readonly ChatMessage[], kept: readonly ChatMessage[]) => ChatMessage | null;

export interface HardTruncateOptions {
  window: number;
  estimate: Estimator;
  fraction?: number;
  /**
   * The stub the caller adds for the dropped turns. The bound covers
   * everything kept, so the stub is priced with the turns it sits before.
   */
  stub?: StubBuilder;
  /** Drop at least the oldest turn even when already under the bound (when more than one turn exists). */
  force?: boolean;
}

export interface HardTruncateResult {
  context: ChatMessage[];
  dropped: ChatMessage[];
  /** what `opts.stub` built for this cut (null without a builder); not in `context` */
  stub: ChatMessage | null;
}

/** `kept` with `stub` placed before its first non-system row (where the pipeline puts a summary). */
export function withStub(kept: readonly ChatMessage[], stub: ChatMessage | null): ChatMessage[] {
  if (!stub) return [...kept];
  const at = kept.findIndex((m) => !isSystemMessage(m));
  const i = at < 0 ? kept.length : at;
  return [...kept.slice(0, i), stub, ...kept.slice(i)];
}

/**
 * Keeps system messages and the newest whole turns; drops turns oldest first
 * while the estimate of what is kept — the stub included — is at or above
 * `fraction × window`. The newest turn holds the live request and is kept
 * even when it alone exceeds the budget — a turn is never split.
 */
export function hardTruncate(context: readonly ChatMessage[], opts: HardTruncateOptions): HardTruncateResult {
  const limit = opts.window * (opts.fraction ?? HARD_TRUNCATE_TOKEN_FRACTION);
  const system = context.filter(isSystemMessage);
  const turns = splitTurns(context.filter((m) => !isSystemMessage(m)));
  // Membership, not concatenation: stored system records keep their position.
  const keptFrom = (i: number) => {
    const kept = new Set<ChatMessage>([...system, ...turns.slice(i).flatMap((t) => t.messages)]);
    return context.filter((m) => kept.has(m));
  };
  const droppedBefore = (i: number) => turns.slice(0, i).flatMap((t) => t.messages);
  const stubFor = (i: number) => (opts.stub ? opts.stub(droppedBefore(i), keptFrom(i)) : null);
  let first = opts.force && turns.length > 1 ? 1 : 0;
  while (first < turns.length - 1 && opts.estimate(withStub(keptFrom(first), stubFor(first))) >= limit) first++;
  return { context: keptFrom(first), dropped: droppedBefore(first), stub: stubFor(first) };
}
