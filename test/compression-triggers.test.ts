/** When compression runs: pre-turn, mid-turn (a long autonomous turn), post-turn, truncated prompts, no re-firing. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_TOO_LARGE_REPLY } from '../src/turns/runner.js';
import type { SessionMetadata } from '../src/domain/session-metadata.js';
import {
  createTestServer,
  dbKind,
  eventually,
  isEvent,
  type SessionEvent,
  type ServerContext,
} from './support/harness.js';
import { ollamaRequest } from './support/fake-provider.js';
import { CompressionTriggersRecordEventDocument } from './generated/graphql.js';
import {
  compressed,
  exchanges,
  isSummaryRequest,
  midTurnLoop,
  profileSession,
  respond,
  sendAndWait,
} from './support/compression.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false, maxToolIterations: 400 });
});
afterAll(() => t.close());
afterEach(() => {
  t.fake.responder = undefined;
  t.fake.tokensPerChar = 0.25;
});

const SUMMARY = '- Earlier work summarized.\nKEYS: earlier';
const turnCalls = (from: number) =>
  t.fake.requests
    .slice(from)
    .filter((b) => !isSummaryRequest(b))
    .map(ollamaRequest);
const tooLarge = CONTEXT_TOO_LARGE_REPLY(0, 0).slice(0, 40);

describe(`compression triggers (${dbKind})`, () => {
  it(
    'pre-turn: a context near the window is compressed ' + 'before the first call, the incoming message counted',
    async () => {
      const s = await profileSession(t, { window: 2048, keepRecent: 2 });
      await t.app.store.append(s.raw, exchanges(8, 220));
      respond(t, SUMMARY);
      const from = t.fake.requests.length;
      const { events } = await sendAndWait(t, s.id, 'next question');
      const types = events.map((e) => e.__typename);
      const done = compressed(events);
      expect(done).toHaveLength(1);
      expect(done[0]).toMatchObject({ reason: 'PRETURN', strategy: 'SUMMARY', maxContextTokens: 2048 });
      expect(types.indexOf('CompressionStarted')).toBeLessThan(types.indexOf('ContextCompressed'));
      expect(types.indexOf('ContextCompressed')).toBeLessThan(types.indexOf('TurnEnded'));
      const call = turnCalls(from)[0]!;
      expect(call.messages![0]!.content).toContain('[Summary of the earlier conversation]');
      expect(call.messages!.at(-1)!.content.startsWith('next question')).toBe(true);
      const ended = events.find(isEvent('TurnEnded'));
      expect(ended!.assistantMessage!.content).toBe('fine');
    },
  );

  it('reads the context once per model call: the pre-turn check, the memory recall and the call share it', async () => {
    // A summary in the context makes the recall run; a large window keeps the check from compressing.
    const s = await profileSession(t, { window: 131072, keepRecent: 2 });
    await t.app.store.append(s.raw, [
      { role: 'assistant', content: SUMMARY, isSummary: true, isDisplay: false },
      ...exchanges(6, 50),
    ]);
    const store = t.app.store;
    const original = store.context;
    let reads = 0;
    store.context = function (this: typeof store, ...args: Parameters<typeof original>) {
      reads++;
      return original.apply(this, args);
    };
    try {
      const from = t.fake.requests.length;
      t.fake.enqueue({ text: 'fine' });
      const { events } = await sendAndWait(t, s.id, 'one more question');
      expect(events.some((e) => e.__typename === 'TurnEnded')).toBe(true);
      expect(compressed(events)).toHaveLength(0);
      // One read for the call (the post-turn worker, which may have started by now, reads once more).
      expect(reads).toBeLessThanOrEqual(2);
      // The call got the whole context: the summary, the earlier exchanges and the new message.
      const call = turnCalls(from)[0]!;
      expect(call.messages!.some((m) => String(m.content).includes('Earlier work summarized'))).toBe(true);
      expect(call.messages!.filter((m) => String(m.content).startsWith('turn ')).length).toBe(12);
      expect(String(call.messages!.at(-1)!.content).startsWith('one more question')).toBe(true);
    } finally {
      store.context = original;
    }
  });

  it('a note recorded by someone else after the pre-call check still reaches that call', async () => {
    const s = await profileSession(t, { window: 131072, keepRecent: 2 });
    await t.app.store.append(s.raw, exchanges(3, 50));
    // The recall runs after the pre-call check read the context: another client records a task note right then.
    const hooks = t.app.hooks;
    const recall = hooks.turnContext;
    let recorded = false;
    hooks.turnContext = async (ctx) => {
      if (!recorded && ctx.session.id === s.raw) {
        recorded = true;
        const r = await t.gql(CompressionTriggersRecordEventDocument, {
          i: { sessionId: s.id, source: 'task_note', text: 'LATE-NOTE from the build watcher' },
        });
        expect(r.errors).toBeUndefined();
      }
      return recall ? recall(ctx) : null;
    };
    try {
      const from = t.fake.requests.length;
      t.fake.enqueue({ text: 'fine' });
      await sendAndWait(t, s.id, 'status?');
      expect(recorded).toBe(true);
      const call = turnCalls(from)[0]!;
      expect(JSON.stringify(call.messages)).toContain('LATE-NOTE from the build watcher');
    } finally {
      hooks.turnContext = recall;
    }
  });

  it('no re-firing: after compressing toward 65% the next messages do not compress again', async () => {
    const s = await profileSession(t, { window: 2048, keepRecent: 2 });
    await t.app.store.append(s.raw, exchanges(8, 220));
    respond(t, SUMMARY);
    const all: SessionEvent[] = [];
    // A negative check: a needless post-turn pass would start after the last TurnEnded; waited for, not paused for.
    const worker = t.app.hooks.afterTurn!;
    let passes = 0;
    t.app.hooks.afterTurn = (ctx) => worker(ctx).finally(() => void passes++);
    try {
      for (const q of ['one', 'two', 'three', 'four'])
        all.push(...(await sendAndWait(t, s.id, `question ${q}`)).events);
      await eventually(
        async () => passes,
        (n) => n >= 4,
      );
    } finally {
      t.app.hooks.afterTurn = worker;
    }
    const markers = (await t.app.store.allMessages(s.raw)).filter((m) => m.isCompression);
    expect(markers).toHaveLength(1);
    expect(compressed(all)).toHaveLength(1);
  });

  it('post-turn: the worker compresses after TurnEnded when the reply filled the window', async () => {
    const s = await profileSession(t, { window: 2048, keepRecent: 2 });
    await t.app.store.append(s.raw, exchanges(4, 200));
    t.fake.enqueue({ text: 'x'.repeat(900), promptTokens: 1300 });
    respond(t, SUMMARY);
    const { events } = await sendAndWait(t, s.id, 'write a lot', (es) => compressed(es).length > 0);
    const types = events.map((e) => e.__typename);
    expect(types.indexOf('TurnEnded')).toBeLessThan(types.indexOf('ContextCompressed'));
    expect(compressed(events)[0]).toMatchObject({ reason: 'POSTTURN' });
    const context = await t.app.store.context(s.raw);
    expect(context[0]!.isSummary).toBe(true);
    expect(context.at(-1)!.content).toBe('x'.repeat(900));
  });

  it(
    'a truncated prompt report: no baseline recorded, flag ' + 'raised, post-turn compresses, the meter stays honest',
    async () => {
      const s = await profileSession(t, { window: 4096, keepRecent: 1 });
      respond(t, SUMMARY);
      await sendAndWait(t, s.id, 'hello there');
      const first = (await t.app.store.get(s.raw))!.metadata as SessionMetadata;
      expect(first.baseline?.promptTokens).toBeGreaterThan(0);

      const seen: Awaited<ReturnType<ServerContext['app']['store']['get']>>[] = [];
      const worker = t.app.hooks.afterTurn!;
      t.app.hooks.afterTurn = async (ctx) => {
        seen.push(await t.app.store.get(s.raw));
        return worker(ctx);
      };
      try {
        // The server evaluated only part of the prompt (Ollama's silent truncation) and says so in its count.
        t.fake.enqueue({ text: 'partial view', promptTokens: 200 });
        await t.app.store.append(s.raw, exchanges(2, 880, 'pasted'));
        const { events } = await sendAndWait(t, s.id, 'what do you make of it?', (es) => compressed(es).length > 0);
        const row = seen[0]!;
        const meta = row.metadata as SessionMetadata;
        expect(meta.contextTruncated).toBe(true);
        expect(meta.baseline).toEqual(first.baseline);
        expect(row.contextTokenCount).toBeGreaterThan(1000);
        const done = compressed(events)[0]!;
        expect(done.reason).toBe('POSTTURN');
        // Below the threshold: only the flag made it fire.
        expect(row.contextTokenCount).toBeLessThan(0.75 * 4096);
        const after = (await t.app.store.get(s.raw))!;
        expect(after.metadata).not.toHaveProperty('contextTruncated');
        expect(after.contextTokenCount).toBe(done.contextTokens);
        expect(after.contextTokenCount).not.toBe(200);
      } finally {
        t.app.hooks.afterTurn = worker;
      }
    },
  );

  it('a first huge tool result does not end the session with "too large" (the view is what counts)', async () => {
    const s = await profileSession(t, { window: 8192 });
    t.app.tools.register({
      name: 'dump_log',
      description: 'returns a huge log',
      parameters: { type: 'object', properties: {} },
      run: async () => ({ content: `BEGIN ${'log line\n'.repeat(125_000)} END` }),
    });
    let calls = 0;
    respond(t, SUMMARY, () =>
      ++calls === 1 ? { toolCalls: [{ name: 'dump_log', arguments: {} }] } : { text: 'The log ends with END.' },
    );
    const from = t.fake.requests.length;
    const { events } = await sendAndWait(t, s.id, 'show me the log');
    const ended = events.find(isEvent('TurnEnded'));
    expect(ended!.turn.status).toBe('COMPLETED');
    expect(ended!.assistantMessage!.content).toBe('The log ends with END.');
    const second = turnCalls(from)[1]!;
    const tool = second.messages!.find((m) => m.role === 'tool')!;
    expect(tool.content).toContain('chars truncated');
    expect(tool.content.length).toBeLessThan(10_000);
    const stored = (await t.app.store.allMessages(s.raw)).find((m) => m.role === 'tool')!;
    expect(stored.content.length).toBeGreaterThan(1_000_000);
    expect((await t.app.store.allMessages(s.raw)).some((m) => m.content.startsWith(tooLarge))).toBe(false);
  });

  // The same over 200 iterations and more than three compressions: test/slow/compression-scale.test.ts.
  it('mid-turn: one user message and 40 tool iterations stay within the window end to end', async () => {
    await midTurnLoop(t, { steps: 40, minCompressions: 1 });
  });
});
