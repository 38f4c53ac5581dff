/**
 * Whole-history compaction: full replace (summary carrier after the live
 * request) and provider-native compaction, plus the local stub summary used
 * when no summarizer is available.
 */
import type { ChatMessage } from '../types.js';
import { makeMessage } from '../types.js';
import { extractEntities } from '../entities.js';
import { contextOrderOf } from '../context-order.js';
import { isUserTurnStart, lastRealUserIndex } from '../turns.js';
import { buildSummaryMessage, splitKeysLine } from './format.js';
import { isLoneSummary } from './planner.js';

export interface CompactionPrefix {
  /** Index of the last real user message: messages before it are summarized. */
  end: number;
  messages: ChatMessage[];
}

/** Everything before the last real user turn; null when there is no such turn or nothing precedes it. */
export function fullReplacePrefix(context: readonly ChatMessage[]): CompactionPrefix | null {
  const end = lastRealUserIndex(context);
  if (end <= 0 || isLoneSummary(context.slice(0, end))) return null;
  return { end, messages: context.slice(0, end) };
}

const STUB_MAX_REQUESTS = 8;
const STUB_REQUEST_CHARS = 160;
const STUB_PREVIOUS_SUMMARY_CHARS = 2_000;

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * A summary built from structure alone (no LLM): counts, the user's requests,
 * tools used, breadcrumbs, and the head of any earlier summary it replaces.
 */
export function localStubSummary(messages: readonly ChatMessage[]): string {
  const requests = messages.filter(isUserTurnStart);
  const assistants = messages.filter((m) => m.role === 'assistant').length;
  const results = messages.filter((m) => m.role === 'tool').length;
  const tools = new Map<string, number>();
  for (const m of messages) for (const c of m.toolCalls) tools.set(c.name, (tools.get(c.name) ?? 0) + 1);
  const lines = [
    `Earlier conversation compacted without a summarizer: ${messages.length} message(s) — ` +
      `${requests.length} user request(s), ${assistants} assistant message(s), ${results} tool result(s).`,
  ];
  const previous = messages.filter((m) => m.isSummary);
  if (previous.length > 0) {
    lines.push(`Earlier summary: ${oneLine(previous.map((m) => m.content).join(' '), STUB_PREVIOUS_SUMMARY_CHARS)}`);
  }
  if (requests.length > 0) {
    lines.push('User requests:');
    for (const r of requests.slice(-STUB_MAX_REQUESTS)) lines.push(`- ${oneLine(r.content, STUB_REQUEST_CHARS)}`);
  }
  if (tools.size > 0) {
    lines.push(`Tools used: ${[...tools].map(([n, c]) => (c > 1 ? `${n} ×${c}` : n)).join(', ')}`);
  }
  const entities = extractEntities(messages.map((m) => m.content).join('\n'));
  if (entities.length > 0) lines.push(`KEYS: ${entities.join(', ')}`);
  return lines.join('\n');
}

/** Stub summary message for dropped messages, breadcrumbs from their entities. */
export function buildStubSummaryMessage(dropped: readonly ChatMessage[]): ChatMessage {
  const { summary, keys } = splitKeysLine(localStubSummary(dropped));
  return buildSummaryMessage(summary, keys, { metadata: { local: true } });
}

/** The sequence numbers a carrier stands for: [first, last] of what it replaces. */
export function coveredRange(messages: readonly ChatMessage[]): [number, number] {
  const seqs = messages.map((m) => m.sequenceNumber);
  return [Math.min(...seqs), Math.max(...seqs)];
}

/**
 * Full replace: the prefix goes and one continuation summary comes. It has no
 * contextOrder, so it sorts at its own (newest) sequence number, after the kept
 * request and the work done on it so far: the model reads it as the state to
 * continue from.
 */
export function fullReplaceCarrier(
  prefix: CompactionPrefix,
  text: { summary: string; keys: readonly string[] },
): ChatMessage {
  return buildSummaryMessage(text.summary, text.keys, {
    metadata: { continuation: true, covers: coveredRange(prefix.messages) },
  });
}

/**
 * Where provider-native compaction would cut. Only when something precedes
 * the last real user turn and the message just before it is an assistant
 * reply without tool calls: the summarized range must not end on an open call,
 * and the kept user turn must differ in role from the last summarized message,
 * or the provider merges them and the kept thinking no longer matches.
 */
export function nativeCompactionPrefix(context: readonly ChatMessage[]): CompactionPrefix | null {
  const end = lastRealUserIndex(context);
  if (end <= 0) return null;
  const before = context[end - 1];
  if (before.role !== 'assistant' || before.toolCalls.length > 0 || isLoneSummary(context.slice(0, end))) return null;
  return { end, messages: context.slice(0, end) };
}

/**
 * Native compaction: one assistant message holding the provider's block takes
 * the prefix's place (sorted right before the kept user turn); the kept turns
 * follow unchanged, thinking included. `rest` is the context without system
 * messages that `prefix` was cut from.
 */
export function nativeCompactionCarrier(
  rest: readonly ChatMessage[],
  prefix: CompactionPrefix,
  block: { content: string },
): ChatMessage {
  return makeMessage({
    role: 'assistant',
    content: block.content,
    isDisplay: false,
    // The block itself is what the provider is sent back (typed, verbatim); `content` is its readable summary.
    metadata: {
      nativeCompaction: true,
      compactionBlock: block,
      contextOrder: contextOrderOf(rest[prefix.end]!) - 0.5,
      covers: coveredRange(prefix.messages),
    },
  });
}
