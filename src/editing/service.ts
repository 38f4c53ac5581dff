/**
 * History edits behind the GraphQL layer: fork, undo / redo / revert,
 * branches, checkpoint / rewind, and switching alternatives; the read side
 * (branches, tree, checkpoint, edit stats) is EditingReads (./reads.ts), which
 * this service extends. Plans come from the pure domain (tree.ts,
 * history-edits.ts); this module applies them in one transaction that locks
 * the session row and refuses to run while a turn does (CONFLICT). Rules in
 * docs/editing.md.
 */
import {
  type Checkpoint,
  markCheckpoint,
  planRewind,
  popRedo,
  pushUndo,
  revertRange,
  undoLastTurnRange,
} from '../domain/history-edits.js';
import { planContextRepair, restoredCoverage, rowsToPromote } from '../domain/summary-coverage.js';
import { forkTitle } from '../domain/titles.js';
import {
  type BranchSummary,
  compactBranch,
  markBranch,
  isTreeUserTurn,
  newestLeaf,
  onActiveTruncated,
  planCut,
  planSwitch,
  siblingsAt,
  type StoredBranch,
} from '../domain/tree.js';
import type { ChatMessage } from '../domain/types.js';
import { type ContextMode, withContextMode } from '../domain/context-mode.js';
import type { EventBus } from '../events/bus.js';
import type { SessionService } from '../sessions/service.js';
import type { EditStore, LockedSession } from '../store/edits.js';
import { BadInput, Conflict, DomainError, NotFound } from '../store/errors.js';
import type { StoredMessage } from '../store/rows.js';
import type { TurnRow } from '../store/turns.js';
import type { Viewer } from '../domain/policy.js';
import type { SessionRow, SessionStore, Tx } from '../store/sessions.js';
import { parseSessionMetadata, type SessionMetadataPatch } from '../domain/session-metadata.js';
import { checkMessageText } from '../sessions/intake.js';
import { ErrorCode } from '../domain/error-codes.js';
import { type MessageIdRef, messageGlobalId } from '../domain/message-ids.js';
import type { EditingHooks } from './ports.js';
import { EditingReads } from './reads.js';
import { checkpointFromJson, checkpointToJson, domainError, type StoredRedo } from './stored.js';

export type { EditingHooks, SiblingSource, TurnStarter } from './ports.js';
export { checkpointFromJson } from './stored.js';

