/**
 * The summary call: meta-summary of crowding old summaries first, then the
 * formatted (capped) history with images for vision profiles, think off,
 * the profile's temperature / max tokens / prompt, and the KEYS line split
 * into breadcrumbs. Throws when the provider fails or answers nothing.
 */
import type { CompressionDeps } from './deps.js';
import {
  CRITICAL_RESULT_MAX_CHARS,
  MAX_SUMMARY_INPUT_CHARS,
  META_SUMMARY_SYSTEM_PROMPT,
  TOOL_ARGS_PREVIEW_CHARS,
  SUMMARY_SYSTEM_PROMPT,
  buildSummaryMessage,
  formatForSummary,
  formatSummariesForMeta,
  needsMetaSummary,
  replaceSummaries,
  splitKeysLine,
  type SummaryImage,
} from '../domain/compression/format.js';
import type { ChatMessage } from '../domain/types.js';
import { makeMessage } from '../domain/types.js';
import type { ProfileRow as Profile } from '../store/profiles.js';
import type { LlmMessage } from '../llm/types.js';
import type { CompressionSettings, ImagePrices } from './estimate.js';

export interface SummaryText {
  summary: string;
  keys: string[];
}

export const CONTINUATION_SYSTEM_PROMPT = [
  'You write a continuation summary: the state an AI assistant needs to continue this conversation after everything',
  'before the latest request is removed. ' +
    'Bullet points: the goal, what was done and found (exact names, paths, commands,',
  'numbers), decisions, what remains. Do not invent anything. End with one final line: KEYS: item, item, item',
].join('\n');

async function call(
  deps: CompressionDeps,
  profile: Profile,
  s: CompressionSettings,
  system: string,
  user: string,
  images: string[] = [],
  signal?: AbortSignal,
): Promise<SummaryText> {
  const messages: LlmMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: user, ...(images.length > 0 && { images }) },
  ];
  const { text } = await deps.provider(profile).complete({
    model: profile.model,
    messages,
    temperature: s.temperature,
    think: false,
    maxTokens: s.maxTokens,
    numCtx: s.window,
    signal,
  });
  const out = splitKeysLine(text.trim());
  if (out.summary.trim() === '') throw new Error('the summarizer returned an empty summary');
  return out;
}

/**
 * The bytes of the images the formatter picked: stored ones as loaded for the pass (one path rule), inline ones as they
 * are.
 */
function imagesFor(images: SummaryImage[], price: ImagePrices): string[] {
  const out: string[] = [];
  for (const img of images) {
    if (img.kind === 'base64') out.push(img.value.replace(/^data:[^,]*,/, ''));
    else {
      const loaded = price.images?.get(img.value);
      if (loaded) out.push(loaded.b64);
    }
  }
  return out;
}

/** Consolidates old summaries when together they exceed the meta threshold; on failure the originals stay. */
export async function withMetaSummary(
  deps: CompressionDeps,
  profile: Profile,
  s: CompressionSettings,
  toSummarize: ChatMessage[],
  signal?: AbortSignal,
): Promise<ChatMessage[]> {
  if (!needsMetaSummary(toSummarize)) return toSummarize;
  try {
    const merged = await call(
      deps,
      profile,
      s,
      META_SUMMARY_SYSTEM_PROMPT,
      formatSummariesForMeta(toSummarize),
      [],
      signal,
    );
    return replaceSummaries(toSummarize, buildSummaryMessage(merged.summary, merged.keys));
  } catch (error) {
    deps.log.warn({ err: error }, 'compressor.meta_summary_failed');
    return toSummarize;
  }
}

/** Upper bound of one message's formatted length (tool results are previewed, calls shown as short previews). */
function formattedBound(m: ChatMessage): number {
  const body = m.role === 'tool' ? Math.min(m.content.length, CRITICAL_RESULT_MAX_CHARS + 100) : m.content.length;
  return body + 40 + m.toolCalls.length * (TOOL_ARGS_PREVIEW_CHARS + 60);
}

/**
 * The formatter keeps 75% head + 25% tail of MAX_SUMMARY_INPUT_CHARS; formatting
 * a 20,000-message range only to cut it is wasted work. Keeps the oldest and
 * newest messages that can reach the input (by a cheap length bound, with
 * margin) and marks the gap, so the cost no longer grows with the range.
 */
export function selectForSummary(messages: readonly ChatMessage[]): ChatMessage[] {
  const headBudget = MAX_SUMMARY_INPUT_CHARS * 1.5;
  const tailBudget = MAX_SUMMARY_INPUT_CHARS * 0.5;
  let total = 0;
  for (const m of messages) if ((total += formattedBound(m)) > headBudget + tailBudget) break;
  if (total <= headBudget + tailBudget) return [...messages];
  let head = 0;
  for (let n = 0; head < messages.length && n < headBudget; head++) n += formattedBound(messages[head]!);
  let tail = messages.length;
  for (let n = 0; tail > head && n < tailBudget; tail--) n += formattedBound(messages[tail - 1]!);
  if (tail <= head) return [...messages];
  const gap = makeMessage({
    role: 'user',
    content: `[… ${tail - head} message(s) in between omitted …]`,
    isAgentNote: true,
  });
  return [...messages.slice(0, head), gap, ...messages.slice(tail)];
}

export async function summarizeMessages(
  deps: CompressionDeps,
  profile: Profile,
  s: CompressionSettings,
  toSummarize: ChatMessage[],
  price: ImagePrices,
  opts: { continuation?: boolean; signal?: AbortSignal } = {},
): Promise<SummaryText> {
  const input = await withMetaSummary(deps, profile, s, toSummarize, opts.signal);
  const formatted = formatForSummary(selectForSummary(input), {
    vision: s.vision,
    window: s.window,
    priceImage: price,
  });
  const images = imagesFor(formatted.images, price);
  const note = formatted.omittedImages > 0 ? `\n\n[${formatted.omittedImages} image(s) were not attached]` : '';
  const system = opts.continuation ? CONTINUATION_SYSTEM_PROMPT : (s.prompt ?? SUMMARY_SYSTEM_PROMPT);
  return call(deps, profile, s, system, `Conversation to summarize:\n\n${formatted.text}${note}`, images, opts.signal);
}
