/**
 * Prompt caching end to end: Anthropic cache_control breakpoints on the
 * byte-stable prefix, OpenAI prompt_cache_key per session, and the cache
 * figures the (faked) providers report folded into usage and cost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costOf } from '../src/domain/cost.js';
import {
  type AnthropicBlock,
  type AnthropicMessage,
  type AnthropicMessagesRequest,
  anthropicRequest,
  type FakeCall,
  openaiRequest,
} from './support/fake-provider.js';
import { PromptCachingUsageDocument } from './generated/graphql.js';
import { createTestServer, dbKind, type ServerContext } from './support/harness.js';
import { COMPACT, isSummaryCall, profileSession, respond, sendAndWait } from './support/compression.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false, maxToolIterations: 5 });
  // The real minimum is 1024 tokens; smaller prompts keep the test quick.
  t.fake.cacheMinTokens = 64;
});
afterAll(() => t.close());

const SYSTEM = `You are a careful assistant. ${'Follow the house style. '.repeat(60)}`;
const USAGE = PromptCachingUsageDocument;

/** Where a breakpoint sits: message index and block index (-1: the system block). */
interface Breakpoint {
  message: number;
  block: number;
}

const blocksOf = (m: AnthropicMessage): AnthropicBlock[] => (Array.isArray(m.content) ? m.content : []);
const systemOf = (body: AnthropicMessagesRequest) => (Array.isArray(body.system) ? body.system : []);
const marked = (b: object): boolean => 'cache_control' in b && Boolean(b.cache_control);

function breakpoints(body: AnthropicMessagesRequest): Breakpoint[] {
  const out: Breakpoint[] = [];
  systemOf(body).forEach((b, j) => {
    if (marked(b)) out.push({ message: -1, block: j });
  });
  body.messages.forEach((m, i) => {
    blocksOf(m).forEach((b, j) => {
      if (marked(b)) out.push({ message: i, block: j });
    });
  });
  return out;
}

const strip = (b: object): object => {
  const { cache_control: _c, ...rest } = b as { cache_control?: unknown };
  return rest;
};

/** The request up to and including the breakpoint's block (tools, system, messages), cache_control left out. */
function prefixThrough(body: AnthropicMessagesRequest, bp: Breakpoint): string {
  const system = systemOf(body).map(strip);
  if (bp.message === -1) return JSON.stringify({ tools: body.tools, system: system.slice(0, bp.block + 1) });
  const messages = body.messages.slice(0, bp.message + 1).map((m, i) => ({
    role: m.role,
    content: (i === bp.message ? blocksOf(m).slice(0, bp.block + 1) : blocksOf(m)).map(strip),
  }));
  return JSON.stringify({ tools: body.tools, system, messages });
}

/** Every breakpoint of `a` marks a prefix `b` repeats byte for byte. */
function expectStablePrefixes(a: AnthropicMessagesRequest, b: AnthropicMessagesRequest) {
  const marks = breakpoints(a);
  expect(marks.length).toBeGreaterThan(0);
  for (const bp of marks) expect(prefixThrough(b, bp)).toBe(prefixThrough(a, bp));
}

function lastBlockBeforeLatestUser(body: AnthropicMessagesRequest): Breakpoint {
  let latest = body.messages.length - 1;
  const isUserText = (m: AnthropicMessage | undefined) =>
    m?.role === 'user' && blocksOf(m).some((b) => b.type !== 'tool_result');
  while (!isUserText(body.messages[latest])) latest--;
  return { message: latest - 1, block: blocksOf(body.messages[latest - 1]!).length - 1 };
}

const turnCalls = (from: number): FakeCall[] =>
  t.fake.calls.slice(from).filter((c) => c.api === 'anthropic' && c.method === 'POST' && !isSummaryCall(c));

