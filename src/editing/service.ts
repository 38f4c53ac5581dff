/**
 * History edits behind the GraphQL layer: fork, undo / redo / revert,
 * branches, checkpoint / rewind, and the read side (branches, tree,
 * checkpoint, edit stats). Plans come from the pure domain (tree.ts,
 * history-edits.ts); this module applies them in one transaction that locks
 * the session row and refuses to run while a turn does (CONFLICT). Rules in
 * docs/editing.md.
 */
import { editStatsFromTranscript, type EditStats } from '../domain/edit-stats.js';
import {
  type Checkpoint,
  HistoryEditError,
  markCheckpoint,
  planRewind,
  popRedo,
  pushUndo,
  type RedoSegment,
  type RedoStack,
  revertRange,
  undoLastTurnRange,
} from '../domain/history-edits.js';
import { planContextRepair, restoredCoverage, rowsToPromote } from '../domain/summary-coverage.js';
import { forkTitle } from '../domain/titles.js';
import {
  BranchError,
  type BranchSummary,
  compactBranch,
  markBranch,
  onActiveTruncated,
  planSwitch,
  type StoredBranch,
  type TreeRow,
  treeRows,
} from '../domain/tree.js';
import type { ChatMessage } from '../domain/types.js';
import type { EventBus } from '../events/bus.js';
import type { SessionService } from '../sessions/service.js';
import type { EditStore, LockedSession } from '../store/edits.js';
import { BadInput, Conflict, DomainError, NotFound } from '../store/errors.js';
import type { StoredMessage } from '../store/rows.js';
import type { Viewer } from '../auth/policy.js';
import type { SessionRow, SessionStore, Tx } from '../store/sessions.js';
import { parseSessionMetadata, type SessionMetadataPatch } from '../domain/session-metadata.js';
import { ErrorCode } from '../domain/error-codes.js';

/** metadata.redo: the domain's stack, plus the next_sequence it was valid at and what each undo re-promoted. */
interface StoredRedo extends RedoStack {
  segments: (RedoSegment & { promoted?: number[] })[];
  /** sessions.next_sequence right after the last undo/revert/redo; any other append makes the stack stale */
  nextSequence?: number;
}

interface CheckpointJson {
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

const checkpointToJson = (c: Checkpoint): CheckpointJson => ({
  goal: c.goal,
  afterSequenceNumber: c.afterSequenceNumber,
  createdAt: c.createdAt.toISOString(),
});

/** Domain plan errors become the contract's codes. */
function domainError(error: unknown): unknown {
  if (error instanceof BranchError || error instanceof HistoryEditError)
    return new DomainError(error.code, error.message);
  return error;
}

/** What an edit needs from outside the database, given by the composition root. */
export interface EditingHooks {
  /** runs an edit exclusively of compression passes on the same session (the shared session locks) */
  serialize<T>(sessionId: string, fn: () => Promise<T>): Promise<T>;
  /** copies a session's file directory to another session (fork) */
  copySessionFiles(fromSessionId: string, toSessionId: string): Promise<void>;
}

export class EditingService {
  constructor(
    private readonly store: SessionStore,
    private readonly edits: EditStore,
    private readonly sessions: Pick<SessionService, 'writable'>,
    private readonly bus: EventBus,
    private readonly hooks: EditingHooks,
  ) {}

  /**
   * Runs one edit: the viewer must be able to write the session; the session
   * row is locked and no turn may be running (checked under the lock, so a
   * concurrent sendMessage either sees the edit or the edit sees its turn).
   */
  private async edit<T>(viewer: Viewer, id: string, fn: (tx: Tx, s: LockedSession) => Promise<T>): Promise<T> {
    const session = await this.sessions.writable(viewer, id);
    return this.hooks.serialize(session.id, () => this.editNow(session, fn));
  }

