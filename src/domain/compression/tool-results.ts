/**
 * Cheap, LLM-free context economy on tool results: cap, shrink older ones
 * (prune/shake), spill old bodies out of the transcript, and drop the oldest
 * messages toward a budget. Every function returns new arrays and new message
 * objects for what it changed; inputs are never mutated.
 */
import type { ChatMessage } from '../types.js';
import { atomicUnits, isSystemMessage } from '../turns.js';
import { truncateMiddle } from '../view.js';
import type { Estimator } from './planner.js';
import { buildStubSummaryMessage } from './full-replace.js';

/** Cap applied when a result is added: nothing the model needs lives in the middle of a 30k-char dump. */
export const TOOL_RESULT_MAX_CHARS = 30_000;
/** Older results under prune pressure. */
export const TOOL_RESULT_PRUNE_CHARS = 8_000;
/** Older results when prune was not enough. */
export const TOOL_RESULT_SHAKE_CHARS = 2_000;
/** What stays of a spilled body next to its pointer; below the shake cap so shaking never cuts a pointer. */
export const SPILL_HEAD_CHARS = 1_000;
/** The newest tool results the model is most likely still working from. */
export const PRUNE_KEEP_RECENT_TOOLS = 3;
/** Dropping stops here so the model always has some recent exchange to continue from. */
export const MIN_KEEP_MESSAGES = 6;
/** Dropping starts above this share of the budget, leaving headroom for the next results. */
export const PRUNE_TRIGGER_FRACTION = 0.75;

export interface ToolResultEdit {
  messages: ChatMessage[];
  /** How many messages were rewritten. */
  changed: number;
}

function capContent(msg: ChatMessage, maxChars: number): ChatMessage {
  return msg.content.length > maxChars ? { ...msg, content: truncateMiddle(msg.content, maxChars) } : msg;
}

export function isSpilled(msg: ChatMessage): boolean {
  return typeof msg.metadata.spilled === 'string';
}

function countChanged(before: readonly ChatMessage[], after: readonly ChatMessage[]): number {
  return after.reduce((n, m, i) => n + (m !== before[i] ? 1 : 0), 0);
}

/** The `add_tool_results` cap, for results about to be appended. */
export function capNewToolResults(
  results: readonly ChatMessage[],
  maxChars: number = TOOL_RESULT_MAX_CHARS,
): ChatMessage[] {
  return results.map((m) => (m.role === 'tool' ? capContent(m, maxChars) : m));
}

/** Cap oversized tool results already in the transcript. */
export function capToolResults(
  messages: readonly ChatMessage[],
  maxChars: number = TOOL_RESULT_MAX_CHARS,
): ToolResultEdit {
  const out = capNewToolResults(messages, maxChars);
  return { messages: out, changed: countChanged(messages, out) };
}

/** Indexes of tool-role messages, newest last. */
function toolIndexes(messages: readonly ChatMessage[]): number[] {
  return messages.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
}

/**
 * Older results cut to `oldMax`, the newest `keepRecent` at `recentMax`.
 * Spilled bodies are already small and carry a pointer that must survive.
 */
export function shrinkOldToolResults(
  messages: readonly ChatMessage[],
  oldMax: number,
  recentMax: number = TOOL_RESULT_MAX_CHARS,
  keepRecent: number = PRUNE_KEEP_RECENT_TOOLS,
): ToolResultEdit {
  const tools = toolIndexes(messages);
  const recent = new Set(tools.slice(Math.max(0, tools.length - keepRecent)));
  const out = messages.map((m, i) => {
    if (m.role !== 'tool' || isSpilled(m)) return m;
    return capContent(m, recent.has(i) ? recentMax : oldMax);
  });
  return { messages: out, changed: countChanged(messages, out) };
}

export function pruneOldToolResults(messages: readonly ChatMessage[]): ToolResultEdit {
  return shrinkOldToolResults(messages, TOOL_RESULT_PRUNE_CHARS);
}

