/** What the editing service needs from outside the database (its ports), given by the composition root. */
import type { StoredBranch } from '../domain/tree.js';
import type { ChatMessage } from '../domain/types.js';
import type { StoredMessage } from '../store/rows.js';
import type { Tx } from '../store/sessions.js';
import type { TurnRow } from '../store/turns.js';

/** What an edit needs from outside the database, given by the composition root. */
export interface EditingHooks {
  /** runs an edit exclusively of compression passes on the same session (the shared session locks) */
  serialize<T>(sessionId: string, fn: () => Promise<T>): Promise<T>;
  /** copies a session's file directory to another session (fork) */
  copySessionFiles(fromSessionId: string, toSessionId: string): Promise<void>;
  /** starts the turn of an edit / regenerate (src/turns/service.ts) */
  turns: TurnStarter;
  /** MAX_MESSAGE_CHARS: an edited message obeys sendMessage's limit */
  maxMessageChars: number;
  /**
   * Prepared outside the edit's transaction: the check that refuses (CONTEXT_TOO_LARGE) PINNED rows that do not
   * fit the window after the output reserve and the system prompt (src/turns/prompt.ts pinnedFitCheck)
   */
  pinnedFitCheck(sessionId: string): Promise<(pinned: readonly ChatMessage[]) => Promise<void>>;
}

/** What edit / regenerate need from the turn service. */
export interface TurnStarter {
  assertAccepting(): void;
  /**
   * The one way a turn starts (TurnService.startTurn): `write` creates it through `door` in the edit's
   * transaction; an active turn answers CONFLICT. `userId: false`: the edit announces the list's activity itself.
   */
  startTurn(spec: {
    userId: false;
    write(door: {
      create(tx: Tx, data: { sessionId: string; userSequence: number }): Promise<TurnRow>;
    }): Promise<{ turn: TurnRow; userMessage: StoredMessage } | null>;
  }): Promise<{ turn: TurnRow; userMessage: StoredMessage } | null>;
}

/** What Message.siblings reads once per session and request. */
export interface SiblingSource {
  window: ChatMessage[];
  branches: StoredBranch[];
}
