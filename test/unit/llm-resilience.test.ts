/** Shared adapter behaviour, run against all three wire formats over real HTTP. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createProvider, type ProviderKind, type ProviderSettings } from '../../src/llm/index.js';
import { ProviderUnavailableError, type ChatChunk, type ChatRequest } from '../../src/llm/types.js';
import { drain, gate, refusedUrl, startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.calls.length = 0;
  fake.responder = undefined;
});

function settingsFor(url: string, over: Partial<ProviderSettings> = {}): ProviderSettings {
  return {
    ollamaHost: url,
    openaiBaseUrl: `${url}/v1`,
    openaiApiKey: 'sk',
    anthropicBaseUrl: url,
    anthropicApiKey: 'ak',
    timeoutMs: 1500,
    connectRetries: 1,
    ...over,
  };
}
const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'm',
  messages: [{ role: 'user', content: 'hi' }],
  ...over,
});
const texts = (chunks: readonly ChatChunk[]) => chunks.flatMap((c) => (c.type === 'text' ? [c.text] : []));

describe.each<ProviderKind>(['ollama', 'openai', 'anthropic'])('%s adapter resilience', (kind) => {
  const provider = (over: Partial<ProviderSettings> = {}) => createProvider(kind, settingsFor(fake.url, over));

  it('retries once when the first attempt answers 500 before any chunk', async () => {
    fake.enqueue({ status: 500 }, { text: ['re', 'covered'] });
    const { chunks, error } = await drain(provider().streamChat(req()));
    expect(error).toBeUndefined();
    expect(texts(chunks)).toEqual(['re', 'covered']);
    expect(fake.calls).toHaveLength(2);
  });

  it('with connectRetries 0 a 500 is ProviderUnavailableError without a retry', async () => {
    fake.enqueue({ status: 500 });
    const { error } = await drain(provider({ connectRetries: 0 }).streamChat(req()));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as Error).message).toMatch(/500/);
    expect(fake.calls).toHaveLength(1);
  });

  it('a 4xx is not retried', async () => {
    fake.enqueue({ status: 404 });
    const { error } = await drain(provider().streamChat(req()));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as ProviderUnavailableError).code).toBe('PROVIDER_UNAVAILABLE');
    expect(fake.calls).toHaveLength(1);
  });

  it('connection refused twice → ProviderUnavailableError naming the cause', async () => {
    const p = createProvider(kind, settingsFor(await refusedUrl()));
    const started = Date.now();
    const { chunks, error } = await drain(p.streamChat(req()));
    expect(chunks).toEqual([]);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as Error).message).toMatch(new RegExp(`^${kind}: request failed: .*ECONNREFUSED`));
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('a failure mid-stream surfaces after the partial text and is not retried', async () => {
    const read = gate(); // opened once the two chunks have come out of the stream: then the connection dies
    fake.enqueue({ text: ['one ', 'two ', 'three ', 'four'], failAfterChunks: 2, dieWhen: read.promise });
    const { chunks, error } = await drain(provider().streamChat(req()), (sofar) => {
      if (texts(sofar).length === 2) read.open();
    });
    expect(texts(chunks)).toEqual(['one ', 'two ']);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as Error).message).toMatch(/mid-response/);
    expect(fake.calls).toHaveLength(1);
  });

  it('garbage with the right content type → ProviderUnavailableError, not retried', async () => {
    fake.enqueue({ garbage: true });
    const { chunks, error } = await drain(provider().streamChat(req()));
    expect(chunks).toEqual([]);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(fake.calls).toHaveLength(1);
  });

  it('a wrong content type (HTML page) → ProviderUnavailableError', async () => {
    fake.enqueue({ garbage: 'html' });
    const { error } = await drain(provider().streamChat(req()));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as Error).message).toMatch(/content-type "text\/html"/);
  });

  it('abort mid-stream ends the iterator promptly, yields nothing more, and closes the HTTP stream', async () => {
    // The third chunk is held until the test is done: the loop can only end because the abort ended it.
    const held = gate();
    fake.enqueue({ text: Array.from({ length: 20 }, (_, i) => `t${i} `), hold: held.promise, holdBeforeChunk: 2 });
    const ctl = new AbortController();
    const got: ChatChunk[] = [];
    for await (const c of provider().streamChat(req({ signal: ctl.signal }))) {
      got.push(c);
      if (got.length === 2) setImmediate(() => ctl.abort()); // while the iterator waits for the held chunk
    }
    held.open();
    expect(texts(got)).toEqual(['t0 ', 't1 ']);
    await expect.poll(() => fake.calls[0]?.aborted, { timeout: 30_000 }).toBe(true);
  });

  it('a consumer break also closes the HTTP stream', async () => {
    fake.enqueue({ text: ['a', 'b', 'c', 'd'], chunkDelayMs: 100 });
    for await (const c of provider().streamChat(req())) {
      if (c.type === 'text') break;
    }
    await expect.poll(() => fake.calls[0]?.aborted, { timeout: 30_000 }).toBe(true);
  });

  it('an already-aborted signal yields nothing and sends nothing', async () => {
    const ctl = new AbortController();
    ctl.abort();
    const { chunks, error } = await drain(provider().streamChat(req({ signal: ctl.signal })));
    expect(chunks).toEqual([]);
    expect(error).toBeUndefined();
    expect(fake.calls).toHaveLength(0);
  });

  it('idle timeout: a stream that stalls after a chunk fails with ProviderUnavailableError', async () => {
    fake.enqueue({ text: ['first', 'never'], stallAfterChunks: 1 });
    const { chunks, error } = await drain(provider({ timeoutMs: 300 }).streamChat(req()));
    expect(texts(chunks)).toEqual(['first']);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as Error).message).toMatch(/no data for 300ms/);
    expect(fake.calls).toHaveLength(1);
    await expect.poll(() => fake.calls[0]?.aborted, { timeout: 30_000 }).toBe(true);
  });

  it('connect timeout: no first chunk within timeoutMs is retried once, then fails', async () => {
    fake.enqueue({ text: ['late'], stallAfterChunks: 0 }, { text: ['late'], stallAfterChunks: 0 });
    const { chunks, error } = await drain(provider({ timeoutMs: 200 }).streamChat(req()));
    expect(chunks).toEqual([]);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as Error).message).toMatch(/no response within 200ms/);
    expect(fake.calls).toHaveLength(2);
  });

  it('complete() rejects with ProviderUnavailableError when the provider is down', async () => {
    const p = createProvider(kind, settingsFor(await refusedUrl(), { connectRetries: 0 }));
    await expect(p.complete(req())).rejects.toBeInstanceOf(ProviderUnavailableError);
  });
});

describe('createProvider', () => {
  it('builds the adapter of the requested kind', () => {
    const s = settingsFor('http://127.0.0.1:1');
    expect(createProvider('ollama', s).name).toBe('ollama');
    expect(createProvider('openai', s).name).toBe('openai');
    expect(createProvider('anthropic', s).name).toBe('anthropic');
  });
});
