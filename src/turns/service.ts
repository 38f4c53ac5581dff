/**
 * Turns: sendMessage persists the user message and starts one runner per
 * session; cancel, client tool results, crash recovery. The loop itself is
 * in runner.ts.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { applyHeuristicTitle, type TitleSource } from '../domain/titles.js';
import { makeMessage, type NewMessage, type ToolCall, type Usage, ZERO_USAGE } from '../domain/types.js';
import type { EventBus } from '../events/bus.js';
import type { QueuedMessageJson, TurnJson } from '../events/types.js';
import type { QueuedMessage, QueuedStore } from '../store/queued.js';
import { imageNotice, uploadNotice } from '../files/notices.js';
import type { SessionFiles, UploadLike } from '../files/store.js';
import type { Recall, RecallStore } from '../store/recalls.js';
import type { TurnRow as Turn, TurnStore } from '../store/turns.js';
import { isActiveTurnStatus, TurnStatus } from '../domain/turn-status.js';
import type { SessionAccess } from '../sessions/access.js';
import { messageJson } from '../sessions/service.js';
import { BadInput, Conflict, DomainError, NotFound } from '../store/errors.js';
import type { StoredMessage } from '../store/rows.js';
import type { Viewer } from '../auth/policy.js';
import type { SessionStore, Tx } from '../store/sessions.js';
import type { Logger } from 'pino';
import { closingToolResults, openToolCalls, TOOL_RESULT_SERVER_STOPPED } from './tool-pairing.js';
import { isConnectionError, RETRY_DELAYS_MS } from '../db/faults.js';
import { ErrorCode, type TurnEndCode } from '../domain/error-codes.js';

export interface ClientToolDefinition {
  name: string;
  description: string;
  parameters: unknown;
}

export interface SendMessageInput {
  sessionId: string;
  content: string;
  images?: UploadLike[] | null;
  files?: UploadLike[] | null;
  hidden?: boolean | null;
  clientTools?: ClientToolDefinition[] | null;
  idempotencyKey?: string | null;
  /** what happens when a turn is already running (default REJECT) */
  whileRunning?: WhileRunning | null;
}

/** sendMessage while a turn runs: refuse (CONFLICT), wait in the queue, cancel it, or join it. */
export const WHILE_RUNNING = ['REJECT', 'QUEUE', 'INTERRUPT', 'STEER'] as const;
export type WhileRunning = (typeof WHILE_RUNNING)[number];

/** What sendMessage answers: the turn that answers the message, the message, and its queue entry if it waits. */
export interface SendResult {
  turn: Turn;
  /** stored, or (queued) the message as it will be stored, sequenceNumber -1 */
  userMessage: StoredMessage;
  queued: QueuedMessage | null;
}

export function queuedJson(row: QueuedMessage, position: number | null): QueuedMessageJson {
  return {
    id: row.id,
    sessionId: row.sessionId,
    kind: row.kind,
    status: row.status,
    content: row.content,
    createdAt: row.createdAt.toISOString(),
    position,
    turnId: row.turnId,
  };
}

export interface PendingToolCall extends ToolCall {
  clientSide: boolean;
  result?: { content: string; isError: boolean; critical: boolean };
}

export function turnJson(turn: Turn): TurnJson {
  return {
    id: turn.id,
    sessionId: turn.sessionId,
    status: turn.status,
    startedAt: turn.startedAt.toISOString(),
    endedAt: turn.endedAt?.toISOString() ?? null,
    error: turn.error,
    pendingToolCalls: ((turn.pendingToolCalls ?? []) as unknown as PendingToolCall[])
      .filter((c) => c.clientSide && !c.result)
      .map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
  };
}

/** What a running turn exposes to the service: abort and tool-result wake-ups. */
export interface RunningTurn {
  controller: AbortController;
  done: Promise<void>;
  wake: () => void;
}

export type StartRunner = (turn: Turn, clientTools: ClientToolDefinition[]) => RunningTurn;

/** The stable identity of a server process: its turns left running by a crash are recognised on restart. */
export function instanceIdOf(config: Pick<Config, 'instanceId' | 'port'>): string | null {
  if (config.instanceId) return config.instanceId;
  // Two processes cannot listen on one host:port, so that pair names one process across restarts; port 0 names none.
  return config.port !== 0 ? `${hostname()}:${config.port}` : null;
}

export const SHUTDOWN_MESSAGE =
  'The server shut down while this turn was running; the partial answer is saved. Send the message again.';
export const INTERRUPTED_MESSAGE = 'The server stopped while this turn was running';

