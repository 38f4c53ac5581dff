/**
 * The turn loop's policy: build the context fresh, guard its size, stream
 * the provider's answer (stream.ts), run tools, save every message as it
 * completes, and end with TurnEnded / TurnFailed. Its store calls are in
 * run-store.ts.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { imageTokensFromBytes } from '../domain/image-tokens.js';
import type { SessionMetadataPatch } from '../domain/session-metadata.js';
import type { CalibrationRegistry, RealBaseline } from '../domain/tokens.js';
import { TurnStatus } from '../domain/turn-status.js';
import type { ToolCall, Usage } from '../domain/types.js';
import { ZERO_USAGE } from '../domain/types.js';
import { promptCacheKey } from '../domain/prompt-cache.js';
import { contextLimit, evaluateContextSize } from '../domain/view.js';
import type { EventBus } from '../events/bus.js';
import type { SessionEventBody } from '../events/types.js';
import { readSessionFile } from '../files/images.js';
import { admitImages, imageNotice } from '../files/notices.js';
import type { SessionFiles } from '../files/store.js';
import type { ProfileRow as Profile } from '../store/profiles.js';
import type { SessionRow as Session, SessionStore } from '../store/sessions.js';
import type { TurnRow as Turn, TurnStore } from '../store/turns.js';
import type { QueuedStore } from '../store/queued.js';
import type { NewMessage } from '../domain/types.js';
import type { LlmProvider, LlmToolDefinition } from '../llm/types.js';
import { ProviderUnavailableError } from '../llm/types.js';
import { classifyProviderError, providerEndpoint } from '../llm/errors.js';
import { messageJson } from '../sessions/service.js';
import type { StoredMessage } from '../store/rows.js';
import { toWire } from './context.js';
import { nextPrompt } from './prompt.js';
import {
  CancelledError,
  type ClientToolDefinition,
  type PendingToolCall,
  type RunningTurn,
  ShutdownError,
  type StartRunner,
  turnJson,
} from './service.js';
import {
  closingToolResults,
  TOOL_RESULT_CANCELLED,
  TOOL_RESULT_FAILED,
  TOOL_RESULT_SERVER_STOPPED,
} from './tool-pairing.js';
import type { ToolOutcome, ToolRegistry } from './tools.js';
import { TurnRunStore } from './run-store.js';
import { StreamConsumer } from './stream.js';
import { ErrorCode } from '../domain/error-codes.js';

export interface RunContext {
  session: Session;
  profile: Profile;
  window: number;
  turnId: string;
  signal: AbortSignal;
  publish(body: SessionEventBody): Promise<void>;
  /** estimate of the next prompt in real tokens (baseline + calibrated delta of the view) */
  estimate(): Promise<number>;
  /**
   * The session's context rows, read once per model call: the pre-call check,
   * the memory recall and the call itself share one read. A hook that
   * rewrites messages (a compression) calls `contextChanged()`.
   */
  context?(): Promise<StoredMessage[]>;
  contextChanged?(): void;
}

/** Compression and memory plug into the loop here (see src/compression). */
export interface TurnHooks {
  beforeFirstCall?(ctx: RunContext): Promise<void>;
  beforeNextCall?(ctx: RunContext): Promise<void>;
  turnContext?(ctx: RunContext): Promise<string | null>;
  afterTurn?(ctx: Omit<RunContext, 'signal'>): Promise<void>;
}

export interface RunnerDeps {
  store: SessionStore;
  turns: TurnStore;
  /** double-texting: STEER messages the running turn takes before its next model call */
  queued: QueuedStore;
  profiles: { get(id: string): Promise<Profile | null> };
  bus: EventBus;
  config: Config;
  files: SessionFiles;
  tools: ToolRegistry;
  log: Logger;
  provider(profile: Profile): LlmProvider;
  /** the process's per-model token calibration: every real prompt count is recorded here */
  calibration: CalibrationRegistry;
  hooks: TurnHooks;
  afterTurn?(session: Session, profile: Profile, turnId: string): Promise<void>;
}

