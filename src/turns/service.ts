/**
 * Turns: sendMessage persists the user message and starts one runner per
 * session; cancel, client tool results, crash recovery. The loop itself is
 * in runner.ts.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import { isPlaceholderTitle } from '../domain/titles.js';
import { historyTitleUpdate } from '../sessions/history-title.js';
import type { NewMessage } from '../domain/types.js';
import type { EventBus } from '../events/bus.js';
import type { QueuedMessage, QueuedStore } from '../store/queued.js';
import type { SessionFiles } from '../files/store.js';
import type { Recall, RecallStore } from '../store/recalls.js';
import type { TurnRow as Turn, TurnStore } from '../store/turns.js';
import { isActiveTurnStatus, TurnStatus } from '../domain/turn-status.js';
import type { SessionAccess } from '../sessions/access.js';
import { BadInput, Conflict, DomainError, NotFound } from '../store/errors.js';
import type { Viewer } from '../domain/policy.js';
import type { SessionStore } from '../store/sessions.js';
import type { Logger } from 'pino';
import { Intake } from '../sessions/intake.js';
import { toolSchemaLimits } from './tool-schema.js';
import { validateClientTools } from './client-tools.js';
import { ErrorCode, type TurnEndCode } from '../domain/error-codes.js';
import { IdempotentAnswers } from './idempotency.js';
import { LocalRunners } from './local-runners.js';
import { PendingTurns, type SendResult } from './pending.js';
import { TurnRecovery } from './recovery.js';
import {
  EntriesWait,
  isUniqueViolation,
  type StartedTurn,
  TurnAlreadyRunning,
  type TurnStartSpec,
  startTurn,
} from './start.js';
import type { TurnLifecycle } from './lifecycle.js';
import {
  CancelledError,
  type ClientToolDefinition,
  ShutdownError,
  type StartRunner,
  instanceIdOf,
  type SendMessageInput,
  WHILE_RUNNING,
  type WhileRunning,
} from './types.js';

export type { ClientToolDefinition, PendingToolCall, RunningTurn, StartRunner } from './types.js';
export { CancelledError, ShutdownError } from './types.js';
export { turnJson } from './lifecycle.js';
export { provisionalMessage, queuedJson, type SendResult } from './pending.js';
export { INTERRUPTED_MESSAGE, SHUTDOWN_MESSAGE } from './recovery.js';
export { type StartedTurn, TurnAlreadyRunning, type TurnDoor, type TurnStartSpec } from './start.js';
export { instanceIdOf, type SendMessageInput, WHILE_RUNNING, type WhileRunning } from './types.js';

export interface TurnServiceDeps {
  store: SessionStore;
  turns: TurnStore;
  /** the only writer of turn status and publisher of turn events */
  lifecycle: TurnLifecycle;
  queued: QueuedStore;
  sessions: Pick<SessionAccess, 'readable' | 'writable'>;
  bus: EventBus;
  config: Config;
  files: SessionFiles;
  log: Logger;
  /** the server's own tools: a client tool may not take one of their names */
  serverTools: { get(name: string): unknown };
  /** starts the loop of one turn (runner.ts `turnRunnerFactory`) */
  startRunner: StartRunner;
  /**
   * The store belongs to this process alone (the embedded database, locked):
   * every active turn this process does not run was left by a previous one.
   */
  exclusiveStore: boolean;
}

export class TurnService {
  readonly processId = randomUUID();
  readonly instanceId: string | null;
  readonly exclusiveStore: boolean;
  private stopping = false;
  private readonly turnDoneListeners = new Set<(sessionId: string) => void>();
  private readonly store: SessionStore;
  private readonly turns: TurnStore;
  private readonly lifecycle: TurnLifecycle;
  readonly queued: QueuedStore;
  /** sessions an INTERRUPT is starting a turn in: the queue does not dispatch into them meanwhile */
  private readonly held = new Map<string, number>();
  private readonly sessions: TurnServiceDeps['sessions'];
  private readonly bus: EventBus;
  private readonly config: Config;
  private readonly log: Logger;
  private readonly serverTools: TurnServiceDeps['serverTools'];
  /** the one write path's checks (MAX_MESSAGE_CHARS, files, images) */
  readonly intake: Intake;
  private readonly runners: LocalRunners;
  private readonly keys: IdempotentAnswers;
  private readonly recovery: TurnRecovery;
  /** the doors of queued messages, steers and recalls */
  readonly pending: PendingTurns;

