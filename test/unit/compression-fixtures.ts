/** Message builders for the compression/tokens unit tests. */
import type { ChatMessage, NewMessage } from '../../src/domain/types.js';
import { makeMessage } from '../../src/domain/types.js';
import { messageChars } from '../../src/domain/tokens.js';

let seq = 0;

type Extra = Partial<NewMessage>;

function msg(role: ChatMessage['role'], content: string, extra: Extra = {}): ChatMessage {
  seq += 1;
  return makeMessage({ role, content, ...extra, sequenceNumber: seq, createdAt: new Date(0) });
}

export const user = (content: string, extra?: Extra) => msg('user', content, extra);
export const note = (content: string, extra?: Extra) => msg('user', content, { isAgentNote: true, ...extra });
export const summary = (content: string, extra?: Extra) =>
  msg('user', content, { isSummary: true, isDisplay: false, ...extra });
export const assistant = (content: string, extra?: Extra) => msg('assistant', content, extra);
export const system = (content: string, extra?: Extra) => msg('system', content, extra);

export function call(id: string, name = 'shell', args: Record<string, unknown> = { cmd: 'ls' }, extra?: Extra) {
  return msg('assistant', '', { toolCalls: [{ id, name, arguments: args }], ...extra });
}

export function calls(ids: string[], name = 'shell', extra?: Extra) {
  return msg('assistant', '', { toolCalls: ids.map((id) => ({ id, name, arguments: { cmd: id } })), ...extra });
}

export const result = (id: string, content: string, extra?: Extra) =>
  msg('tool', content, { toolCallId: id, ...extra });

/** One token per char: keeps test arithmetic obvious. */
export const charTokens = (messages: readonly ChatMessage[]) => messages.reduce((n, m) => n + messageChars(m), 0);

export const x = (n: number, ch = 'x') => ch.repeat(n);

/** Deep snapshot for "inputs were not mutated" checks. */
export const snapshot = (messages: readonly ChatMessage[]) => JSON.parse(JSON.stringify(messages));