  private async editNow<T>(session: SessionRow, fn: (tx: Tx, s: LockedSession) => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await this.store.transaction(async (tx) => {
        const locked = await this.edits.lockSession(tx, session.id);
        if (!locked) throw new NotFound();
        if (await this.edits.hasActiveTurn(tx, session.id)) {
          throw new Conflict(
            'A turn is running in this session: wait for it to end (or cancel it) before editing the history',
          );
        }
        return fn(tx, locked);
      });
    } catch (error) {
      throw domainError(error);
    }
    await this.bus.publishList({ kind: 'activity', sessionId: session.id, userId: session.userId });
    return result;
  }

  private async reload(id: string): Promise<SessionRow> {
    const row = await this.store.get(id);
    if (!row) throw new NotFound();
    return row;
  }

  /**
   * Removes every row after `cut` and keeps the rest consistent: branches
   * that shared removed rows copy them; summaries that went re-promote what
   * they covered; a checkpoint past the cut is dropped. Returns the promoted
   * sequence numbers (a redo demotes them again).
   */
  private async cutTail(
    tx: Tx,
    s: LockedSession,
    cut: number,
    removed: StoredMessage[],
    rebased?: StoredBranch[],
  ): Promise<number[]> {
    await this.edits.deleteAfter(tx, s.id, cut);
    if (rebased) {
      for (const b of rebased) await this.edits.saveBranch(tx, s.id, b);
    } else {
      const branches = await this.edits.branches(s.id, tx);
      const after = onActiveTruncated(branches, cut, removed);
      for (let i = 0; i < after.length; i++)
        if (after[i] !== branches[i]) await this.edits.saveBranch(tx, s.id, after[i]!);
    }
    const promoted = await this.repairContext(tx, s.id, cut, removed);
    const checkpoint = checkpointFromJson(s.checkpoint);
    if (checkpoint && checkpoint.afterSequenceNumber > cut)
      await this.edits.updateState(tx, s.id, { checkpoint: null });
    return promoted;
  }

  /** Re-promotes what removed summaries (or context copies) covered; returns the promoted sequence numbers. */
  private async repairContext(
    tx: Tx,
    sessionId: string,
    cut: number,
    removed: readonly ChatMessage[],
  ): Promise<number[]> {
    const repair = planContextRepair(removed);
    if (repair.kind === 'none') return [];
    let promoted: number[];
    if (repair.kind === 'ranges') {
      const from = Math.min(...repair.ranges.map((r) => r[0]));
      const to = Math.min(cut, Math.max(...repair.ranges.map((r) => r[1])));
      promoted = rowsToPromote(await this.edits.repairCandidates(tx, sessionId, from, to), repair.ranges);
    } else {
      const after = await this.edits.newestLiveSummary(tx, sessionId, cut);
      promoted = rowsToPromote(await this.edits.repairCandidates(tx, sessionId, after + 1, cut), null);
    }
    await this.edits.setContextFlag(tx, sessionId, promoted, true);
    return promoted;
  }

  private redoStack(s: LockedSession): StoredRedo {
    return (parseSessionMetadata(s.metadata).redo as StoredRedo | undefined) ?? { segments: [] };
  }

  private async saveRedo(tx: Tx, s: LockedSession, stack: StoredRedo | null) {
    const next = (await this.edits.lockSession(tx, s.id))!.nextSequence;
    const metadata: SessionMetadataPatch =
      stack && stack.segments.length > 0 ? { set: { redo: { ...stack, nextSequence: next } } } : { remove: ['redo'] };
    await this.edits.updateState(tx, s.id, { metadata });
  }

  // ---- undo / redo / revert ----

  async undoLastTurn(viewer: Viewer, id: string): Promise<SessionRow> {
    await this.edit(viewer, id, async (tx, s) => {
      const userSeq = await this.edits.lastRealUserSequence(tx, s.id);
      if (userSeq === null) throw new BadInput('Nothing to undo: the session has no user turn');
      const prev = await this.edits.previousSequence(tx, s.id, userSeq);
      const window = await this.edits.rowsAfter(tx, s.id, prev - 1);
      const range = undoLastTurnRange(window)!;
      await this.removeForRedo(tx, s, range.cutAfterSequence, range.removed as StoredMessage[]);
    });
    return this.reload(id);
  }