  constructor(deps: TurnServiceDeps) {
    this.intake = new Intake(deps.files, deps.config);
    this.store = deps.store;
    this.turns = deps.turns;
    this.lifecycle = deps.lifecycle;
    this.queued = deps.queued;
    this.sessions = deps.sessions;
    this.bus = deps.bus;
    this.config = deps.config;
    this.log = deps.log;
    this.serverTools = deps.serverTools;
    this.runners = new LocalRunners(deps.startRunner, deps.log, (sessionId) => this.notifyDone(sessionId));
    this.keys = new IdempotentAnswers(deps.turns, deps.queued, deps.store, deps.config);
    this.exclusiveStore = deps.exclusiveStore;
    this.instanceId = instanceIdOf(deps.config);
    this.recovery = new TurnRecovery({
      ...deps,
      processId: this.processId,
      instanceId: this.instanceId,
      isLocal: (turnId) => this.runners.has(turnId),
      ended: () => undefined,
    });
    this.pending = new PendingTurns({
      ...deps,
      starter: {
        startTurn: (spec) => this.startTurn(spec),
        sessionFree: (sessionId) => this.sessionFree(sessionId),
        isHeld: (sessionId) => this.held.has(sessionId),
        notify: (sessionId) => this.notifyDone(sessionId),
      },
    });
  }

  private notifyDone(sessionId: string): void {
    for (const listener of this.turnDoneListeners) listener(sessionId);
  }

  /** Fires a recall this process claimed (pending.ts). */
  fireRecall(recall: Recall, claimant: string, recalls: RecallStore): Promise<'fired' | 'busy' | 'lost'> {
    return this.pending.fireRecall(recall, claimant, recalls);
  }

  /** Dispatches a queue head this process claimed (pending.ts). */
  dispatchQueued(row: QueuedMessage, claimant: string): Promise<'dispatched' | 'busy' | 'lost'> {
    return this.pending.dispatchQueued(row, claimant);
  }

  /** The session's waiting messages, in the order they will run. */
  queuedMessages(sessionId: string, first?: number): Promise<QueuedMessage[]> {
    return this.pending.queuedMessages(sessionId, first);
  }

  /** The queue entry if the viewer may write its session; null otherwise. */
  findQueued(viewer: Viewer, id: string): Promise<QueuedMessage | null> {
    return this.pending.findQueued(viewer, id);
  }

  /** cancelQueuedMessage (pending.ts). */
  cancelQueued(viewer: Viewer, id: string): Promise<QueuedMessage> {
    return this.pending.cancelQueued(viewer, id);
  }

  /**
   * Calls `listener` whenever a local turn's runner has finished (the recall scheduler wakes for that session); returns
   * its removal.
   */
  onTurnDone(listener: (sessionId: string) => void): () => void {
    this.turnDoneListeners.add(listener);
    return () => void this.turnDoneListeners.delete(listener);
  }

  activeTurn(sessionId: string) {
    return this.turns.active(sessionId);
  }

  /** How many turns the session has had. */
  turnCount(sessionId: string): Promise<number> {
    return this.turns.countFor(sessionId);
  }

  /** The turn if the viewer may read its session; NOT_FOUND otherwise. */
  async readable(viewer: Viewer, turnId: string): Promise<Turn> {
    const turn = await this.turns.get(turnId);
    if (!turn) throw new NotFound('Turn');
    await this.sessions.readable(viewer, turn.sessionId).catch(() => {
      throw new NotFound('Turn');
    });
    return turn;
  }

  private async writableTurn(viewer: Viewer, turnId: string): Promise<Turn> {
    const turn = await this.turns.get(turnId);
    if (!turn) throw new NotFound('Turn');
    await this.sessions.writable(viewer, turn.sessionId).catch(() => {
      throw new NotFound('Turn');
    });
    return turn;
  }

