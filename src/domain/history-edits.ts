/**
 * Undo / redo / revert and checkpoint / rewind as plans over the active path.
 * Each plan names the rows to delete (`sequenceNumber > cut`) and returns them,
 * so the caller can also run `onActiveTruncated` on the branches.
 */
import { isRealUserMessage } from './titles.js';
import { messageFromJson, messageToJson, type ChatMessageJson } from './tree.js';
import type { ChatMessage, NewMessage } from './types.js';
import type { ErrorCode } from './error-codes.js';

export type HistoryEditErrorCode = typeof ErrorCode.BAD_USER_INPUT | typeof ErrorCode.CONFLICT;

export class HistoryEditError extends Error {
  constructor(
    readonly code: HistoryEditErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HistoryEditError';
  }
}

export interface RemovalRange {
  /** first removed sequenceNumber (or null when nothing is removed) */
  fromSequence: number | null;
  /** rows with sequenceNumber > this are removed; -1 removes everything */
  cutAfterSequence: number;
  removed: ChatMessage[];
}

function cutBefore(active: readonly ChatMessage[], index: number): RemovalRange {
  return {
    fromSequence: index < active.length ? active[index].sequenceNumber : null,
    cutAfterSequence: index === 0 ? -1 : active[index - 1].sequenceNumber,
    removed: active.slice(index),
  };
}

/**
 * Undo the last user turn: from the last real user message (not an agent note,
 * not a summary) to the end. Null when there is no such message.
 */
export function undoLastTurnRange(active: readonly ChatMessage[]): (RemovalRange & { fromSequence: number }) | null {
  for (let i = active.length - 1; i >= 0; i--) {
    if (isRealUserMessage(active[i])) return cutBefore(active, i) as RemovalRange & { fromSequence: number };
  }
  return null;
}

/** Remove everything after the row `sequenceNumber` (which must be on the active path). */
export function revertRange(active: readonly ChatMessage[], sequenceNumber: number): RemovalRange {
  const index = active.findIndex((m) => m.sequenceNumber === sequenceNumber);
  if (!Number.isInteger(sequenceNumber) || index < 0) {
    throw new HistoryEditError('BAD_USER_INPUT', `No message with sequenceNumber ${sequenceNumber} in this session`);
  }
  return cutBefore(active, index + 1);
}

// ---- redo stack ----

export const REDO_STACK_MAX = 20;

/** One undone segment: the rows removed after `afterSequence`. */
export interface RedoSegment {
  afterSequence: number;
  messages: ChatMessageJson[];
}

/** JSON-serializable redo stack, newest segment last. */
export interface RedoStack {
  segments: RedoSegment[];
}

export function emptyRedoStack(): RedoStack {
  return { segments: [] };
}

/** Remember what an undo/revert removed so `redo` can put it back. Keeps the newest {@link REDO_STACK_MAX}. */
export function pushUndo(stack: RedoStack, range: Pick<RemovalRange, 'cutAfterSequence' | 'removed'>): RedoStack {
  if (range.removed.length === 0) return stack;
  const segment: RedoSegment = { afterSequence: range.cutAfterSequence, messages: range.removed.map(messageToJson) };
  return { segments: [...stack.segments, segment].slice(-REDO_STACK_MAX) };
}

/**
 * Take the newest undone segment back. It only fits where it was cut: when the
 * active path changed since (a branch switch, a revert elsewhere), the stack is
 * stale and redo is a CONFLICT. Empty stack → CONFLICT.
 */
export function popRedo(
  stack: RedoStack,
  active: readonly ChatMessage[],
): { stack: RedoStack; restore: ChatMessage[]; afterSequence: number } {
  const segment = stack.segments[stack.segments.length - 1];
  if (!segment) throw new HistoryEditError('CONFLICT', 'Nothing to redo');
  const last = active.length === 0 ? -1 : active[active.length - 1].sequenceNumber;
  if (last !== segment.afterSequence) {
    throw new HistoryEditError('CONFLICT', 'Nothing to redo: the history changed since the undo');
  }
  return {
    stack: { segments: stack.segments.slice(0, -1) },
    restore: segment.messages.map(messageFromJson),
    afterSequence: segment.afterSequence,
  };
}

// ---- checkpoint / rewind ----

export interface Checkpoint {
  goal: string;
  afterSequenceNumber: number;
  createdAt: Date;
}

export const CHECKPOINT_GOAL_MAX_CHARS = 500;

/** Record an exploratory checkpoint after the current last message (-1 in an empty session). */
export function markCheckpoint(active: readonly ChatMessage[], goal: string, now: Date = new Date()): Checkpoint {
  const g = goal.trim();
  if (g === '') throw new HistoryEditError('BAD_USER_INPUT', 'A checkpoint needs a goal');
  if (Array.from(g).length > CHECKPOINT_GOAL_MAX_CHARS) {
    throw new HistoryEditError(
      'BAD_USER_INPUT',
      `Checkpoint goal is longer than ${CHECKPOINT_GOAL_MAX_CHARS} characters`,
    );
  }
  return {
    goal: g,
    afterSequenceNumber: active.length === 0 ? -1 : active[active.length - 1].sequenceNumber,
    createdAt: now,
  };
}

/** metadata.kind of the note a rewind leaves behind */
export const REWIND_REPORT_KIND = 'rewind_report';

export interface RewindPlan {
  deleteAfterSequence: number;
  removed: ChatMessage[];
  /** user-role agent note holding the report; the store assigns sequenceNumber */
  reportMessage: NewMessage;
  /** new session state: the checkpoint is consumed, the report remembered */
  checkpoint: null;
  lastRewindReport: string;
}

/**
 * Collapse everything after the active checkpoint into a short report the
 * model keeps. A rewind consumes the checkpoint, so a second rewind without a
 * new checkpoint is a CONFLICT; a checkpoint whose report is already in the
 * history (store did not clear it) counts as consumed too.
 */
export function planRewind(
  active: readonly ChatMessage[],
  checkpoint: Checkpoint | null,
  lastRewindReport: string | null,
  report: string,
): RewindPlan {
  const text = report.trim();
  if (!checkpoint) {
    throw new HistoryEditError(
      'CONFLICT',
      lastRewindReport != null
        ? 'Already rewound: mark a new checkpoint before rewinding again'
        : 'No active checkpoint to rewind to',
    );
  }
  const stamp = checkpoint.createdAt.toISOString();
  const consumed = active.some(
    (m) =>
      m.metadata.kind === REWIND_REPORT_KIND &&
      m.metadata.checkpointCreatedAt === stamp &&
      m.sequenceNumber > checkpoint.afterSequenceNumber,
  );
  if (consumed) throw new HistoryEditError('CONFLICT', 'Already rewound: mark a new checkpoint before rewinding again');
  if (text === '') throw new HistoryEditError('BAD_USER_INPUT', 'A rewind needs a report');

  const removed = active.filter((m) => m.sequenceNumber > checkpoint.afterSequenceNumber);
  return {
    deleteAfterSequence: checkpoint.afterSequenceNumber,
    removed,
    reportMessage: {
      role: 'user',
      isAgentNote: true,
      content:
        `[rewound to checkpoint: ${checkpoint.goal}]\n` +
        `The exploration after this checkpoint was collapsed. What it found:\n${text}`,
      metadata: {
        kind: REWIND_REPORT_KIND,
        checkpointGoal: checkpoint.goal,
        checkpointCreatedAt: stamp,
        removedMessages: removed.length,
      },
    },
    checkpoint: null,
    lastRewindReport: text,
  };
}
