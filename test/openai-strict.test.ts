/**
 * Strict OpenAI-compatible servers refuse every request field outside the core chat-completions set with a 400
 * ("Unrecognized request argument supplied: <field>"). The service retries once without the field it added
 * (prompt_cache_key; stream_options when refused too) and leaves it out of every later request to that base URL;
 * without stream_options the server reports no usage, so the turn's usage is counted from characters and marked
 * `estimated`. The fake's strict mode answers with the real error body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiRequest } from './support/fake-provider.js';
import { profileSession, sendAndWait } from './support/compression.js';
import { createTestServer, dbKind, type ServerContext } from './support/harness.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false });
}, 120_000);
afterAll(() => t?.close());

const openaiCalls = (from: number) => t.fake.calls.slice(from).filter((c) => c.api === 'openai' && c.method === 'POST');

const turnUsage = async (raw: string) => {
  const turns = await t.app.db.prisma.turn.findMany({ where: { sessionId: raw }, orderBy: { startedAt: 'desc' } });
  return turns[0]!.usage as Record<string, unknown>;
};

describe(`strict OpenAI-compatible server (${dbKind})`, () => {
  // First: the other tests teach the process that this base URL refuses prompt_cache_key.
  it('a profile with providerExtensions: false sends no extension field, from the first request on', async () => {
    t.fake.strictOpenAI = 'core';
    const s = await profileSession(t, { provider: 'openai', window: 100_000, providerExtensions: false });
    const from = t.fake.calls.length;
    const rejected = t.fake.rejections.length;
    const { events } = await sendAndWait(t, s.id, 'hello');
    expect(events.map((e) => e.__typename)).toContain('TurnEnded');
    const calls = openaiCalls(from);
    expect(calls).toHaveLength(1);
    expect(openaiRequest(calls[0]!.body).prompt_cache_key).toBeUndefined();
    expect(t.fake.rejections.slice(rejected)).toEqual([]);
  });

  it('prompt_cache_key refused: one retry without it, remembered for the base URL; usage still reported', async () => {
    t.fake.strictOpenAI = 'core';
    const s = await profileSession(t, { provider: 'openai', window: 100_000 });
    const from = t.fake.calls.length;
    const rejected = t.fake.rejections.length;
    const { events } = await sendAndWait(t, s.id, 'hello');
    expect(events.map((e) => e.__typename)).toContain('TurnEnded');
    const calls = openaiCalls(from);
    expect(calls).toHaveLength(2);
    expect(openaiRequest(calls[0]!.body).prompt_cache_key).toBeTruthy();
    expect(openaiRequest(calls[1]!.body).prompt_cache_key).toBeUndefined();
    expect(t.fake.rejections.slice(rejected).map((r) => r.message)).toEqual([
      'Unrecognized request argument supplied: prompt_cache_key',
    ]);
    expect((await turnUsage(s.raw)).estimated).toBeUndefined();

    // The next turn to the same base URL leaves it out at once: no refusal.
    const next = t.fake.calls.length;
    await sendAndWait(t, s.id, 'again');
    const later = openaiCalls(next);
    expect(later).toHaveLength(1);
    expect(openaiRequest(later[0]!.body).prompt_cache_key).toBeUndefined();
    expect(t.fake.rejections.length).toBe(rejected + 1);
  });

  it('stream_options refused too: retried without it, usage estimated and marked so', async () => {
    t.fake.strictOpenAI = 'no-stream-options';
    const s = await profileSession(t, { provider: 'openai', window: 100_000 });
    const from = t.fake.calls.length;
    const { events } = await sendAndWait(t, s.id, 'hello there');
    expect(events.map((e) => e.__typename)).toContain('TurnEnded');
    const calls = openaiCalls(from);
    expect(calls).toHaveLength(2);
    expect(openaiRequest(calls[0]!.body).stream_options).toBeTruthy();
    expect(openaiRequest(calls[1]!.body).stream_options).toBeUndefined();
    const usage = await turnUsage(s.raw);
    expect(usage.estimated).toBe(true);
    expect(usage.promptTokens).toBeGreaterThan(0);
    t.fake.strictOpenAI = 'off';
  });
});
