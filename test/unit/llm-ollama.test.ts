import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OllamaProvider } from '../../src/llm/ollama.js';
import type { ChatChunk, ChatRequest } from '../../src/llm/types.js';
import { drain, ollamaRequest, startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let fake: FakeProvider;
let provider: OllamaProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
  provider = new OllamaProvider({ host: fake.url, timeoutMs: 2000, connectRetries: 1 });
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.calls.length = 0;
  fake.responder = undefined;
});

const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'qwen3:8b',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Say hello' },
  ],
  ...over,
});

describe('OllamaProvider', () => {
  it('streams thinking and text deltas in order, then usage and done', async () => {
    fake.enqueue({
      thinking: ['Let me ', 'think.'],
      text: ['Hel', 'lo', ' world'],
      promptTokens: 42,
      completionTokens: 7,
    });
    const { chunks, error } = await drain(provider.streamChat(req({ think: true })));
    expect(error).toBeUndefined();
    expect(chunks).toEqual<ChatChunk[]>([
      { type: 'thinking', text: 'Let me ' },
      { type: 'thinking', text: 'think.' },
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'text', text: ' world' },
      { type: 'usage', usage: { promptTokens: 42, completionTokens: 7, cachedPromptTokens: 0, cacheWriteTokens: 0 } },
      { type: 'done', reason: 'stop' },
    ]);
  });

  it('sends num_ctx, temperature, think, max tokens and stream:true to /api/chat', async () => {
    await drain(provider.streamChat(req({ numCtx: 32768, temperature: 0.3, think: false, maxTokens: 512 })));
    expect(fake.calls[0].path).toBe('/api/chat');
    const body = ollamaRequest(fake.requests[0]);
    expect(body.model).toBe('qwen3:8b');
    expect(body.stream).toBe(true);
    expect(body.think).toBe(false);
    expect(body.options).toEqual({ num_ctx: 32768, temperature: 0.3, num_predict: 512 });
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Say hello' },
    ]);
  });

  it('reports the real prompt count estimated from the prompt that was sent', async () => {
    const content = 'x'.repeat(4000); // ~1000 tokens at 4 chars/token
    const { chunks } = await drain(provider.streamChat(req({ numCtx: 8192, messages: [{ role: 'user', content }] })));
    const usage = chunks.find((c) => c.type === 'usage');
    expect(usage).toMatchObject({ usage: { promptTokens: 1000 } });
  });

  it('silently truncated prompt: reports about half of num_ctx, no error', async () => {
    const content = 'y'.repeat(40_000); // ~10k tokens, window 4096
    const { chunks, error } = await drain(
      provider.streamChat(req({ numCtx: 4096, messages: [{ role: 'user', content }] })),
    );
    expect(error).toBeUndefined();
    const usage = chunks.find((c) => c.type === 'usage');
    expect(usage).toMatchObject({ usage: { promptTokens: 2048 } });
    expect(ollamaRequest(fake.requests[0]).options!.num_ctx).toBe(4096);
  });

  it('sends tools as function tools and yields tool calls with synthesized stable ids', async () => {
    fake.enqueue({
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Paris' } },
        { name: 'get_time', arguments: { tz: 'UTC' } },
      ],
    });
    const tools = [
      {
        name: 'get_weather',
        description: 'Weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
      { name: 'get_time', description: 'Time', parameters: { type: 'object', properties: { tz: { type: 'string' } } } },
    ];
    const { chunks } = await drain(provider.streamChat(req({ tools })));
    const calls = chunks.flatMap((c) => (c.type === 'tool_call' ? [c.call] : []));
    expect(calls).toEqual([
      { id: expect.stringMatching(/^call_[0-9a-f]{24}$/), name: 'get_weather', arguments: { city: 'Paris' } },
      { id: expect.stringMatching(/^call_[0-9a-f]{24}$/), name: 'get_time', arguments: { tz: 'UTC' } },
    ]);
    expect(calls[0]!.id).not.toBe(calls[1]!.id);
    expect(fake.requests[0].tools).toEqual(tools.map((t) => ({ type: 'function', function: t })));
  });

  it(
    'tool-call ids are unique: none given, or a given one ' +
      'repeated in the response or the history, gets a fresh id',
    async () => {
      const ids = async (
        over: Partial<ChatRequest>,
        toolCalls: { name: string; arguments: Record<string, unknown>; id?: string }[],
      ) => {
        fake.enqueue({ toolCalls });
        const { chunks } = await drain(provider.streamChat(req(over)));
        return chunks.flatMap((c) => (c.type === 'tool_call' ? [c.call.id] : []));
      };
      // Two calls without ids, in two responses: four distinct ids (the old `call_<index>` repeated across turns).
      const first = await ids({}, [
        { name: 'a', arguments: {} },
        { name: 'b', arguments: {} },
      ]);
      const second = await ids({}, [
        { name: 'a', arguments: {} },
        { name: 'b', arguments: {} },
      ]);
      expect(new Set([...first, ...second]).size).toBe(4);
      // A unique given id is kept; one repeated within the response is replaced.
      const given = await ids({}, [
        { name: 'a', arguments: {}, id: 'call_x' },
        { name: 'b', arguments: {}, id: 'call_x' },
      ]);
      expect(given[0]).toBe('call_x');
      expect(given[1]).not.toBe('call_x');
      // A given id that an earlier call in the history already holds is replaced.
      const history: ChatRequest['messages'] = [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_x', name: 'a', arguments: {} }] },
        { role: 'tool', content: 'done', toolCallId: 'call_x', name: 'a' },
      ];
      const again = await ids({ messages: history }, [{ name: 'a', arguments: {}, id: 'call_x' }]);
      expect(again).toHaveLength(1);
      expect(again[0]).not.toBe('call_x');
    },
  );

  it('sends images as base64 and replays assistant tool calls and tool results', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    await drain(
      provider.streamChat(
        req({
          messages: [
            { role: 'user', content: 'What is this?', images: [png] },
            { role: 'assistant', content: '', toolCalls: [{ id: 'call_0', name: 'look', arguments: { x: 1 } }] },
            { role: 'tool', content: 'a cat', toolCallId: 'call_0', name: 'look' },
          ],
        }),
      ),
    );
    expect(fake.requests[0].messages).toEqual([
      { role: 'user', content: 'What is this?', images: [png] },
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'look', arguments: { x: 1 } } }] },
      { role: 'tool', content: 'a cat', tool_name: 'look' },
    ]);
  });

  it('complete() collects text and usage', async () => {
    fake.enqueue({ text: ['A ', 'title'], promptTokens: 10, completionTokens: 2 });
    await expect(provider.complete(req())).resolves.toEqual({
      text: 'A title',
      usage: { promptTokens: 10, completionTokens: 2, cachedPromptTokens: 0, cacheWriteTokens: 0 },
    });
  });

  it('the fake also answers /api/version and /api/tags', async () => {
    const v = await fetch(`${fake.url}/api/version`).then((r) => r.json());
    const tags = await fetch(`${fake.url}/api/tags`).then((r) => r.json());
    expect(v.version).toBeTypeOf('string');
    expect(tags.models.length).toBeGreaterThan(0);
  });

  it('fake.responder decides when the queue is empty (echo)', async () => {
    fake.responder = (call) => ({ text: `echo: ${ollamaRequest(call.body).messages!.at(-1)!.content}` });
    expect((await provider.complete(req())).text).toBe('echo: Say hello');
    fake.enqueue({ text: 'queued wins' });
    expect((await provider.complete(req())).text).toBe('queued wins');
  });
});