export const CONTEXT_TOO_LARGE_REPLY = (estimate: number, limit: number) =>
  `The conversation is too large for this model's context window (~${estimate} tokens, limit ${limit}). ` +
  'Compress the session (compactSession) or start a new one, then ask again.';

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
  private usage: Usage = { ...ZERO_USAGE };
  private lastAssistant: StoredMessage | null = null;
  private readonly store: TurnRunStore;
  private readonly stream: StreamConsumer;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly turn: Turn,
    private readonly clientTools: ClientToolDefinition[],
    private readonly controller: AbortController,
    private readonly onWake: (fn: () => void) => void,
  ) {
    this.store = new TurnRunStore(deps.store, deps.turns, deps.profiles, turn.id);
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
    // The heartbeat beats for the whole run, not only while chunks arrive: a slow
    // first token, a planning or summary call or a long tool must not look dead.
    const heartbeat = setInterval(() => this.stream.maybeFlush(), this.deps.config.partialFlushMs);
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
        if (iteration > 0) await this.takeSteers();
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
        const { calls, usage } = await this.stream.consume(
          provider,
          {
            model: profile.model,
            messages: call.messages,
            tools: tools.length > 0 ? tools : undefined,
            numCtx: window,
            cacheKey: promptCacheKey(session.id),
            signal,
          },
          ctx,
        );
        await this.recordUsage(ctx, usage, call);
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
    return { ...prompt, messages: toWire(prompt.messages) };
  }

  /**
   * Pasted images past the budget are not sent; the notice names them for image_view.
   * The budget is the lower of 0.8 × window and the size guard's limit, less the
   * prompt without these images but with the notice: an admitted image never makes
   * the guard refuse the turn.
   */
  private async decideImages(ctx: RunContext) {
    if (this.turn.userSequence === null) return;
    // Most messages carry no image: one row says so, without loading the whole context.
    const message = await this.store.contextMessage(ctx.session.id, this.turn.userSequence);
    if (!message || message.images.length === 0) return;
    const { config } = this.deps;
    const priced = [];
    for (const rel of message.images) {
      const bytes = await readSessionFile(this.deps.files.root, this.turn.sessionId, rel);
      priced.push({
        relPath: rel,
        tokens: bytes ? imageTokensFromBytes(bytes, config.contextImageTokens) : config.contextImageTokens,
      });
    }
    const previous = typeof message.metadata.contextNotice === 'string' ? `${message.metadata.contextNotice}\n` : '';
    // The prompt without this message's own images: they are what the budget is for.
    const base = await this.buildCall(ctx, null, message.sequenceNumber);
    const calibration = this.deps.calibration.calibrationFor(ctx.profile.model);
    const allowed = ctx.profile.vision
      ? admitImages(priced, {
          window: ctx.window,
          limit: contextLimit(ctx.window, config.outputReserveTokens),
          baseTokens: base.estimate,
          // the notice lengthens this message (joined to it by a blank line): its text is charged too
          noticeTokens: (inContext, notLoaded) =>
            calibration.estimateDelta(imageNotice(inContext, notLoaded).length + 2),
        })
      : { inContext: [], notLoaded: priced };
    const notice = `${previous}${imageNotice(
      allowed.inContext.map((i) => i.relPath),
      allowed.notLoaded.map((i) => i.relPath),
    )}`;
    const { imageNotice: _drop, ...rest } = message.metadata;
    await this.store.updateMessageMetadata(ctx.session.id, message.sequenceNumber, {
      ...rest,
      contextNotice: notice,
      imagesInContext: allowed.inContext.map((i) => i.relPath),
    });
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

  private async recordUsage(
    ctx: RunContext,
    usage: Usage | null,
    call: { estimate: number; chars: number; hadImages: boolean; lastSequence: number },
  ) {
    if (!usage) return;
    this.usage = {
      promptTokens: this.usage.promptTokens + usage.promptTokens,
      completionTokens: this.usage.completionTokens + usage.completionTokens,
      cachedPromptTokens: this.usage.cachedPromptTokens + usage.cachedPromptTokens,
      cacheWriteTokens: this.usage.cacheWriteTokens + usage.cacheWriteTokens,
    };
    const outcome = this.deps.calibration.recordObservation(ctx.profile.model, call.chars, usage.promptTokens, {
      hadImages: call.hadImages,
      // Ollama cuts an oversized prompt to about half the window: a prompt we put below half
      // the window cannot have been cut, and an uncalibrated estimate must not block the fit.
      sentEstimate: call.estimate >= ctx.window / 2 ? call.estimate : undefined,
    });
    const truncated = outcome === 'truncated';
    let metadata: SessionMetadataPatch;
    if (truncated) {
      // A truncated report is not a baseline: keep the previous one, raise the flag, keep the honest meter.
      metadata = { set: { contextTruncated: true } };
      this.deps.log.warn(
        { sessionId: ctx.session.id, reported: usage.promptTokens, estimate: call.estimate },
        'context.truncated_prompt',
      );
    } else {
      metadata = {
        set: { baseline: { promptTokens: usage.promptTokens, lastSequence: call.lastSequence } satisfies RealBaseline },
      };
    }
    ctx.session = await this.store.recordCall(ctx.session.id, {
      metadata,
      usage,
      contextTokenCount: truncated ? call.estimate : usage.promptTokens,
      turnUsage: this.usage,
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
        ? await this.waitForClient(ctx, call.id)
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

  private async waitForClient(ctx: RunContext, toolCallId: string) {
    const deadline = Date.now() + this.deps.config.toolResultTimeoutMs;
    for (;;) {
      if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new CancelledError();
      const result = await this.store.toolResult(toolCallId);
      if (result === 'ended') throw new CancelledError();
      if (result) return result;
      if (Date.now() > deadline) {
        return {
          content: `Error: the client did not answer tool call ${toolCallId} in time`,
          isError: true,
          critical: false,
        };
      }
      await this.store.heartbeat();
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          ctx.signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, 250);
        this.onWake(done);
        ctx.signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /**
   * whileRunning STEER: the session's waiting steer messages are appended
   * (oldest first) and marked DISPATCHED into this turn in one transaction, so
   * each joins exactly one turn. One this turn never takes (it made no further
   * model call) stays PENDING and is dispatched as a queued message once the
   * turn has ended.
   */
  private async takeSteers() {
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
    const all = [...messages, ...this.stream.pendingNotes.splice(0)];
    const saved = await this.store.append(this.turn.sessionId, all);
    const assistant = saved.filter((m) => m.role === 'assistant').at(-1);
    if (assistant) this.lastAssistant = assistant;
    for (const message of saved) {
      await this.publish({ type: 'MessageSaved', turnId: this.turn.id, message: messageJson(message) });
    }
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
    await this.publish({
      type: 'TurnEnded',
      turn: turnJson(turn),
      assistantMessage: this.lastAssistant ? messageJson(this.lastAssistant) : null,
      usage: this.usage,
    });
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
    await this.publish({ type: 'TurnFailed', turn: turnJson(turn), code, message });
  }
}