  async revert(viewer: Viewer, id: string, sequenceNumber: number): Promise<SessionRow> {
    await this.edit(viewer, id, async (tx, s) => {
      const row =
        Number.isInteger(sequenceNumber) && sequenceNumber >= 0
          ? await this.edits.rowAt(tx, s.id, sequenceNumber)
          : null;
      if (!row) throw new BadInput(`No message with sequenceNumber ${sequenceNumber} in this session`);
      const range = revertRange([row, ...(await this.edits.rowsAfter(tx, s.id, sequenceNumber))], sequenceNumber);
      if (range.removed.length > 0)
        await this.removeForRedo(tx, s, range.cutAfterSequence, range.removed as StoredMessage[]);
    });
    return this.reload(id);
  }

  private async removeForRedo(tx: Tx, s: LockedSession, cut: number, removed: StoredMessage[]) {
    const promoted = await this.cutTail(tx, s, cut, removed);
    const stack = pushUndo(this.redoStack(s), { cutAfterSequence: cut, removed }) as StoredRedo;
    if (promoted.length > 0) stack.segments[stack.segments.length - 1] = { ...stack.segments.at(-1)!, promoted };
    await this.saveRedo(tx, s, stack);
  }

  async redo(viewer: Viewer, id: string): Promise<SessionRow> {
    const stale = await this.edit(viewer, id, async (tx, s) => {
      const stack = this.redoStack(s);
      if (stack.segments.length > 0 && stack.nextSequence !== undefined && stack.nextSequence !== s.nextSequence) {
        await this.saveRedo(tx, s, null); // a new turn since the undo: the undone future is gone
        return true;
      }
      const top = stack.segments.at(-1);
      const last = await this.edits.lastRow(tx, s.id);
      const popped = popRedo(stack, last ? [last] : []);
      await this.edits.insertRows(tx, s.id, popped.restore);
      await this.edits.setContextFlag(tx, s.id, top?.promoted ?? [], false);
      // Branches that copied these rows on undo share them again.
      const branches = await this.edits.branches(s.id, tx);
      for (const b of branches) {
        if (b.baseSequence !== popped.afterSequence) continue;
        const compact = compactBranch(popped.restore, b);
        if (compact !== b) await this.edits.saveBranch(tx, s.id, compact);
      }
      await this.saveRedo(tx, s, { ...stack, segments: popped.stack.segments });
      return false;
    });
    if (stale) throw new Conflict('Nothing to redo: a new message was added since the undo');
    return this.reload(id);
  }

  // ---- branches ----

  async markBranch(viewer: Viewer, id: string, name?: string | null): Promise<BranchSummary> {
    const branch = await this.edit(viewer, id, async (tx, s) => {
      const last = await this.edits.lastRow(tx, s.id);
      const b = markBranch(last ? [last] : [], await this.edits.branches(s.id, tx), name);
      await this.edits.saveBranch(tx, s.id, b);
      return b;
    });
    return {
      name: branch.name,
      messageCount: await this.edits.countUpTo(id, branch.baseSequence),
      createdAt: branch.createdAt,
    };
  }

  /**
   * Makes `name` the active path. Reads only the rows after the oldest fork
   * point, deletes the differing tail and inserts the target's own rows: the
   * cost follows the changed rows, not the history.
   */
  async switchBranch(viewer: Viewer, id: string, name: string): Promise<SessionRow> {
    await this.edit(viewer, id, async (tx, s) => {
      const branches = await this.edits.branches(s.id, tx);
      if (!branches.some((b) => b.name === name))
        throw new DomainError(ErrorCode.NOT_FOUND, `No branch named "${name}"`);
      const oldestFork = Math.min(...branches.map((b) => b.baseSequence));
      const window = await this.edits.rowsAfter(tx, s.id, oldestFork);
      const plan = planSwitch(window, branches, name);
      if (plan.noop) return;
      const removed = window.filter((m) => m.sequenceNumber > plan.deleteAfterSequence);
      await this.cutTail(tx, s, plan.deleteAfterSequence, removed, plan.rebased);
      await this.edits.deleteBranch(tx, s.id, plan.removeBranch);
      if (plan.keepOldAs) await this.edits.saveBranch(tx, s.id, plan.keepOldAs);
      await this.edits.insertRows(tx, s.id, plan.insert);
      await this.edits.demoteRanges(tx, s.id, restoredCoverage(plan.insert), plan.deleteAfterSequence);
      await this.saveRedo(tx, s, null);
    });
    return this.reload(id);
  }

