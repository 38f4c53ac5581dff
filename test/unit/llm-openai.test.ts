import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAICompatibleProvider } from '../../src/llm/openai.js';
import type { ChatChunk, ChatRequest } from '../../src/llm/types.js';
import { drain, openaiRequest, startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let fake: FakeProvider;
let provider: OpenAICompatibleProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
  provider = new OpenAICompatibleProvider({ baseURL: `${fake.url}/v1`, apiKey: 'sk-test', timeoutMs: 2000 });
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.calls.length = 0;
});

const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'gpt-test',
  messages: [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'hi' },
  ],
  ...over,
});

describe('OpenAICompatibleProvider', () => {
  it('streams reasoning_content as thinking, then text, then usage with cached tokens', async () => {
    fake.enqueue({ thinking: ['hmm'], text: ['Hel', 'lo'], promptTokens: 120, completionTokens: 5, cachedTokens: 64 });
    const { chunks, error } = await drain(provider.streamChat(req()));
    expect(error).toBeUndefined();
    expect(chunks).toEqual<ChatChunk[]>([
      { type: 'thinking', text: 'hmm' },
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'usage', usage: { promptTokens: 120, completionTokens: 5, cachedPromptTokens: 64, cacheWriteTokens: 0 } },
      { type: 'done', reason: 'stop' },
    ]);
  });

  it('requests streaming with include_usage, bearer auth, temperature and max_tokens', async () => {
    await drain(provider.streamChat(req({ temperature: 0.2, maxTokens: 100 })));
    expect(fake.calls[0].path).toBe('/v1/chat/completions');
    expect(fake.calls[0].headers.authorization).toBe('Bearer sk-test');
    const body = fake.requests[0];
    expect(body).toMatchObject({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 100,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
      ],
    });
  });

  it('sends prompt_cache_key when the request has a cache key, and none otherwise', async () => {
    await drain(provider.streamChat(req({ cacheKey: 'session-abc' })));
    await drain(provider.streamChat(req()));
    expect(openaiRequest(fake.requests[0]).prompt_cache_key).toBe('session-abc');
    expect('prompt_cache_key' in fake.requests[1]).toBe(false);
  });

  it('accumulates tool call deltas by index and parses arguments; bad JSON → {_raw}', async () => {
    fake.enqueue({
      toolCalls: [
        { id: 'call_a', name: 'search', arguments: { q: 'cats', limit: 3 } },
        { id: 'call_b', name: 'broken', arguments: '{"q": "unterminated' },
      ],
    });
    const tools = [
      { name: 'search', description: 'Search', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
    ];
    const { chunks } = await drain(provider.streamChat(req({ tools })));
    expect(chunks.filter((c) => c.type !== 'usage')).toEqual<ChatChunk[]>([
      { type: 'tool_call', call: { id: 'call_a', name: 'search', arguments: { q: 'cats', limit: 3 } } },
      { type: 'tool_call', call: { id: 'call_b', name: 'broken', arguments: { _raw: '{"q": "unterminated' } } },
      { type: 'done', reason: 'tool_calls' },
    ]);
    expect(fake.requests[0].tools).toEqual([{ type: 'function', function: tools[0] }]);
  });

  it('a server that sends no call ids gets a fresh id per call, never the same one twice in a turn', async () => {
    // `call_<index>` came back every round: two answers of one tool loop proposed the same message id (AG-UI).
    const ids: string[] = [];
    for (let round = 0; round < 2; round++) {
      fake.enqueue({ toolCalls: [{ id: '', name: 'search', arguments: { q: 'cats' } }] });
      const { chunks } = await drain(provider.streamChat(req()));
      for (const c of chunks) if (c.type === 'tool_call') ids.push(c.call.id);
    }
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^call_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(2);
  });

  it('sends images as image_url data URLs and replays tool calls/results', async () => {
    const jpeg = '/9j/4AAQSkZJRgABAQAAAQABAAD';
    await drain(
      provider.streamChat(
        req({
          messages: [
            { role: 'user', content: 'look', images: [jpeg] },
            { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'zoom', arguments: { level: 2 } }] },
            { role: 'tool', content: 'zoomed', toolCallId: 'c1', name: 'zoom' },
          ],
        }),
      ),
    );
    expect(fake.requests[0].messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${jpeg}` } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'zoom', arguments: '{"level":2}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'zoomed' },
    ]);
  });

  it('usage reflects the prompt estimated from what was sent', async () => {
    const { chunks } = await drain(
      provider.streamChat(req({ messages: [{ role: 'user', content: 'z'.repeat(800) }] })),
    );
    expect(chunks.find((c) => c.type === 'usage')).toMatchObject({ usage: { promptTokens: 200 } });
  });

  it('complete() collects text and usage', async () => {
    fake.enqueue({ text: ['one ', 'two'], promptTokens: 9, completionTokens: 2 });
    const r = await provider.complete(req());
    expect(r).toEqual({
      text: 'one two',
      usage: { promptTokens: 9, completionTokens: 2, cachedPromptTokens: 0, cacheWriteTokens: 0 },
    });
  });
});
