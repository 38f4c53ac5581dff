/**
 * ChatGPT `conversations.json` → sessions. Each conversation is a tree of
 * nodes (`mapping`); the path root → `current_node` becomes the active path and
 * every other leaf's path a stored branch (edited prompts, regenerated replies).
 */
import { z } from 'zod';
import { heuristicTitle, type TitleSource } from './titles.js';
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

/** Readable text of a node's content; '' when there is nothing to show. */
function contentText(content: NonNullable<z.infer<typeof ChatGptMessage>['content']>): {
  text: string;
  images: number;
} {
  let images = 0;
  switch (content.content_type) {
    case 'text':
    case 'multimodal_text': {
      const parts: string[] = [];
      for (const p of content.parts ?? []) {
        if (typeof p === 'string') parts.push(p);
        else if (
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
function toMessage(node: Node, fallbackTime: Date): ChatMessage | null {
  const msg = node.message;
  if (!msg || !msg.content) return null;
  const role = ROLES[msg.author.role];
  if (!role) return null;
  const meta = msg.metadata ?? {};
  if (meta.is_visually_hidden_from_conversation === true) return null;
  const { text } = contentText(msg.content);
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

/** Node ids from the root down to `leaf`, or an error on a broken/cyclic parent chain. */
function pathTo(conv: Conversation, leaf: string, label: string): string[] {
  const ids: string[] = [];
  const seen = new Set<string>();
  let cur: string | null | undefined = leaf;
  while (cur != null) {
    if (seen.has(cur)) throw new ChatGptImportError(`${label}: the parent links of node ${cur} form a cycle`);
    const node: Node | undefined = conv.mapping[cur];
    if (!node) throw new ChatGptImportError(`${label}: node ${cur} is referenced but missing from mapping`);
    seen.add(cur);
    ids.push(cur);
    cur = node.parent;
  }
  return ids.reverse();
}

function importConversation(conv: Conversation, index: number): ImportedConversation {
  const label = `conversation ${index}${conv.title ? ` ("${conv.title}")` : ''}`;
  const ids = Object.keys(conv.mapping);
  if (ids.length === 0) throw new ChatGptImportError(`${label}: mapping is empty`);
  const createdAt = fromEpoch(conv.create_time) ?? new Date(0);
  const lastActive = fromEpoch(conv.update_time) ?? createdAt;

  // children lists are authoritative for order; fall back to parent links
  const children = new Map<string, string[]>();
  for (const id of ids) children.set(id, []);
  for (const id of ids) {
    const node = conv.mapping[id];
    for (const c of node.children ?? [])
      if (conv.mapping[c] && !children.get(id)!.includes(c)) children.get(id)!.push(c);
    const p = node.parent;
    if (p != null && conv.mapping[p] && !children.get(p)!.includes(id)) children.get(p)!.push(id);
  }
  const leaves = ids.filter((id) => children.get(id)!.length === 0);

  let current = conv.current_node ?? null;
  if (current == null) current = leaves[leaves.length - 1];
  if (!conv.mapping[current]) throw new ChatGptImportError(`${label}: current_node ${current} is not in mapping`);

  const convert = (id: string) => toMessage(conv.mapping[id], createdAt);
  const activeIds = pathTo(conv, current, label);
  const messages: ChatMessage[] = [];
  const seqAtNode = new Map<string, number>(); // last active seq at or before each active node
  for (const id of activeIds) {
    const m = convert(id);
    if (m) messages.push({ ...m, sequenceNumber: messages.length });
    seqAtNode.set(id, messages.length - 1);
  }

  // leaves in depth-first order of the tree, so branch numbering follows the UI
  const roots = ids.filter((id) => {
    const p = conv.mapping[id].parent;
    return p == null || !conv.mapping[p];
  });
  const order: string[] = [];
  const stack = [...roots].reverse();
  const visited = new Set<string>();
  while (stack.length) {
    const id = stack.pop()!;
    if (visited.has(id)) continue;
    visited.add(id);
    order.push(id);
    stack.push(...[...children.get(id)!].reverse());
  }

  const branches: StoredBranch[] = [];
  const seen = new Set<string>();
  for (const leaf of order) {
    if (children.get(leaf)!.length > 0 || leaf === current || seqAtNode.has(leaf)) continue;
    const path = pathTo(conv, leaf, label);
    let shared = -1;
    while (shared + 1 < path.length && seqAtNode.has(path[shared + 1])) shared++;
    const baseSequence = shared >= 0 ? seqAtNode.get(path[shared])! : -1;
    const suffix: ChatMessage[] = [];
    for (const id of path.slice(shared + 1)) {
      const m = convert(id);
      if (m) suffix.push({ ...m, sequenceNumber: baseSequence + 1 + suffix.length });
    }
    if (suffix.length === 0) continue; // nothing of its own to keep
    const key = `${baseSequence}|${suffix.map((m) => `${m.role}:${m.content}`).join('\u0000')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    branches.push({ name: `branch ${branches.length + 1}`, baseSequence, suffix, createdAt: suffix[0].createdAt });
  }

  const rawTitle = conv.title?.trim() || null;
  let title: string | null = rawTitle;
  let titleSource: TitleSource = 'IMPORTED';
  if (!title) {
    const first = messages.find((m) => m.role === 'user');
    title = first ? heuristicTitle(first.content) : null;
    titleSource = title ? 'HEURISTIC' : 'DEFAULT';
  }
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
    const problems = result.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`);
    throw new ChatGptImportError(`Not a ChatGPT conversations.json export: ${problems.join('; ')}`);
  }
  return result.data.map((conv, i) => importConversation(conv, i));
}