export class EditingService extends EditingReads {
  constructor(
    store: SessionStore,
    edits: EditStore,
    private readonly sessions: Pick<SessionService, 'writable'>,
    private readonly bus: EventBus,
    private readonly hooks: EditingHooks,
  ) {
    super(store, edits);
  }

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
    // The real prompt count of a call whose prompt lost rows no longer measures anything: the meter estimates again.
    const baseline = parseSessionMetadata(s.metadata).baseline;
    if (baseline && removed.length > 0 && !(baseline.lastSequence !== undefined && baseline.lastSequence <= cut))
      await this.edits.updateState(tx, s.id, { metadata: { remove: ['baseline'] } });
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
      await this.switchNow(tx, s, branches, name);
    });
    return this.reload(id);
  }

  private async switchNow(tx: Tx, s: LockedSession, branches: StoredBranch[], name: string): Promise<void> {
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
  }

  // ---- siblings: edit, regenerate, switchSibling ----

  /**
   * Makes the alternative `index` at the active row `message` the current one (CONFLICT when `message` is not on
   * the active path, see activeRow): the branch holding it with the newest leaf is switched to (switchBranch's
   * rules). The current index is a no-op.
   */
  async switchSibling(viewer: Viewer, message: MessageIdRef, index: number): Promise<SessionRow> {
    const id = message.sessionId;
    await this.edit(viewer, id, async (tx, s) => {
      const row = await this.activeRow(tx, s, message);
      const branches = await this.edits.branches(s.id, tx);
      const window =
        branches.length > 0
          ? await this.edits.rowsAfter(tx, s.id, Math.min(...branches.map((b) => b.baseSequence)))
          : [];
      const found = branches.length > 0 ? siblingsAt(window, branches, row.sequenceNumber) : null;
      const count = found?.siblings.length ?? 1;
      if (!Number.isInteger(index) || index < 0 || index >= count)
        throw new BadInput(`index ${index} is out of range: this message has ${count} sibling(s)`);
      const target = found ? found.siblings[index]!.branches : null;
      if (target === null) return;
      await this.switchNow(tx, s, branches, newestLeaf(target).name);
    });
    return this.reload(id);
  }

  /**
   * A sibling of the user message `target` (on the active path): the rows from it on
   * become a branch, the edited text is appended at its position and a turn
   * answers it (committed together: a refused edit writes nothing).
   */
  async editMessage(
    viewer: Viewer,
    target: MessageIdRef,
    content: string,
  ): Promise<{ turn: TurnRow; userMessage: StoredMessage }> {
    if (content.trim() === '') throw new BadInput('Message must not be empty');
    checkMessageText(content, { maxMessageChars: this.hooks.maxMessageChars });
    return this.startAlternative(viewer, target.sessionId, async (tx, s) => {
      const row = await this.activeRow(tx, s, target);
      if (!isTreeUserTurn(row)) throw new BadInput('Only a message the user wrote can be edited');
      await this.cutForAlternative(tx, s, await this.edits.previousSequence(tx, s.id, row.sequenceNumber));
      const [userMessage] = await this.store.append(s.id, [{ role: 'user', content }], tx);
      return userMessage!;
    });
  }

  /**
   * Pins, excludes or resets one message (with its tool pair, so tool pairing stays valid). A pin that would
   * leave the pinned rows larger than the window after the output reserve and the system prompt is refused
   * (CONTEXT_TOO_LARGE, the hook checks). Tells subscribers (MessageContextChanged).
   */
  async setMessageContext(viewer: Viewer, target: MessageIdRef, mode: ContextMode): Promise<StoredMessage> {
    const id = target.sessionId;
    const fits = mode === 'PINNED' ? await this.hooks.pinnedFitCheck(id) : null;
    const { row, changed } = await this.edit(viewer, id, async (tx, s) => {
      const row = await this.activeRow(tx, s, target);
      const group = await this.edits.toolPairRows(tx, s.id, row);
      const sequences = group.map((m) => m.sequenceNumber);
      if (fits) {
        const pinned = (await this.edits.pinnedRows(tx, s.id)).filter((m) => !sequences.includes(m.sequenceNumber));
        await fits([...pinned, ...group].sort((a, b) => a.sequenceNumber - b.sequenceNumber));
      }
      await this.edits.setContextMode(tx, s.id, sequences, mode);
      return { row, changed: group.map((m) => m.messageId) };
    });
    const messageIds = changed.map((messageId) => messageGlobalId({ sessionId: id, messageId }));
    await this.bus.publish(id, { type: 'MessageContextChanged', mode, messageIds });
    return { ...row, metadata: withContextMode(row.metadata, mode) };
  }

  /** A sibling answer to the assistant message `target`: a new turn answering the user message before it. */
  async regenerate(viewer: Viewer, target: MessageIdRef): Promise<{ turn: TurnRow; userMessage: StoredMessage }> {
    return this.startAlternative(viewer, target.sessionId, async (tx, s) => {
      const row = await this.activeRow(tx, s, target);
      if (row.role !== 'assistant') throw new BadInput('Only an assistant message can be regenerated');
      const userSeq = await this.edits.userTurnBefore(tx, s.id, row.sequenceNumber);
      if (userSeq === null) throw new BadInput('Nothing to regenerate: no user message precedes this answer');
      await this.cutForAlternative(tx, s, userSeq);
      return (await this.edits.rowAt(tx, s.id, userSeq))!;
    });
  }

  private async startAlternative(
    viewer: Viewer,
    id: string,
    prepare: (tx: Tx, s: LockedSession) => Promise<StoredMessage>,
  ): Promise<{ turn: TurnRow; userMessage: StoredMessage }> {
    this.hooks.turns.assertAccepting();
    // A turn started in between: the partial unique index on active turns refuses this one (CONFLICT).
    const result = await this.hooks.turns.startTurn({
      userId: false,
      write: (door) =>
        this.edit(viewer, id, async (tx, s) => {
          const userMessage = await prepare(tx, s);
          const turn = await door.create(tx, { sessionId: s.id, userSequence: userMessage.sequenceNumber });
          return { turn, userMessage };
        }),
    });
    return result!;
  }

  /**
   * The row `target` names on the active path, read under the session lock. A message id that is not on it (the
   * message was edited, regenerated, undone, reverted or switched away from, and sits in a branch or the redo
   * stack) is CONFLICT, with `currentMessageId` the id of the active row at its position now (null when the path
   * is shorter): an edit never acts on whatever now sits where the client's message was. An old positional id
   * names no message version, so it is answered the same way. NOT_FOUND for an id the session does not hold.
   */
  private async activeRow(tx: Tx, s: LockedSession, target: MessageIdRef): Promise<StoredMessage> {
    let position: number | null;
    if ('messageId' in target) {
      const row = await this.edits.rowById(tx, s.id, target.messageId);
      if (row) return row;
      position = await this.positionOffPath(tx, s, target.messageId);
    } else {
      position = target.sequenceNumber;
      if (!(await this.edits.rowAt(tx, s.id, position))) position = null;
    }
    if (position === null) throw new NotFound('Message');
    const current = await this.edits.rowAt(tx, s.id, position);
    throw new Conflict(
      'This message is not on the current path of the session (it was edited, regenerated, undone or switched ' +
        'away from): reload the history; extensions.currentMessageId is the message at its place now',
      { currentMessageId: current ? messageGlobalId({ sessionId: s.id, messageId: current.messageId }) : null },
    );
  }

  /** The sequence number of a message held off the active path (a branch, the redo stack), or null. */
  private async positionOffPath(tx: Tx, s: LockedSession, messageId: string): Promise<number | null> {
    for (const b of await this.edits.branches(s.id, tx)) {
      const found = b.suffix.find((m) => m.messageId === messageId);
      if (found) return found.sequenceNumber;
    }
    for (const segment of this.redoStack(s).segments) {
      const found = segment.messages.find((m) => m.messageId === messageId);
      if (found) return found.sequenceNumber;
    }
    return null;
  }

  /** Removes the rows after `cut`, kept as a branch (unless one already holds them all); clears redo. */
  private async cutForAlternative(tx: Tx, s: LockedSession, cut: number): Promise<void> {
    const branches = await this.edits.branches(s.id, tx);
    const from = Math.min(cut, ...branches.map((b) => b.baseSequence));
    const window = await this.edits.rowsAfter(tx, s.id, from);
    const plan = planCut(window, branches, cut);
    await this.cutTail(tx, s, cut, plan.removed as StoredMessage[], plan.rebased);
    if (plan.keepOldAs) await this.edits.saveBranch(tx, s.id, plan.keepOldAs);
    await this.saveRedo(tx, s, null);
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
}
