/**
 * A turn that ends while tool calls are open (cancel, shutdown, an error, a
 * crash found by recovery) stores a result for each of them saying so, so the
 * stored history keeps every call answered. The provider adapters repair the
 * request as well (src/llm/pairing.ts), for histories this could not reach.
 */
import type { ChatMessage, NewMessage, ToolCall } from '../domain/types.js';

export const TOOL_RESULT_CANCELLED = 'Tool call cancelled: the turn was cancelled before a result arrived';
export const TOOL_RESULT_SERVER_STOPPED = 'Tool call cancelled: the server stopped before a result arrived';
export const TOOL_RESULT_FAILED = 'Tool call failed: the turn ended with an error before a result arrived';

/** One stored tool result per open call, marked as an error the service wrote, not the tool. */
export function closingToolResults(calls: readonly ToolCall[], content: string, reason: string): NewMessage[] {
  return calls.map((call) => ({
    role: 'tool',
    content,
    toolCallId: call.id,
    name: call.name,
    metadata: { isError: true, toolCallClosed: reason },
  }));
}

/**
 * The calls of the last assistant message in `rows` (context order) that no
 * later tool row answers. A turn's open calls can only be on its last model
 * answer: each answer's tools run before the next call is made.
 */
export function openToolCalls(rows: readonly Pick<ChatMessage, 'role' | 'toolCalls' | 'toolCallId'>[]): ToolCall[] {
  let last = -1;
  for (let i = rows.length - 1; i >= 0; i--) {
    if (rows[i]!.role === 'assistant') {
      last = i;
      break;
    }
  }
  if (last < 0) return [];
  const answered = new Set(
    rows
      .slice(last + 1)
      .filter((r) => r.role === 'tool')
      .map((r) => r.toolCallId),
  );
  return rows[last]!.toolCalls.filter((c) => !answered.has(c.id));
}
