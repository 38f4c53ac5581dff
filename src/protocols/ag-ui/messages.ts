/**
 * The stored history as AG-UI messages, for the MESSAGES_SNAPSHOT a run sends right after RUN_STARTED when the
 * client's messages differ from it. The ids are the ones the streamed events carry: a message's id as GraphQL
 * returns it (`Message.id`), and for the thinking of an answer `<that id>:reasoning` (AG-UI keeps reasoning as a
 * message of its own). The stream names an answer before it is stored: the first message a turn stores takes the
 * turn's id, a later answer of the tool loop followingAnswerId (src/domain/message-ids.ts).
 */
import type { App } from '../../app.js';
import { messageGlobalId } from '../../domain/message-ids.js';
import type { StoredMessage } from '../../store/rows.js';

/** An AG-UI message (`@ag-ui/core`'s Message: the roles this server stores). */
export interface AgUiMessage {
  id: string;
  role: 'user' | 'assistant' | 'tool' | 'reasoning';
  content?: string;
  toolCallId?: string;
  toolCalls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
}

/** The AG-UI id of a stored message (its GraphQL id) and of its thinking. */
export const agUiMessageId = (sessionId: string, messageId: string) => messageGlobalId({ sessionId, messageId });
export const reasoningId = (answerId: string) => `${answerId}:reasoning`;

export function agUiMessages(messages: StoredMessage[]): AgUiMessage[] {
  const out: AgUiMessage[] = [];
  for (const m of messages) {
    const id = agUiMessageId(m.sessionId, m.messageId);
    if (m.role === 'user') out.push({ id, role: 'user', content: m.content });
    else if (m.role === 'tool' && m.toolCallId)
      out.push({ id, role: 'tool', toolCallId: m.toolCallId, content: m.content });
    else if (m.role === 'assistant') {
      if (m.thinking) out.push({ id: reasoningId(id), role: 'reasoning', content: m.thinking });
      const toolCalls = m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function' as const,
        function: { name: c.name, arguments: JSON.stringify(c.arguments ?? {}) },
      }));
      if (m.content === '' && toolCalls.length === 0) continue;
      out.push({
        id,
        role: 'assistant',
        ...(m.content !== '' && { content: m.content }),
        ...(toolCalls.length > 0 && { toolCalls }),
      });
    }
  }
  return out;
}

/** The session's display history up to sequence `upTo` (what the run's stream does not send) as AG-UI messages. */
export async function storedMessages(app: App, sessionId: string, upTo: number): Promise<AgUiMessage[]> {
  const session = await app.sessions.store.get(sessionId);
  if (!session) return [];
  const rows = await app.store.displayRange(sessionId, 0, session.displayCount);
  return agUiMessages(rows.filter((m) => m.sequenceNumber <= upTo));
}

/** What a client message is compared by: id, role, text, the tool call it answers and the calls it makes. */
function shape(m: unknown): string {
  const r = (m ?? {}) as Record<string, unknown>;
  const calls = Array.isArray(r.toolCalls) ? r.toolCalls.map((c: { id?: unknown }) => c?.id) : [];
  const content = typeof r.content === 'string' && r.content !== '' ? r.content : null;
  return JSON.stringify([r.id, r.role, content, r.toolCallId ?? null, calls]);
}

/** Whether the client's messages differ from the stored ones (reasoning messages are the client's to keep). */
export function differs(client: unknown[], stored: AgUiMessage[]): boolean {
  const theirs = client.filter((m) => (m as { role?: unknown })?.role !== 'reasoning').map(shape);
  const ours = stored.filter((m) => m.role !== 'reasoning').map(shape);
  return theirs.length !== ours.length || theirs.some((s, i) => s !== ours[i]);
}