  async sendMessage(viewer: Viewer, input: SendMessageInput): Promise<SendResult> {
    const session = await this.sessions.writable(viewer, input.sessionId);
    const policy: WhileRunning = input.whileRunning ?? 'REJECT';
    if (!WHILE_RUNNING.includes(policy)) throw new BadInput(`Unknown whileRunning ${String(policy)}`);
    // What enters the session obeys the one write path (src/sessions/intake.ts), whatever the policy.
    this.intake.check(input);
    const key = input.idempotencyKey?.trim() || null;
    if (key && key.length > 200) throw new BadInput('idempotencyKey must be at most 200 characters');
    const clientTools = validateClientTools(input.clientTools ?? [], this.serverTools, toolSchemaLimits(this.config));
    if (key) {
      const previous = await this.keys.resultForKey(session.id, key, true);
      if (previous) return previous;
    }
    if (this.stopping)
      throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'The server is shutting down; send the message again');
    let active = await this.activeTurn(session.id);
    // A turn our previous incarnation left running is ended here, so a restart never answers CONFLICT.
    if (active && this.leftByPreviousIncarnation(active) && (await this.endLeftTurn(active, ErrorCode.INTERRUPTED)))
      active = null;
    // One order whatever the door: QUEUE and STEER wait behind the running turn and behind a queue that has not
    // drained yet; REJECT refuses both; INTERRUPT goes ahead of the waiting entries.
    const queueWaits = active === null && policy !== 'INTERRUPT' && (await this.queued.hasWaiting(session.id));
    const wait = (policy === 'QUEUE' || policy === 'STEER') && (active !== null || queueWaits);
    if ((active || queueWaits) && policy === 'REJECT') {
      // The active turn may be this key's, committed after the lookup above: same request, same answer.
      const raced = key ? await this.keys.resultForKey(session.id, key, false) : null;
      if (raced) return raced;
      throw new Conflict(active ? 'A turn is already running in this session' : 'Queued messages wait in this session');
    }

    // Every check first, then the files: a refused message leaves nothing written.
    const { draft, removeWritten } = await this.intake.accept(session.id, input);

    if (wait) {
      const steer = policy === 'STEER' && active !== null;
      try {
        return await this.pending.enqueue(session.id, draft, clientTools, key, steer ? active : null);
      } catch (error) {
        await removeWritten();
        if (isUniqueViolation(error) && key) {
          const winner = await this.keys.resultForKey(session.id, key, false);
          if (winner) return winner;
        }
        throw error;
      }
    }

