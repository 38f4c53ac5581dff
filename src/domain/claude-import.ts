/**
 * Claude (claude.ai) `conversations.json` → sessions. The export is an array
 * of conversations, each with its `chat_messages`; a message names its parent
 * (`parent_message_uuid`, the root's parent being the all-zero uuid) when the
 * conversation has edits or retries, so the messages form a tree: the path to
 * the current leaf is the active path and every other leaf's path a stored
 * branch, as the ChatGPT import keeps its mapping tree. Without parent links
 * the messages are one linear path in the export's order.
 *
 * A message's text is its `text` content blocks (or its `text` field);
 * thinking blocks become the message's thinking (shown, never sent); tool
 * use and tool results become short marked lines; attached files' extracted
 * text is appended to the message it was attached to.
 */
import { z } from 'zod';
import { ErrorCode } from './error-codes.js';
import { importedTitle, importTree, parseProblems } from './import-tree.js';
import type { ImportedConversation } from './chatgpt-import.js';
import { makeMessage, type ChatMessage, type Role } from './types.js';

export class ClaudeImportError extends Error {
  readonly code = ErrorCode.BAD_USER_INPUT;
  constructor(message: string) {
    super(message);
    this.name = 'ClaudeImportError';
  }
}

/** claude.ai's parent of a conversation's first message. */
export const CLAUDE_ROOT_PARENT = '00000000-0000-4000-8000-000000000000';
/** Longest tool input or result kept in a message's text. */
const TOOL_TEXT_MAX = 2000;

const ContentBlock = z
  .object({
    type: z.string(),
    text: z.string().nullish(),
    thinking: z.string().nullish(),
    name: z.string().nullish(),
    input: z.unknown().optional(),
    content: z.unknown().optional(),
    is_error: z.boolean().nullish(),
  })
  .passthrough();

const Attachment = z.object({
  file_name: z.string().nullish(),
  file_type: z.string().nullish(),
  file_size: z.number().nullish(),
  extracted_content: z.string().nullish(),
});