export interface TurnServiceDeps {
  store: SessionStore;
  turns: TurnStore;
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
  private readonly running = new Map<string, RunningTurn>();
  private readonly turnDoneListeners = new Set<(sessionId: string) => void>();
  private readonly store: SessionStore;
  private readonly turns: TurnStore;
  readonly queued: QueuedStore;
  /** sessions an INTERRUPT is starting a turn in: the queue does not dispatch into them meanwhile */
  private readonly held = new Map<string, number>();
  private readonly sessions: TurnServiceDeps['sessions'];
  private readonly bus: EventBus;
  private readonly config: Config;
  private readonly files: SessionFiles;
  private readonly log: Logger;
  private readonly serverTools: TurnServiceDeps['serverTools'];
  private readonly startRunner: StartRunner;

  constructor(deps: TurnServiceDeps) {
    this.store = deps.store;
    this.turns = deps.turns;
    this.queued = deps.queued;
    this.sessions = deps.sessions;
    this.bus = deps.bus;
    this.config = deps.config;
    this.files = deps.files;
    this.log = deps.log;
    this.serverTools = deps.serverTools;
    this.startRunner = deps.startRunner;
    this.exclusiveStore = deps.exclusiveStore;
    this.instanceId = instanceIdOf(deps.config);
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
    const content = input.content ?? '';
    const hidden = input.hidden === true;
    const images = hidden ? [] : (input.images ?? []);
    const files = hidden ? [] : (input.files ?? []);
    const policy: WhileRunning = input.whileRunning ?? 'REJECT';
    if (!WHILE_RUNNING.includes(policy)) throw new BadInput(`Unknown whileRunning ${String(policy)}`);
    if (content.trim() === '' && images.length === 0 && files.length === 0)
      throw new BadInput('Message must not be empty');
    if (content.length > this.config.maxMessageChars) {
      throw new BadInput(`Message is longer than ${this.config.maxMessageChars} characters`);
    }
    const key = input.idempotencyKey?.trim() || null;
    if (key && key.length > 200) throw new BadInput('idempotencyKey must be at most 200 characters');
    const clientTools = validateClientTools(input.clientTools ?? [], this.serverTools);
    if (key) {
      const previous = await this.resultForKey(session.id, key, true);
      if (previous) return previous;
    }
    if (this.stopping)
      throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'The server is shutting down; send the message again');
    let active = await this.activeTurn(session.id);
    // A turn our previous incarnation left running is ended here, so a restart never answers CONFLICT.
    if (active && this.leftByPreviousIncarnation(active) && (await this.endLeftTurn(active, ErrorCode.INTERRUPTED)))
      active = null;
    // QUEUE and STEER wait behind the running turn, and behind a queue that has not drained yet.
    const wait =
      (policy === 'QUEUE' || policy === 'STEER') && (active !== null || (await this.queued.hasWaiting(session.id)));
    if (active && policy === 'REJECT') {
      // The active turn may be this key's, committed after the lookup above: same request, same answer.
      const raced = key ? await this.resultForKey(session.id, key, false) : null;
      if (raced) return raced;
      throw new Conflict('A turn is already running in this session');
    }

    // Files first: a rejected upload leaves nothing written.
    const uploaded = files.length > 0 ? await this.files.saveUploads(session.id, files) : [];
    const imageBytes = await Promise.all(
      images.map(async (f) => new Uint8Array(await new Response(f.stream()).arrayBuffer())),
    );
    const savedImages = (await this.files.savePastedImages(session.id, imageBytes)).filter((s) => s !== null);
    const notices: string[] = [];
    if (uploaded.length > 0) notices.push(uploadNotice(uploaded.map((u) => u.relPath)));
    const imagePaths = savedImages.map((s) => s.relPath);
    const draft: NewMessage = {
      role: 'user',
      content,
      isDisplay: !hidden,
      isContext: true,
      files: uploaded.map((u) => u.relPath),
      images: imagePaths,
      metadata: {
        ...(notices.length > 0 && { contextNotice: notices.join('\n') }),
        ...(imagePaths.length > 0 && { imageNotice: imageNotice(imagePaths, []) }),
        ...(hidden && { hidden: true }),
      },
    };
    const removeWritten = () =>
      Promise.all(
        [...uploaded.map((u) => u.relPath), ...savedImages.filter((i) => !i.reused).map((i) => i.relPath)].map((rel) =>
          rm(join(this.files.root, rel), { force: true }).catch(() => undefined),
        ),
      );

    if (wait) {
      const steer = policy === 'STEER' && active !== null;
      try {
        return await this.enqueue(session.id, draft, clientTools, key, steer ? active : null);
      } catch (error) {
        await removeWritten();
        if (isUniqueViolation(error) && key) {
          const winner = await this.resultForKey(session.id, key, false);
          if (winner) return winner;
        }
        throw error;
      }
    }

