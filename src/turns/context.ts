/**
 * Builds what one LLM call is sent, fresh each time, from the stored context:
 * the profile's system prompt injected (never stored), stored system records
 * only through the allowlist, request-time turn context appended to the
 * latest user message (never stored, so the prefix stays byte-stable for
 * provider prompt caches), oversized messages cut in the view only.
 */
import type { ChatMessage } from '../domain/types.js';
import type { LlmMessage } from '../llm/types.js';

/** Stored system records that reach the model. Every other one is transcript only. */
export const LLM_SYSTEM_SOURCES = new Set(['task_note', 'synapse_event']);

export function reachesModel(message: ChatMessage): boolean {
  if (message.isCompression) return false;
  if (message.role !== 'system') return true;
  return LLM_SYSTEM_SOURCES.has(String(message.metadata.source ?? ''));
}

/** The stored context as the model sees it: allowlist applied, context notices appended. */
export function modelView(context: readonly ChatMessage[]): ChatMessage[] {
  return context.filter(reachesModel).map((m) => {
    const notice = typeof m.metadata.contextNotice === 'string' ? m.metadata.contextNotice : '';
    return notice ? { ...m, content: m.content ? `${m.content}\n\n${notice}` : notice } : m;
  });
}

export function withTurnContext(view: ChatMessage[], turnContext: string | null): ChatMessage[] {
  if (!turnContext) return view;
  for (let i = view.length - 1; i >= 0; i--) {
    const m = view[i]!;
    if (m.role === 'user' && !m.isSummary) {
      const copy = [...view];
      copy[i] = { ...m, content: `${m.content}\n\n${turnContext}` };
      return copy;
    }
  }
  return view;
}

export interface LlmMessagesInput {
  systemPrompt: string;
  view: ChatMessage[];
  /** base64 bytes of the images allowed into this call, by stored path */
  images?: Map<string, string>;
  /** send images that tool results carry (image_view) to vision models */
  vision?: boolean;
}

/**
 * Tool results may carry an image (image_view: metadata.is_image + base64).
 * Providers accept images only on user messages, and tool results must
 * directly follow their call, so such images travel in one user message
 * placed right after the run of tool results.
 */
export function toLlmMessages({ systemPrompt, view, images, vision = false }: LlmMessagesInput): LlmMessage[] {
  const out: LlmMessage[] = [];
  if (systemPrompt) out.push({ role: 'system', content: systemPrompt });
  let toolImages: { path: string; b64: string }[] = [];
  const flushToolImages = () => {
    if (toolImages.length === 0) return;
    out.push({
      role: 'user',
      content: `[Images opened with image_view: ${toolImages.map((i) => i.path).join(', ')}]`,
      images: toolImages.map((i) => i.b64),
    });
    toolImages = [];
  };
  for (const m of view) {
    if (m.role !== 'tool') flushToolImages();
    const message: LlmMessage = { role: m.role, content: m.content };
    if (m.toolCalls.length > 0) message.toolCalls = m.toolCalls;
    if (m.toolCallId) message.toolCallId = m.toolCallId;
    if (m.name) message.name = m.name;
    // Provider payloads replayed verbatim: thinking with its signature, the compaction block.
    if (m.role === 'assistant' && Array.isArray(m.metadata.thinkingBlocks)) message.thinkingBlocks = m.metadata.thinkingBlocks as Record<string, unknown>[];
    if (m.role === 'assistant' && isRecord(m.metadata.compactionBlock)) message.compaction = m.metadata.compactionBlock;
    const attached = m.images.map((path) => images?.get(path)).filter((b): b is string => Boolean(b));
    if (attached.length > 0) message.images = attached;
    out.push(message);
    if (vision && m.role === 'tool' && m.metadata.is_image === true && typeof m.metadata.base64 === 'string') {
      toolImages.push({ path: String(m.metadata.path ?? 'image'), b64: m.metadata.base64 });
    }
  }
  flushToolImages();
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
