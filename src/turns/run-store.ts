/**
 * The store calls of one running turn: its session and profile, the context
 * rows shared by the checks of one model call, the turn row's checkpoint,
 * status and usage, and the session's per-call bookkeeping.
 */
import type { SessionMetadataPatch } from '../domain/session-metadata.js';
import { type TurnStatus, isActiveTurnStatus } from '../domain/turn-status.js';
import type { NewMessage, Usage } from '../domain/types.js';
import type { ProfileRow } from '../store/profiles.js';
import type { StoredMessage } from '../store/rows.js';
import type { SessionRow, SessionStore } from '../store/sessions.js';
import type { StoredToolCall, TurnRow, TurnStore } from '../store/turns.js';

export class TurnRunStore {
  private contextRead: { sessionId: string; nextSequence: number | null; rows: Promise<StoredMessage[]> } | null = null;

  constructor(
    private readonly sessions: SessionStore,
    private readonly turns: TurnStore,
    private readonly profiles: { get(id: string): Promise<ProfileRow | null> },
    private readonly turnId: string,
  ) {}

  async session(sessionId: string): Promise<SessionRow> {
    return (await this.sessions.get(sessionId))!;
  }

  async profile(profileId: string): Promise<ProfileRow> {
    return (await this.profiles.get(profileId))!;
  }

  /**
   * The context rows, shared by the pre-call check, the recall and the call
   * until a write in this turn (or a compression in a hook) drops them. Each
   * use first reads the session's `next_sequence` (one row): a message added
   * meanwhile by anyone else (another process's compression, a recorded note)
   * moves it, and the context is read again. The counter is read before the
   * rows, so a write between the two only costs an extra read.
   */
  async context(sessionId: string): Promise<StoredMessage[]> {
    const nextSequence = await this.sessions.nextSequence(sessionId);
    const current = this.contextRead;
    if (current?.sessionId === sessionId && current.nextSequence === nextSequence && nextSequence !== null)
      return current.rows;
    const rows = this.sessions.context(sessionId);
    const read = { sessionId, nextSequence, rows };
    rows.catch(() => {
      if (this.contextRead === read) this.forgetContext();
    });
    this.contextRead = read;
    return rows;
  }

  forgetContext(): void {
    this.contextRead = null;
  }

  /**
   * One message of the context by sequence number (one row, not the whole context); null when it is not in the context.
   */
  async contextMessage(sessionId: string, sequenceNumber: number): Promise<StoredMessage | null> {
    const message = await this.sessions.message(sessionId, sequenceNumber);
    return message?.isContext ? message : null;
  }

  async updateMessageMetadata(
    sessionId: string,
    sequenceNumber: number,
    metadata: Record<string, unknown>,
  ): Promise<void> {
    this.forgetContext();
    await this.sessions.updateMessage(sessionId, sequenceNumber, { metadata });
  }

  append(sessionId: string, messages: NewMessage[]): Promise<StoredMessage[]> {
    this.forgetContext();
    return this.sessions.append(sessionId, messages);
  }

  /** Merges a metadata patch into the session; `session` (held by the run) takes the stored result. */
  async patchSessionMetadata(session: SessionRow, patch: SessionMetadataPatch): Promise<void> {
    const updated = await this.sessions.patchMetadata(session.id, patch);
    if (!updated) throw new Error(`session ${session.id} is gone`);
    session.metadata = updated.metadata;
  }

  /** After a model call: the session's calibration, usage and context size; the updated row. */
  async recordCall(
    sessionId: string,
    input: { metadata: SessionMetadataPatch; usage: Usage; contextTokenCount: number; turnUsage: Usage },
  ): Promise<SessionRow> {
    const updated = await this.sessions.recordCall(sessionId, input);
    if (!updated) throw new Error(`session ${sessionId} is gone`);
    await this.turns.setUsage(this.turnId, input.turnUsage);
    return updated;
  }

  appendPlanningLog(sessionId: string, entry: Record<string, unknown>): Promise<void> {
    return this.sessions.appendPlanningLog(sessionId, entry);
  }

  /** The partial answer and the heartbeat; false when the turn is no longer active (cancelled elsewhere). */
  checkpoint(text: string, thinking: string): Promise<boolean> {
    return this.turns.checkpoint(this.turnId, text, thinking);
  }

  clearPartial(): Promise<void> {
    return this.turns.clearPartial(this.turnId);
  }

  waitForTools(pending: readonly StoredToolCall[]): Promise<void> {
    return this.turns.waitForTools(this.turnId, pending);
  }

  resumeAfterTools(): Promise<void> {
    return this.turns.resumeAfterTools(this.turnId);
  }

  heartbeat(): Promise<void> {
    return this.turns.heartbeat(this.turnId);
  }

  /** The client's answer to a pending call: the result, null while none, 'ended' when the turn is no longer active. */
  async toolResult(toolCallId: string): Promise<StoredToolCall['result'] | null | 'ended'> {
    const turn = await this.turns.get(this.turnId);
    if (!turn || !isActiveTurnStatus(turn.status)) return 'ended';
    const call = ((turn.pendingToolCalls ?? []) as unknown as StoredToolCall[]).find((c) => c.id === toolCallId);
    return call?.result ?? null;
  }

  /**
   * Ends the turn only if it is still active: a turn another process already
   * interrupted or cancelled, or whose session was deleted, is left as it is.
   */
  async end(data: { status: TurnStatus; error: string | null }): Promise<TurnRow | null> {
    const ended = await this.turns.endIfActive(this.turnId, data).catch(() => null);
    if (ended) return ended;
    // Cancelled from another process: the row already holds the same ending, still announce it.
    const row = await this.turns.get(this.turnId);
    return row?.status === data.status ? row : null;
  }
}
