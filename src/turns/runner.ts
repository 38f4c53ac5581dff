import { TurnStatus } from '../domain/turn-status.js';
import { followingAnswerId } from '../domain/message-ids.js';
import type { NewMessage, ToolCall } from '../domain/types.js';
import { promptCacheKey } from '../domain/prompt-cache.js';
import { evaluateContextSize } from '../domain/view.js';
import type { SessionEventBody } from '../events/types.js';
import type { ProfileRow as Profile } from '../store/profiles.js';
import type { SessionStore } from '../store/sessions.js';
import type { TurnRow as Turn } from '../store/turns.js';
import type { LlmProvider, LlmToolDefinition } from '../llm/types.js';
import { ProviderUnavailableError } from '../llm/types.js';
import { classifyProviderError, providerEndpoint } from '../llm/errors.js';
import { messageJson } from '../sessions/service.js';
import type { StoredMessage } from '../store/rows.js';
import { toWire } from './context.js';
import { admitPastedImages } from '../sessions/intake.js';
import { nextPrompt } from './prompt.js';
import {
  CancelledError,
  type ClientToolDefinition,
  type PendingToolCall,
  type RunningTurn,
  ShutdownError,
  type StartRunner,
} from './types.js';
import {
  closingToolResults,
  TOOL_RESULT_CANCELLED,
  TOOL_RESULT_FAILED,
  TOOL_RESULT_SERVER_STOPPED,
} from './tool-pairing.js';
import type { ToolOutcome } from './tools.js';
import { TurnRunStore } from './run-store.js';
import { StreamConsumer } from './stream.js';
import { TurnUsage } from './usage.js';
import { waitForClientResult } from './client-wait.js';
import { ErrorCode } from '../domain/error-codes.js';
import { isLockTimeout } from '../db/faults.js';
import { DEFERRED_LOCK_WAIT_MS, LOCK_TIMEOUT_MESSAGE, retryOnLockTimeout, saveWhenUnlocked } from './save-retry.js';
import { CONTEXT_TOO_LARGE_REPLY, type RunContext, type RunnerDeps } from './run-types.js';

export { CONTEXT_TOO_LARGE_REPLY, type RunContext, type RunnerDeps, type TurnHooks } from './run-types.js';

/** The factory TurnService starts every turn with: the runner's dependencies bound once. */
export function turnRunnerFactory(deps: RunnerDeps): StartRunner {
  return (turn, clientTools) => startTurnRunner(deps, turn, clientTools);
}

export function startTurnRunner(deps: RunnerDeps, turn: Turn, clientTools: ClientToolDefinition[]): RunningTurn {
  const controller = new AbortController();
  let wakeUp: () => void = () => undefined;
  const runner: RunningTurn = {
    controller,
    wake: () => wakeUp(),
    done: Promise.resolve(),
  };
  runner.done = new TurnRun(deps, turn, clientTools, controller, (fn) => (wakeUp = fn)).run();
  return runner;
}

