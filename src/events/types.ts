/** JSON-safe event payloads. Dates are ISO strings; messages and turns are snapshots. */
import type { ToolCall, Usage } from '../domain/types.js';
import type { StoredMessage } from '../store/rows.js';
import type { CompressionReason, CompressionStrategy } from '../domain/compression-kinds.js';
import type { ErrorCode } from '../domain/error-codes.js';
import type { QueuedMessageKind, QueuedMessageStatus } from '../domain/queued-message.js';
import type { TitleSource } from '../domain/titles.js';
import type { TurnStatus } from '../domain/turn-status.js';

/** A stored message as an event carries it: createdAt as an ISO string. */
export type MessageJson = Omit<StoredMessage, 'createdAt'> & { createdAt: string };

export interface TurnJson {
  id: string;
  sessionId: string;
  status: TurnStatus;
  startedAt: string;
  endedAt: string | null;
  error: string | null;
  pendingToolCalls: ToolCall[];
}

/** A message waiting for the running turn (whileRunning QUEUE or STEER). */
export interface QueuedMessageJson {
  id: string;
  sessionId: string;
  kind: QueuedMessageKind;
  status: QueuedMessageStatus;
  content: string;
  createdAt: string;
  /** 1-based place in the session's queue; null once it left it */
  position: number | null;
  turnId: string | null;
  /** why its dispatch failed (status FAILED: parked after PENDING_MAX_ATTEMPTS failures) */
  failureReason?: string | null;
}

export type SessionEventBody =
  | { type: 'TurnStarted'; turn: TurnJson; userMessage: MessageJson }
  | { type: 'TextDelta'; turnId: string; text: string }
  | { type: 'ThinkingDelta'; turnId: string; text: string }
  | { type: 'ToolCallRequested'; turnId: string; toolCall: ToolCall; clientSide: boolean }
  | { type: 'MessageSaved'; turnId: string | null; message: MessageJson }
  | { type: 'CompressionStarted'; contextTokens: number; maxContextTokens: number }
  | {
      type: 'ContextCompressed';
      reason: CompressionReason;
      strategy: CompressionStrategy;
      summary: string;
      messagesBefore: number;
      messagesAfter: number;
      contextTokens: number;
      maxContextTokens: number;
      /** the fidelity receipt (src/domain/compression/receipt.ts) */
      receipt?: unknown;
    }
  | { type: 'SessionRenamed'; name: string; titleSource: TitleSource }
  | { type: 'TurnEnded'; turn: TurnJson; assistantMessage: MessageJson | null; usage: Usage }
  | { type: 'TurnFailed'; turn: TurnJson; code: ErrorCode; message: string }
  | { type: 'MessageQueued'; queued: QueuedMessageJson }
  | { type: 'QueuedMessageDispatched'; queuedId: string; turnId: string; steered: boolean }
  | { type: 'QueuedMessageCancelled'; queuedId: string }
  /** parked FAILED after PENDING_MAX_ATTEMPTS failed dispatches: it will not run */
  | { type: 'QueuedMessageFailed'; queuedId: string; failureReason: string }
  /** parked FAILED after PENDING_MAX_ATTEMPTS failed firings: it will not fire */
  | { type: 'RecallFailed'; recallId: string; failureReason: string }
  | { type: 'MessageSteered'; turnId: string; queuedId: string; message: MessageJson }
  | { type: 'TurnInterrupted'; turnId: string; byTurnId: string }
  /** a message's context mode changed (with its tool pair): Message global ids */
  | { type: 'MessageContextChanged'; mode: string; messageIds: string[] }
  /** never stored: told to a resuming subscriber whose cursor predates the log */
  | { type: 'EventsReset'; reason: 'RESTARTED' | 'TRIMMED' };

export type SessionEvent = SessionEventBody & { eventId: string; sessionId: string; at: string };

export interface SessionListEvent {
  kind: 'created' | 'renamed' | 'pinned' | 'deleted' | 'activity';
  sessionId: string;
  /** owner of the session, to route the event to the right lists */
  userId: string | null;
}
