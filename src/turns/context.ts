/**
 * The shell side of the prompt: what `buildPrompt` (src/domain/prompt.ts)
 * built, as the provider interface's messages. The allowlist, notices, cuts,
 * turn context and images are all decided there, once.
 */
import { assembleMessages, type PromptImage, type PromptMessage } from '../domain/prompt.js';
import type { ChatMessage } from '../domain/types.js';
import type { LlmMessage } from '../llm/types.js';

/** A built prompt on the wire: images as their base64 bytes, empty optional fields left out. */
export function toWire(messages: readonly PromptMessage[]): LlmMessage[] {
  return messages.map((m) => {
    const out: LlmMessage = { role: m.role, content: m.content };
    if (m.toolCalls.length > 0) out.toolCalls = m.toolCalls;
    if (m.toolCallId) out.toolCallId = m.toolCallId;
    if (m.name) out.name = m.name;
    if (m.thinkingBlocks) out.thinkingBlocks = m.thinkingBlocks;
    if (m.compaction) out.compaction = m.compaction;
    if (m.images.length > 0) out.images = m.images.map((i) => i.b64);
    return out;
  });
}

export interface LlmMessagesInput {
  systemPrompt: string;
  view: ChatMessage[];
  /** base64 bytes of the images allowed into this call, by stored path */
  images?: Map<string, string>;
  /** send images that tool results carry (image_view) to vision models */
  vision?: boolean;
}

/** An already-cut view on the wire (native compaction sends a prefix this way). */
export function toLlmMessages({ systemPrompt, view, images, vision = false }: LlmMessagesInput): LlmMessage[] {
  const loaded = new Map<string, PromptImage>(
    [...(images ?? [])].map(([path, b64]) => [path, { path, b64, bytes: 0, tokens: 0 }]),
  );
  return toWire(assembleMessages(systemPrompt, view, loaded, { vision, fallbackImageTokens: 0 }));
}
