/**
 * Rendering of the messages to summarize as plain text for the summarizer,
 * plus the pieces around the summary call: input cap, meta-summary decision,
 * KEYS line, and the summary message that replaces the summarized range.
 */
import type { ChatMessage } from '../types.js';
import { makeMessage } from '../types.js';
import { trimEndChars, trimStartChars } from '../text.js';
import { imageRefsOf } from '../image-tokens.js';
import type { ImageRef } from '../image-tokens.js';
import { DEFAULT_CRITICAL_TOOL_NAMES, isCriticalToolResult } from './importance.js';

export const TOOL_ARGS_PREVIEW_CHARS = 120;
export const CRITICAL_RESULT_MAX_CHARS = 4000;
export const CRITICAL_RESULT_HALF_CHARS = 2000;
export const TOOL_RESULT_PREVIEW_CHARS = 800;
export const MAX_SUMMARY_INPUT_CHARS = 32_000;
/**
 * The head holds the oldest messages, the tail the ones closest to the kept window; a head-only cut lost the newest
 * work.
 */
export const SUMMARY_INPUT_HEAD_FRACTION = 0.75;
export const META_SUMMARY_THRESHOLD_CHARS = 10_600;
/** Images sent to the summarizer must leave room for the text, or the call cannot fit its own window. */
export const SUMMARY_IMAGE_BUDGET_FRACTION = 0.25;

export const SUMMARY_SYSTEM_PROMPT = [
  'You compress the earlier part of a conversation between a user and an AI assistant ' +
    'so the assistant can continue without it.',
  'Write a concise summary as bullet points ("- ..."). Keep: the user\'s goals and requests, ' +
    'decisions and their reasons,',
  'facts learned, results of tool calls (files read or changed, commands run and their outcome, errors), ' +
    'open questions and',
  'unfinished work. Keep exact names, paths, commands, identifiers, numbers and links. ' +
    'Drop pleasantries and repetition.',
  'Do not invent anything that is not in the conversation. Do not address the user.',
  'End with exactly one final line of the form:',
  'KEYS: item, item, item',
  'listing the breadcrumbs of this history: names, commands, file paths, config keys, amounts, ' +
    'ticket ids, decisions, links.',
].join('\n');

export const META_SUMMARY_SYSTEM_PROMPT = [
  'You merge several summaries of consecutive parts of one conversation into a single summary, oldest first.',
  'Write bullet points. Keep every decision, fact, exact name, path, command, identifier, ' +
    'number and link; drop duplicates',
  'and anything a later summary supersedes. End with exactly one final line of the form:',
  'KEYS: item, item, item',
].join('\n');

export const SUMMARY_HEADER = '[Summary of the earlier conversation]';

/** An image found in the summarized messages (see ImageRef). */
export type SummaryImage = ImageRef;

export interface FormatOptions {
  /** Only vision profiles get images; others see the `[+ N image(s)]` notes only. */
  vision?: boolean;
  window?: number;
  /** Tokens one image costs (e.g. imageTokensFromBase64 / from the file header). */
  priceImage?: (image: SummaryImage) => number;
  criticalToolNames?: ReadonlySet<string>;
}

export interface FormattedSummaryInput {
  text: string;
  images: SummaryImage[];
  /** Images found but not attached (over budget or no vision). */
  omittedImages: number;
}