const ClaudeMessage = z.object({
  uuid: z.string().min(1),
  text: z.string().nullish(),
  content: z.array(ContentBlock).nullish(),
  sender: z.string(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  attachments: z.array(Attachment).nullish(),
  files: z.array(z.object({ file_name: z.string().nullish() }).passthrough()).nullish(),
  parent_message_uuid: z.string().nullish(),
});

const ClaudeConversation = z.object({
  uuid: z.string().min(1),
  name: z.string().nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  chat_messages: z.array(ClaudeMessage),
  current_leaf_message_uuid: z.string().nullish(),
});

export const ClaudeExport = z.array(ClaudeConversation);
type Conversation = z.infer<typeof ClaudeConversation>;
type Message = z.infer<typeof ClaudeMessage>;

const ROLES: Record<string, Role> = { human: 'user', assistant: 'assistant' };

/** Is this parsed JSON a Claude export (rather than ChatGPT's or ours)? */
export function looksLikeClaudeExport(value: unknown): boolean {
  const items = Array.isArray(value) ? value : [value];
  return (
    items.length > 0 &&
    items.some((c) => c !== null && typeof c === 'object' && 'chat_messages' in c) &&
    !items.some((c) => c !== null && typeof c === 'object' && 'mapping' in c)
  );
}

function date(value: string | null | undefined): Date | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

const cap = (text: string) =>
  text.length > TOOL_TEXT_MAX ? `${text.slice(0, TOOL_TEXT_MAX)}… [${text.length - TOOL_TEXT_MAX} chars cut]` : text;

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? p.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** The message's text and thinking, attachments appended. */
function messageText(m: Message): { text: string; thinking: string } {
  const parts: string[] = [];
  const thoughts: string[] = [];
  if (m.content && m.content.length > 0) {
    for (const b of m.content) {
      if (b.type === 'text' && b.text) parts.push(b.text);
      else if (b.type === 'thinking' && b.thinking) thoughts.push(b.thinking);
      else if (b.type === 'tool_use') {
        const input = b.input === undefined ? '' : ` ${cap(JSON.stringify(b.input))}`;
        parts.push(`[Tool call: ${b.name ?? 'tool'}]${input}`);
      } else if (b.type === 'tool_result') {
        const body = cap(resultText(b.content).trim());
        parts.push(
          `[Tool result${b.name ? `: ${b.name}` : ''}${b.is_error ? ' (error)' : ''}]${body ? `\n${body}` : ''}`,
        );
      }
      // other block types (voice notes, token budgets…) carry nothing to show
    }
  } else if (m.text) parts.push(m.text);
  const attached = new Set<string>();
  for (const a of m.attachments ?? []) {
    const name = a.file_name || 'file';
    attached.add(name);
    parts.push(
      a.extracted_content
        ? `[Attached file: ${name}]\n${a.extracted_content}`
        : `[Attached file: ${name} (its content is not in the export)]`,
    );
  }
  for (const f of m.files ?? []) {
    const name = f.file_name || 'file';
    if (!attached.has(name)) parts.push(`[Attached file: ${name} (its content is not in the export)]`);
  }
  return { text: parts.join('\n\n').trim(), thinking: thoughts.join('\n\n').trim() };
}

function toMessage(m: Message, fallbackTime: Date): ChatMessage | null {
  const role = Object.hasOwn(ROLES, m.sender) ? ROLES[m.sender] : undefined;
  if (!role) return null;
  const { text, thinking } = messageText(m);
  if (text === '') return null;
  const attachments = (m.attachments ?? []).map((a) => ({
    fileName: a.file_name ?? null,
    fileType: a.file_type ?? null,
    fileSize: a.file_size ?? null,
  }));
  return makeMessage({
    role,
    content: text,
    thinking: thinking || null,
    metadata: {
      source: 'claude',
      claudeMessageUuid: m.uuid,
      ...(attachments.length > 0 && { attachments }),
    },
    createdAt: date(m.created_at) ?? fallbackTime,
  });
}

function importConversation(conv: Conversation, index: number): ImportedConversation {
  const label = `conversation ${index}${conv.name ? ` ("${conv.name}")` : ''}`;
  const fail = (message: string): never => {
    throw new ClaudeImportError(`${label}: ${message}`);
  };
  const createdAt = date(conv.created_at) ?? new Date(0);
  const lastActive = date(conv.updated_at) ?? createdAt;
  const byId = new Map<string, Message>();
  for (const m of conv.chat_messages) {
    if (byId.has(m.uuid)) fail(`message ${m.uuid} appears twice`);
    byId.set(m.uuid, m);
  }
  const ids = conv.chat_messages.map((m) => m.uuid);
  const position = new Map(ids.map((id, i) => [id, i]));
  const linked = conv.chat_messages.some((m) => m.parent_message_uuid);
  // The root's parent is the all-zero uuid; without any parent links, each message follows the one before.
  const parentOf = (id: string): string | null => {
    if (!linked) {
      const i = position.get(id)!;
      return i > 0 ? ids[i - 1]! : null;
    }
    const p = byId.get(id)!.parent_message_uuid;
    return !p || p === CLAUDE_ROOT_PARENT ? null : p;
  };
  const parentIndex = new Map<string, string | null>(ids.map((id) => [id, parentOf(id)]));
  let current: string | null = null;
  if (conv.current_leaf_message_uuid) {
    if (!byId.has(conv.current_leaf_message_uuid)) {
      fail(`current_leaf_message_uuid ${conv.current_leaf_message_uuid} is not one of its messages`);
    }
    current = conv.current_leaf_message_uuid;
  } else if (ids.length > 0) {
    // the leaf written last is the one the conversation was left on
    const parents = new Set([...parentIndex.values()]);
    const leaves = ids.filter((id) => !parents.has(id));
    if (leaves.length === 0) fail('the parent links of its messages form a cycle');
    const time = (id: string) => date(byId.get(id)!.created_at)?.getTime() ?? 0;
    current = leaves.reduce<string | null>((best, id) => (best === null || time(id) >= time(best) ? id : best), null);
  }
  let messages: ChatMessage[] = [];
  let branches: ImportedConversation['branches'] = [];
  if (ids.length > 0) {
    ({ messages, branches } = importTree({
      ids,
      parentOf: (id) => parentIndex.get(id),
      current,
      convert: (id) => toMessage(byId.get(id)!, createdAt),
      fail,
    }));
  }
  const { title, titleSource } = importedTitle(conv.name, messages);
  return { sourceId: conv.uuid, title, titleSource, createdAt, lastActive, messages, branches };
}

/**
 * Parse a Claude export (the parsed value of `conversations.json`; one
 * conversation object is accepted too). Throws {@link ClaudeImportError}
 * with the first problems on malformed input.
 */
export function parseClaudeExport(input: unknown): ImportedConversation[] {
  const data = input && typeof input === 'object' && !Array.isArray(input) ? [input] : input;
  const result = ClaudeExport.safeParse(data);
  if (!result.success) {
    throw new ClaudeImportError(`Not a Claude conversations.json export: ${parseProblems(result.error)}`);
  }
  return result.data.map((conv, i) => importConversation(conv, i));
}