    // INTERRUPT holds the session's queue back (also with no turn running): its message runs next.
    const holding = policy === 'INTERRUPT';
    if (holding) this.hold(session.id);
    try {
      // A queue head dispatched just before the hold is the running turn INTERRUPT cancels.
      const interrupted = holding ? (active ?? (await this.activeTurn(session.id))) : null;
      if (interrupted) await this.interrupt(interrupted);
      const started = await this.startNow(session, draft, clientTools, key, removeWritten, !holding).catch(
        async (error: unknown) => {
          if (!(error instanceof EntriesWait)) throw error;
          // An entry was queued after the check above: REJECT refuses, QUEUE and STEER wait behind it.
          if (policy !== 'REJECT') return this.pending.enqueue(session.id, draft, clientTools, key, null);
          await removeWritten();
          throw new Conflict('Queued messages wait in this session');
        },
      );
      if (interrupted) await this.lifecycle.interrupted(session.id, interrupted.id, started.turn.id);
      return started;
    } finally {
      if (holding) this.unhold(session.id);
    }
  }

  private hold(sessionId: string) {
    this.held.set(sessionId, (this.held.get(sessionId) ?? 0) + 1);
  }

  private unhold(sessionId: string) {
    const n = (this.held.get(sessionId) ?? 1) - 1;
    if (n > 0) this.held.set(sessionId, n);
    else this.held.delete(sessionId);
    // The queue was held back while the new turn started: it looks again (and waits for that turn).
    this.notifyDone(sessionId);
  }

  /** INTERRUPT: the running turn is cancelled as cancelTurn does (its partial answer kept) and has ended. */
  private async interrupt(turn: Turn): Promise<void> {
    await this.runners.stop(turn.id, new CancelledError('interrupted'));
    // Another process's turn (or a runner slow to stop) is ended here; its runner sees it at its next heartbeat.
    await this.lifecycle.cancelActive(turn.id);
  }

  /** The user message and its turn, written at once (REJECT, INTERRUPT, and QUEUE/STEER with nothing to wait for). */
  private async startNow(
    session: { id: string; userId: string | null; titleSource: string },
    draft: NewMessage,
    clientTools: ClientToolDefinition[],
    key: string | null,
    removeWritten: () => Promise<unknown>,
    behindEntries: boolean,
  ): Promise<SendResult> {
    const hidden = draft.metadata?.hidden === true;
    let started: StartedTurn;
    try {
      started = (await this.startTurn({
        userId: session.userId,
        clientTools,
        retry: true,
        write: (door) =>
          this.store.transaction(async (tx) => {
            const [message] = await this.store.append(session.id, [draft], tx);
            // The append holds the session row, which an enqueue takes too: an entry committed before this
            // transaction is seen here, one after it waits for this turn (REJECT's check without a gap).
            if (behindEntries && (await this.queued.hasWaiting(session.id, tx))) throw new EntriesWait();
            const turn = await door.create(tx, {
              sessionId: session.id,
              userSequence: message!.sequenceNumber,
              idempotencyKey: key,
            });
            return { turn, userMessage: message! };
          }),
        announce: async () => {
          if (hidden || !isPlaceholderTitle(session)) return;
          // The placeholder gives way to a title from the FIRST prompt of the history (this one when it is the first).
          const title = await historyTitleUpdate(this.store.db, session).catch(() => null);
          // Conditional write: a manual rename that landed meanwhile wins.
          const written = title
            ? await this.store
                .renameIfTitleFrom(session.id, ['DEFAULT'], title.name, title.titleSource)
                // The turn is committed: a title that cannot be written now (a locked row) answers no error.
                .catch((err: unknown) => {
                  this.log.warn({ err, sessionId: session.id }, 'turn.title_skipped');
                  return false;
                })
            : false;
          if (title && written) {
            await this.bus.publish(session.id, { type: 'SessionRenamed', ...title });
            await this.bus.publishList({ kind: 'renamed', sessionId: session.id, userId: session.userId });
          }
        },
      }))!;
    } catch (error) {
      if (error instanceof EntriesWait) throw error;
      // Nothing half-written: files saved for this message go with it (reused images stay).
      await removeWritten();
      if (error instanceof TurnAlreadyRunning && key) {
        // The same idempotency key raced in: answer with the turn that won.
        const winner = await this.keys.resultForKey(session.id, key, false);
        if (winner) return winner;
      }
      throw error;
    }
    return { ...started, queued: null };
  }

  /** Refuses to start a turn during a graceful shutdown (edit / regenerate check it before they write). */
  assertAccepting(): void {
    if (this.stopping)
      throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'The server is shutting down; send the message again');
  }

  /**
   * Every door starts its turn here (send, INTERRUPT, a dispatched QUEUE or
   * STEER entry, a recall, edit, regenerate): the door's write creates the
   * turn through `door` (a new one, or its QUEUED one) with its user message
   * in one transaction; then, once committed, TurnStarted, the door's own
   * announcements, the session list's activity and the runner. A turn
   * already active in the session answers CONFLICT (TurnAlreadyRunning: the
   * one-active-turn index refused the write). With `retry`, a connection lost
   * around the commit is told apart by the turn's id, chosen here: committed
   * is the answer, otherwise the write runs again. Null when the door's write
   * found nothing to start (a claim lost).
   */
  startTurn(spec: TurnStartSpec): Promise<StartedTurn | null> {
    this.assertAccepting();
    return startTurn(spec, {
      lifecycle: this.lifecycle,
      store: this.store,
      turns: this.turns,
      bus: this.bus,
      log: this.log,
      launch: (turn, clientTools) => this.runners.launch(turn, clientTools),
      owner: { ownerProcess: this.processId, ownerInstance: this.instanceId },
    });
  }

  /**
   * A recall or queue entry this process claimed may start only in a session
   * with no active turn (one our previous incarnation left is ended first);
   * false: the claim is given back and waits for that turn to end.
   */
  private async sessionFree(sessionId: string): Promise<boolean> {
    if (this.stopping) return false;
    const active = await this.activeTurn(sessionId);
    return (
      !active || (this.leftByPreviousIncarnation(active) && (await this.endLeftTurn(active, ErrorCode.INTERRUPTED)))
    );
  }

  async cancel(viewer: Viewer, turnId: string): Promise<Turn> {
    const turn = await this.writableTurn(viewer, turnId);
    if (turn.status === TurnStatus.QUEUED) {
      // A queued turn is cancelled with its queue entry (cancelQueuedMessage).
      const row = await this.queued.forTurn(turn.id);
      if (row) await this.cancelQueued(viewer, row.id).catch(() => undefined);
      return (await this.turns.get(turn.id))!;
    }
    if (!isActiveTurnStatus(turn.status)) return turn;
    // Owned by another process: it sees the status at its next heartbeat and stops.
    if (!(await this.runners.stop(turn.id, new CancelledError()))) await this.lifecycle.cancelActive(turn.id);
    return (await this.turns.get(turn.id))!;
  }

  async submitToolResult(
    viewer: Viewer,
    input: { turnId: string; toolCallId: string; content: string; isError?: boolean | null; critical?: boolean | null },
  ): Promise<Turn> {
    const turn = await this.writableTurn(viewer, input.turnId);
    this.intake.text(input.content, 'Tool result');
    const updated = await this.turns.answerToolCall(turn.id, input.toolCallId, {
      content: input.content,
      isError: input.isError === true,
      critical: input.critical === true,
    });
    if (!updated) throw new BadInput(`Tool call ${input.toolCallId} is not pending on this turn`);
    this.runners.wake(turn.id);
    return updated;
  }

  /** Before a session is deleted: its running turn is cancelled and, when local, waited for. */
  async stopForDelete(sessionId: string): Promise<void> {
    const active = await this.activeTurn(sessionId);
    if (!active) return;
    await this.runners.stop(active.id, new CancelledError('session deleted'));
    await this.lifecycle.cancelActive(active.id);
  }

  /** Turns whose owner stopped beating (a crashed process) become INTERRUPTED with their partial text saved. */
  recoverOrphans(staleMs: number): Promise<number> {
    return this.recovery.recoverOrphans(staleMs);
  }

  /** At start: the turns this instance's previous incarnation left running end at once. */
  recoverOwn(): Promise<number> {
    return this.recovery.recoverOwn();
  }

  /** Ends a turn whose runner is gone (crash) or stopped (shutdown): recovery.ts. */
  endLeftTurn(turn: Turn, code: TurnEndCode): Promise<boolean> {
    return this.recovery.endLeftTurn(turn, code);
  }

  private leftByPreviousIncarnation(turn: Turn): boolean {
    return this.recovery.leftByPreviousIncarnation(turn);
  }

  /**
   * Graceful shutdown: no new turn starts; each running one stops, checkpoints
   * its partial answer and ends INTERRUPTED with code SHUTDOWN (not
   * CANCELLED: nobody asked), announced to its subscribers.
   */
  async shutdown(): Promise<number> {
    this.stopping = true;
    const ids = this.runners.ids();
    this.runners.abortAll(() => new ShutdownError());
    await this.drain();
    let ended = 0;
    for (const id of ids) {
      const turn = await this.turns.get(id);
      if (turn && isActiveTurnStatus(turn.status) && (await this.endLeftTurn(turn, ErrorCode.SHUTDOWN))) ended++;
    }
    return ended;
  }

  /** Waits for every local runner to finish (shutdown, tests). */
  drain(): Promise<void> {
    return this.runners.drain();
  }

  abortAll(): void {
    this.runners.abortAll(() => new CancelledError('shutdown'));
  }
}

export { DomainError };
