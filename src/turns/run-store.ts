/**
 * The store calls of one running turn: its session and profile, the context
 * rows shared by the checks of one model call, the turn row's checkpoint,
 * status and usage, and the session's per-call bookkeeping.
 */
import type { SessionMetadataPatch } from '../domain/session-metadata.js';
import { isActiveTurnStatus } from '../domain/turn-status.js';
import type { NewMessage, Usage } from '../domain/types.js';
import type { ProfileRow } from '../store/profiles.js';
import type { StoredMessage } from '../store/rows.js';
import type { SessionRow, SessionStore } from '../store/sessions.js';
import type { StoredToolCall, TurnRow, TurnStore } from '../store/turns.js';
import type { TurnLifecycle } from './lifecycle.js';

export class TurnRunStore {
  private contextRead: { sessionId: string; nextSequence: number | null; rows: Promise<StoredMessage[]> } | null = null;
  /** whether this run has stored a message (the turn's id is then taken) */
  private appended = false;

  constructor(
    private readonly sessions: SessionStore,
    private readonly turns: TurnStore,
    private readonly lifecycle: TurnLifecycle,
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

  /** The id the next answer saved takes, unless taken: none in the first model call (the turn's id), then the
   * tool loop's followingAnswerId (set by the runner after each round of tool results). */
  answerId: string | undefined;

  async append(sessionId: string, messages: NewMessage[]): Promise<StoredMessage[]> {
    this.forgetContext();
    const answerId = messages[0]?.role === 'assistant' ? this.answerId : undefined;
    // Only this run's first append can give the turn's id to its first message (`SessionStore.append`): later ones
    // skip the lookup unless they propose an answer id.
    const saved = await this.sessions.append(
      sessionId,
      messages,
      undefined,
      answerId ? { answerId } : this.appended ? {} : { turnId: this.turnId },
    );
    if (saved.length > 0) this.appended = true;
    return saved;
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

  /** RUNNING → WAITING_FOR_TOOL; false when the turn is no longer running (cancelled elsewhere). */
  waitForTools(pending: readonly StoredToolCall[]): Promise<boolean> {
    return this.lifecycle.waitForTools(this.turnId, pending);
  }

  resumeAfterTools(): Promise<boolean> {
    return this.lifecycle.resumeAfterTools(this.turnId);
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
  end(
    data: { status: Parameters<TurnLifecycle['end']>[1]; error: string | null },
    keepPartial = false,
  ): Promise<TurnRow | null> {
    // Cancelled from another process: the row already holds the same ending, still announce it.
    return this.lifecycle.endOwn(this.turnId, data.status, data.error, keepPartial);
  }
}
