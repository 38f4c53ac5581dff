/**
 * One turn's session events (the durable log GraphQL subscriptions read) as AG-UI events: TEXT_MESSAGE_*, the
 * REASONING_* span for thinking, TOOL_CALL_START/ARGS/END for every tool call and TOOL_CALL_RESULT for a server
 * tool's result, each message, span and call closed before RUN_FINISHED (usage; the client calls it waits for) or
 * RUN_ERROR. Every id is the stored message's (messages.ts): an answer is named before it is stored, by the rule
 * the core stores it with (the turn's id, then followingAnswerId of the first tool result it follows). Pure: the
 * route feeds it events and writes what it returns.
 */
import { followingAnswerId } from '../../domain/message-ids.js';
import type { SessionEvent } from '../../events/types.js';
import type { TurnTranslator } from '../common.js';
import { agUiMessageId, reasoningId } from './messages.js';

/** An AG-UI event (`@ag-ui/core`'s BaseEvent members this server sends). */
export type AgUiEvent = Record<string, unknown> & { type: string };

interface Usage {
  promptTokens?: number;
  completionTokens?: number;
}

/** The turn's usage as AG-UI's TokenUsage list (one entry: the session's model). */
function usageOf(usage: Usage | undefined) {
  if (!usage) return undefined;
  const input = usage.promptTokens ?? 0;
  const output = usage.completionTokens ?? 0;
  return [{ inputTokens: input, outputTokens: output, totalTokens: input + output }];
}

export class TurnEvents implements TurnTranslator<AgUiEvent> {
  private open: { kind: 'text' | 'reasoning'; id: string } | null = null;
  private awaiting: Set<string> | null = null;
  private pending: string[] = [];
  /** the stored id of the answer the text streams into */
  private answer: string;
  /** whether a tool result came since the last stored answer (the first one names the next answer) */
  private resultSeen = false;

  constructor(
    private readonly turnId: string,
    private readonly run: { threadId: string; runId: string },
    private readonly sessionId: string,
  ) {
    this.answer = agUiMessageId(sessionId, turnId);
  }

  runStarted(): AgUiEvent {
    return { type: 'RUN_STARTED', ...this.run };
  }

  runError(code: string, message: string): AgUiEvent[] {
    return [...this.close(), { type: 'RUN_ERROR', message, code }];
  }

  waitFor(ids: Iterable<string>) {
    this.awaiting = new Set(ids);
    this.pending = [...this.awaiting];
  }

  get waitsForClient(): boolean {
    return this.awaiting !== null;
  }

  push(event: SessionEvent): { chunks: AgUiEvent[]; done: boolean } {
    const out: AgUiEvent[] = [];
    switch (event.type) {
      case 'TextDelta':
      case 'ThinkingDelta': {
        if (event.turnId !== this.turnId || event.text === '') break;
        const kind = event.type === 'TextDelta' ? 'text' : 'reasoning';
        if (this.open?.kind !== kind) {
          out.push(...this.close());
          const messageId = kind === 'text' ? this.answer : reasoningId(this.answer);
          this.open = { kind, id: messageId };
          if (kind === 'text') out.push({ type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' });
          else
            out.push(
              { type: 'REASONING_START', messageId },
              { type: 'REASONING_MESSAGE_START', messageId, role: 'reasoning' },
            );
        }
        const type = kind === 'text' ? 'TEXT_MESSAGE_CONTENT' : 'REASONING_MESSAGE_CONTENT';
        out.push({ type, messageId: this.open.id, delta: event.text });
        break;
      }
      case 'ToolCallRequested': {
        if (event.turnId !== this.turnId) break;
        out.push(...this.close());
        const { id, name, arguments: input } = event.toolCall;
        out.push(
          { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: name, parentMessageId: this.answer },
          { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: JSON.stringify(input ?? {}) },
          { type: 'TOOL_CALL_END', toolCallId: id },
        );
        if (this.awaiting?.delete(id) && this.awaiting.size === 0) {
          out.push(this.finished(undefined, this.pending));
          return { chunks: out, done: true };
        }
        break;
      }
      case 'MessageSaved': {
        const m = event.message;
        if (event.turnId !== this.turnId) break;
        if (m.role === 'assistant') this.resultSeen = false;
        if (m.role !== 'tool' || !m.toolCallId) break;
        if (!this.resultSeen) {
          this.resultSeen = true;
          this.answer = agUiMessageId(this.sessionId, followingAnswerId(this.turnId, m.toolCallId));
        }
        // Every result, the client's too: a run that continues after the client's tool messages replaced them with
        // the stored ones (MESSAGES_SNAPSHOT leaves the client's own out).
        out.push(...this.close());
        out.push({
          type: 'TOOL_CALL_RESULT',
          messageId: agUiMessageId(this.sessionId, m.messageId),
          toolCallId: m.toolCallId,
          content: m.content,
          role: 'tool',
        });
        break;
      }
      case 'TurnEnded':
        if (event.turn.id !== this.turnId) break;
        out.push(...this.close(), this.finished(event.usage as Usage, []));
        return { chunks: out, done: true };
      case 'TurnFailed':
        if (event.turn.id !== this.turnId) break;
        out.push(...this.runError(event.code, event.message));
        return { chunks: out, done: true };
      default:
        break;
    }
    return { chunks: out, done: false };
  }

  ended(_status: string): AgUiEvent[] {
    return [...this.close(), this.finished(undefined, [])];
  }

  private finished(usage: Usage | undefined, pending: string[]): AgUiEvent {
    const tokens = usageOf(usage);
    return {
      type: 'RUN_FINISHED',
      ...this.run,
      ...(tokens ? { usage: tokens } : {}),
      ...(pending.length > 0 ? { outcome: { type: 'success', pendingToolCallIds: pending } } : {}),
    };
  }

  private close(): AgUiEvent[] {
    if (!this.open) return [];
    const { kind, id: messageId } = this.open;
    this.open = null;
    return kind === 'text'
      ? [{ type: 'TEXT_MESSAGE_END', messageId }]
      : [
          { type: 'REASONING_MESSAGE_END', messageId },
          { type: 'REASONING_END', messageId },
        ];
  }
}
