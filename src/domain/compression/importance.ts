/**
 * Turn importance for adaptive partitioning: an old turn that carried a
 * decision, an error or a critical tool result is worth more verbatim than a
 * recent "ok, thanks".
 */
import type { ChatMessage } from '../types.js';
import type { Turn } from '../turns.js';
import { isUserTurnStart } from '../turns.js';

/**
 * Tools whose results the summarizer keeps (nearly) verbatim: their output is
 * the ground truth later steps build on (file contents, the plan, recalled
 * memory), and a paraphrase of it is where summaries go wrong.
 */
export const DEFAULT_CRITICAL_TOOL_NAMES: ReadonlySet<string> = new Set([
  'read_file',
  'file_read',
  'memory_search',
  'update_plan',
  'todo_write',
  'task_note',
]);

export function isCriticalToolResult(
  msg: ChatMessage,
  criticalNames: ReadonlySet<string> = DEFAULT_CRITICAL_TOOL_NAMES,
): boolean {
  if (msg.role !== 'tool') return false;
  return msg.isCompressionCritical || (msg.name !== null && criticalNames.has(msg.name));
}

/** Scores at or above this make an old turn worth keeping over a filler one. */
export const IMPORTANT_TURN_SCORE = 3;
/** Scores at or below this mark a turn as filler, the first to give up its place. */
export const FILLER_TURN_SCORE = 0;

const FILLER_RE =
  /^\s*(ok(ay)?|k|thanks?( you)?|thx|ty|yes|yep|yeah|no|nope|sure|cool|great|nice|got it|fine|good|perfect|continue|go on|go ahead|👍|🙏)[\s.!]*$/i;
const DECISION_RE =
  /\b(decid(e|ed|ing)|agreed|we will|let'?s go with|must|never|always|requirement|important|remember|do not|don'?t)\b/i;
const ERROR_RE = /\b(error|exception|traceback|failed|failure|denied|not found|panic)\b/i;

export const LONG_USER_TEXT_CHARS = 300;
export const VERY_LONG_USER_TEXT_CHARS = 1200;

export function isFillerText(text: string): boolean {
  return FILLER_RE.test(text);
}

export function turnImportance(
  turn: Pick<Turn, 'messages'>,
  criticalNames: ReadonlySet<string> = DEFAULT_CRITICAL_TOOL_NAMES,
): number {
  let score = 0;
  for (const msg of turn.messages) score += messageImportance(msg, criticalNames);
  const request = turn.messages.find(isUserTurnStart);
  if (request && isFillerText(request.content)) score -= 2;
  return score;
}

function messageImportance(msg: ChatMessage, criticalNames: ReadonlySet<string>): number {
  if (msg.role === 'tool') {
    let s = isCriticalToolResult(msg, criticalNames) ? 3 : 0;
    if (ERROR_RE.test(msg.content.slice(0, 2000))) s += 2;
    return s;
  }
  let s = 0;
  if (msg.isPlan) s += 1;
  if ((msg.role === 'user' || msg.role === 'assistant') && DECISION_RE.test(msg.content)) s += 2;
  if (isUserTurnStart(msg)) {
    if (msg.content.length > VERY_LONG_USER_TEXT_CHARS) s += 2;
    else if (msg.content.length > LONG_USER_TEXT_CHARS) s += 1;
  }
  return s;
}
