/**
 * The prompt: exactly what the next model call is sent, built from plain data.
 *
 * One function, `buildPrompt`, is used by the turn runner (the call itself and
 * its size guard), the compression estimators (planner, dry run, pre/mid/post
 * triggers) and `Session.modelView`, so what is shown, what is counted and what
 * is sent cannot drift apart. It applies, in order: the allowlist of stored
 * system records, context notices (uploads, pasted images), the tool-result
 * cap, the per-message view cut, request-time turn context (recall), the
 * profile's system prompt, and the images that are actually sent (vision
 * profiles only, within what the pasted-image budget admitted, loaded bytes
 * only). Images that are not sent cost nothing.
 *
 * No I/O here: the caller loads the images `imagePathsToSend` names and hands
 * their bytes in.
 */
import { TOOL_RESULT_MAX_CHARS, capNewToolResults } from './compression/tool-results.js';
import { imageTokensFromBase64 } from './image-tokens.js';
import { type CalibrationSource, messagesSinceBaseline, type RealBaseline, UNCALIBRATED } from './tokens.js';
import type { ChatMessage, Role, ToolCall } from './types.js';
import { messageTokenBudget, truncateOversized } from './view.js';

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

/** Request-time turn context (recall) appended to the latest user message; never stored. */
export function withTurnContext(view: ChatMessage[], turnContext: string | null | undefined): ChatMessage[] {
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

/** An image as it is sent: where it came from, its size, its price and its bytes (base64). */
export interface PromptImage {
  /** stored path (`session_files/<id>/image_1.png`) or, for image_view results, the path the tool opened */
  path: string;
  /** decoded size in bytes */
  bytes: number;
  tokens: number;
  b64: string;
}

/** Loaded stored images by path (the caller reads the files `imagePathsToSend` names). */
export type PromptImages = ReadonlyMap<string, PromptImage>;

export interface PromptMessage {
  role: Role;
  content: string;
  toolCalls: ToolCall[];
  toolCallId: string | null;
  name: string | null;
  images: PromptImage[];
  /** the stored row it comes from; -1 for the injected system prompt */
  sequenceNumber: number;
  /** provider payloads replayed verbatim (assistant only): thinking with its signature, the compaction block */
  thinkingBlocks?: Record<string, unknown>[];
  compaction?: Record<string, unknown>;
}

export interface PromptRules {
  model: string;
  vision: boolean;
  window: number;
  /** `context_message_token_budget` as configured (0 = window // 6) */
  messageTokenBudget: number;
  /** the cap on a tool result's body in the view */
  toolResultMaxChars?: number;
  /** price of an image whose header cannot be read */
  fallbackImageTokens: number;
  registry?: CalibrationSource;
}

export interface PromptInput extends PromptRules {
  /** the session's context rows, in context order */
  context: readonly ChatMessage[];
  systemPrompt: string;
  /** recall excerpts appended to the latest user message */
  turnContext?: string | null;
  images: PromptImages;
  /** leave out the images of this message (the pasted-image budget is computed without them) */
  skipImagesOf?: number | null;
  /** the last real prompt count; the estimate is that count + the calibrated delta since */
  baseline?: RealBaseline | null;
}

export interface Prompt {
  messages: PromptMessage[];
  /** the next prompt's size in real tokens (baseline + calibrated delta, or a full estimate) */
  estimate: number;
  /** characters of text sent (what calibration observations are taken on) */
  chars: number;
  hadImages: boolean;
  /** highest sequence number of the context the prompt was built from */
  lastSequence: number;
}

/** The stored images a message may send: the ones the pasted-image budget admitted (all, before it ran). */
function admittedImages(m: Pick<ChatMessage, 'images' | 'metadata'>): string[] {
  const allowed = m.metadata.imagesInContext;
  return Array.isArray(allowed) ? m.images.filter((p) => (allowed as unknown[]).includes(p)) : m.images;
}

/** Stored image paths whose bytes `buildPrompt` would send; nothing for a non-vision profile. */
export function imagePathsToSend(context: readonly ChatMessage[], vision: boolean): string[] {
  if (!vision) return [];
  const out = new Set<string>();
  for (const m of context) if (reachesModel(m)) for (const p of admittedImages(m)) out.add(p);
  return [...out];
}

function toolImageOf(m: ChatMessage, fallback: number): PromptImage | null {
  if (m.role !== 'tool' || m.metadata.is_image !== true || typeof m.metadata.base64 !== 'string') return null;
  const raw = m.metadata.base64;
  const payload = raw.startsWith('data:') ? raw.slice(raw.indexOf(',') + 1) : raw;
  return {
    path: String(m.metadata.path ?? 'image'),
    bytes: Buffer.byteLength(payload, 'base64'),
    tokens: imageTokensFromBase64(raw, fallback),
    b64: raw,
  };
}

/**
 * The view (already cut) as messages on the wire. Providers accept images only
 * on user messages, and tool results must directly follow their call, so
 * images that image_view results carry travel in one user message placed right
 * after the run of tool results (vision profiles only).
 */
export function assembleMessages(
  systemPrompt: string,
  view: readonly ChatMessage[],
  images: PromptImages,
  opts: { vision: boolean; fallbackImageTokens: number; skipImagesOf?: number | null },
): PromptMessage[] {
  const out: PromptMessage[] = [];
  const base = { toolCalls: [] as ToolCall[], toolCallId: null, name: null };
  if (systemPrompt) out.push({ ...base, role: 'system', content: systemPrompt, images: [], sequenceNumber: -1 });
  let toolImages: PromptImage[] = [];
  let toolSeq = -1;
  const flushToolImages = () => {
    if (toolImages.length === 0) return;
    out.push({
      ...base,
      role: 'user',
      content: `[Images opened with image_view: ${toolImages.map((i) => i.path).join(', ')}]`,
      images: toolImages,
      sequenceNumber: toolSeq,
    });
    toolImages = [];
  };
  for (const m of view) {
    if (m.role !== 'tool') flushToolImages();
    const sent =
      opts.vision && m.sequenceNumber !== opts.skipImagesOf
        ? admittedImages(m)
            .map((p) => images.get(p))
            .filter((i): i is PromptImage => i !== undefined)
        : [];
    const message: PromptMessage = {
      role: m.role,
      content: m.content,
      toolCalls: m.toolCalls,
      toolCallId: m.toolCallId,
      name: m.name,
      images: sent,
      sequenceNumber: m.sequenceNumber,
    };
    if (m.role === 'assistant' && Array.isArray(m.metadata.thinkingBlocks)) {
      message.thinkingBlocks = m.metadata.thinkingBlocks as Record<string, unknown>[];
    }
    if (m.role === 'assistant' && isRecord(m.metadata.compactionBlock)) message.compaction = m.metadata.compactionBlock;
    out.push(message);
    const toolImage = opts.vision ? toolImageOf(m, opts.fallbackImageTokens) : null;
    if (toolImage) {
      toolImages.push(toolImage);
      toolSeq = m.sequenceNumber;
    }
  }
  flushToolImages();
  return out;
}

/** Characters the model reads for one sent message: content, tool call names and JSON arguments. */
export function promptMessageChars(m: Pick<PromptMessage, 'content' | 'toolCalls'>): number {
  let chars = m.content.length;
  for (const call of m.toolCalls) chars += call.name.length + JSON.stringify(call.arguments ?? {}).length;
  return chars;
}

const textChars = (messages: readonly PromptMessage[]) => messages.reduce((n, m) => n + promptMessageChars(m), 0);
const imageTokens = (messages: readonly PromptMessage[]) =>
  messages.reduce((n, m) => n + m.images.reduce((k, i) => k + i.tokens, 0), 0);

/** The stored context cut as the view cuts it: allowlist, notices, tool-result cap, per-message budget. */
export function cutView(context: readonly ChatMessage[], rules: PromptRules): ChatMessage[] {
  const budget = messageTokenBudget(rules.messageTokenBudget, rules.window);
  const capped = capNewToolResults(modelView(context), rules.toolResultMaxChars ?? TOOL_RESULT_MAX_CHARS);
  return truncateOversized(capped, budget, rules.model, rules.registry ?? UNCALIBRATED);
}

/** What the next call sends, and its size in real tokens. */
export function buildPrompt(input: PromptInput): Prompt {
  const view = withTurnContext(cutView(input.context, input), input.turnContext);
  const messages = assembleMessages(input.systemPrompt, view, input.images, input);
  const cal = (input.registry ?? UNCALIBRATED).calibrationFor(input.model);
  const chars = textChars(messages);
  const full = () => cal.estimate(chars) + imageTokens(messages);
  let estimate: number;
  const { baseline } = input;
  if (!baseline || !(baseline.promptTokens > 0)) estimate = full();
  else if (baseline.lastSequence !== undefined) {
    // Appended since the count: the sent messages of later rows (by sequence, so filtered rows do not shift it).
    const last = baseline.lastSequence;
    const delta = messages.filter((m) => m.sequenceNumber > last);
    estimate =
      baseline.promptTokens + (delta.length > 0 ? cal.estimateDelta(textChars(delta)) + imageTokens(delta) : 0);
  } else {
    const appended = messagesSinceBaseline(baseline, input.context);
    const body = messages.filter((m) => m.sequenceNumber !== -1);
    if (appended === null || appended > body.length) estimate = full();
    else {
      const delta = body.slice(body.length - appended);
      estimate =
        baseline.promptTokens + (delta.length > 0 ? cal.estimateDelta(textChars(delta)) + imageTokens(delta) : 0);
    }
  }
  let lastSequence = -1;
  for (const m of input.context) if (m.sequenceNumber > lastSequence) lastSequence = m.sequenceNumber;
  return { messages, estimate, chars, hadImages: messages.some((m) => m.images.length > 0), lastSequence };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