describe(`prompt caching (${dbKind})`, () => {
  it('Anthropic: breakpoints on the system and the history before the latest user; the prefix is stable', async () => {
    const s = await profileSession(t, { provider: 'anthropic', systemPrompt: SYSTEM, window: 100_000 });
    const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    t.app.config.modelPrices[s.model] = price;
    respond(t, 'unused summary', () => ({ text: `An answer. ${'detail '.repeat(40)}` }));
    const from = t.fake.calls.length;
    const reportsFrom = t.fake.cacheReports.length;
    for (const q of ['first', 'second', 'third']) {
      const { events } = await sendAndWait(t, s.id, `The ${q} question: ${'why '.repeat(50)}`);
      expect(events.find((e) => e.__typename === 'TurnEnded')?.turn.status).toBe('COMPLETED');
    }
    t.fake.responder = undefined;
    const calls = turnCalls(from);
    expect(calls).toHaveLength(3);
    expect(t.fake.rejections).toEqual([]);
    const [one, two, three] = calls.map((c) => anthropicRequest(c.body));
    // The first call has no history yet: only the system block.
    expect(breakpoints(one)).toEqual([{ message: -1, block: 0 }]);
    for (const body of [two, three]) {
      expect(breakpoints(body)).toEqual([{ message: -1, block: 0 }, lastBlockBeforeLatestUser(body)]);
      // the latest user message itself carries none: it changes from call to call
      expect(JSON.stringify(body.messages.at(-1))).not.toContain('cache_control');
    }
    expectStablePrefixes(one, two);
    expectStablePrefixes(two, three);

    // What the cache reported: the first call writes the system prefix, each later one reads what the
    // one before wrote and writes its own history breakpoint.
    const reports = t.fake.cacheReports.slice(reportsFrom).filter((r) => r.api === 'anthropic');
    expect(reports).toHaveLength(3);
    expect(reports[0]).toMatchObject({ read: 0 });
    expect(reports[0]!.write).toBeGreaterThan(0);
    expect(reports[1]!.read).toBe(reports[0]!.write);
    expect(reports[2]!.read).toBe(reports[1]!.read + reports[1]!.write);
    for (const r of reports.slice(1)) expect(r.write).toBeGreaterThan(0);

    const usage = (await t.http(USAGE, { id: s.id })).data!.session!;
    const read = reports.reduce((n, r) => n + r.read, 0);
    const write = reports.reduce((n, r) => n + r.write, 0);
    const prompt = reports.reduce((n, r) => n + r.prompt, 0);
    expect(usage.usage).toMatchObject({
      promptTokens: prompt,
      cachedPromptTokens: read,
      cacheReadTokens: read,
      cacheWriteTokens: write,
    });
    const completion = usage.usage.completionTokens;
    const expected = ((prompt - read - write) * 3 + read * 0.3 + write * 3.75 + completion * 15) / 1_000_000;
    expect(usage.cost.priced).toBe(true);
    expect(usage.cost.usd).toBeCloseTo(expected, 12);
    // not the price without the cache
    expect(usage.cost.usd).not.toBeCloseTo(
      costOf({ promptTokens: prompt, completionTokens: completion }, price).usd,
      9,
    );
  });

  it('Anthropic tool loop: the newest tool_result is a breakpoint and each call repeats the one before', async () => {
    t.app.tools.register({
      name: 'lookup',
      description: 'looks a word up',
      parameters: { type: 'object', properties: { word: { type: 'string' } } },
      run: async (args) => ({ content: `The entry for ${String(args.word)}: ${'meaning '.repeat(30)}` }),
    });
    const s = await profileSession(t, { provider: 'anthropic', systemPrompt: SYSTEM, window: 100_000 });
    const from = t.fake.calls.length;
    const reportsFrom = t.fake.cacheReports.length;
    t.fake.enqueue({ text: `Warm-up answer. ${'x '.repeat(50)}` });
    await sendAndWait(t, s.id, `Warm up: ${'please '.repeat(40)}`);
    t.fake.enqueue(
      { toolCalls: [{ name: 'lookup', arguments: { word: 'alpha' } }] },
      { toolCalls: [{ name: 'lookup', arguments: { word: 'beta' } }] },
      { text: 'Both looked up.' },
    );
    const { events } = await sendAndWait(t, s.id, `Look up two words: ${'carefully '.repeat(30)}`);
    expect(events.find((e) => e.__typename === 'TurnEnded')?.turn.status).toBe('COMPLETED');
    const calls = turnCalls(from).map((c) => anthropicRequest(c.body));
    expect(calls).toHaveLength(4);
    expect(t.fake.rejections).toEqual([]);
    const [, first, second, third] = calls;
    // The first call of the turn: system and history; the later ones add the newest tool result.
    expect(breakpoints(first)).toHaveLength(2);
    for (const body of [second, third]) {
      const marks = breakpoints(body);
      expect(marks).toHaveLength(3);
      const newest = marks.at(-1)!;
      expect(newest.message).toBe(body.messages.length - 1);
      expect(blocksOf(body.messages[newest.message]!)[newest.block]!.type).toBe('tool_result');
      expect(marks[1]).toEqual(lastBlockBeforeLatestUser(body));
    }
    for (let i = 1; i < calls.length; i++) expectStablePrefixes(calls[i - 1], calls[i]);
    const reports = t.fake.cacheReports.slice(reportsFrom).filter((r) => r.api === 'anthropic');
    // each call of the loop reads everything the call before it wrote
    for (let i = 2; i < reports.length; i++) {
      expect(reports[i]!.read).toBe(reports[i - 1]!.read + reports[i - 1]!.write);
    }
    expect(reports[3]!.read).toBeGreaterThan(reports[1]!.read);
  });

  it('Anthropic after a compression: the breakpoint moves after the summary, the prefix is stable', async () => {
    const s = await profileSession(t, {
      provider: 'anthropic',
      systemPrompt: SYSTEM,
      window: 100_000,
      keepRecent: 2,
    });
    respond(t, `Summary of the talk so far. ${'fact '.repeat(30)}`, () => ({ text: `Answer. ${'word '.repeat(30)}` }));
    for (const q of ['one', 'two', 'three']) await sendAndWait(t, s.id, `Question ${q}: ${'how '.repeat(40)}`);
    const compact = await t.http(COMPACT, { id: s.id });
    expect(compact.errors).toBeUndefined();
    const from = t.fake.calls.length;
    const reportsFrom = t.fake.cacheReports.length;
    for (const q of ['four', 'five']) {
      const { events } = await sendAndWait(t, s.id, `Question ${q}: ${'when '.repeat(40)}`);
      expect(events.find((e) => e.__typename === 'TurnEnded')?.turn.status).toBe('COMPLETED');
    }
    t.fake.responder = undefined;
    expect(t.fake.rejections).toEqual([]);
    const [four, five] = turnCalls(from).map((c) => anthropicRequest(c.body));
    expect(JSON.stringify(four.messages[0])).toContain('Summary of the talk so far');
    for (const body of [four, five]) {
      expect(breakpoints(body)).toEqual([{ message: -1, block: 0 }, lastBlockBeforeLatestUser(body)]);
    }
    expectStablePrefixes(four, five);
    const reports = t.fake.cacheReports.slice(reportsFrom).filter((r) => r.api === 'anthropic');
    // the system prefix survives the compression; the new history is read back on the next call
    expect(reports[0]!.read).toBeGreaterThan(0);
    expect(reports[1]!.read).toBe(reports[0]!.read + reports[0]!.write);
  });

  it('OpenAI: one prompt_cache_key per session (not its id), cached tokens in usage and cost', async () => {
    const a = await profileSession(t, { provider: 'openai', systemPrompt: SYSTEM, window: 100_000 });
    const b = await profileSession(t, { provider: 'openai', systemPrompt: SYSTEM, window: 100_000 });
    t.app.config.modelPrices[a.model] = { input: 2, output: 8, cacheRead: 0.5 };
    respond(t, 'unused', () => ({ text: `Reply. ${'text '.repeat(30)}` }));
    const from = t.fake.calls.length;
    const reportsFrom = t.fake.cacheReports.length;
    for (const s of [a, a, b]) await sendAndWait(t, s.id, `A question: ${'what '.repeat(60)}`);
    t.fake.responder = undefined;
    const calls = t.fake.calls.slice(from).filter((c) => c.api === 'openai' && c.method === 'POST');
    expect(calls).toHaveLength(3);
    const keys = calls.map((c) => openaiRequest(c.body).prompt_cache_key);
    expect(keys[0]).toMatch(/^session-[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    for (const [i, s] of [a, a, b].entries()) {
      expect(keys[i]).not.toContain(s.raw);
      expect(keys[i]).not.toContain(s.raw.replace(/-/g, ''));
    }
    const reports = t.fake.cacheReports.slice(reportsFrom);
    // the second call of a repeats the first one's prefix; b's first call has another key: nothing cached
    expect(reports.map((r) => r.read > 0)).toEqual([false, true, false]);
    const usage = (await t.http(USAGE, { id: a.id })).data!.session!;
    const prompt = reports[0]!.prompt + reports[1]!.prompt;
    const read = reports[1]!.read;
    expect(usage.usage).toMatchObject({
      promptTokens: prompt,
      cachedPromptTokens: read,
      cacheReadTokens: read,
      cacheWriteTokens: 0,
    });
    // prompt_tokens includes the cached tokens: they are priced once, at cacheRead
    const expected = ((prompt - read) * 2 + read * 0.5 + usage.usage.completionTokens * 8) / 1_000_000;
    expect(usage.cost.usd).toBeCloseTo(expected, 12);
  });
});
