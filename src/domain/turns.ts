/**
 * Turn and tool-group structure of a context list. Pure: index arithmetic over
 * ChatMessage arrays, shared by the planner, hard-truncate and full-replace.
 */
import type { ChatMessage } from './types.js';

/** Half-open index range [start, end) into a message list. */
export interface Span {
  start: number;
  end: number;
}

/**
 * One conversational turn: a real user message and everything up to the next
 * one. The leading turn may have no user message (`hasUser` false) when the
 * context starts with summaries, agent notes or orphaned replies.
 */
export interface Turn extends Span {
  hasUser: boolean;
  messages: ChatMessage[];
}

/**
 * A real user turn starts only at a message the user wrote. Agent notes are
 * user-role text the agent wrote itself and summaries are compression
 * carriers: treating either as a turn would let compression keep a note as
 * "the current request" and drop the actual one.
 */
export function isUserTurnStart(msg: ChatMessage): boolean {
  return msg.role === 'user' && !msg.isAgentNote && !msg.isSummary;
}

export function isSystemMessage(msg: ChatMessage): boolean {
  return msg.role === 'system';
}

export function hasToolCalls(msg: ChatMessage): boolean {
  return msg.role === 'assistant' && msg.toolCalls.length > 0;
}

/** Index of the last real user message, or -1. */
export function lastRealUserIndex(messages: readonly ChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (isUserTurnStart(messages[i])) return i;
  }
  return -1;
}

/** Partition `messages` into consecutive turns covering every index exactly once. */
export function splitTurns(messages: readonly ChatMessage[]): Turn[] {
  const turns: Turn[] = [];
  let start = 0;
  for (let i = 1; i <= messages.length; i++) {
    if (i === messages.length || isUserTurnStart(messages[i])) {
      if (i > start) {
        turns.push({
          start,
          end: i,
          hasUser: isUserTurnStart(messages[start]),
          messages: messages.slice(start, i),
        });
      }
      start = i;
    }
  }
  return turns;
}

/**
 * Partition `messages` into atomic units: an assistant message with tool calls
 * plus the tool results answering it form one unit; every other message is its
 * own unit. A unit must never be split — a provider rejects a tool result
 * whose call is gone, and a call without results reads as an open call.
 *
 * Results are taken while they are tool-role messages, and agent notes (e.g.
 * an image injection for a result) are absorbed while calls are still
 * unanswered. A real user message always ends the group.
 */
export function atomicUnits(messages: readonly ChatMessage[]): Span[] {
  const units: Span[] = [];
  let i = 0;
  while (i < messages.length) {
    const msg = messages[i];
    let end = i + 1;
    if (hasToolCalls(msg)) {
      const pending = new Set(msg.toolCalls.map((c) => c.id));
      while (end < messages.length && belongsToGroup(messages[end], pending)) {
        if (messages[end].toolCallId) pending.delete(messages[end].toolCallId as string);
        end++;
      }
    } else if (msg.role === 'tool') {
      // Orphaned results (their call was dropped earlier) stay together.
      while (end < messages.length && messages[end].role === 'tool') end++;
    }
    units.push({ start: i, end });
    i = end;
  }
  return units;
}

function belongsToGroup(msg: ChatMessage, pending: Set<string>): boolean {
  if (msg.role === 'tool') return true;
  return pending.size > 0 && msg.role === 'user' && !isUserTurnStart(msg);
}