/** Head + tail halves with a marker; shared by critical results and the input cap. */
export function headTail(text: string, head: number, tail: number): string {
  if (text.length <= head + tail) return text;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${omitted} chars omitted …]\n${tail > 0 ? text.slice(-tail) : ''}`;
}

export function previewToolCall(name: string, args: Record<string, unknown>): string {
  const json = JSON.stringify(args ?? {});
  const shown = json.length > TOOL_ARGS_PREVIEW_CHARS ? `${json.slice(0, TOOL_ARGS_PREVIEW_CHARS)}…` : json;
  return `→ ${name}(${shown})`;
}

export function previewToolResult(content: string, critical: boolean): string {
  if (critical) {
    if (content.length <= CRITICAL_RESULT_MAX_CHARS) return content;
    return headTail(content, CRITICAL_RESULT_HALF_CHARS, CRITICAL_RESULT_HALF_CHARS);
  }
  if (content.length <= TOOL_RESULT_PREVIEW_CHARS) return content;
  return `${content.slice(0, TOOL_RESULT_PREVIEW_CHARS)}… [${content.length - TOOL_RESULT_PREVIEW_CHARS} more chars]`;
}

function imageCount(msg: ChatMessage): number {
  return imageRefsOf(msg).length;
}

function roleLabel(msg: ChatMessage): string {
  if (msg.isSummary) return 'PREVIOUS SUMMARY';
  if (msg.isAgentNote) return 'NOTE';
  if (msg.role === 'tool') return `TOOL RESULT${msg.name ? ` (${msg.name})` : ''}`;
  return msg.role.toUpperCase();
}

export function formatMessage(msg: ChatMessage, criticalNames: ReadonlySet<string>): string {
  const lines: string[] = [];
  const body =
    msg.role === 'tool' ? previewToolResult(msg.content, isCriticalToolResult(msg, criticalNames)) : msg.content;
  lines.push(`${roleLabel(msg)}: ${body}`);
  for (const call of msg.toolCalls) lines.push(previewToolCall(call.name, call.arguments));
  const images = imageCount(msg);
  if (images > 0) lines.push(`[+ ${images} image(s)]`);
  return lines.join('\n');
}

/** Tool results often lack `name`; recover it from the call they answer. */
function withToolNames(messages: readonly ChatMessage[]): ChatMessage[] {
  const names = new Map<string, string>();
  for (const m of messages) for (const c of m.toolCalls) names.set(c.id, c.name);
  return messages.map((m) =>
    m.role === 'tool' && !m.name && m.toolCallId && names.has(m.toolCallId)
      ? { ...m, name: names.get(m.toolCallId) ?? null }
      : m,
  );
}

/**
 * Collect images oldest first while they fit `window × 0.25`. The ones left
 * out still show up as `[+ N image(s)]` notes, so the summarizer knows they
 * existed instead of writing as if it had seen everything.
 */
export function collectImages(
  messages: readonly ChatMessage[],
  opts: FormatOptions,
): { images: SummaryImage[]; omitted: number } {
  const all = messages.flatMap(imageRefsOf);
  if (!opts.vision || opts.window === undefined || !opts.priceImage) return { images: [], omitted: all.length };
  const budget = opts.window * SUMMARY_IMAGE_BUDGET_FRACTION;
  const images: SummaryImage[] = [];
  let used = 0;
  for (const img of all) {
    const cost = opts.priceImage(img);
    if (used + cost > budget) continue;
    used += cost;
    images.push(img);
  }
  return { images, omitted: all.length - images.length };
}

export function formatForSummary(messages: readonly ChatMessage[], opts: FormatOptions = {}): FormattedSummaryInput {
  const critical = opts.criticalToolNames ?? DEFAULT_CRITICAL_TOOL_NAMES;
  const text = withToolNames(messages)
    .map((m) => formatMessage(m, critical))
    .join('\n\n');
  const { images, omitted } = collectImages(messages, opts);
  return { text: capSummaryInput(text), images, omittedImages: omitted };
}

/** Cut to `max` chars (marker included), 75% oldest head + 25% newest tail. */
export function capSummaryInput(text: string, max: number = MAX_SUMMARY_INPUT_CHARS): string {
  if (text.length <= max) return text;
  const markerLen = `\n[… ${text.length} chars omitted …]\n`.length;
  const room = Math.max(0, max - markerLen);
  const head = Math.floor(room * SUMMARY_INPUT_HEAD_FRACTION);
  return headTail(text, head, room - head);
}

/** Several old summaries crowding the summarizer input are merged into one first. */
export function needsMetaSummary(toSummarize: readonly ChatMessage[]): boolean {
  const summaries = toSummarize.filter((m) => m.isSummary);
  const total = summaries.reduce((n, m) => n + m.content.length, 0);
  return summaries.length > 1 && total > META_SUMMARY_THRESHOLD_CHARS;
}

export function formatSummariesForMeta(toSummarize: readonly ChatMessage[]): string {
  return toSummarize
    .filter((m) => m.isSummary)
    .map((m, i) => `SUMMARY ${i + 1}:\n${m.content}`)
    .join('\n\n');
}

/** Put the merged summary where the first old summary was and drop the others. */
export function replaceSummaries(toSummarize: readonly ChatMessage[], merged: ChatMessage): ChatMessage[] {
  const first = toSummarize.findIndex((m) => m.isSummary);
  if (first < 0) return [...toSummarize];
  return toSummarize.flatMap((m, i) => (i === first ? [merged] : m.isSummary ? [] : [m]));
}

// The prefix only: `[\s*]*(.*)$` would let the two loops trade characters back and forth.
const KEYS_LINE_RE = /^\s*(?:[-*•]\s*)?\**KEYS\**\s*:[\s*]*/i;

/** Remove a trailing `KEYS: a, b` line; a summary without one comes back unchanged. */
export function splitKeysLine(summary: string): { summary: string; keys: string[] } {
  const lines = summary.split('\n');
  let last = lines.length - 1;
  while (last >= 0 && lines[last].trim() === '') last--;
  const match = last >= 0 ? KEYS_LINE_RE.exec(lines[last]) : null;
  if (!match) return { summary, keys: [] };
  const seen = new Set<string>();
  const keys: string[] = [];
  for (const raw of lines[last].slice(match[0].length).split(',')) {
    const key = trimEndChars(trimStartChars(raw.trim(), '`"\''), '`"\'.');
    if (key && !seen.has(key.toLowerCase())) {
      seen.add(key.toLowerCase());
      keys.push(key);
    }
  }
  return { summary: lines.slice(0, last).join('\n').trimEnd(), keys };
}

export interface SummaryMessageOptions {
  sequenceNumber?: number;
  createdAt?: Date;
  /** Extra metadata (e.g. summarized sequence range). */
  metadata?: Record<string, unknown>;
}

/** The user-role context-only message that replaces the summarized range. */
export function buildSummaryMessage(
  summary: string,
  keys: readonly string[],
  opts: SummaryMessageOptions = {},
): ChatMessage {
  return makeMessage({
    role: 'user',
    content: summary.startsWith(SUMMARY_HEADER) ? summary : `${SUMMARY_HEADER}\n${summary}`,
    isSummary: true,
    isDisplay: false,
    isContext: true,
    metadata: { ...opts.metadata, breadcrumbs: [...keys] },
    sequenceNumber: opts.sequenceNumber,
    createdAt: opts.createdAt,
  });
}
