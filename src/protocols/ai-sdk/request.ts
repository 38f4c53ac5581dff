/**
 * What a `DefaultChatTransport` request asks for, in the core's terms: the
 * chat's session (a session id, or a client-made chat id kept as the
 * session's external id) and the one action its newest message stands for.
 * Every write goes through the service methods the GraphQL mutations call.
 */
import type { App } from '../../app.js';
import type { Viewer } from '../../domain/policy.js';
import { parseMessageId } from '../../schema/ids.js';
import type { MessageIdRef } from '../../domain/message-ids.js';
import { BadInput } from '../../store/errors.js';
import type { SessionRow } from '../../store/sessions.js';
import type { ClientToolDefinition, WhileRunning } from '../../turns/service.js';
import { pendingClientCalls } from '../common.js';
import type { TurnTarget } from './chunks.js';

/** A UI message part as the client sends it (only the fields read here). */
interface UIPart {
  type: string;
  text?: unknown;
  toolCallId?: unknown;
  state?: unknown;
  output?: unknown;
  errorText?: unknown;
}

interface UIMessage {
  id?: unknown;
  role?: unknown;
  parts?: unknown;
}

/** The body `DefaultChatTransport` posts, plus the optional fields this server reads. */
export interface ChatRequest {
  id: string;
  messages: UIMessage[];
  trigger: 'submit-message' | 'regenerate-message';
  messageId: string | null;
  /** tools the client runs (name, description, JSON Schema parameters), as sendMessage's clientTools */
  clientTools: ClientToolDefinition[] | null;
  whileRunning: WhileRunning | null;
}

export function parseChatRequest(body: unknown): ChatRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadInput('The body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (typeof b.id !== 'string' || b.id === '') throw new BadInput('id must be the chat id');
  if (!Array.isArray(b.messages) || b.messages.length === 0) throw new BadInput('messages must not be empty');
  const trigger = b.trigger ?? 'submit-message';
  if (trigger !== 'submit-message' && trigger !== 'regenerate-message')
    throw new BadInput('trigger must be submit-message or regenerate-message');
  if (b.messageId != null && typeof b.messageId !== 'string') throw new BadInput('messageId must be a string');
  if (b.clientTools != null && !Array.isArray(b.clientTools)) throw new BadInput('clientTools must be a list');
  if (b.whileRunning != null && typeof b.whileRunning !== 'string') throw new BadInput('whileRunning must be a string');
  return {
    id: b.id,
    messages: b.messages as UIMessage[],
    trigger,
    messageId: (b.messageId as string | undefined) ?? null,
    clientTools: (b.clientTools as ClientToolDefinition[] | undefined) ?? null,
    whileRunning: (b.whileRunning as WhileRunning | undefined) ?? null,
  };
}

const textOf = (parts: UIPart[]) => {
  const other = parts.find((p) => p.type !== 'text' && p.type !== 'step-start' && !p.type.startsWith('data-'));
  if (other) throw new BadInput(`A ${other.type} part is not accepted here: send files through GraphQL sendMessage`);
  return parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
};

const partsOf = (message: UIMessage): UIPart[] =>
  Array.isArray(message.parts) ? (message.parts as UIPart[]).filter((p) => p && typeof p.type === 'string') : [];

/** A client tool result as submitToolResult takes it: text stays text, anything else its JSON. */
const resultText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? null));

/**
 * Starts what the newest message asks for, through the methods the GraphQL mutations call (sendMessage,
 * regenerate, submitToolResult), and answers the turn to stream. `cursor` is set when only the events after it
 * are new to the client (the continuation after tool results); otherwise the whole turn is sent.
 */
export async function startChatAction(
  app: App,
  viewer: Viewer,
  session: SessionRow,
  request: ChatRequest,
  lastEventId: () => Promise<string>,
): Promise<{ target: TurnTarget; cursor: string | null }> {
  const sessionId = session.id;
  if (request.trigger === 'regenerate-message') {
    let target: MessageIdRef;
    if (request.messageId) {
      target = parseMessageId(request.messageId);
      if (target.sessionId !== sessionId) throw new BadInput('messageId names a message of another chat');
    } else {
      // No id: the newest message of the chat, by its id (a position would be refused as stale).
      const newest = await app.sessions.store.message(sessionId, session.nextSequence - 1);
      if (!newest) throw new BadInput('This chat has no message to regenerate');
      target = { sessionId, messageId: newest.messageId };
    }
    const started = await app.editing.regenerate(viewer, target);
    return {
      target: { sessionId, turnId: started.turn.id, userSequence: started.userMessage.sequenceNumber },
      cursor: null,
    };
  }
  const last = request.messages.at(-1)!;
  const parts = partsOf(last);
  if (last.role === 'user') {
    if (request.messageId)
      throw new BadInput('Editing a message is not supported on /api/chat: use the editMessage mutation');
    const result = await app.turns.sendMessage(viewer, {
      sessionId,
      content: textOf(parts),
      clientTools: request.clientTools,
      whileRunning: request.whileRunning,
      // The client's own message id: a retried POST of the same message answers with the same turn.
      idempotencyKey: typeof last.id === 'string' && last.id.length <= 200 ? `ai-sdk:${last.id}` : null,
    });
    return {
      target: {
        sessionId,
        turnId: result.turn.id,
        userSequence: result.queued ? null : result.userMessage.sequenceNumber,
      },
      cursor: null,
    };
  }
  if (last.role !== 'assistant') throw new BadInput('The newest message must be a user or an assistant message');
  // Client tool results: the assistant message's tool parts that answer calls the waiting turn has pending.
  const active = await app.turns.activeTurn(sessionId);
  if (!active) throw new BadInput('No turn waits for tool results in this chat');
  const pending = pendingClientCalls(active);
  const answers = parts.filter(
    (p) => (p.state === 'output-available' || p.state === 'output-error') && pending.some((c) => c.id === p.toolCallId),
  );
  if (answers.length === 0) throw new BadInput('The message answers no tool call this chat waits for');
  const cursor = await lastEventId();
  for (const part of answers) {
    const isError = part.state === 'output-error';
    await app.turns.submitToolResult(viewer, {
      turnId: active.id,
      toolCallId: part.toolCallId as string,
      content: isError ? resultText(part.errorText) : resultText(part.output),
      isError,
    });
  }
  return { target: { sessionId, turnId: active.id, userSequence: active.userSequence }, cursor };
}
