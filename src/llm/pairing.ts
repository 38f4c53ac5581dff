/**
 * Tool-call pairing, applied to every request any provider is sent. OpenAI
 * and Anthropic reject (HTTP 400) an assistant tool call that the very next
 * messages do not answer, and a tool result that answers no preceding call;
 * one such hole in a stored history would fail every later turn of the
 * session. The store can hold one: a crash during a tool wait that recovery
 * did not repair, a history edit or a compression that cut a call from its
 * result, a note recorded while a tool ran. So the request is repaired here,
 * on the way out, and the stored history is left as it is:
 *   - an assistant message's results are moved right after it (from anywhere
 *     before the next assistant message), in the order they were stored;
 *   - a call with no result gets a synthetic one saying so;
 *   - a result answering no call becomes a plain user note, so its text is
 *     not lost and no provider sees an unanswered result.
 */
import type { LlmMessage } from './types.js';

export const MISSING_TOOL_RESULT =
  'Tool call cancelled: no result was recorded for this call ' +
  '(the turn was cancelled or interrupted before it arrived).';

export function orphanToolResultNote(m: LlmMessage): string {
  return (
    `[Result of an earlier tool call${m.name ? ` (${m.name})` : ''}` +
    ` whose request is no longer in the conversation]\n${m.content}`
  );
}

export function pairToolCalls(messages: readonly LlmMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  const used = new Set<number>();
  for (let i = 0; i < messages.length; i++) {
    if (used.has(i)) continue;
    const m = messages[i]!;
    if (m.role === 'tool') {
      out.push({ role: 'user', content: orphanToolResultNote(m) });
      continue;
    }
    out.push(m);
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    const open = new Map(m.toolCalls.map((c) => [c.id, c]));
    // This call's results: tool messages up to the next assistant message.
    for (let j = i + 1; j < messages.length && open.size > 0; j++) {
      const next = messages[j]!;
      if (next.role === 'assistant') break;
      if (next.role !== 'tool' || used.has(j)) continue;
      // A result without an id (older imports) answers the first open call.
      const id =
        next.toolCallId && open.has(next.toolCallId)
          ? next.toolCallId
          : !next.toolCallId
            ? open.keys().next().value
            : undefined;
      if (id === undefined) continue;
      open.delete(id);
      used.add(j);
      out.push(next.toolCallId === id ? next : { ...next, toolCallId: id });
    }
    for (const call of open.values()) {
      out.push({ role: 'tool', toolCallId: call.id, name: call.name, content: MISSING_TOOL_RESULT });
    }
  }
  return out;
}