  async branches(sessionId: string): Promise<BranchSummary[]> {
    const branches = await this.edits.branches(sessionId);
    return Promise.all(
      branches.map(async (b) => ({
        name: b.name,
        messageCount: (await this.edits.countUpTo(sessionId, b.baseSequence)) + b.suffix.length,
        createdAt: b.createdAt,
      })),
    );
  }

  async tree(sessionId: string): Promise<TreeRow[]> {
    const [active, branches] = await Promise.all([this.store.allMessages(sessionId), this.edits.branches(sessionId)]);
    return treeRows(active, branches);
  }

  // ---- checkpoint / rewind ----

  async markCheckpoint(viewer: Viewer, id: string, goal: string): Promise<Checkpoint> {
    return this.edit(viewer, id, async (tx, s) => {
      const last = await this.edits.lastRow(tx, s.id);
      const checkpoint = markCheckpoint(last ? [last] : [], goal);
      await this.edits.updateState(tx, s.id, { checkpoint: checkpointToJson(checkpoint) });
      return checkpoint;
    });
  }

  async rewind(viewer: Viewer, id: string, report: string): Promise<SessionRow> {
    await this.edit(viewer, id, async (tx, s) => {
      const checkpoint = checkpointFromJson(s.checkpoint);
      const window = checkpoint ? await this.edits.rowsAfter(tx, s.id, checkpoint.afterSequenceNumber) : [];
      const plan = planRewind(window, checkpoint, s.lastRewindReport, report);
      await this.cutTail(tx, s, plan.deleteAfterSequence, plan.removed as StoredMessage[]);
      await this.store.append(s.id, [plan.reportMessage], tx);
      await this.edits.updateState(tx, s.id, { checkpoint: null, lastRewindReport: plan.lastRewindReport });
      await this.saveRedo(tx, s, null);
    });
    return this.reload(id);
  }

  checkpoint(session: { checkpoint: unknown }): Checkpoint | null {
    return checkpointFromJson(session.checkpoint);
  }

  // ---- fork ----

  /**
   * A copy under a new id that diverges independently: every row (hot and
   * archived, flags and display indexes as they are), branches, checkpoint,
   * the raw-history chunks. Usage restarts at zero; the redo stack and the
   * fired stream rules belong to the original; the title gets ` (fork)`.
   */
  async fork(viewer: Viewer, id: string): Promise<SessionRow> {
    const source = await this.sessions.writable(viewer, id);
    const name = forkTitle(source.name);
    const forkId = await this.edit(viewer, id, async (tx, s) => {
      const { redo: _r, streamRules: _s, ...metadata } = s.metadata;
      const { id: newId } = await this.edits.fork(tx, s.id, {
        userId: viewer.userId,
        name,
        titleSource: name ? source.titleSource : 'DEFAULT',
        metadata,
      });
      // The fork owns copies of the attachments: deleting the original must not take them away.
      await this.edits.rebaseFilePaths(tx, newId, `session_files/${s.id}/`, `session_files/${newId}/`);
      await this.hooks.copySessionFiles(s.id, newId);
      return newId;
    });
    const created = await this.reload(forkId);
    await this.bus.publishList({ kind: 'created', sessionId: created.id, userId: created.userId });
    return created;
  }

  // ---- edit stats ----

  /** Rebuilt from the transcript every time: results matched to their calls by id. */
  async editStats(sessionId: string): Promise<EditStats> {
    return editStatsFromTranscript(await this.store.allMessages(sessionId));
  }
}
