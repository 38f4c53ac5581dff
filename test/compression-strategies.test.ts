/**
 * Strategies on the same pipeline: FULL_REPLACE, LOCAL
 * (cap/spill/prune/shake, read back), NATIVE (Anthropic compaction).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, codeOf, dbKind, type SessionEvent, type ServerContext } from './support/harness.js';
import { anthropicRequest, ollamaRequest } from './support/fake-provider.js';
import {
  COMPACT_DOC,
  PLAN_DOC,
  compressed,
  exchanges,
  isSummaryCall,
  isSummaryRequest,
  profileSession,
  respond,
  sendAndWait,
  withEvents,
} from './support/compression.js';
import type { NewMessage } from '../src/domain/types.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false });
});
afterAll(() => t.close());
afterEach(() => {
  t.fake.responder = undefined;
});

const done = (es: SessionEvent[]) => compressed(es).length > 0;

function toolTurn(i: number, body: string): NewMessage[] {
  return [
    { role: 'user', content: `task ${i}` },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: `call_${i}`, name: 'shell', arguments: { cmd: `cat big_${i}.log` } }],
    },
    { role: 'tool', content: body, toolCallId: `call_${i}`, name: 'shell' },
    { role: 'assistant', content: `done ${i}` },
  ];
}

describe(`compression strategies (${dbKind})`, () => {
  it('FULL_REPLACE: last request + its tail + a continuation summary last; local stub when the LLM fails', async () => {
    const s = await profileSession(t, { window: 4096 });
    await t.app.store.append(s.raw, [...exchanges(3), ...toolTurn(9, 'short output')]);
    respond(t, '- Continue from step 3.\nKEYS: step 3');
    const { result, events } = await withEvents(
      t,
      s.id,
      () => t.http(COMPACT_DOC, { id: s.id, s: 'FULL_REPLACE' }),
      done,
    );
    expect(result.errors).toBeUndefined();
    expect(compressed(events)[0]).toMatchObject({
      strategy: 'FULL_REPLACE',
      reason: 'FORCED',
      messagesBefore: 10,
      messagesAfter: 5,
    });
    const context = await t.app.store.context(s.raw);
    expect(context.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(context[0]!.content).toBe('task 9');
    expect(context.at(-1)).toMatchObject({ isSummary: true, isDisplay: false });
    expect(context.at(-1)!.content).toContain('Continue from step 3.');
    expect(ollamaRequest(t.fake.requests.filter((b) => isSummaryRequest(b)).at(-1)).messages![0]!.content).toMatch(
      /^You write a continuation/,
    );
    expect((await t.app.store.allMessages(s.raw)).filter((m) => m.isDisplay && !m.isCompression)).toHaveLength(10);

    const s2 = await profileSession(t, { window: 4096 });
    await t.app.store.append(s2.raw, [...exchanges(3), ...toolTurn(9, 'short output')]);
    t.fake.responder = (call) => (isSummaryCall(call) ? { status: 500 } : { text: 'ok' });
    const r2 = await t.http(COMPACT_DOC, { id: s2.id, s: 'FULL_REPLACE' });
    expect(r2.errors).toBeUndefined();
    expect(r2.data!.compactSession.summary).toContain('compacted without a summarizer');
  });

  it(
    'LOCAL: no LLM; old bodies spilled (read back in full), ' + 'older results shrunk, copies in place, display intact',
    async () => {
      const s = await profileSession(t, { window: 8192 });
      const huge = `HEAD ${'x'.repeat(20_000)} TAIL-MARKER`;
      const medium = `MED ${'m'.repeat(5_000)}`;
      await t.app.store.append(s.raw, [
        ...toolTurn(1, huge),
        ...toolTurn(2, medium),
        ...toolTurn(3, 'r3'),
        ...toolTurn(4, 'r4'),
        ...toolTurn(5, 'r5'),
      ]);
      const before = t.fake.requests.length;
      const plan = (await t.http(PLAN_DOC, { id: s.id, s: 'LOCAL' })).data!.compressionPlan;
      expect(plan).toMatchObject({ wouldCompress: true, strategy: 'LOCAL' });
      const { result, events } = await withEvents(t, s.id, () => t.http(COMPACT_DOC, { id: s.id, s: 'LOCAL' }), done);
      expect(result.errors).toBeUndefined();
      expect(t.fake.requests.length).toBe(before);
      expect(compressed(events)[0]).toMatchObject({ strategy: 'LOCAL' });
      expect(compressed(events)[0]!.contextTokens).toBeLessThanOrEqual(plan.estimatedTokensAfter);

      const context = await t.app.store.context(s.raw);
      const tools = context.filter((m) => m.role === 'tool');
      const spilled = tools[0]!;
      expect(spilled.isDisplay).toBe(false);
      expect(spilled.content.length).toBeLessThan(1_500);
      const pointer = /saved to (spill:\d+)/.exec(spilled.content)![1]!;
      // Same place in the context: right after its call.
      const at = context.indexOf(spilled);
      expect(context[at - 1]!.toolCalls[0]!.id).toBe(spilled.toolCallId);
      const back = await t.app.tools.run(
        'read_spilled',
        { pointer },
        { sessionId: s.raw, turnId: 'x', signal: new AbortController().signal },
      );
      expect(back.content.startsWith('HEAD ')).toBe(true);
      expect(back.content).toContain('call again with offset 8000');
      const last = await t.app.tools.run(
        'read_spilled',
        { pointer, offset: 16_000 },
        { sessionId: s.raw, turnId: 'x', signal: new AbortController().signal },
      );
      expect(last.content.endsWith('TAIL-MARKER')).toBe(true);
      // The display rows keep their full bodies.
      const all = await t.app.store.allMessages(s.raw);
      expect(all.find((m) => m.content === huge)).toMatchObject({ isDisplay: true, isContext: false });
      expect(all.filter((m) => m.isDisplay && !m.isCompression)).toHaveLength(20);
    },
  );

  it(
    'Ollama tool calls without ids: every call gets its own id, each ' +
      'spilled body its own pointer (read_spilled returns that output)',
    async () => {
      const s = await profileSession(t, { window: 65_536 });
      const body = (n: number) => `BODY-${n} ${'x'.repeat(10_000)} END-${n}`;
      t.app.tools.register({
        name: 'dump',
        description: 'prints a large log',
        parameters: { type: 'object', properties: { n: { type: 'integer' } } },
        run: async (args) => ({ content: body(Number(args.n)) }),
      });
      // Three turns of two calls each, the fake sending no ids (as Ollama does); turn 3 repeats a given id.
      for (const [turn, ids] of [
        [1, [undefined, undefined]],
        [2, [undefined, undefined]],
        [3, ['call_0', 'call_0']],
      ] as const) {
        t.fake.enqueue(
          { toolCalls: ids.map((id, i) => ({ name: 'dump', arguments: { n: turn * 10 + i }, ...(id && { id }) })) },
          { text: `done ${turn}` },
        );
        const { events } = await sendAndWait(t, s.id, `run dump ${turn}`);
        expect(events.at(-1)?.__typename).toBe('TurnEnded');
      }
      const all = await t.app.store.allMessages(s.raw);
      const callIds = all.flatMap((m) => m.toolCalls.map((c) => c.id));
      expect(callIds).toHaveLength(6);
      expect(new Set(callIds).size).toBe(6);
      // Every result answers its own call.
      for (const r of all.filter((m) => m.role === 'tool')) {
        const call = all.flatMap((m) => m.toolCalls).find((c) => c.id === r.toolCallId)!;
        expect(r.content.startsWith(`BODY-${call.arguments.n} `)).toBe(true);
      }

      const r = await t.http(COMPACT_DOC, { id: s.id, s: 'LOCAL' });
      expect(r.errors).toBeUndefined();
      const spilled = (await t.app.store.context(s.raw)).filter((m) => typeof m.metadata.spilled === 'string');
      expect(spilled.length).toBeGreaterThanOrEqual(2);
      expect(new Set(spilled.map((m) => m.metadata.spilled)).size).toBe(spilled.length);
      for (const m of spilled) {
        const n = /^BODY-(\d+) /.exec(m.content)![1];
        const back = await t.app.tools.run(
          'read_spilled',
          { pointer: m.metadata.spilled },
          { sessionId: s.raw, turnId: 'x', signal: new AbortController().signal },
        );
        expect(back.content.startsWith(`BODY-${n} `)).toBe(true);
      }
    },
  );

  it('LOCAL: over budget it drops the oldest units with a stub summary, then hard-truncates', async () => {
    const s = await profileSession(t, { window: 2048 });
    const msgs: NewMessage[] = [];
    for (let i = 0; i < 12; i++) msgs.push(...toolTurn(i, `out ${i} ${'o'.repeat(600)}`));
    await t.app.store.append(s.raw, msgs);
    const r = await t.http(COMPACT_DOC, { id: s.id, s: 'LOCAL' });
    expect(r.errors).toBeUndefined();
    const context = await t.app.store.context(s.raw);
    expect(context[0]).toMatchObject({ isSummary: true });
    expect(context[0]!.content).toContain('compacted without a summarizer');
    expect(context.at(-1)!.content).toBe('done 11');
    const row = (await t.app.store.get(s.raw))!;
    expect(row.contextTokenCount).toBeLessThanOrEqual(2048 * 0.65);
  });

  it(
    'NATIVE: the block is replayed as the typed compaction ' +
      'block, first; kept turns keep their thinking and signatures',
    async () => {
      const s = await profileSession(t, { provider: 'anthropic', window: 8192 });
      const rejectedBefore = t.fake.rejections.length;
      for (let i = 1; i <= 3; i++) {
        t.fake.enqueue({ thinking: `thought ${i}`, text: `answer ${i}` });
        const { events } = await sendAndWait(t, s.id, `question ${i}`);
        expect(events.at(-1)?.__typename).toBe('TurnEnded');
      }
      const stored = (await t.app.store.allMessages(s.raw)).filter((m) => m.role === 'assistant');
      expect(stored.at(-1)!.metadata.thinkingBlocks).toEqual([
        { type: 'thinking', thinking: 'thought 3', signature: expect.stringMatching(/^sig_/) },
      ]);

      t.fake.enqueue({ compaction: 'Turns 1 and 2: the user asked two questions.' });
      const r = await t.http(COMPACT_DOC, { id: s.id, s: 'NATIVE' });
      expect(r.errors).toBeUndefined();
      expect(r.data!.compactSession).toMatchObject({ messagesBefore: 6, messagesAfter: 3 });

      t.fake.enqueue({ thinking: 'thought 4', text: 'answer 4' });
      const { events } = await sendAndWait(t, s.id, 'question 4');
      expect(events.at(-1)?.__typename).toBe('TurnEnded');
      expect(t.fake.rejections.slice(rejectedBefore)).toEqual([]);
      const call = t.fake.calls.filter((c) => c.api === 'anthropic').at(-1)!;
      expect(String(call.headers['anthropic-beta'])).toContain('compact-2026-01-12');
      const [carrier, user3, assistant3, user4, ...rest] = anthropicRequest(call.body).messages;
      expect(rest).toEqual([]);
      expect(carrier).toEqual({
        role: 'assistant',
        content: [
          {
            type: 'compaction',
            content: 'Turns 1 and 2: the user asked two questions.',
            signature: expect.stringMatching(/^csig_/),
          },
        ],
      });
      expect(user3).toEqual({ role: 'user', content: [{ type: 'text', text: 'question 3' }] });
      expect(assistant3.content).toEqual([
        {
          type: 'thinking',
          thinking: 'thought 3',
          signature: (stored.at(-1)!.metadata.thinkingBlocks as { signature: string }[])[0]!.signature,
        },
        // the last block before the latest user message: the history's prompt-cache breakpoint
        { type: 'text', text: 'answer 3', cache_control: { type: 'ephemeral' } },
      ]);
      expect(user4.content.at(-1)).toMatchObject({ type: 'text', text: expect.stringContaining('question 4') });
    },
  );

  it('NATIVE: Anthropic compaction block replaces the prefix; BAD_USER_INPUT for providers without it', async () => {
    const s = await profileSession(t, { provider: 'anthropic', window: 8192 });
    await t.app.store.append(s.raw, [
      ...exchanges(3),
      { role: 'user', content: 'latest request' },
      { role: 'assistant', content: 'latest answer' },
    ]);
    t.fake.enqueue({ compaction: 'Provider summary of the first three turns.' });
    const { result, events } = await withEvents(t, s.id, () => t.http(COMPACT_DOC, { id: s.id, s: 'NATIVE' }), done);
    expect(result.errors).toBeUndefined();
    const call = t.fake.calls.at(-1)!;
    expect(call.api).toBe('anthropic');
    expect(String(call.headers['anthropic-beta'])).toContain('compact-2026-01-12');
    expect(anthropicRequest(call.body).context_management!.edits[0]!.type).toBe('compact_20260112');
    expect(compressed(events)[0]).toMatchObject({
      strategy: 'NATIVE',
      summary: 'Provider summary of the first three turns.',
      messagesBefore: 8,
      messagesAfter: 3,
    });
    const context = await t.app.store.context(s.raw);
    expect(context.map((m) => [m.role, m.content])).toEqual([
      ['assistant', 'Provider summary of the first three turns.'],
      ['user', 'latest request'],
      ['assistant', 'latest answer'],
    ]);
    expect(context[0]!.metadata.nativeCompaction).toBe(true);

    // A later turn sends the block back typed and verbatim (the fake refuses it as text).
    const next = await sendAndWait(t, s.id, 'and now?');
    expect(next.events.at(-1)?.__typename).toBe('TurnEnded');
    const sent = t.fake.calls.at(-1)!;
    expect(anthropicRequest(sent.body).messages[0]).toEqual({
      role: 'assistant',
      content: [
        { type: 'compaction', content: 'Provider summary of the first three turns.', signature: expect.any(String) },
      ],
    });
    expect(String(sent.headers['anthropic-beta'])).toContain('compact-2026-01-12');

    const o = await profileSession(t, { provider: 'ollama' });
    await t.app.store.append(o.raw, exchanges(4));
    const bad = await t.http(COMPACT_DOC, { id: o.id, s: 'NATIVE' });
    expect(codeOf(bad)).toBe('BAD_USER_INPUT');
    expect(bad.errors![0]!.message).toContain('no native compaction');
    expect(codeOf(await t.http(PLAN_DOC, { id: o.id, s: 'NATIVE' }))).toBe('BAD_USER_INPUT');
  });
});
