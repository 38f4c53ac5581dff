/**
 * One turn's session events (the durable log GraphQL subscriptions read) as
 * the AI SDK's UI message stream chunks: `start` with the UI message id, text
 * and reasoning parts, tool parts, `finish` with the usage, or an `error`.
 * Pure: the route feeds it events and writes what it returns.
 */
import { messageGlobalId } from '../../domain/message-ids.js';
import type { SessionEvent } from '../../events/types.js';

/** A UI message stream chunk (the `ai` package's `UIMessageChunk`, the members this server sends). */
export type UIChunk = Record<string, unknown> & { type: string };

/**
 * The id of the UI message that shows a turn's answer: the Message id (as GraphQL returns it) of the first message
 * the turn stores, which takes the turn's id (src/store/sessions.ts `append`). The same in the first POST, in the
 * continuation after client tool results and in a resume; `regenerate-message` takes it back.
 */
export function answerMessageId(sessionId: string, turnId: string): string {
  return messageGlobalId({ sessionId, messageId: turnId });
}

/** What the stream needs to know of the turn it follows. */
export interface TurnTarget {
  sessionId: string;
  turnId: string;
  /** the user message the turn answers; null while the turn waits in the queue (known at its TurnStarted) */
  userSequence: number | null;
}

/**
 * Translates the events of one turn. `push` answers the chunks an event becomes and whether the stream is over:
 * the turn ended or failed, or every client tool call it waits for has been sent (the client answers them with a
 * new POST, `trigger: 'submit-message'`).
 */
export class TurnChunks {
  private started = false;
  private open: { kind: 'text' | 'reasoning'; id: string } | null = null;
  private parts = 0;
  /** client tool calls the turn waits for that the client has not been sent yet */
  private awaiting: Set<string> | null = null;
  private readonly toolNames = new Map<string, { name: string; client: boolean }>();

  constructor(private readonly target: TurnTarget) {}

  /** The `start` chunk, once the answer's id is known (from the turn row, or at its TurnStarted). */
  start(): UIChunk[] {
    if (this.started || this.target.userSequence === null) return [];
    this.started = true;
    return [{ type: 'start', messageId: answerMessageId(this.target.sessionId, this.target.turnId) }];
  }

  /** The client tool calls the turn waits for (from the turn row): the stream ends once all of them are sent. */
  waitFor(ids: Iterable<string>) {
    this.awaiting = new Set(ids);
  }

  get waitsForClient(): boolean {
    return this.awaiting !== null;
  }

  push(event: SessionEvent): { chunks: UIChunk[]; done: boolean } {
    const out: UIChunk[] = [];
    const turnId = this.target.turnId;
    switch (event.type) {
      case 'TurnStarted':
        if (event.turn.id !== turnId) break;
        this.target.userSequence ??= event.userMessage.sequenceNumber;
        out.push(...this.start());
        break;
      case 'TextDelta':
      case 'ThinkingDelta': {
        if (event.turnId !== turnId || event.text === '') break;
        out.push(...this.start());
        const kind = event.type === 'TextDelta' ? 'text' : 'reasoning';
        if (this.open?.kind !== kind) {
          out.push(...this.close());
          this.open = { kind, id: `${turnId}:${this.parts++}` };
          out.push({ type: `${kind}-start`, id: this.open.id });
        }
        out.push({ type: `${kind}-delta`, id: this.open.id, delta: event.text });
        break;
      }
      case 'ToolCallRequested': {
        if (event.turnId !== turnId) break;
        out.push(...this.start(), ...this.close());
        const { id, name, arguments: input } = event.toolCall;
        this.toolNames.set(id, { name, client: event.clientSide });
        out.push({ type: 'tool-input-start', toolCallId: id, toolName: name, providerExecuted: !event.clientSide });
        out.push({
          type: 'tool-input-available',
          toolCallId: id,
          toolName: name,
          input: input ?? {},
          providerExecuted: !event.clientSide,
        });
        if (this.awaiting?.delete(id) && this.awaiting.size === 0) {
          out.push({ type: 'finish', finishReason: 'tool-calls' });
          return { chunks: out, done: true };
        }
        break;
      }
      case 'MessageSaved': {
        const m = event.message;
        if (event.turnId !== turnId || m.role !== 'tool' || !m.toolCallId) break;
        const tool = this.toolNames.get(m.toolCallId);
        if (!tool) break;
        out.push(...this.start(), ...this.close());
        const isError = (m.metadata as { isError?: unknown } | null)?.isError === true;
        const providerExecuted = !tool.client;
        out.push(
          isError
            ? { type: 'tool-output-error', toolCallId: m.toolCallId, errorText: m.content, providerExecuted }
            : {
                type: 'tool-output-available',
                toolCallId: m.toolCallId,
                output: outputOf(m.content),
                providerExecuted,
              },
        );
        break;
      }
      case 'TurnEnded': {
        if (event.turn.id !== turnId) break;
        out.push(...this.start(), ...this.close());
        const cancelled = event.turn.status === 'CANCELLED';
        out.push({
          type: 'finish',
          finishReason: cancelled ? 'other' : 'stop',
          messageMetadata: { usage: event.usage, status: event.turn.status },
        });
        return { chunks: out, done: true };
      }
      case 'TurnFailed': {
        if (event.turn.id !== turnId) break;
        out.push(...this.start(), ...this.close());
        out.push({ type: 'error', errorText: `${event.code}: ${event.message}` });
        return { chunks: out, done: true };
      }
      default:
        break;
    }
    return { chunks: out, done: false };
  }

  /** The end of a turn whose end event the log no longer holds: `finish` with its stored status (no usage). */
  ended(status: string): UIChunk[] {
    return [...this.start(), ...this.close(), { type: 'finish', finishReason: 'stop', messageMetadata: { status } }];
  }

  /** Ends the open text or reasoning part. */
  private close(): UIChunk[] {
    if (!this.open) return [];
    const { kind, id } = this.open;
    this.open = null;
    return [{ type: `${kind}-end`, id }];
  }
}

/** A tool result as the tool part's output: the JSON it holds, or its text. */
function outputOf(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}
