/**
 * The turn loop: build the context fresh, guard its size, stream the
 * provider's answer as events, run tools, save every message as it
 * completes, and end with TurnEnded / TurnFailed.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { imageTokensFromBytes } from '../domain/image-tokens.js';
import { RepeatGuard, ledgerWith, repeatNoteMessage, type StreamRuleLedger } from '../domain/repeat-guard.js';
import type { CalibrationRegistry, RealBaseline } from '../domain/tokens.js';
import type { ToolCall, Usage } from '../domain/types.js';
import { ZERO_USAGE } from '../domain/types.js';
import { contextLimit, evaluateContextSize } from '../domain/view.js';
import type { EventBus } from '../events/bus.js';
import type { SessionEventBody } from '../events/types.js';
import { readSessionFile } from '../files/images.js';
import { admitImages, imageNotice } from '../files/notices.js';
import type { SessionFiles } from '../files/store.js';
import type { Profile, Session, Turn } from '../generated/prisma/client.js';
import type { LlmProvider, LlmToolDefinition } from '../llm/types.js';
import { ProviderUnavailableError } from '../llm/types.js';
import { classifyProviderError, providerEndpoint } from '../llm/errors.js';
import { messageJson } from '../sessions/service.js';
import type { StoredMessage } from '../store/rows.js';
import type { SessionStore } from '../store/sessions.js';
import { toWire } from './context.js';
import { nextPrompt } from './prompt.js';
import { CancelledError, type ClientToolDefinition, type PendingToolCall, type RunningTurn, ShutdownError, type StartRunner, turnJson } from './service.js';
import { closingToolResults, TOOL_RESULT_CANCELLED, TOOL_RESULT_FAILED, TOOL_RESULT_SERVER_STOPPED } from './tool-pairing.js';
import type { ToolOutcome, ToolRegistry } from './tools.js';
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
  private text = '';
  private thinking = '';
  /** the provider's thinking blocks of the current call, with signatures (replayed verbatim) */
  private thinkingBlocks: Record<string, unknown>[] = [];
  private usage: Usage = { ...ZERO_USAGE };
  private lastAssistant: StoredMessage | null = null;
  private lastFlush = 0;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly turn: Turn,
    private readonly clientTools: ClientToolDefinition[],
    private readonly controller: AbortController,
    private readonly onWake: (fn: () => void) => void,
  ) {}

  private get prisma() {
    return this.deps.store.prisma;
  }

  private publish = async (body: SessionEventBody) => {
    await this.deps.bus.publish(this.turn.sessionId, body);
  };

  async run(): Promise<void> {
    const { store, config, log } = this.deps;
    const started = Date.now();
    let session = (await store.get(this.turn.sessionId))!;
    const profile = (await this.prisma.profile.findUnique({ where: { id: session.profileId } }))!;
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
      context: () => this.context(ctx),
      contextChanged: () => this.forgetContext(),
    };
    let toolCallCount = 0;
    // The heartbeat beats for the whole run, not only while chunks arrive: a slow
    // first token, a planning or summary call or a long tool must not look dead.
    const heartbeat = setInterval(() => this.maybeFlush(), this.deps.config.partialFlushMs);
    try {
      await this.decideImages(ctx);
      if (profile.planning) await this.planningPhase(ctx, provider);
      for (let iteration = 0; ; iteration++) {
        if (iteration >= config.maxToolIterations) {
          await this.saveMessages([
            { role: 'assistant', content: `[Stopped after ${config.maxToolIterations} model calls in one turn.]`, metadata: { iterationLimit: true } },
          ]);
          break;
        }
        // A fresh read for each call: the hook below first waits for any compression still running.
        this.forgetContext();
        await (iteration === 0 ? this.deps.hooks.beforeFirstCall : this.deps.hooks.beforeNextCall)?.(ctx);
        session = ctx.session = (await store.get(session.id))!;
        const turnContext = (await this.deps.hooks.turnContext?.(ctx)) ?? null;
        const call = await this.buildCall(ctx, turnContext);
        const size = evaluateContextSize({ estimate: call.estimate, window, outputReserve: config.outputReserveTokens });
        if (size.overLimit) {
          await this.saveMessages([
            { role: 'assistant', content: CONTEXT_TOO_LARGE_REPLY(size.estimate, size.limit), metadata: { contextTooLarge: true } },
          ]);
          break;
        }
        const tools: LlmToolDefinition[] = [
          ...this.deps.tools.definitions(),
          ...this.clientTools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters as Record<string, unknown> })),
        ];
        const callStarted = Date.now();
        const { calls, usage } = await this.stream(provider, {
          model: profile.model,
          messages: call.messages,
          tools: tools.length > 0 ? tools : undefined,
          numCtx: window,
          signal,
        }, ctx);
        await this.recordUsage(ctx, usage, call);
        toolCallCount += calls.length;
        await this.saveMessages([
          {
            role: 'assistant',
            content: this.text,
            thinking: this.thinking || null,
            toolCalls: calls,
            elapsedSeconds: (Date.now() - callStarted) / 1000,
            toolCallCount: calls.length,
            tokenCount: usage?.completionTokens ?? null,
            ...(this.thinkingBlocks.length > 0 && { metadata: { thinkingBlocks: this.thinkingBlocks } }),
          },
        ]);
        this.openCalls = [...calls];
        this.text = '';
        this.thinking = '';
        this.thinkingBlocks = [];
        await this.flushing;
        await this.prisma.turn.update({ where: { id: this.turn.id }, data: { partialText: '', partialThinking: '' } });
        if (this.repeatStopped) break;
        if (calls.length === 0) break;
        await this.runTools(ctx, calls);
      }
      await this.finish('COMPLETED', null, started, toolCallCount);
    } catch (error) {
      await this.fail(error, started).catch((e) => log.error({ err: e, turnId: this.turn.id }, 'turn.fail_failed'));
    } finally {
      clearInterval(heartbeat);
    }
    if (this.endedStatus === 'COMPLETED' && this.deps.hooks.afterTurn) {
      const { signal: _s, ...rest } = ctx;
      void this.deps.hooks.afterTurn(rest).catch((e) => log.warn({ err: e }, 'compression.worker_failed'));
    }
    if (this.endedStatus === 'COMPLETED') {
      void this.deps.afterTurn?.(ctx.session, profile, this.turn.id).catch((e) => log.warn({ err: e }, 'turn.after_failed'));
    }
  }

  private endedStatus: string | null = null;
  /** calls of the last saved answer that have no stored result yet */
  private openCalls: ToolCall[] = [];
  /** the profile of this run, for naming the provider and model when it fails */
  private profile: Pick<Profile, 'provider' | 'model'> | null = null;
  private repeatStopped = false;
  private contextRead: { sessionId: string; nextSequence: number | null; rows: Promise<StoredMessage[]> } | null = null;

  /**
   * The context rows, shared by the pre-call check, the recall and the call
   * until a write in this turn (or a compression in a hook) drops them. Each
   * use first reads the session's `next_sequence` (one row): a message added
   * meanwhile by anyone else (another process's compression, a recorded note)
   * moves it, and the context is read again. The counter is read before the
   * rows, so a write between the two only costs an extra read.
   */
  private async context(ctx: RunContext): Promise<StoredMessage[]> {
    const sessionId = ctx.session.id;
    const nextSequence = await this.deps.store.nextSequence(sessionId);
    const current = this.contextRead;
    if (current?.sessionId === sessionId && current.nextSequence === nextSequence && nextSequence !== null) return current.rows;
    const rows = this.deps.store.context(sessionId);
    const read = { sessionId, nextSequence, rows };
    rows.catch(() => {
      if (this.contextRead === read) this.forgetContext();
    });
    this.contextRead = read;
    return rows;
  }

  private forgetContext(): void {
    this.contextRead = null;
  }

  /**
   * The call's messages and its estimate: `buildPrompt` on the context, the
   * same function the compression estimators and Session.modelView use.
   */
  private async buildCall(ctx: RunContext, turnContext: string | null, skipImagesOf: number | null = null) {
    const context = await this.context(ctx);
    const prompt = await nextPrompt(this.deps, ctx.session, ctx.profile, context, { window: ctx.window, turnContext, skipImagesOf });
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
    const own = await this.prisma.sessionMessage.findUnique({
      where: { sessionId_sequenceNumber: { sessionId: ctx.session.id, sequenceNumber: this.turn.userSequence } },
      select: { images: true },
    });
    if (own && own.images.length === 0) return;
    const [message] = (await this.deps.store.context(ctx.session.id)).filter((m) => m.sequenceNumber === this.turn.userSequence);
    if (!message || message.images.length === 0) return;
    const { config } = this.deps;
    const priced = [];
    for (const rel of message.images) {
      const bytes = await readSessionFile(this.deps.files.root, this.turn.sessionId, rel);
      priced.push({ relPath: rel, tokens: bytes ? imageTokensFromBytes(bytes, config.contextImageTokens) : config.contextImageTokens });
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
          noticeTokens: (inContext, notLoaded) => calibration.estimateDelta(imageNotice(inContext, notLoaded).length + 2),
        })
      : { inContext: [], notLoaded: priced };
    const notice = `${previous}${imageNotice(allowed.inContext.map((i) => i.relPath), allowed.notLoaded.map((i) => i.relPath))}`;
    const { imageNotice: _drop, ...rest } = message.metadata;
    this.forgetContext();
    await this.deps.store.updateMessage(ctx.session.id, message.sequenceNumber, {
      metadata: { ...rest, contextNotice: notice, imagesInContext: allowed.inContext.map((i) => i.relPath) },
    });
  }

  private async planningPhase(ctx: RunContext, provider: LlmProvider) {
    const call = await this.buildCall(ctx, null);
    const messages = [
      ...call.messages,
      { role: 'user' as const, content: 'Before answering, write a short numbered plan of the steps you will take. Reply with the plan only.' },
    ];
    const { text } = await provider.complete({ model: ctx.profile.model, messages, numCtx: ctx.window, signal: ctx.signal });
    const [plan] = await this.saveMessages([{ role: 'assistant', content: text, isPlan: true, isContext: false }]);
    const logs = Array.isArray(ctx.session.planningLogs) ? ctx.session.planningLogs : [];
    await this.prisma.session.update({
      where: { id: ctx.session.id },
      data: { planningLogs: [...logs, { turnId: this.turn.id, at: new Date().toISOString(), output: text, sequenceNumber: plan?.sequenceNumber }] as never },
    });
  }

  private async stream(provider: LlmProvider, request: Parameters<LlmProvider['streamChat']>[0], ctx: RunContext) {
    const calls: ToolCall[] = [];
    let usage: Usage | null = null;
    const ledger = ((ctx.session.metadata as { streamRules?: StreamRuleLedger }).streamRules) ?? { fired: [] };
    const guard = new RepeatGuard(
      { maxLineRepeats: this.deps.config.repeatLineLimit, maxParagraphRepeats: this.deps.config.repeatParagraphLimit },
      ledger,
    );
    const local = new AbortController();
    const onAbort = () => local.abort(ctx.signal.reason);
    ctx.signal.addEventListener('abort', onAbort);
    try {
      for await (const chunk of provider.streamChat({ ...request, signal: local.signal })) {
        if (chunk.type === 'text') {
          this.text += chunk.text;
          await this.publish({ type: 'TextDelta', turnId: this.turn.id, text: chunk.text });
          const verdict = guard.push(chunk.text);
          if (verdict) {
            this.repeatStopped = true;
            local.abort(new Error('repeat guard'));
            await this.prisma.session.update({
              where: { id: ctx.session.id },
              data: { metadata: { ...(ctx.session.metadata as object), streamRules: ledgerWith(ledger, verdict.fired) } as never },
            });
            ctx.session.metadata = { ...(ctx.session.metadata as object), streamRules: ledgerWith(ledger, verdict.fired) } as never;
            this.pendingNotes.push(repeatNoteMessage(verdict));
            break;
          }
        } else if (chunk.type === 'thinking') {
          this.thinking += chunk.text;
          await this.publish({ type: 'ThinkingDelta', turnId: this.turn.id, text: chunk.text });
        } else if (chunk.type === 'thinking_block') {
          this.thinkingBlocks.push(chunk.block);
        } else if (chunk.type === 'tool_call') {
          calls.push(chunk.call);
        } else if (chunk.type === 'usage') {
          usage = chunk.usage;
        }
        this.maybeFlush();
      }
    } catch (error) {
      if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new CancelledError();
      if (!this.repeatStopped) throw error;
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
    if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new CancelledError();
    return { calls, usage };
  }

  private pendingNotes: ReturnType<typeof repeatNoteMessage>[] = [];

  /**
   * Persists the partial answer at most every partialFlushMs; also the
   * heartbeat and the cross-process cancel check. Never awaited by the
   * stream loop, so a slow write does not delay the deltas.
   */
  private maybeFlush() {
    const now = Date.now();
    if (this.flushing || now - this.lastFlush < this.deps.config.partialFlushMs) return;
    this.lastFlush = now;
    // The raw driver, not Prisma: this runs every second for every streaming
    // turn, and Prisma's per-query cost is most of a flush's CPU on the server thread.
    this.flushing = this.deps.store.db.raw
      .query<{ id: string }>(
        `UPDATE turns SET partial_text = $1, partial_thinking = $2, heartbeat_at = $4
          WHERE id = $3::uuid AND status IN ('RUNNING', 'WAITING_FOR_TOOL') RETURNING id`,
        [this.text, this.thinking, this.turn.id, new Date()],
      )
      .then((updated) => {
        if (updated.length === 0 && !this.controller.signal.aborted) this.controller.abort(new CancelledError());
      })
      .catch((error) => this.deps.log.warn({ err: error, turnId: this.turn.id }, 'turn.flush_failed'))
      .finally(() => (this.flushing = null));
  }

  private async recordUsage(ctx: RunContext, usage: Usage | null, call: { estimate: number; chars: number; hadImages: boolean; lastSequence: number }) {
    if (!usage) return;
    this.usage = {
      promptTokens: this.usage.promptTokens + usage.promptTokens,
      completionTokens: this.usage.completionTokens + usage.completionTokens,
      cachedPromptTokens: this.usage.cachedPromptTokens + usage.cachedPromptTokens,
    };
    const outcome = this.deps.calibration.recordObservation(ctx.profile.model, call.chars, usage.promptTokens, {
      hadImages: call.hadImages,
      // Ollama cuts an oversized prompt to about half the window: a prompt we put below half
      // the window cannot have been cut, and an uncalibrated estimate must not block the fit.
      sentEstimate: call.estimate >= ctx.window / 2 ? call.estimate : undefined,
    });
    const truncated = outcome === 'truncated';
    const metadata = { ...(ctx.session.metadata as Record<string, unknown>) };
    if (truncated) {
      // A truncated report is not a baseline: keep the previous one, raise the flag, keep the honest meter.
      metadata.contextTruncated = true;
      this.deps.log.warn({ sessionId: ctx.session.id, reported: usage.promptTokens, estimate: call.estimate }, 'context.truncated_prompt');
    } else {
      metadata.baseline = { promptTokens: usage.promptTokens, lastSequence: call.lastSequence } satisfies RealBaseline;
    }
    const sessionUsage = { ...ZERO_USAGE, ...(ctx.session.usage as Partial<Usage>) };
    const folded = {
      promptTokens: sessionUsage.promptTokens + usage.promptTokens,
      completionTokens: sessionUsage.completionTokens + usage.completionTokens,
      cachedPromptTokens: sessionUsage.cachedPromptTokens + usage.cachedPromptTokens,
    };
    ctx.session = await this.prisma.session.update({
      where: { id: ctx.session.id },
      data: {
        metadata: metadata as never,
        usage: folded as never,
        contextTokenCount: truncated ? call.estimate : usage.promptTokens,
      },
    });
    await this.prisma.turn.update({ where: { id: this.turn.id }, data: { usage: this.usage as never } });
  }

  private async runTools(ctx: RunContext, calls: ToolCall[]) {
    const clientNames = new Set(this.clientTools.map((t) => t.name));
    const pending: PendingToolCall[] = calls.map((c) => ({ ...c, clientSide: clientNames.has(c.name) }));
    if (pending.some((p) => p.clientSide)) {
      await this.prisma.turn.update({ where: { id: this.turn.id }, data: { status: 'WAITING_FOR_TOOL', pendingToolCalls: pending as never } });
    }
    for (const call of pending) {
      await this.publish({ type: 'ToolCallRequested', turnId: this.turn.id, toolCall: { id: call.id, name: call.name, arguments: call.arguments }, clientSide: call.clientSide });
    }
    for (const call of pending) {
      const outcome = call.clientSide
        ? await this.waitForClient(ctx, call.id)
        : await this.deps.tools.run(call.name, call.arguments, { sessionId: ctx.session.id, turnId: this.turn.id, signal: ctx.signal });
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
      await this.prisma.turn.update({ where: { id: this.turn.id }, data: { status: 'RUNNING', pendingToolCalls: [] } });
    }
  }

  private async waitForClient(ctx: RunContext, toolCallId: string) {
    const deadline = Date.now() + this.deps.config.toolResultTimeoutMs;
    for (;;) {
      if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new CancelledError();
      const turn = await this.prisma.turn.findUnique({ where: { id: this.turn.id } });
      if (!turn || !['RUNNING', 'WAITING_FOR_TOOL'].includes(turn.status)) throw new CancelledError();
      const call = ((turn.pendingToolCalls ?? []) as unknown as PendingToolCall[]).find((c) => c.id === toolCallId);
      if (call?.result) return call.result;
      if (Date.now() > deadline) {
        return { content: `Error: the client did not answer tool call ${toolCallId} in time`, isError: true, critical: false };
      }
      await this.prisma.turn.update({ where: { id: this.turn.id }, data: { heartbeatAt: new Date() } });
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

  private async saveMessages(messages: Parameters<SessionStore['append']>[1]) {
    const all = [...messages, ...this.pendingNotes.splice(0)];
    this.forgetContext();
    const saved = await this.deps.store.append(this.turn.sessionId, all);
    const assistant = saved.filter((m) => m.role === 'assistant').at(-1);
    if (assistant) this.lastAssistant = assistant;
    for (const message of saved) {
      await this.publish({ type: 'MessageSaved', turnId: this.turn.id, message: messageJson(message) });
    }
    return saved;
  }

  private async finish(status: 'COMPLETED' | 'CANCELLED', error: string | null, _started: number, _toolCalls: number) {
    await this.flushing;
    const turn = await this.endTurn({ status, error });
    if (!turn) return;
    this.endedStatus = status;
    await this.publish({
      type: 'TurnEnded',
      turn: turnJson(turn),
      assistantMessage: this.lastAssistant ? messageJson(this.lastAssistant) : null,
      usage: this.usage,
    });
  }

  /**
   * Ends the turn only if it is still active: a turn another process already
   * interrupted or cancelled, or whose session was deleted, is left as it is.
   */
  private async endTurn(data: { status: string; error: string | null }) {
    const [ended] = await this.prisma.turn
      .updateManyAndReturn({
        where: { id: this.turn.id, status: { in: ['RUNNING', 'WAITING_FOR_TOOL'] } },
        data: { ...data, endedAt: new Date(), partialText: '', partialThinking: '', pendingToolCalls: [] },
      })
      .catch(() => []);
    if (ended) return ended;
    // Cancelled from another process: the row already holds the same ending, still announce it.
    const row = await this.prisma.turn.findUnique({ where: { id: this.turn.id } });
    return row?.status === data.status ? row : null;
  }

  /** Stores a result for every open call: a session must never keep an unanswered tool call. */
  private async closeOpenCalls(content: string, reason: string) {
    if (this.openCalls.length === 0) return;
    const calls = this.openCalls;
    await this.saveMessages(closingToolResults(calls, content, reason));
    this.openCalls = [];
  }

  private async fail(error: unknown, started: number) {
    await this.flushing;
    if (this.controller.signal.reason instanceof ShutdownError) {
      // Graceful shutdown: the service ends the turn (INTERRUPTED, SHUTDOWN) from this checkpoint.
      await this.deps.store.db.raw.query(
        `UPDATE turns SET partial_text = $1, partial_thinking = $2, heartbeat_at = $4
          WHERE id = $3::uuid AND status IN ('RUNNING', 'WAITING_FOR_TOOL')`,
        [this.text, this.thinking, this.turn.id, new Date()],
      );
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
    if (this.text || this.thinking) {
      const [partial] = await this.saveMessages([
        { role: 'assistant', content: this.text, thinking: this.thinking || null, metadata: cancelled ? { cancelled: true } : { partial: true } },
      ]).catch(() => [null]);
      if (partial) this.lastAssistant = partial;
      this.text = '';
      this.thinking = '';
    }
    if (cancelled) {
      await this.finish('CANCELLED', null, started, 0);
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
    this.deps.log[code === ErrorCode.INTERNAL_SERVER_ERROR ? 'error' : 'warn']({ err: error, turnId: this.turn.id }, 'turn.failed');
    const turn = await this.endTurn({ status: 'FAILED', error: message });
    if (!turn) return;
    this.endedStatus = 'FAILED';
    await this.publish({ type: 'TurnFailed', turn: turnJson(turn), code, message });
  }
}
