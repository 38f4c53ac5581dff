/**
 * The stream consumer of one turn: takes a provider's chunks, publishes the
 * deltas, keeps the answer so far (checkpointed at most every
 * partialFlushMs, which is also the turn's heartbeat and its cross-process
 * cancel check) and stops a reply that loops (the repeat guard).
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { RepeatGuard, ledgerWith, repeatNoteMessage } from '../domain/repeat-guard.js';
import { parseSessionMetadata } from '../domain/session-metadata.js';
import type { ToolCall, Usage } from '../domain/types.js';
import type { SessionEventBody } from '../events/types.js';
import type { LlmProvider } from '../llm/types.js';
import type { SessionRow } from '../store/sessions.js';
import type { TurnRunStore } from './run-store.js';
import { CancelledError } from './service.js';

export interface StreamDeps {
  config: Pick<Config, 'partialFlushMs' | 'repeatLineLimit' | 'repeatParagraphLimit'>;
  log: Logger;
  store: TurnRunStore;
  turnId: string;
  /** aborted when the checkpoint finds the turn no longer active */
  controller: AbortController;
  publish(body: SessionEventBody): Promise<void>;
}

export class StreamConsumer {
  text = '';
  thinking = '';
  /** the provider's thinking blocks of the current call, with signatures (replayed verbatim) */
  thinkingBlocks: Record<string, unknown>[] = [];
  /** the repeat guard stopped the last reply */
  repeatStopped = false;
  /** notes (the repeat guard's) saved with the next message */
  pendingNotes: ReturnType<typeof repeatNoteMessage>[] = [];
  private lastFlush = 0;
  private flushing: Promise<void> | null = null;

  constructor(private readonly deps: StreamDeps) {}

  /** One model call's stream: its tool calls and usage; the text stays here until `reset`. */
  async consume(
    provider: LlmProvider,
    request: Parameters<LlmProvider['streamChat']>[0],
    ctx: { session: SessionRow; signal: AbortSignal },
  ): Promise<{ calls: ToolCall[]; usage: Usage | null }> {
    const calls: ToolCall[] = [];
    let usage: Usage | null = null;
    const ledger = parseSessionMetadata(ctx.session.metadata).streamRules ?? { fired: [] };
    const guard = new RepeatGuard(
      { maxLineRepeats: this.deps.config.repeatLineLimit, maxParagraphRepeats: this.deps.config.repeatParagraphLimit },
      ledger,
    );
    // A turn cancelled before its call (while its context was built) never calls: an abort
    // listener added now would never fire, and the call would run to its end.
    if (ctx.signal.aborted) throw ctx.signal.reason instanceof Error ? ctx.signal.reason : new CancelledError();
    const local = new AbortController();
    const onAbort = () => local.abort(ctx.signal.reason);
    ctx.signal.addEventListener('abort', onAbort);
    try {
      for await (const chunk of provider.streamChat({ ...request, signal: local.signal })) {
        if (chunk.type === 'text') {
          this.text += chunk.text;
          await this.deps.publish({ type: 'TextDelta', turnId: this.deps.turnId, text: chunk.text });
          const verdict = guard.push(chunk.text);
          if (verdict) {
            this.repeatStopped = true;
            local.abort(new Error('repeat guard'));
            await this.deps.store.patchSessionMetadata(ctx.session, {
              set: { streamRules: ledgerWith(ledger, verdict.fired) },
            });
            this.pendingNotes.push(repeatNoteMessage(verdict));
            break;
          }
        } else if (chunk.type === 'thinking') {
          this.thinking += chunk.text;
          await this.deps.publish({ type: 'ThinkingDelta', turnId: this.deps.turnId, text: chunk.text });
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

  /** The answer of the last call is saved: start the next one empty (after any checkpoint in flight). */
  async reset(): Promise<void> {
    this.text = '';
    this.thinking = '';
    this.thinkingBlocks = [];
    await this.flushing;
  }

  /** Waits for a checkpoint in flight. */
  async settled(): Promise<void> {
    await this.flushing;
  }

  /**
   * Persists the partial answer at most every partialFlushMs; also the
   * heartbeat and the cross-process cancel check. Never awaited by the
   * stream loop, so a slow write does not delay the deltas.
   */
  maybeFlush(heartbeat = false): void {
    const now = Date.now();
    // The heartbeat's timer fires every partialFlushMs: a beat that finds the last flush a little younger than
    // that (timer jitter, a chunk's flush just before) still writes, so beats are never 2 × partialFlushMs apart.
    const due = heartbeat ? this.deps.config.partialFlushMs / 2 : this.deps.config.partialFlushMs;
    if (this.flushing || now - this.lastFlush < due) return;
    this.lastFlush = now;
    const { controller, log, turnId } = this.deps;
    this.flushing = this.deps.store
      .checkpoint(this.text, this.thinking)
      .then((active) => {
        if (!active && !controller.signal.aborted) controller.abort(new CancelledError());
      })
      .catch((error) => log.warn({ err: error, turnId }, 'turn.flush_failed'))
      .finally(() => (this.flushing = null));
  }
}