    let interrupted: Turn | null = null;
    if (active && policy === 'INTERRUPT') {
      this.hold(session.id);
      interrupted = active;
    }
    try {
      if (interrupted) await this.interrupt(interrupted);
      const started = await this.startNow(session, draft, clientTools, key, removeWritten);
      if (interrupted) {
        await this.bus.publish(session.id, {
          type: 'TurnInterrupted',
          turnId: interrupted.id,
          byTurnId: started.turn.id,
        });
      }
      return started;
    } finally {
      if (interrupted) this.unhold(session.id);
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
    for (const listener of this.turnDoneListeners) listener(sessionId);
  }

  /** INTERRUPT: the running turn is cancelled as cancelTurn does (its partial answer kept) and has ended. */
  private async interrupt(turn: Turn): Promise<void> {
    const local = this.running.get(turn.id);
    if (local) {
      local.controller.abort(new CancelledError('interrupted'));
      await Promise.race([local.done, new Promise((r) => setTimeout(r, 5_000))]);
    }
    // Another process's turn (or a runner slow to stop) is ended here; its runner sees it at its next heartbeat.
    await this.turns.cancelIfActive(turn.id);
  }

  /** The user message and its turn, written at once (REJECT, INTERRUPT, and QUEUE/STEER with nothing to wait for). */
  private async startNow(
    session: { id: string; userId: string | null; titleSource: string },
    draft: NewMessage,
    clientTools: ClientToolDefinition[],
    key: string | null,
    removeWritten: () => Promise<unknown>,
  ): Promise<SendResult> {
    const content = draft.content;
    const hidden = draft.metadata?.hidden === true;
    let turn: Turn;
    let userMessage: StoredMessage;
    // The turn's id is chosen here, so a connection lost around the commit can be told apart:
    // the turn exists (committed: answer it) or not (nothing was written: run the write again).
    const turnId = randomUUID();
    try {
      ({ turn, userMessage } = await this.writeOnce(turnId, () =>
        this.store.transaction(async (tx) => {
          const [message] = await this.store.append(session.id, [draft], tx);
          const created = await this.turns.create(
            {
              id: turnId,
              sessionId: session.id,
              idempotencyKey: key,
              userSequence: message!.sequenceNumber,
              ownerProcess: this.processId,
              ownerInstance: this.instanceId,
            },
            tx,
          );
          return { turn: created, userMessage: message! };
        }),
      ));
    } catch (error) {
      // Nothing half-written: files saved for this message go with it (reused images stay).
      await removeWritten();
      if (isUniqueViolation(error) && key) {
        // The same idempotency key raced in: answer with the turn that won.
        const winner = await this.resultForKey(session.id, key, false);
        if (winner) return winner;
      }
      if (isUniqueViolation(error)) throw new Conflict('A turn is already running in this session');
      throw error;
    }

    await this.bus.publish(session.id, {
      type: 'TurnStarted',
      turn: turnJson(turn),
      userMessage: messageJson(userMessage),
    });
    if (!hidden && content.trim()) {
      const title = applyHeuristicTitle(session.titleSource as TitleSource, content);
      // Conditional write: a manual rename that landed meanwhile wins.
      const written = title
        ? await this.store
            .renameIfTitleFrom(session.id, ['DEFAULT'], title.name, title.titleSource)
            // The turn is committed: a title that cannot be written now (a locked row) must not answer an error.
            .catch((err: unknown) => (this.log.warn({ err, sessionId: session.id }, 'turn.title_skipped'), false))
        : false;
      if (title && written) {
        await this.bus.publish(session.id, { type: 'SessionRenamed', ...title });
        await this.bus.publishList({ kind: 'renamed', sessionId: session.id, userId: session.userId });
      }
    }
    await this.bus.publishList({ kind: 'activity', sessionId: session.id, userId: session.userId });
    this.launch(turn, clientTools);
    return { turn, userMessage, queued: null };
  }

