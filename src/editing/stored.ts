/** The JSON the editing service keeps in a session row: the redo stack and the checkpoint; and its error mapping. */
import { type Checkpoint, HistoryEditError, type RedoSegment, type RedoStack } from '../domain/history-edits.js';
import { BranchError } from '../domain/tree.js';
import { DomainError } from '../store/errors.js';

/** metadata.redo: the domain's stack, plus the next_sequence it was valid at and what each undo re-promoted. */
export interface StoredRedo extends RedoStack {
  segments: (RedoSegment & { promoted?: number[] })[];
  /** sessions.next_sequence right after the last undo/revert/redo; any other append makes the stack stale */
  nextSequence?: number;
}

export interface CheckpointJson {
  goal: string;
  afterSequenceNumber: number;
  createdAt: string;
}

export function checkpointFromJson(value: unknown): Checkpoint | null {
  if (!value || typeof value !== 'object') return null;
  const j = value as Partial<CheckpointJson>;
  if (typeof j.goal !== 'string' || typeof j.afterSequenceNumber !== 'number' || typeof j.createdAt !== 'string')
    return null;
  return { goal: j.goal, afterSequenceNumber: j.afterSequenceNumber, createdAt: new Date(j.createdAt) };
}

export const checkpointToJson = (c: Checkpoint): CheckpointJson => ({
  goal: c.goal,
  afterSequenceNumber: c.afterSequenceNumber,
  createdAt: c.createdAt.toISOString(),
});

/** Domain plan errors become the contract's codes. */
export function domainError(error: unknown): unknown {
  if (error instanceof BranchError || error instanceof HistoryEditError)
    return new DomainError(error.code, error.message);
  return error;
}
