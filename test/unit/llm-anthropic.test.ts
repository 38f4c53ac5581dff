import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider, buildBody } from '../../src/llm/anthropic.js';
import { ProviderUnavailableError, type ChatChunk, type ChatRequest } from '../../src/llm/types.js';
import { anthropicRequest, drain, startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let fake: FakeProvider;
let provider: AnthropicProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
  provider = new AnthropicProvider({ baseURL: fake.url, apiKey: 'ak-test', timeoutMs: 2000 });
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.calls.length = 0;
});

const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'claude-test',
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'hello' },
  ],
  ...over,
});

describe('AnthropicProvider', () => {
  it('streams thinking and text deltas, then usage (cache reads included) and done', async () => {
    fake.enqueue({
      thinking: ['a', 'b'],
      text: ['Hi', ' there'],
      promptTokens: 300,
      cachedTokens: 100,
      completionTokens: 4,
    });
    const { chunks, error } = await drain(provider.streamChat(req({ think: true })));
    expect(error).toBeUndefined();
    expect(chunks).toEqual<ChatChunk[]>([
      { type: 'thinking', text: 'a' },
      { type: 'thinking', text: 'b' },
      // the whole block with its signature, to store and replay verbatim
      {
        type: 'thinking_block',
        block: { type: 'thinking', thinking: 'ab', signature: expect.stringMatching(/^sig_\d+$/) },
      },
      { type: 'text', text: 'Hi' },
      { type: 'text', text: ' there' },
      {
        type: 'usage',
        usage: { promptTokens: 300, completionTokens: 4, cachedPromptTokens: 100, cacheWriteTokens: 0 },
      },
      { type: 'done', reason: 'end_turn' },
    ]);
  });

  it('sends the documented headers and body (system lifted, thinking budget, max_tokens)', async () => {
    await drain(provider.streamChat(req({ think: true, maxTokens: 4000 })));
    const call = fake.calls[0];
    expect(call.path).toBe('/v1/messages');
    expect(call.headers['x-api-key']).toBe('ak-test');
    expect(call.headers['anthropic-version']).toBe('2023-06-01');
    expect(call.headers['anthropic-beta']).toBeUndefined();
    expect(call.body).toMatchObject({
      model: 'claude-test',
      stream: true,
      system: [{ type: 'text', text: 'be brief', cache_control: { type: 'ephemeral' } }],
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    });
    expect(anthropicRequest(call.body).temperature).toBeUndefined();
  });

  it('assembles tool_use input_json_delta into tool calls; tools sent with input_schema', async () => {
    fake.enqueue({
      text: 'Checking.',
      toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: { path: '/etc/hosts' } }],
    });
    const tools = [
      {
        name: 'read_file',
        description: 'Read',
        parameters: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ];
    const { chunks } = await drain(provider.streamChat(req({ tools })));
    expect(chunks.filter((c) => c.type !== 'usage')).toEqual<ChatChunk[]>([
      { type: 'text', text: 'Checking.' },
      { type: 'tool_call', call: { id: 'toolu_1', name: 'read_file', arguments: { path: '/etc/hosts' } } },
      { type: 'done', reason: 'tool_use' },
    ]);
    expect(fake.requests[0].tools).toEqual([
      { name: 'read_file', description: 'Read', input_schema: tools[0].parameters },
    ]);
  });

  it('sends images as base64 blocks and merges consecutive tool results into one user turn', async () => {
    const png = 'iVBORw0KGgo=';
    await drain(
      provider.streamChat(
        req({
          messages: [
            { role: 'user', content: 'see', images: [png] },
            {
              role: 'assistant',
              content: '',
              toolCalls: [
                { id: 't1', name: 'a', arguments: {} },
                { id: 't2', name: 'b', arguments: { k: 1 } },
              ],
            },
            { role: 'tool', content: 'r1', toolCallId: 't1' },
            { role: 'tool', content: 'r2', toolCallId: 't2' },
          ],
        }),
      ),
    );
    expect(fake.requests[0].messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
          { type: 'text', text: 'see' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 't1', name: 'a', input: {} },
          { type: 'tool_use', id: 't2', name: 'b', input: { k: 1 } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'r1' },
          // the newest tool result of the loop: a cache breakpoint
          { type: 'tool_result', tool_use_id: 't2', content: 'r2', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('compact() requests the compaction beta and returns the compaction block', async () => {
    fake.enqueue({ compaction: 'User asked about X; we decided Y.' });
    const block = await provider.compact(
      req({
        messages: [
          { role: 'user', content: 'long history' },
          { role: 'assistant', content: 'answer' },
          { role: 'user', content: 'next' },
        ],
      }),
    );
    // Verbatim, every field the API sent (the fake signs its blocks).
    expect(block).toEqual({
      type: 'compaction',
      content: 'User asked about X; we decided Y.',
      signature: expect.stringMatching(/^csig_\d+$/),
    });
    const call = fake.calls[0];
    expect(call.headers['anthropic-beta']).toBe('compact-2026-01-12');
    expect(anthropicRequest(call.body).context_management).toEqual({ edits: [{ type: 'compact_20260112' }] });
    expect(anthropicRequest(call.body).stream).toBe(false);
  });

  it('compact() retries once on 5xx; a non-JSON answer is ProviderUnavailableError', async () => {
    fake.enqueue({ status: 503 }, { compaction: 'ok summary' });
    await expect(provider.compact(req())).resolves.toMatchObject({ type: 'compaction', content: 'ok summary' });
    expect(fake.calls).toHaveLength(2);

    fake.enqueue({ garbage: 'html' });
    const err = await provider.compact(req()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect(String((err as Error).message)).toMatch(/content-type "text\/html"/);
    expect(fake.calls).toHaveLength(3); // garbage is not retried
  });

  it(
    'replays the compaction block typed and first, and kept ' +
      'thinking with its signature; the fake refuses anything else',
    async () => {
      fake.enqueue({ compaction: 'Earlier: the user set up X.' });
      const block = await provider.compact(
        req({
          messages: [
            { role: 'user', content: 'old' },
            { role: 'assistant', content: 'old answer' },
          ],
        }),
      );
      fake.enqueue({ thinking: 'kept thought', text: 'kept answer' });
      const kept = await drain(provider.streamChat(req({ messages: [{ role: 'user', content: 'kept question' }] })));
      const thinkingBlocks = kept.chunks.flatMap((c) => (c.type === 'thinking_block' ? [c.block] : []));
      expect(thinkingBlocks).toHaveLength(1);
      const history = (
        carrier: ChatRequest['messages'][number],
        thinking = thinkingBlocks,
      ): ChatRequest['messages'] => [
        carrier,
        { role: 'user', content: 'kept question' },
        { role: 'assistant', content: 'kept answer', thinkingBlocks: thinking },
        { role: 'user', content: 'next' },
      ];
      const good = await drain(
        provider.streamChat(
          req({ messages: history({ role: 'assistant', content: block.content, compaction: block }) }),
        ),
      );
      expect(good.error).toBeUndefined();
      const call = fake.calls.at(-1)!;
      expect(call.headers['anthropic-beta']).toBe('compact-2026-01-12');
      expect(anthropicRequest(call.body).messages[0]).toEqual({ role: 'assistant', content: [block] });
      // the last block before the latest user message carries the history's cache breakpoint
      expect(anthropicRequest(call.body).messages[2]!.content).toEqual([
        thinkingBlocks[0],
        { type: 'text', text: 'kept answer', cache_control: { type: 'ephemeral' } },
      ]);

      // As text (the old replay), or with the kept thinking dropped: the API's 400.
      const asText = await drain(
        provider.streamChat(req({ messages: history({ role: 'assistant', content: block.content }) })),
      );
      expect(String((asText.error as Error).message)).toMatch(/400.*compaction summary was sent as text/);
      const noThinking = await drain(
        provider.streamChat(
          req({ messages: history({ role: 'assistant', content: block.content, compaction: block }, []) }),
        ),
      );
      expect(String((noThinking.error as Error).message)).toMatch(/400.*lost its `thinking` block/);
      const edited = await drain(
        provider.streamChat(
          req({
            messages: history({
              role: 'assistant',
              content: block.content,
              compaction: { ...block, signature: 'forged' },
            }),
          }),
        ),
      );
      expect(String((edited.error as Error).message)).toMatch(/400.*not sent back exactly/);
    },
  );

  it('a /v1 base URL is accepted', async () => {
    const p = new AnthropicProvider({ baseURL: `${fake.url}/v1/`, apiKey: 'k', timeoutMs: 2000 });
    expect((await p.complete(req())).text).toBe('ok');
    expect(fake.calls[0].path).toBe('/v1/messages');
  });

  it('the fake streams the compaction block over SSE when the compact beta is requested', async () => {
    const res = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-beta': 'compact-2026-01-12' },
      body: JSON.stringify({
        model: 'm',
        stream: true,
        max_tokens: 10,
        messages: [{ role: 'user', content: 'x' }],
        context_management: { edits: [{ type: 'compact_20260112' }] },
      }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    expect(text).toMatch(
      /"content_block":\{"type":"compaction","content":"Summary of 1 earlier messages.","signature":"csig_\d+"\}/,
    );
    expect(text.trim().endsWith('data: {"type":"message_stop"}')).toBe(true);
  });
  it('cache breakpoints: never on thinking or compaction blocks, never more than three', async () => {
    const block = { type: 'compaction', content: 'Earlier talk.', signature: 'x' };
    const body = buildBody({
      model: 'm',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'assistant', content: '', compaction: block },
        { role: 'user', content: 'go on' },
      ],
    });
    // the compaction block cannot carry one, and nothing before it can: only the system block
    expect(JSON.stringify(body.messages)).not.toContain('cache_control');
    expect(body.system).toEqual([{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }]);
    const thinking = { type: 'thinking', thinking: 't', signature: 's' };
    const withCall = buildBody({
      model: 'm',
      messages: [
        { role: 'user', content: 'q1' },
        {
          role: 'assistant',
          content: '',
          thinkingBlocks: [thinking],
          toolCalls: [{ id: 'c', name: 'f', arguments: {} }],
        },
        { role: 'tool', content: 'r', toolCallId: 'c' },
        { role: 'user', content: 'q2' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'd', name: 'f', arguments: {} }] },
        { role: 'tool', content: 'r2', toolCallId: 'd' },
      ],
    }) as { messages: { content: Record<string, unknown>[] }[] };
    const marked = withCall.messages.flatMap((m) => m.content.filter((b) => b.cache_control));
    expect(marked.map((b) => b.type)).toEqual(['tool_result', 'tool_result']);
    expect(marked.map((b) => b.content)).toEqual(['r', 'r2']);
  });

  it('the fake refuses over 4 cache_control breakpoints, or one on a thinking block, as the API does', async () => {
    const mark = { cache_control: { type: 'ephemeral' } };
    const post = (body: unknown) =>
      fetch(`${fake.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const five = {
      model: 'm',
      max_tokens: 10,
      system: [{ type: 'text', text: 's', ...mark }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'a', ...mark }] },
        { role: 'assistant', content: [{ type: 'text', text: 'b', ...mark }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'c', ...mark },
            { type: 'text', text: 'd', ...mark },
          ],
        },
      ],
    };
    const refused = await post(five);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /maximum of 4 blocks with cache_control/,
    );
    five.messages[2]!.content.pop();
    expect((await post(five)).status).toBe(200);
    const onThinking = await post({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's', ...mark }] },
        { role: 'user', content: 'r' },
      ],
    });
    expect(onThinking.status).toBe(400);
  });

  it('reports cache reads and writes from the usage; input_tokens excludes both', async () => {
    fake.enqueue({ text: 'x', promptTokens: 500, cachedTokens: 100, completionTokens: 1 });
    const { chunks } = await drain(provider.streamChat(req()));
    expect(chunks.find((c) => c.type === 'usage')).toEqual({
      type: 'usage',
      usage: { promptTokens: 500, completionTokens: 1, cachedPromptTokens: 100, cacheWriteTokens: 0 },
    });
    // the fake's simulated cache: a long enough system prefix is written, then read
    const long = req({
      messages: [
        { role: 'system', content: 'rule '.repeat(1200) },
        { role: 'user', content: 'hi' },
      ],
    });
    const first = await drain(provider.streamChat(long));
    const second = await drain(provider.streamChat(long));
    const u1 = first.chunks.find((c) => c.type === 'usage');
    const u2 = second.chunks.find((c) => c.type === 'usage');
    expect(u1).toMatchObject({ usage: { cachedPromptTokens: 0, cacheWriteTokens: 1500 } });
    expect(u2).toMatchObject({ usage: { cachedPromptTokens: 1500, cacheWriteTokens: 0 } });
    expect(u2?.type === 'usage' && u2.usage.promptTokens).toBe(u1?.type === 'usage' && u1.usage.promptTokens);
  });
});
