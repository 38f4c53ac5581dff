/**
 * What an AG-UI `RunAgentInput` (as `@ag-ui/client`'s HttpAgent posts it) asks for, in the core's terms: the
 * thread's session (`threadId`: a session id, or a client-made thread id kept as the session's external id) and
 * the one action its newest messages stand for — a new user message, or the trailing `role: 'tool'` messages
 * that answer the client tool calls the waiting turn has pending. The client's history is never taken.
 */
import type { App } from '../../app.js';
import type { Viewer } from '../../domain/policy.js';
import { BadInput } from '../../store/errors.js';
import type { SessionRow } from '../../store/sessions.js';
import type { ClientToolDefinition } from '../../turns/service.js';
import { parseMessageId } from '../../schema/ids.js';
import { pendingClientCalls, runningTurn } from '../common.js';

interface AgUiMessage {
  id?: unknown;
  role?: unknown;
  content?: unknown;
  toolCallId?: unknown;
  error?: unknown;
}

export interface RunInput {
  threadId: string;
  runId: string;
  messages: AgUiMessage[];
  tools: ClientToolDefinition[];
}

export function parseRunInput(body: unknown): RunInput {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadInput('The body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (typeof b.threadId !== 'string' || b.threadId === '') throw new BadInput('threadId must be the thread id');
  if (typeof b.runId !== 'string' || b.runId === '') throw new BadInput('runId must be a string');
  if (!Array.isArray(b.messages) || b.messages.length === 0) throw new BadInput('messages must not be empty');
  b.messages.forEach((m, i) => {
    if (!m || typeof m !== 'object' || Array.isArray(m) || typeof (m as { role?: unknown }).role !== 'string')
      throw new BadInput(`messages[${i}] must be a message object with a role`);
  });
  if (b.tools != null && !Array.isArray(b.tools)) throw new BadInput('tools must be a list');
  const tools = ((b.tools ?? []) as Record<string, unknown>[]).map((t) => ({
    name: String(t?.name ?? ''),
    description: String(t?.description ?? ''),
    parameters: t?.parameters ?? { type: 'object', properties: {} },
  }));
  return { threadId: b.threadId, runId: b.runId, messages: b.messages as AgUiMessage[], tools };
}

/** Whether a client message id names a stored message of this session (the client got it from this server). */
function isStored(sessionId: string, id: unknown): boolean {
  if (typeof id !== 'string') return false;
  try {
    return parseMessageId(id).sessionId === sessionId;
  } catch {
    return false;
  }
}

/** A message's text: a string, or the text parts of a content list (other parts are refused). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new BadInput('A user message needs content');
  return content
    .map((p: { type?: unknown; text?: unknown }) => {
      if (p?.type !== 'text') throw new BadInput(`A ${String(p?.type)} part is not accepted here`);
      return typeof p.text === 'string' ? p.text : '';
    })
    .join('');
}

/**
 * Starts what the newest messages ask for, through the methods the GraphQL mutations call (sendMessage,
 * submitToolResult), and answers the turn to stream; `cursor` is set when only the events after it are new, and
 * `upTo` is the newest stored message the stream does not send (the history a MESSAGES_SNAPSHOT holds).
 */
export async function startRun(
  app: App,
  viewer: Viewer,
  session: SessionRow,
  input: RunInput,
  lastEventId: () => Promise<string>,
): Promise<{ turnId: string | null; cursor: string | null; upTo: number }> {
  const last = input.messages.at(-1)!;
  if (last.role === 'assistant' || (last.role === 'user' && isStored(session.id, last.id))) {
    // No new message: a reconnect. It follows the running turn from its beginning (the snapshot ends at the
    // turn's user message, so the client's partial answer is replaced by the whole one), else it gets nothing.
    const turn = await runningTurn(app, session.id);
    const newest = (await app.sessions.store.get(session.id))!.nextSequence - 1;
    return { turnId: turn?.turnId ?? null, cursor: null, upTo: turn?.userSequence ?? newest };
  }
  if (last.role === 'user') {
    const result = await app.turns.sendMessage(viewer, {
      sessionId: session.id,
      content: textOf(last.content),
      clientTools: input.tools.length > 0 ? input.tools : null,
      whileRunning: null,
      // The client's own message id: a retried run of the same message answers with the same turn.
      idempotencyKey: typeof last.id === 'string' && last.id.length <= 200 ? `ag-ui:${last.id}` : null,
    });
    // A queued message (no position yet): the history as it is now.
    const upTo = result.queued
      ? (await app.sessions.store.get(session.id))!.nextSequence - 1
      : result.userMessage.sequenceNumber;
    return { turnId: result.turn.id, cursor: null, upTo };
  }
  if (last.role !== 'tool') throw new BadInput('The newest message must be a user, a tool or an assistant message');
  const active = await app.turns.activeTurn(session.id);
  if (!active) throw new BadInput('No turn waits for tool results in this thread');
  const pending = pendingClientCalls(active);
  const trailing: AgUiMessage[] = [];
  for (let i = input.messages.length - 1; i >= 0 && input.messages[i]!.role === 'tool'; i--)
    trailing.unshift(input.messages[i]!);
  // One answer per pending call: a client that repeats a tool message has the first of them taken.
  const answers = trailing.filter(
    (m, i) =>
      pending.some((c) => c.id === m.toolCallId) && trailing.findIndex((o) => o.toolCallId === m.toolCallId) === i,
  );
  if (answers.length === 0) throw new BadInput('The messages answer no tool call this thread waits for');
  const cursor = await lastEventId();
  // The results are stored after this (by the turn): the snapshot ends before them, the stream sends them.
  const upTo = (await app.sessions.store.get(session.id))!.nextSequence - 1;
  for (const m of answers) {
    const isError = typeof m.error === 'string' && m.error !== '';
    await app.turns.submitToolResult(viewer, {
      turnId: active.id,
      toolCallId: m.toolCallId as string,
      content: isError ? (m.error as string) : typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
      isError,
    });
  }
  return { turnId: active.id, cursor, upTo };
}
