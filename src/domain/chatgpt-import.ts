/**
 * ChatGPT `conversations.json` → sessions. Each conversation is a tree of
 * nodes (`mapping`); the path root → `current_node` becomes the active path and
 * every other leaf's path a stored branch (edited prompts, regenerated replies).
 */
import { z } from 'zod';
import type { TitleSource } from './titles.js';
import { importedTitle, importTree, parseProblems } from './import-tree.js';
import type { StoredBranch } from './tree.js';
import { makeMessage, type ChatMessage, type Role } from './types.js';
import { ErrorCode } from './error-codes.js';

export class ChatGptImportError extends Error {
  readonly code = ErrorCode.BAD_USER_INPUT;
  constructor(message: string) {
    super(message);
    this.name = 'ChatGptImportError';
  }
}

const ChatGptMessage = z.object({
  id: z.string().optional(),
  author: z.object({ role: z.string(), name: z.string().nullish() }),
  content: z
    .object({
      content_type: z.string(),
      parts: z.array(z.unknown()).nullish(),
      text: z.string().nullish(),
      language: z.string().nullish(),
    })
    .nullish(),
  create_time: z.number().nullish(),
  recipient: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

const ChatGptNode = z.object({
  id: z.string(),
  parent: z.string().nullish(),
  children: z.array(z.string()).nullish(),
  message: ChatGptMessage.nullish(),
});

const ChatGptConversation = z.object({
  title: z.string().nullish(),
  create_time: z.number().nullish(),
  update_time: z.number().nullish(),
  mapping: z.record(z.string(), ChatGptNode),
  current_node: z.string().nullish(),
  id: z.string().nullish(),
  conversation_id: z.string().nullish(),
});

export const ChatGptExport = z.array(ChatGptConversation);
type Conversation = z.infer<typeof ChatGptConversation>;
type Node = z.infer<typeof ChatGptNode>;

export interface ImportedConversation {
  sourceId: string | null;
  title: string | null;
  titleSource: TitleSource;
  createdAt: Date;
  lastActive: Date;
  /** the active path, sequenceNumber 0.. */
  messages: ChatMessage[];
  branches: StoredBranch[];
}

const ROLES: Record<string, Role> = { user: 'user', assistant: 'assistant', tool: 'tool' };

function fromEpoch(seconds: number | null | undefined): Date | null {
  return typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(Math.round(seconds * 1000)) : null;
}

/** What a malformed value is, for an error message (never its content). */
const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);

/**
 * Readable text of a node's content; '' when there is nothing to show. A part that is neither a string nor an object
 * with a `content_type` (an image pointer, an audio transcript…) is malformed: ChatGptImportError naming its path
 * (`where`), so the import creates nothing.
 */
function contentText(
  content: NonNullable<z.infer<typeof ChatGptMessage>['content']>,
  where: string,
): {
  text: string;
  images: number;
} {
  let images = 0;
  switch (content.content_type) {
    case 'text':
    case 'multimodal_text': {
      const parts: string[] = [];
      for (const [i, p] of (content.parts ?? []).entries()) {
        if (typeof p === 'string') parts.push(p);
        else if (!p || typeof p !== 'object' || typeof (p as { content_type?: unknown }).content_type !== 'string') {
          throw new ChatGptImportError(
            `${where}.parts[${i}]: a part must be a string or an object with a content_type, not ${kindOf(p)}`,
          );
        } else if (
          p &&
          typeof p === 'object' &&
          (p as { content_type?: unknown }).content_type === 'image_asset_pointer'
        ) {
          images++;
          parts.push('[image]');
        }
      }
      return { text: parts.join('\n').trim(), images };
    }
    case 'code': {
      const code = (content.text ?? '').trim();
      return {
        text: code
          ? '```' + (content.language && content.language !== 'unknown' ? content.language : '') + '\n' + code + '\n```'
          : '',
        images,
      };
    }
    case 'execution_output':
      return { text: (content.text ?? '').trim(), images };
    default:
      // user_editable_context (custom instructions), thoughts, reasoning_recap, browsing displays…
      return { text: '', images };
  }
}

/** The ChatMessage for a node, or null for system, hidden and empty nodes. */
function toMessage(node: Node, fallbackTime: Date, label: string): ChatMessage | null {
  const msg = node.message;
  if (!msg || !msg.content) return null;
  const role = Object.hasOwn(ROLES, msg.author.role) ? ROLES[msg.author.role] : undefined;
  if (!role) return null;
  const meta = msg.metadata ?? {};
  if (meta.is_visually_hidden_from_conversation === true) return null;
  const { text } = contentText(msg.content, `${label}: mapping[${JSON.stringify(node.id)}].message.content`);
  if (text === '') return null;
  return makeMessage({
    role,
    content: text,
    name: role === 'tool' ? (msg.author.name ?? null) : null,
    // an imported tool output has no tool call a provider would accept: shown, not sent
    isContext: role !== 'tool',
    metadata: {
      source: 'chatgpt',
      chatgptNodeId: node.id,
      ...(typeof meta.model_slug === 'string' ? { model: meta.model_slug } : {}),
    },
    createdAt: fromEpoch(msg.create_time) ?? fallbackTime,
  });
}

function importConversation(conv: Conversation, index: number): ImportedConversation {
  const label = `conversation ${index}${conv.title ? ` ("${conv.title}")` : ''}`;
  const ids = Object.keys(conv.mapping);
  if (ids.length === 0) throw new ChatGptImportError(`${label}: mapping is empty`);
  const createdAt = fromEpoch(conv.create_time) ?? new Date(0);
  const lastActive = fromEpoch(conv.update_time) ?? createdAt;
  const current = conv.current_node ?? null;
  if (current != null && !conv.mapping[current]) {
    throw new ChatGptImportError(`${label}: current_node ${current} is not in mapping`);
  }
  // children lists are authoritative for order; parent links fill in the rest
  const { messages, branches } = importTree({
    ids,
    parentOf: (id) => conv.mapping[id]!.parent,
    childrenOf: (id) => conv.mapping[id]!.children ?? [],
    current,
    convert: (id) => toMessage(conv.mapping[id]!, createdAt, label),
    fail: (message) => {
      throw new ChatGptImportError(`${label}: ${message}`);
    },
  });

  const { title, titleSource } = importedTitle(conv.title, messages);
  return {
    sourceId: conv.conversation_id ?? conv.id ?? null,
    title,
    titleSource,
    createdAt,
    lastActive,
    messages,
    branches,
  };
}

/**
 * Parse a ChatGPT export (the text of `conversations.json`, or its parsed
 * value; one conversation object is accepted too). Throws
 * {@link ChatGptImportError} with the first problems on malformed input.
 */
export function parseChatGptExport(input: unknown): ImportedConversation[] {
  let data = input;
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input);
    } catch (e) {
      throw new ChatGptImportError(`ChatGPT export is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (data && typeof data === 'object' && !Array.isArray(data)) data = [data];
  const result = ChatGptExport.safeParse(data);
  if (!result.success) {
    throw new ChatGptImportError(`Not a ChatGPT conversations.json export: ${parseProblems(result.error)}`);
  }
  return result.data.map((conv, i) => importConversation(conv, i));
}