/** Second stage when prune did not relieve the pressure. */
export function shakeOldToolResults(messages: readonly ChatMessage[]): ToolResultEdit {
  return shrinkOldToolResults(messages, TOOL_RESULT_SHAKE_CHARS);
}

/**
 * Persists a body somewhere readable and returns a pointer (path, URL), or null to decline.
 * `message` is the tool result itself: name the pointer after it, not after `id` alone — a
 * provider may repeat tool-call ids, so an id is not unique across a session.
 */
export type SpillStore = (id: string, body: string, message: ChatMessage) => string | null;

export interface SpillResult {
  messages: ChatMessage[];
  spilled: number;
}

export function spillPointerLine(pointer: string, totalChars: number): string {
  return `[… full output (${totalChars} chars) saved to ${pointer} — read it there instead of re-running the tool]`;
}

/**
 * Move old, long tool bodies out through `store`: the message keeps its first
 * SPILL_HEAD_CHARS chars plus a pointer line, so the model can read the full
 * output instead of re-running the tool. The newest PRUNE_KEEP_RECENT_TOOLS
 * results, short bodies, already spilled bodies and declined ones stay.
 */
export function spillOldToolResults(messages: readonly ChatMessage[], store: SpillStore): SpillResult {
  const tools = toolIndexes(messages);
  const old = new Set(tools.slice(0, Math.max(0, tools.length - PRUNE_KEEP_RECENT_TOOLS)));
  let spilled = 0;
  const out = messages.map((m, i) => {
    if (!old.has(i) || isSpilled(m) || m.content.length <= TOOL_RESULT_PRUNE_CHARS) return m;
    const pointer = store(m.toolCallId ?? `seq-${m.sequenceNumber}`, m.content, m);
    if (pointer === null) return m;
    spilled++;
    return {
      ...m,
      content: `${m.content.slice(0, SPILL_HEAD_CHARS)}\n${spillPointerLine(pointer, m.content.length)}`,
      metadata: { ...m.metadata, spilled: pointer },
    };
  });
  return { messages: out, spilled };
}

export interface PruneOptions {
  budgetTokens: number;
  estimate: Estimator;
}

export interface PruneResult extends ToolResultEdit {
  dropped: ChatMessage[];
}

/**
 * Compact toward a token budget without an LLM:
 * 1. cap oversized tool results;
 * 2. if still over ¾ · budget, drop the oldest whole units (a call never
 *    loses its results) until under ¾ · budget or only MIN_KEEP_MESSAGES
 *    remain;
 * 3. prepend a stub summary of what was dropped.
 * Under budget after the caps, the list is not reshuffled, so /compact on a
 * small session does not churn it. System messages are never dropped.
 */
export function pruneToBudget(messages: readonly ChatMessage[], opts: PruneOptions): PruneResult {
  const capped = capToolResults(messages);
  const limit = opts.budgetTokens * PRUNE_TRIGGER_FRACTION;
  if (opts.estimate(capped.messages) <= limit) return { ...capped, dropped: [] };

  const rest = capped.messages.filter((m) => !isSystemMessage(m));
  const units = atomicUnits(rest);
  let first = 0;
  let from = 0;
  const remaining = () => {
    let restIndex = -1;
    return capped.messages.filter((m) => isSystemMessage(m) || ++restIndex >= from);
  };
  while (first < units.length - 1 && opts.estimate(remaining()) > limit) {
    const next = units[first].end;
    if (rest.length - next < MIN_KEEP_MESSAGES) break;
    from = next;
    first++;
  }
  if (from === 0) return { ...capped, dropped: [] };
  const dropped = rest.slice(0, from);
  const kept = remaining();
  const firstKept = kept.findIndex((m) => !isSystemMessage(m));
  const at = firstKept < 0 ? kept.length : firstKept;
  const out = [...kept.slice(0, at), buildStubSummaryMessage(dropped), ...kept.slice(at)];
  return { messages: out, changed: capped.changed, dropped };
}
