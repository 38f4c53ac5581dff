import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatChunk, LlmProvider } from '../../src/llm/types.js';
import type { SessionRow } from '../../src/store/sessions.js';
import type { TurnRunStore } from '../../src/turns/run-store.js';
import { CancelledError } from '../../src/turns/service.js';
import { recoveryTimes } from '../../src/turns/recovery.js';
import { StreamConsumer } from '../../src/turns/stream.js';

function consumer(published: unknown[], checkpoints: number[] = [], partialFlushMs = 60_000) {
  return new StreamConsumer({
    config: { partialFlushMs, repeatLineLimit: 0, repeatParagraphLimit: 0 },
    log: pino({ level: 'silent' }),
    store: { checkpoint: async () => checkpoints.push(Date.now()) > 0 } as unknown as TurnRunStore,
    turnId: 'turn-1',
    controller: new AbortController(),
    publish: async (body) => void published.push(body),
  });
}

const session = { id: 'session-1', metadata: {} } as unknown as SessionRow;

describe('StreamConsumer', () => {
  it('never calls the provider for a turn cancelled before its call, and throws the cancel', async () => {
    const calls: unknown[] = [];
    const provider = {
      async *streamChat(req: unknown): AsyncIterable<ChatChunk> {
        calls.push(req);
        yield { type: 'text', text: 'partial ' };
      },
    } as unknown as LlmProvider;
    const cancel = new AbortController();
    cancel.abort(new CancelledError());
    const published: unknown[] = [];
    await expect(
      consumer(published).consume(provider, { model: 'm', messages: [] }, { session, signal: cancel.signal }),
    ).rejects.toBeInstanceOf(CancelledError);
    expect(calls).toEqual([]);
    expect(published).toEqual([]);
  });

  it('stops a call that waits for its next chunk when the turn is cancelled', async () => {
    const cancel = new AbortController();
    const provider = {
      async *streamChat(req: { signal: AbortSignal }): AsyncIterable<ChatChunk> {
        yield { type: 'text', text: 'partial ' };
        // The next chunk never comes: only the call's own signal ends the wait.
        await new Promise((resolve) => {
          req.signal.addEventListener('abort', resolve, { once: true });
          cancel.abort(new CancelledError());
        });
      },
    } as unknown as LlmProvider;
    const published: unknown[] = [];
    const stream = consumer(published);
    await expect(
      stream.consume(provider, { model: 'm', messages: [] }, { session, signal: cancel.signal }),
    ).rejects.toBeInstanceOf(CancelledError);
    expect(stream.text).toBe('partial ');
    expect(published).toEqual([{ type: 'TextDelta', turnId: 'turn-1', text: 'partial ' }]);
  });
});

describe("the running turn's heartbeat", () => {
  afterEach(() => vi.restoreAllMocks());

  it('beats on its timer even when a chunk flushed a little less than PARTIAL_FLUSH_MS ago', async () => {
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const checkpoints: number[] = [];
    const stream = consumer([], checkpoints, 1_000);
    stream.maybeFlush();
    await stream.settled();
    now += 600;
    // A chunk's flush waits the whole interval; the heartbeat's timer (every 1,000 ms, jittered) writes now.
    stream.maybeFlush();
    await stream.settled();
    expect(checkpoints).toHaveLength(1);
    stream.maybeFlush(true);
    await stream.settled();
    expect(checkpoints).toEqual([1_000_000, 1_000_600]);
    now += 200;
    stream.maybeFlush(true);
    await stream.settled();
    expect(checkpoints).toHaveLength(2);
  });

  it('is stale after TURN_STALE_MS (never under three beats) and is looked for a quarter of that often', () => {
    expect(recoveryTimes({ partialFlushMs: 1_000, turnStaleMs: 3_000 })).toEqual({ staleMs: 3_000, sweepMs: 750 });
    expect(recoveryTimes({ partialFlushMs: 2_000, turnStaleMs: 3_000 })).toEqual({ staleMs: 6_000, sweepMs: 1_000 });
    expect(recoveryTimes({ partialFlushMs: 100, turnStaleMs: 500 })).toEqual({ staleMs: 500, sweepMs: 125 });
  });
});