class TurnRun {
  private lastAssistant: StoredMessage | null = null;
  private readonly store: TurnRunStore;
  private readonly stream: StreamConsumer;
  private readonly usage: TurnUsage;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly turn: Turn,
    private readonly clientTools: ClientToolDefinition[],
    private readonly controller: AbortController,
    private readonly onWake: (fn: () => void) => void,
  ) {
    this.store = new TurnRunStore(deps.store, deps.turns, deps.lifecycle, deps.profiles, turn.id);
    this.usage = new TurnUsage(deps, this.store, turn.id);
    this.stream = new StreamConsumer({
      config: deps.config,
      log: deps.log,
      store: this.store,
      turnId: turn.id,
      controller,
      publish: (body) => this.publish(body),
    });
  }

  private publish = async (body: SessionEventBody) => {
    await this.deps.bus.publish(this.turn.sessionId, body);
  };

  async run(): Promise<void> {
    const { config, log } = this.deps;
    const store = this.store;
    const started = Date.now();
    let session = await store.session(this.turn.sessionId);
    const profile = await store.profile(session.profileId);
    const window = profile.contextWindow;
    this.profile = profile;
    const provider = this.deps.provider(profile);
    const signal = this.controller.signal;
    const ctx: RunContext = {
      session,
      profile,
      window,
      turnId: this.turn.id,
      signal,
      publish: this.publish,
      estimate: async () => (await this.buildCall(ctx, null)).estimate,
      context: () => store.context(ctx.session.id),
      contextChanged: () => store.forgetContext(),
    };
    let toolCallCount = 0;
    // The heartbeat beats for the whole run: a slow first token, a planning or summary call or a long tool is alive.
    const heartbeat = setInterval(() => this.stream.maybeFlush(true), this.deps.config.partialFlushMs);
    try {
      await this.decideImages(ctx);
      if (profile.planning) await this.planningPhase(ctx, provider);
      for (let iteration = 0; ; iteration++) {
        if (iteration >= config.maxToolIterations) {
          await this.saveMessages([
            {
              role: 'assistant',
              content: `[Stopped after ${config.maxToolIterations} model calls in one turn.]`,
              metadata: { iterationLimit: true },
            },
          ]);
          break;
        }
        // Messages steered into this turn join it after the tool results, before the next call.
        if (iteration > 0) await this.takeSteers(ctx);
        // A fresh read for each call: the hook below first waits for any compression still running.
        store.forgetContext();
        await (iteration === 0 ? this.deps.hooks.beforeFirstCall : this.deps.hooks.beforeNextCall)?.(ctx);
        session = ctx.session = await store.session(session.id);
        const turnContext = (await this.deps.hooks.turnContext?.(ctx)) ?? null;
        const call = await this.buildCall(ctx, turnContext);
        const size = evaluateContextSize({
          estimate: call.estimate,
          window,
          outputReserve: config.outputReserveTokens,
        });
        if (size.overLimit) {
          await this.saveMessages([
            {
              role: 'assistant',
              content: CONTEXT_TOO_LARGE_REPLY(size.estimate, size.limit),
              metadata: { contextTooLarge: true },
            },
          ]);
          break;
        }
        const tools: LlmToolDefinition[] = [
          ...this.deps.tools.definitions(),
          ...this.clientTools.map((t) => ({
            name: t.name,
            description: t.description,
            parameters: t.parameters as Record<string, unknown>,
          })),
        ];
        const callStarted = Date.now();
        const manifest = this.deps.manifests?.sent(ctx, call);
        const { calls, usage } = await this.stream.consume(
          provider,
          {
            model: profile.model,
            messages: call.messages,
            tools: tools.length > 0 ? tools : undefined,
            numCtx: window,
            cacheKey: promptCacheKey(session.id),
            coreFieldsOnly: profile.providerExtensions === false,
            signal,
          },
          ctx,
        );
        await this.usage.record(ctx, usage, call);
        await manifest?.answered(usage);
        toolCallCount += calls.length;
        await this.saveMessages([
          {
            role: 'assistant',
            content: this.stream.text,
            thinking: this.stream.thinking || null,
            toolCalls: calls,
            elapsedSeconds: (Date.now() - callStarted) / 1000,
            toolCallCount: calls.length,
            tokenCount: usage?.completionTokens ?? null,
            ...(this.stream.thinkingBlocks.length > 0 && { metadata: { thinkingBlocks: this.stream.thinkingBlocks } }),
          },
        ]);
        this.openCalls = [...calls];
        await this.stream.reset();
        await store.clearPartial();
        if (this.stream.repeatStopped) break;
        if (calls.length === 0) break;
        await this.runTools(ctx, calls);
        this.store.answerId = followingAnswerId(this.turn.id, calls[0]!.id);
      }
      await this.finish(TurnStatus.COMPLETED, null, started, toolCallCount);
    } catch (error) {
      await this.fail(error, started).catch((e) => log.error({ err: e, turnId: this.turn.id }, 'turn.fail_failed'));
    } finally {
      clearInterval(heartbeat);
    }
    if (this.endedStatus === TurnStatus.COMPLETED && this.deps.hooks.afterTurn) {
      const { signal: _s, ...rest } = ctx;
      void this.deps.hooks.afterTurn(rest).catch((e) => log.warn({ err: e }, 'compression.worker_failed'));
    }
    if (this.endedStatus === TurnStatus.COMPLETED) {
      void this.deps
        .afterTurn?.(ctx.session, profile, this.turn.id)
        .catch((e) => log.warn({ err: e }, 'turn.after_failed'));
    }
  }

  private endedStatus: string | null = null;
  /** calls of the last saved answer that have no stored result yet */
  private openCalls: ToolCall[] = [];
  /** the profile of this run, for naming the provider and model when it fails */
  private profile: Pick<Profile, 'provider' | 'model'> | null = null;
  /**
   * The call's messages and its estimate: `buildPrompt` on the context, the
   * same function the compression estimators and Session.modelView use.
   */
  private async buildCall(ctx: RunContext, turnContext: string | null, skipImagesOf: number | null = null) {
    const context = await this.store.context(ctx.session.id);
    const prompt = await nextPrompt(this.deps, ctx.session, ctx.profile, context, {
      window: ctx.window,
      turnContext,
      skipImagesOf,
    });
    return { ...prompt, context, sent: prompt.messages, messages: toWire(prompt.messages) };
  }

  /**
   * The image budget of the user message at `sequence` (the turn's own, or one
   * steered into it): the one rule of src/sessions/intake.ts, whichever door the
   * message came by.
   */
  private async decideImages(ctx: RunContext, sequence: number | null = this.turn.userSequence) {
    if (sequence === null) return;
    // Most messages carry no image: one row says so, without loading the whole context.
    const message = await this.store.contextMessage(ctx.session.id, sequence);
    if (!message || message.images.length === 0) return;
    await admitPastedImages(
      { ...this.deps, store: this.store },
      {
        sessionId: ctx.session.id,
        window: ctx.window,
        profile: ctx.profile,
        baseEstimate: async (skip) => (await this.buildCall(ctx, null, skip)).estimate,
      },
      message,
    );
  }

  private async planningPhase(ctx: RunContext, provider: LlmProvider) {
    const call = await this.buildCall(ctx, null);
    const messages = [
      ...call.messages,
      {
        role: 'user' as const,
        content: 'Before answering, write a short numbered plan of the steps you will take. Reply with the plan only.',
      },
    ];
    const { text } = await provider.complete({
      model: ctx.profile.model,
      messages,
      numCtx: ctx.window,
      signal: ctx.signal,
    });
    const [plan] = await this.saveMessages([{ role: 'assistant', content: text, isPlan: true, isContext: false }]);
    await this.store.appendPlanningLog(ctx.session.id, {
      turnId: this.turn.id,
      at: new Date().toISOString(),
      output: text,
      ...(plan?.sequenceNumber !== undefined && { sequenceNumber: plan.sequenceNumber }),
    });
  }

  private async runTools(ctx: RunContext, calls: ToolCall[]) {
    const clientNames = new Set(this.clientTools.map((t) => t.name));
    const pending: PendingToolCall[] = calls.map((c) => ({ ...c, clientSide: clientNames.has(c.name) }));
    if (pending.some((p) => p.clientSide)) {
      await this.store.waitForTools(pending);
    }
    for (const call of pending) {
      await this.publish({
        type: 'ToolCallRequested',
        turnId: this.turn.id,
        toolCall: { id: call.id, name: call.name, arguments: call.arguments },
        clientSide: call.clientSide,
      });
    }
    for (const call of pending) {
      const outcome = call.clientSide
        ? await waitForClientResult(this.store, this.deps.config.toolResultTimeoutMs, ctx.signal, this.onWake, call.id)
        : await this.deps.tools.run(call.name, call.arguments, {
            sessionId: ctx.session.id,
            turnId: this.turn.id,
            signal: ctx.signal,
          });
      await this.saveMessages([
        {
          role: 'tool',
          content: outcome.content,
          toolCallId: call.id,
          name: call.name,
          isCompressionCritical: outcome.critical === true,
          metadata: { ...((outcome as ToolOutcome).metadata ?? {}), ...(outcome.isError && { isError: true }) },
        },
      ]);
      this.openCalls = this.openCalls.filter((c) => c.id !== call.id);
    }
    if (pending.some((p) => p.clientSide)) {
      await this.store.resumeAfterTools();
    }
  }

  /**
   * whileRunning STEER: the session's waiting steer messages are appended
   * (oldest first) and marked DISPATCHED into this turn in one transaction, so
   * each joins exactly one turn. One this turn never takes (it made no further
   * model call) stays PENDING and is dispatched as a queued message once the
   * turn has ended.
   */
  private async takeSteers(ctx: RunContext) {
    const { store, queued } = this.deps;
    const sessionId = this.turn.sessionId;
    const taken = await store.transaction(async (tx) => {
      const rows = await queued.lockSteers(tx, sessionId);
      if (rows.length === 0) return [];
      const saved = await store.append(
        sessionId,
        rows.map((r) => r.message as unknown as NewMessage),
        tx,
      );
      for (const [i, row] of rows.entries())
        await queued.markDispatched(tx, row.id, this.turn.id, saved[i]!.sequenceNumber);
      return rows.map((row, i) => ({ row, message: saved[i]! }));
    });
    // A steered image is budgeted exactly as a sent one, in the order the messages joined.
    for (const { message } of taken) await this.decideImages(ctx, message.sequenceNumber);
    for (const { row, message } of taken) {
      await this.publish({ type: 'MessageSaved', turnId: this.turn.id, message: messageJson(message) });
      await this.publish({
        type: 'MessageSteered',
        turnId: this.turn.id,
        queuedId: row.id,
        message: messageJson(message),
      });
      await this.publish({ type: 'QueuedMessageDispatched', queuedId: row.id, turnId: this.turn.id, steered: true });
    }
  }

  private async saveMessages(messages: Parameters<SessionStore['append']>[1]) {
    const notes = this.stream.pendingNotes.splice(0);
    const all = [...messages, ...notes];
    // A row lock held past DATABASE_LOCK_TIMEOUT_MS: tried again with backoff (then lockTimedOut keeps the answer).
    const saved = await retryOnLockTimeout(() => this.store.append(this.turn.sessionId, all), this.deps.log, {
      turnId: this.turn.id,
    }).catch((error: unknown) => {
      this.stream.pendingNotes.unshift(...notes);
      throw error;
    });
    const assistant = saved.filter((m) => m.role === 'assistant').at(-1);
    if (assistant) this.lastAssistant = assistant;
    for (const message of saved)
      await this.publish({ type: 'MessageSaved', turnId: this.turn.id, message: messageJson(message) });
    return saved;
  }

  private async finish(
    status: typeof TurnStatus.COMPLETED | typeof TurnStatus.CANCELLED,
    error: string | null,
    _started: number,
    _toolCalls: number,
  ) {
    await this.stream.settled();
    const turn = await this.store.end({ status, error });
    if (!turn) return;
    this.endedStatus = status;
    await this.deps.lifecycle.ended(turn, this.lastAssistant, this.usage.total);
  }

  /**
   * A save that could not take its row lock in time, even after the backoff:
   * the streamed answer is checkpointed into the turn's partial, the turn ends
   * INTERRUPTED (TurnFailed LOCK_TIMEOUT) keeping it, and the answer (with
   * results for calls left open) is stored as soon as the lock frees; then
   * the partial is cleared. The runner's `done` waits for that, so the queue
   * behind the turn moves on after the answer is in the history.
   */
  private async lockTimedOut() {
    const { log } = this.deps;
    const context = { turnId: this.turn.id, sessionId: this.turn.sessionId };
    const text = this.stream.text;
    const thinking = this.stream.thinking;
    log.warn(context, 'turn.lock_timeout');
    if (text || thinking) await this.store.checkpoint(text, thinking);
    const turn = await this.store.end({ status: TurnStatus.INTERRUPTED, error: LOCK_TIMEOUT_MESSAGE }, true);
    if (!turn) return;
    this.endedStatus = TurnStatus.INTERRUPTED;
    await this.deps.lifecycle.failed(turn, ErrorCode.LOCK_TIMEOUT, LOCK_TIMEOUT_MESSAGE);
    const messages: NewMessage[] = [
      ...closingToolResults(this.openCalls, TOOL_RESULT_FAILED, 'failed'),
      ...(text || thinking
        ? [
            {
              role: 'assistant' as const,
              content: text,
              thinking: thinking || null,
              metadata: { interrupted: true, lockTimeout: true },
            },
          ]
        : []),
      ...this.stream.pendingNotes.splice(0),
    ];
    this.openCalls = [];
    this.stream.text = '';
    this.stream.thinking = '';
    if (messages.length === 0) return;
    const saved = await saveWhenUnlocked(
      () =>
        this.deps.store.appendWaitingForLock(this.turn.sessionId, messages, DEFERRED_LOCK_WAIT_MS, {
          turnId: this.turn.id,
        }),
      log,
      context,
    );
    if (!saved) return;
    await this.store.clearPartial().catch((err: unknown) => log.warn({ ...context, err }, 'turn.clear_partial_failed'));
    for (const message of saved)
      await this.publish({ type: 'MessageSaved', turnId: this.turn.id, message: messageJson(message) });
    log.info(context, 'turn.deferred_answer_saved');
  }

  /** Stores a result for every open call: a session must never keep an unanswered tool call. */
  private async closeOpenCalls(content: string, reason: string) {
    if (this.openCalls.length === 0) return;
    const calls = this.openCalls;
    await this.saveMessages(closingToolResults(calls, content, reason));
    this.openCalls = [];
  }

  private async fail(error: unknown, started: number) {
    await this.stream.settled();
    if (this.controller.signal.reason instanceof ShutdownError) {
      // Graceful shutdown: the service ends the turn (INTERRUPTED, SHUTDOWN) from this checkpoint.
      await this.store.checkpoint(this.stream.text, this.stream.thinking);
      return;
    }
    if (isLockTimeout(error) && !this.controller.signal.aborted) {
      await this.lockTimedOut();
      return;
    }
    const cancelled = error instanceof CancelledError || this.controller.signal.aborted;
    const reason = this.controller.signal.reason;
    const shutdown = reason instanceof CancelledError && reason.message === 'shutdown';
    await this.closeOpenCalls(
      shutdown ? TOOL_RESULT_SERVER_STOPPED : cancelled ? TOOL_RESULT_CANCELLED : TOOL_RESULT_FAILED,
      shutdown ? 'shutdown' : cancelled ? 'cancelled' : 'failed',
    ).catch((e) => this.deps.log.warn({ err: e, turnId: this.turn.id }, 'turn.close_tool_calls_failed'));
    // The partial answer is kept, whatever ended the stream.
    if (this.stream.text || this.stream.thinking) {
      const [partial] = await this.saveMessages([
        {
          role: 'assistant',
          content: this.stream.text,
          thinking: this.stream.thinking || null,
          metadata: cancelled ? { cancelled: true } : { partial: true },
        },
      ]).catch(() => [null]);
      if (partial) this.lastAssistant = partial;
      this.stream.text = '';
      this.stream.thinking = '';
    }
    if (cancelled) {
      await this.finish(TurnStatus.CANCELLED, null, started, 0);
      return;
    }
    // Provider errors carry transport detail and upstream text: clients get the cause's code and a line
    // naming only the configured provider and model (or the provider's trimmed refusal). The detail is logged.
    const { code, message } =
      error instanceof ProviderUnavailableError
        ? classifyProviderError(error, {
            kind: this.profile?.provider ?? 'provider',
            endpoint: providerEndpoint(this.profile?.provider ?? '', this.deps.config),
            model: this.profile?.model ?? '',
          })
        : { code: ErrorCode.INTERNAL_SERVER_ERROR, message: 'The turn failed unexpectedly' };
    // A provider's failure is not this server's fault: warn, and keep error for our own.
    this.deps.log[code === ErrorCode.INTERNAL_SERVER_ERROR ? 'error' : 'warn'](
      { err: error, turnId: this.turn.id },
      'turn.failed',
    );
    const turn = await this.store.end({ status: TurnStatus.FAILED, error: message });
    if (!turn) return;
    this.endedStatus = TurnStatus.FAILED;
    await this.deps.lifecycle.failed(turn, code, message);
  }
}
