/**
 * The read side of history edits: where a message stands among its
 * alternatives, the branches, the tree, the checkpoint and the edit stats.
 * EditingService (./service.ts) adds the edits on top.
 */
import { editStatsFromTranscript, type EditStats } from '../domain/edit-stats.js';
import type { Checkpoint } from '../domain/history-edits.js';
import { type BranchSummary, type SiblingInfo, siblingsAt, type TreeRow, treeRows } from '../domain/tree.js';
import type { EditStore } from '../store/edits.js';
import type { SessionStore } from '../store/sessions.js';
import type { SiblingSource } from './ports.js';
import { checkpointFromJson } from './stored.js';

export class EditingReads {
  constructor(
    protected readonly store: SessionStore,
    protected readonly edits: EditStore,
  ) {}

  /**
   * Where the active row `sequenceNumber` stands among its alternatives
   * ({0, 1} without any). `memo` shares one read of the branches and the
   * rows after the oldest fork among the messages of one request.
   */
  async siblings(
    sessionId: string,
    sequenceNumber: number,
    memo?: Map<string, Promise<SiblingSource>>,
  ): Promise<SiblingInfo> {
    let source = memo?.get(sessionId);
    if (!source) {
      source = this.siblingSource(sessionId);
      memo?.set(sessionId, source);
    }
    const { window, branches } = await source;
    const found = branches.length > 0 ? siblingsAt(window, branches, sequenceNumber) : null;
    return found ? { index: found.index, count: found.siblings.length } : { index: 0, count: 1 };
  }

  protected async siblingSource(sessionId: string): Promise<SiblingSource> {
    const branches = await this.edits.branches(sessionId);
    if (branches.length === 0) return { window: [], branches };
    const oldestFork = Math.min(...branches.map((b) => b.baseSequence));
    return { window: await this.edits.rowsAfterNow(sessionId, oldestFork), branches };
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

  checkpoint(session: { checkpoint: unknown }): Checkpoint | null {
    return checkpointFromJson(session.checkpoint);
  }

  /** Rebuilt from the transcript every time: results matched to their calls by id. */
  async editStats(sessionId: string): Promise<EditStats> {
    return editStatsFromTranscript(await this.store.allMessages(sessionId));
  }
}