  /** Refuses to start a turn during a graceful shutdown (edit / regenerate check it before they write). */
  assertAccepting(): void {
    if (this.stopping)
      throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'The server is shutting down; send the message again');
  }

  /** A turn answering the user message at `userSequence`, in the caller's transaction (edit, regenerate). */
  createTurn(tx: Tx, sessionId: string, userSequence: number): Promise<Turn> {
    return this.turns.create(
      {
        id: randomUUID(),
        sessionId,
        userSequence,
        ownerProcess: this.processId,
        ownerInstance: this.instanceId,
      },
      tx,
    );
  }

  /** After the transaction that created `turn` committed: announce it and run it. */
  async started(turn: Turn, userMessage: StoredMessage): Promise<void> {
    await this.bus.publish(turn.sessionId, {
      type: 'TurnStarted',
      turn: turnJson(turn),
      userMessage: messageJson(userMessage),
    });
    this.launch(turn, []);
  }

  private launch(turn: Turn, clientTools: ClientToolDefinition[]): void {
    const runner = this.startRunner(turn, clientTools);
    this.running.set(turn.id, runner);
    void runner.done
      .catch((error) => this.log.error({ err: error, turnId: turn.id }, 'turn.runner_crashed'))
      .finally(() => {
        this.running.delete(turn.id);
        for (const listener of this.turnDoneListeners) listener(turn.sessionId);
      });
  }

  /**
   * Fires a recall this process claimed: in one transaction the row is
   * locked (still CLAIMED by `claimant`, or nothing happens: 'lost'), the
   * is_recall user message appended, its turn created and the row marked
   * FIRED. So the message exists exactly when the recall is FIRED, and a
   * crash before the commit leaves only the claim, which expires. A session
   * whose turn is running gives the claim back ('busy'): the recall waits
   * for that turn to end, then fires.
   */
  async fireRecall(recall: Recall, claimant: string, recalls: RecallStore): Promise<'fired' | 'busy' | 'lost'> {
    if (this.stopping) {
      await recalls.release(recall.id, claimant);
      return 'busy';
    }
    const active = await this.activeTurn(recall.sessionId);
    if (
      active &&
      !(this.leftByPreviousIncarnation(active) && (await this.endLeftTurn(active, ErrorCode.INTERRUPTED)))
    ) {
      await recalls.release(recall.id, claimant);
      return 'busy';
    }
    const turnId = randomUUID();
    const write = () =>
      this.store.transaction(async (tx) => {
        const row = await recalls.lockClaimed(tx, recall.id, claimant);
        if (!row) return null;
        const [message] = await this.store.append(
          row.sessionId,
          [
            {
              role: 'user',
              content: row.text,
              isRecall: true,
              metadata: {
                recallId: row.id,
                recallSource: row.source,
                dueAt: row.dueAt.toISOString(),
                contextNotice: `[Scheduled recall: this message was scheduled at ${row.createdAt.toISOString()} ${
                  row.source === 'MODEL' ? 'by you (schedule_recall)' : 'by the user'
                } to arrive at ${row.dueAt.toISOString()}; it is arriving now. Act on it.]`,
              },
            },
          ],
          tx,
        );
        const turn = await this.turns.create(
          {
            id: turnId,
            sessionId: row.sessionId,
            userSequence: message!.sequenceNumber,
            ownerProcess: this.processId,
            ownerInstance: this.instanceId,
          },
          tx,
        );
        await recalls.markFired(tx, row.id, message!.sequenceNumber, turn.id);
        return { turn, message: message! };
      });
    let fired: { turn: Turn; message: StoredMessage } | null;
    try {
      fired = await write();
    } catch (error) {
      if (isUniqueViolation(error)) {
        // A turn started between the check and the write: wait for it.
        await recalls.release(recall.id, claimant);
        return 'busy';
      }
      if (!isConnectionError(error)) throw error;
      // Lost around the commit: committed means FIRED with this turn; otherwise the claim stands and expires.
      const row = await recalls.get(recall.id);
      if (row?.status !== 'FIRED' || row.turnId !== turnId || row.messageSequence === null) throw error;
      const turn = await this.turns.get(turnId);
      const message = await this.store.message(row.sessionId, row.messageSequence);
      if (!turn || !message) throw error;
      fired = { turn, message };
    }
    if (!fired) return 'lost';
    const { turn, message } = fired;
    await this.bus.publish(turn.sessionId, {
      type: 'TurnStarted',
      turn: turnJson(turn),
      userMessage: messageJson(message),
    });
    const session = await this.store.get(turn.sessionId);
    if (session) await this.bus.publishList({ kind: 'activity', sessionId: session.id, userId: session.userId });
    this.log.info({ recallId: recall.id, sessionId: turn.sessionId, turnId: turn.id }, 'recall.fired');
    this.launch(turn, []);
    return 'fired';
  }

  /**
   * The turn an idempotency key already started, with its user message. With
   * `expire`, a key past the window (or whose message is gone) is released so
   * the request starts a new turn; a racing request never releases it.
   */
  /**
   * Runs the write that creates turn `turnId`. A connection lost before the
   * answer arrived is retried only when the turn was not committed; when it
   * was, the committed turn is the answer. So a write that committed never
   * answers an error, and one that did not is not lost to a blip.
   */
  private async writeOnce(turnId: string, write: () => Promise<{ turn: Turn; userMessage: StoredMessage }>) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        if (!isConnectionError(error) || attempt >= RETRY_DELAYS_MS.length) throw error;
        this.log.warn({ err: error, turnId, attempt }, 'turn.write_connection_lost');
        const committed = await this.turns.get(turnId);
        if (committed && committed.userSequence !== null) {
          const message = await this.store.message(committed.sessionId, committed.userSequence);
          if (message) return { turn: committed, userMessage: message };
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
      }
    }
  }

  /**
   * The answer an idempotency key already gave (see turnForKey): a turn with
   * its message, a QUEUED turn with its queue entry, or a STEER entry.
   */
  private async resultForKey(sessionId: string, key: string, expire: boolean): Promise<SendResult | null> {
    const windowMs = this.config.idempotencyWindowHours * 3_600_000;
    const previous = await this.turns.forIdempotencyKey(sessionId, key);
    if (previous && previous.status === TurnStatus.QUEUED && Date.now() - previous.startedAt.getTime() < windowMs) {
      const row = await this.queued.forTurn(previous.id);
      if (row) return { turn: previous, userMessage: provisionalMessage(row), queued: row };
    }
    if (previous) {
      const found = await this.turnForKey(sessionId, key, expire);
      return found && { ...found, queued: null };
    }
    const row = await this.queued.forIdempotencyKey(sessionId, key);
    if (!row) return null;
    const turn = row.turnId ? await this.turns.get(row.turnId) : null;
    if (turn && Date.now() - row.createdAt.getTime() < windowMs) {
      const message = row.messageSequence === null ? null : await this.store.message(sessionId, row.messageSequence);
      if (message || row.messageSequence === null)
        return { turn, userMessage: message ?? provisionalMessage(row), queued: row };
    }
    if (expire) await this.queued.releaseIdempotencyKey(row.id);
    return null;
  }

  /**
   * QUEUE: a QUEUED turn and its queue entry, written together; STEER: the
   * entry alone, naming the running turn it joins. Nothing is appended to the
   * history until the message is dispatched (or steered).
   */
  private async enqueue(
    sessionId: string,
    draft: NewMessage,
    clientTools: ClientToolDefinition[],
    key: string | null,
    steerInto: Turn | null,
  ): Promise<SendResult> {
    const { row, turn } = await this.store.transaction(async (tx) => {
      const turn =
        steerInto ??
        (await this.turns.create(
          {
            id: randomUUID(),
            sessionId,
            userSequence: null,
            ownerProcess: null,
            ownerInstance: null,
            idempotencyKey: key,
            status: TurnStatus.QUEUED,
          },
          tx,
        ));
      const row = await this.queued.create(
        {
          id: randomUUID(),
          sessionId,
          kind: steerInto ? 'STEER' : 'QUEUE',
          content: draft.content,
          message: draft,
          clientTools,
          idempotencyKey: steerInto ? key : null,
          turnId: turn.id,
        },
        tx,
      );
      return { row, turn };
    });
    const position = await this.queued.position(row);
    await this.bus.publish(sessionId, { type: 'MessageQueued', queued: queuedJson(row, position) });
    this.log.info({ sessionId, queuedId: row.id, kind: row.kind, position }, 'queue.added');
    // The running turn may have ended meanwhile: the dispatcher looks now.
    for (const listener of this.turnDoneListeners) listener(sessionId);
    return { turn, userMessage: provisionalMessage(row), queued: row };
  }

  /** The session's waiting messages, in the order they will run. */
  async queuedMessages(sessionId: string, first?: number): Promise<QueuedMessage[]> {
    return this.queued.waiting(sessionId, first);
  }

  /** The queue entry if the viewer may write its session; null otherwise. */
  async findQueued(viewer: Viewer, id: string): Promise<QueuedMessage | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const row = await this.queued.get(id);
    if (!row) return null;
    return (await this.sessions.writable(viewer, row.sessionId).then(
      () => true,
      () => false,
    ))
      ? row
      : null;
  }

  /**
   * cancelQueuedMessage: a waiting entry → CANCELLED (its QUEUED turn too, in
   * the same transaction). Again: the same answer; one already dispatched
   * answers CONFLICT (its message is in the history).
   */
  async cancelQueued(viewer: Viewer, id: string): Promise<QueuedMessage> {
    const row = await this.findQueued(viewer, id);
    if (!row) throw new NotFound('QueuedMessage');
    const cancelled = await this.store.transaction(async (tx) => {
      const done = await this.queued.cancel(id, tx);
      if (done?.kind === 'QUEUE' && done.turnId) await this.turns.cancelQueued(done.turnId, tx);
      return done;
    });
    if (cancelled) {
      await this.bus.publish(row.sessionId, { type: 'QueuedMessageCancelled', queuedId: id });
      this.log.info({ sessionId: row.sessionId, queuedId: id }, 'queue.cancelled');
      return cancelled;
    }
    const now = await this.queued.get(id);
    if (!now) throw new NotFound('QueuedMessage');
    if (now.status === 'CANCELLED') return now;
    throw new Conflict('The queued message has already been sent; it is in the history');
  }

  /**
   * Dispatches a queue head this process claimed, like fireRecall: in one
   * transaction the row is locked (still CLAIMED by `claimant`, or nothing
   * happens: 'lost'), the user message appended, its turn started (the QUEUED
   * turn of a QUEUE entry; a new one for a STEER entry no turn took) and the
   * row marked DISPATCHED. A session with a running turn gives the claim back
   * ('busy'): the entry waits for that turn to end.
   */
  async dispatchQueued(row: QueuedMessage, claimant: string): Promise<'dispatched' | 'busy' | 'lost'> {
    if (this.stopping || this.held.has(row.sessionId)) {
      await this.queued.release(row.id, claimant);
      return 'busy';
    }
    const active = await this.activeTurn(row.sessionId);
    if (
      active &&
      !(this.leftByPreviousIncarnation(active) && (await this.endLeftTurn(active, ErrorCode.INTERRUPTED)))
    ) {
      await this.queued.release(row.id, claimant);
      return 'busy';
    }
    const owner = { ownerProcess: this.processId, ownerInstance: this.instanceId };
    let dispatched: { turn: Turn; message: StoredMessage } | null;
    try {
      dispatched = await this.store.transaction(async (tx) => {
        const locked = await this.queued.lockClaimed(tx, row.id, claimant);
        if (!locked) return null;
        const [message] = await this.store.append(locked.sessionId, [locked.message as unknown as NewMessage], tx);
        const sequence = message!.sequenceNumber;
        const turn =
          locked.kind === 'QUEUE' && locked.turnId
            ? await this.turns.startQueued(tx, locked.turnId, { userSequence: sequence, ...owner })
            : await this.turns.create(
                { id: randomUUID(), sessionId: locked.sessionId, userSequence: sequence, ...owner },
                tx,
              );
        // A QUEUED turn is cancelled only with its entry, which the lock above found waiting.
        if (!turn) throw new Error(`Queued turn ${locked.turnId} is no longer QUEUED`);
        await this.queued.markDispatched(tx, locked.id, turn.id, sequence);
        return { turn, message: message! };
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        // A turn started between the check and the write: wait for it.
        await this.queued.release(row.id, claimant);
        return 'busy';
      }
      throw error;
    }
    if (!dispatched) return 'lost';
    const { turn, message } = dispatched;
    await this.bus.publish(turn.sessionId, {
      type: 'TurnStarted',
      turn: turnJson(turn),
      userMessage: messageJson(message),
    });
    await this.bus.publish(turn.sessionId, {
      type: 'QueuedMessageDispatched',
      queuedId: row.id,
      turnId: turn.id,
      steered: false,
    });
    const session = await this.store.get(turn.sessionId);
    if (session) await this.bus.publishList({ kind: 'activity', sessionId: session.id, userId: session.userId });
    this.log.info({ queuedId: row.id, sessionId: turn.sessionId, turnId: turn.id }, 'queue.dispatched');
    this.launch(turn, (row.clientTools ?? []) as unknown as ClientToolDefinition[]);
    return 'dispatched';
  }

  private async turnForKey(
    sessionId: string,
    key: string,
    expire: boolean,
  ): Promise<{ turn: Turn; userMessage: StoredMessage } | null> {
    const previous = await this.turns.forIdempotencyKey(sessionId, key);
    if (!previous) return null;
    const fresh = Date.now() - previous.startedAt.getTime() < this.config.idempotencyWindowHours * 3_600_000;
    if (fresh && previous.userSequence !== null) {
      const message = await this.store.message(sessionId, previous.userSequence);
      if (message) return { turn: previous, userMessage: message };
    }
    if (expire) await this.turns.releaseIdempotencyKey(previous.id);
    return null;
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
    const local = this.running.get(turn.id);
    if (local) {
      local.controller.abort(new CancelledError());
      await Promise.race([local.done, new Promise((r) => setTimeout(r, 5_000))]);
    } else {
      // Owned by another process: it sees the status at its next heartbeat and stops.
      await this.turns.cancelIfActive(turn.id);
    }
    return (await this.turns.get(turn.id))!;
  }

  async submitToolResult(
    viewer: Viewer,
    input: { turnId: string; toolCallId: string; content: string; isError?: boolean | null; critical?: boolean | null },
  ): Promise<Turn> {
    const turn = await this.writableTurn(viewer, input.turnId);
    if (input.content.length > this.config.maxMessageChars) throw new BadInput('Tool result is too long');
    const updated = await this.turns.answerToolCall(turn.id, input.toolCallId, {
      content: input.content,
      isError: input.isError === true,
      critical: input.critical === true,
    });
    if (!updated) throw new BadInput(`Tool call ${input.toolCallId} is not pending on this turn`);
    this.running.get(turn.id)?.wake();
    return updated;
  }

  /** Before a session is deleted: its running turn is cancelled and, when local, waited for. */
  async stopForDelete(sessionId: string): Promise<void> {
    const active = await this.activeTurn(sessionId);
    if (!active) return;
    const local = this.running.get(active.id);
    if (local) {
      local.controller.abort(new CancelledError('session deleted'));
      await Promise.race([local.done, new Promise((r) => setTimeout(r, 5_000))]);
    }
    await this.turns.cancelIfActive(active.id);
  }

  /** Turns whose owner stopped beating (a crashed process) become INTERRUPTED with their partial text saved. */
  async recoverOrphans(staleMs: number): Promise<number> {
    const stale = await this.turns.staleActive(staleMs);
    let recovered = 0;
    for (const turn of stale) {
      if (this.running.has(turn.id)) continue;
      if (await this.endLeftTurn(turn, ErrorCode.INTERRUPTED)) recovered++;
    }
    return recovered;
  }

  /**
   * At start: the turns this instance's previous incarnation left running end at once, without waiting for staleness.
   */
  async recoverOwn(): Promise<number> {
    if (!this.exclusiveStore && this.instanceId === null) return 0;
    const left = await this.turns.activeNotOwnedBy(this.processId, this.exclusiveStore ? null : this.instanceId);
    let recovered = 0;
    for (const turn of left)
      if (this.leftByPreviousIncarnation(turn) && (await this.endLeftTurn(turn, ErrorCode.INTERRUPTED))) recovered++;
    return recovered;
  }

  private leftByPreviousIncarnation(turn: Turn): boolean {
    if (this.running.has(turn.id) || turn.ownerProcess === this.processId) return false;
    return this.exclusiveStore || (this.instanceId !== null && turn.ownerInstance === this.instanceId);
  }

  /**
   * Ends a turn whose runner is gone (crash) or stopped (shutdown), from what
   * the database holds. A turn whose final answer is saved completed: it ends
   * COMPLETED with that answer, and nothing is added. Otherwise it ends
   * INTERRUPTED: the checkpointed partial answer is saved unless the last
   * saved message already holds it, and a note tells the model. False when
   * someone else ended it first.
   */
  async endLeftTurn(turn: Turn, code: TurnEndCode): Promise<boolean> {
    const own = (
      turn.userSequence === null ? [] : await this.store.messagesAfter(turn.sessionId, turn.userSequence)
    ).filter((m) => (m.role === 'assistant' && !m.isPlan && m.isDisplay) || m.role === 'tool');
    const last = own.at(-1);
    const final =
      last?.role === 'assistant' &&
      last.toolCalls.length === 0 &&
      !last.metadata.interrupted &&
      !last.metadata.cancelled &&
      !last.metadata.partial
        ? last
        : null;
    const claim = (data: { status: TurnStatus; error: string | null }) => this.turns.endIfActive(turn.id, data);
    if (final) {
      const ended = await claim({ status: TurnStatus.COMPLETED, error: null });
      if (!ended) return false;
      const usage: Usage = { ...ZERO_USAGE, ...(turn.usage as Partial<Usage>) };
      await this.bus.publish(turn.sessionId, {
        type: 'TurnEnded',
        turn: turnJson(ended),
        assistantMessage: messageJson(final),
        usage,
      });
      this.log.warn({ turnId: turn.id, sessionId: turn.sessionId }, 'turn.completed_on_recovery');
      return true;
    }
    const message = code === ErrorCode.SHUTDOWN ? SHUTDOWN_MESSAGE : INTERRUPTED_MESSAGE;
    const ended = await claim({ status: TurnStatus.INTERRUPTED, error: message });
    if (!ended) return false;
    const partialSaved =
      last?.role === 'assistant' &&
      (turn.partialText
        ? last.content.startsWith(turn.partialText)
        : (last.thinking ?? '').startsWith(turn.partialThinking));
    const saved: StoredMessage[] = [];
    // A call the dead process left open gets its result first, so the session's next turn is not refused.
    const open = openToolCalls(
      (await this.store.context(turn.sessionId)).filter((m) => m.sequenceNumber > (turn.userSequence ?? -1)),
    );
    if (open.length > 0)
      saved.push(
        ...(await this.store.append(
          turn.sessionId,
          closingToolResults(open, TOOL_RESULT_SERVER_STOPPED, 'interrupted'),
        )),
      );
    if ((turn.partialText || turn.partialThinking) && !partialSaved) {
      saved.push(
        ...(await this.store.append(turn.sessionId, [
          {
            role: 'assistant',
            content: turn.partialText,
            thinking: turn.partialThinking || null,
            metadata: { interrupted: true },
          },
        ])),
      );
    }
    saved.push(
      ...(await this.store.append(turn.sessionId, [
        {
          role: 'user',
          isAgentNote: true,
          isDisplay: false,
          content:
            '[The previous answer was interrupted by a server restart; ' +
            'the partial text above is all that was produced. ' +
            'Continue from it if the user asks.]',
          metadata: { kind: 'recovery_hint', turnId: turn.id },
        },
      ])),
    );
    for (const m of saved)
      await this.bus.publish(turn.sessionId, { type: 'MessageSaved', turnId: turn.id, message: messageJson(m) });
    await this.bus.publish(turn.sessionId, { type: 'TurnFailed', turn: turnJson(ended), code, message });
    this.log.warn({ turnId: turn.id, sessionId: turn.sessionId, code }, 'turn.interrupted');
    return true;
  }

  /**
   * Graceful shutdown: no new turn starts; each running one stops, checkpoints
   * its partial answer and ends INTERRUPTED with code SHUTDOWN (not
   * CANCELLED: nobody asked), announced to its subscribers.
   */
  async shutdown(): Promise<number> {
    this.stopping = true;
    const ids = [...this.running.keys()];
    for (const runner of this.running.values()) runner.controller.abort(new ShutdownError());
    await this.drain();
    let ended = 0;
    for (const id of ids) {
      const turn = await this.turns.get(id);
      if (turn && isActiveTurnStatus(turn.status) && (await this.endLeftTurn(turn, ErrorCode.SHUTDOWN))) ended++;
    }
    return ended;
  }

  /** Waits for every local runner to finish (shutdown, tests). */
  async drain(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  abortAll(): void {
    for (const runner of this.running.values()) runner.controller.abort(new CancelledError('shutdown'));
  }
}

/** A runner stopped by a graceful shutdown: it checkpoints and leaves the ending to TurnService.shutdown. */
export class ShutdownError extends Error {
  constructor() {
    super('shutdown');
    this.name = 'ShutdownError';
  }
}

export class CancelledError extends Error {
  constructor(message = 'cancelled') {
    super(message);
    this.name = 'CancelledError';
  }
}

function validateClientTools(
  tools: ClientToolDefinition[],
  serverTools: { get(name: string): unknown },
): ClientToolDefinition[] {
  const names = new Set<string>();
  for (const tool of tools) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(tool.name))
      throw new BadInput(`Invalid client tool name ${JSON.stringify(tool.name)}`);
    if (names.has(tool.name)) throw new BadInput(`Duplicate client tool ${tool.name}`);
    // A server tool's result is trusted (content_publish cards, spill pointers); a client may not answer in its name.
    if (serverTools.get(tool.name))
      throw new BadInput(`Client tool ${tool.name} has the name of one of the server's own tools`);
    if (typeof tool.parameters !== 'object' || tool.parameters === null) {
      throw new BadInput(`Client tool ${tool.name}: parameters must be a JSON Schema object`);
    }
    names.add(tool.name);
  }
  return tools;
}

/** A queued message as sendMessage answers it before it is stored: not in the history yet, sequenceNumber -1. */
export function provisionalMessage(row: QueuedMessage): StoredMessage {
  const draft = row.message as unknown as NewMessage;
  return {
    ...makeMessage({ ...draft, createdAt: row.createdAt }),
    sequenceNumber: -1,
    metadata: { ...(draft.metadata ?? {}), queuedMessageId: row.id },
    sessionId: row.sessionId,
    displayIndex: null,
    archived: false,
  };
}

function isUniqueViolation(error: unknown): boolean {
  const text = `${(error as { code?: string }).code ?? ''} ${(error as Error).message ?? ''}`;
  return /P2002|23505|unique constraint/i.test(text);
}

export { DomainError };
