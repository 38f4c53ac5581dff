/**
 * Lines added / removed by the session's file-mutating tools, rebuilt from the
 * transcript: each successful tool result is matched to its call by id and
 * counted from the call's arguments.
 */
import type { ChatMessage, ToolCall } from './types.js';

export interface EditStats {
  linesAdded: number;
  linesRemoved: number;
}

export const ZERO_EDIT_STATS: EditStats = { linesAdded: 0, linesRemoved: 0 };

type EditKind = 'write' | 'edit' | 'patch';

const TOOL_KINDS: Record<string, EditKind> = {
  write: 'write',
  write_file: 'write',
  edit: 'edit',
  edit_file: 'edit',
  str_replace: 'edit',
  apply_patch: 'patch',
};

/** `functions.write_file`, `mcp__fs__edit_file`, `fs/write` → the bare tool name. */
function editKind(toolName: string): EditKind | null {
  const bare =
    toolName
      .toLowerCase()
      .split(/\.|__|\//)
      .pop() ?? '';
  return TOOL_KINDS[bare] ?? null;
}

/** Line count of a text: "" → 0, "a\nb" and "a\nb\n" → 2. */
export function countLines(text: string): number {
  if (text === '') return 0;
  const lines = text.split(/\r\n|\r|\n/);
  return text.endsWith('\n') || text.endsWith('\r') ? lines.length - 1 : lines.length;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

function argsOf(call: ToolCall): Record<string, unknown> {
  const a: unknown = call.arguments;
  if (typeof a === 'string') {
    try {
      const parsed: unknown = JSON.parse(a);
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return a && typeof a === 'object' ? (a as Record<string, unknown>) : {};
}

/** `+` / `-` lines of a unified or Codex-style patch (`*** …` markers never start with +/-), without file headers. */
export function patchLineCounts(patch: string): EditStats {
  const lines = patch.split(/\r?\n/);
  let added = 0;
  let removed = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('---') && (lines[i + 1] ?? '').startsWith('+++')) continue; // "--- a/x" header
    if (line.startsWith('+++') && (lines[i - 1] ?? '').startsWith('---')) continue; // "+++ b/x" header
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { linesAdded: added, linesRemoved: removed };
}

function isErrorResult(result: ChatMessage): boolean {
  return result.metadata.isError === true || /^\s*error\b/i.test(result.content);
}

/** Lines one successful call changed; null when the tool does not mutate files. */
export function editLineCounts(call: ToolCall, result: ChatMessage): EditStats | null {
  const kind = editKind(call.name);
  if (!kind) return null;
  // A tool that reports its own counts knows best.
  const reportedAdded = num(result.metadata.linesAdded);
  const reportedRemoved = num(result.metadata.linesRemoved);
  if (reportedAdded != null && reportedRemoved != null)
    return { linesAdded: reportedAdded, linesRemoved: reportedRemoved };

  const args = argsOf(call);
  switch (kind) {
    case 'write': {
      const content = str(args.content) ?? str(args.file_text) ?? str(args.text) ?? '';
      const previous = num(result.metadata.previousLineCount) ?? num(result.metadata.previousLines) ?? 0;
      return { linesAdded: countLines(content), linesRemoved: previous };
    }
    case 'edit': {
      const edits = Array.isArray(args.edits) ? (args.edits as unknown[]) : [args];
      let added = 0;
      let removed = 0;
      for (const e of edits) {
        if (!e || typeof e !== 'object') continue;
        const r = e as Record<string, unknown>;
        removed += countLines(str(r.old_string) ?? str(r.old_str) ?? '');
        added += countLines(str(r.new_string) ?? str(r.new_str) ?? '');
      }
      return { linesAdded: added, linesRemoved: removed };
    }
    case 'patch': {
      const patch = str(args.patch) ?? str(args.input) ?? str(args.diff) ?? '';
      return patchLineCounts(patch);
    }
  }
}

export function addEditStats(a: EditStats, b: EditStats): EditStats {
  return { linesAdded: a.linesAdded + b.linesAdded, linesRemoved: a.linesRemoved + b.linesRemoved };
}

/**
 * Edit stats of a whole transcript (rebuilt on load). Walks in order and
 * matches each result to the latest call with its id before it, since some
 * providers reuse ids like `call_0` in every turn.
 */
export function editStatsFromTranscript(messages: readonly ChatMessage[]): EditStats {
  const open = new Map<string, ToolCall>();
  let out = ZERO_EDIT_STATS;
  for (const m of messages) {
    if (m.role === 'assistant') {
      for (const c of m.toolCalls) open.set(c.id, c);
      continue;
    }
    if (m.role !== 'tool' || m.toolCallId == null) continue;
    const call = open.get(m.toolCallId);
    if (!call) continue;
    open.delete(m.toolCallId); // one result per call
    if (isErrorResult(m)) continue;
    const counts = editLineCounts(call, m);
    if (counts) out = addEditStats(out, counts);
  }
  return out;
}
