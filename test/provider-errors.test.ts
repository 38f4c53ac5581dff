/**
 * Provider failures name their cause: MODEL_NOT_FOUND, PROVIDER_UNAVAILABLE,
 * PROVIDER_RATE_LIMITED, PROVIDER_REJECTED, each with one human line and no
 * upstream internals beyond what is allowed; and the start-up check says once
 * what is missing.
 */
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkProviders } from '../src/llm/check.js';
import { sanitizeProviderMessage } from '../src/llm/errors.js';
import { startFakeProvider } from './support/fake-provider.js';
import {
  ProviderErrorsCreateSessionWithProfileDocument,
  ProviderErrorsProfileKeysDocument,
  ProviderErrorsSendMessageTurnDocument,
  ProviderErrorsTurnStatusErrorDocument,
  ProviderErrorsUpsertOpenAiProfileDocument,
} from './generated/graphql.js';
import {
  createTestServer,
  dbKind,
  isEvent,
  SESSION_EVENTS,
  testConfig,
  type ServerContext,
} from './support/harness.js';

const SEND = ProviderErrorsSendMessageTurnDocument;

async function closedPortUrl(): Promise<string> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

async function newSession(t: ServerContext, profileKey?: string) {
  let profileId: string | null = null;
  if (profileKey) {
    const p = await t.http(ProviderErrorsProfileKeysDocument, {});
    profileId = p.data!.profiles.find((x) => x.key === profileKey)!.id;
  }
  const r = await t.http(ProviderErrorsCreateSessionWithProfileDocument, { p: profileId });
  return r.data!.createSession.id;
}

/** Sends one message and returns this turn's TurnFailed event and the turn's stored error. */
async function failedTurn(t: ServerContext, sessionId: string) {
  const sub = t.subscribe(SESSION_EVENTS, { sessionId, after: '0' });
  const sent = await t.http(SEND, { input: { sessionId, content: 'hello?' } });
  expect(sent.errors).toBeUndefined();
  const turnId = sent.data!.sendMessage.turn.id;
  const events = await sub.waitFor((es) =>
    es.some((e) => (e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed') && e.turn.id === turnId),
  );
  sub.dispose();
  const failed = events.filter(isEvent('TurnFailed')).find((e) => e.turn.id === turnId);
  expect(failed).toBeTruthy();
  const turn = await t.http(ProviderErrorsTurnStatusErrorDocument, { id: turnId });
  expect(turn.data!.turn!.status).toBe('FAILED');
  // The stored error is the same human line the event carried.
  expect(turn.data!.turn!.error).toBe(failed!.errorMessage);
  return { code: failed!.code, message: failed!.errorMessage };
}

/** No transport errors, stack frames or the fake's own error text. */
const INTERNALS = /ECONN|fetch failed|at .*\.(ts|js):\d+|fake error|ResponseError|HttpStatusError|\bHTTP 5\d\d\b/;

describe(`provider errors name their cause (${dbKind})`, () => {
  let t: ServerContext;
  beforeAll(async () => {
    t = await createTestServer({ titleGenerationEnabled: false, openaiApiKey: 'sk-test-key-0123456789' });
    await t.http(ProviderErrorsUpsertOpenAiProfileDocument, {});
  });
  afterAll(() => t.close());

  it('MODEL_NOT_FOUND: Ollama 404 "try pulling it first" names the model and how to get it', async () => {
    const sessionId = await newSession(t);
    t.fake.enqueue({ status: 404, errorBody: { error: 'model "qwen3:8b" not found, try pulling it first' } });
    const { code, message } = await failedTurn(t, sessionId);
    expect(code).toBe('MODEL_NOT_FOUND');
    expect(message).toBe(
      `The model "qwen3:8b" is not available from ollama at ${t.fake.url}: ` +
        'run "ollama pull qwen3:8b" on that host or choose another model.',
    );
  });

  it('PROVIDER_RATE_LIMITED: a 429 with retry-after says when to try again', async () => {
    const sessionId = await newSession(t, 'oa');
    // 429 is retried once before the first chunk: both attempts are refused.
    const limited = {
      status: 429,
      headers: { 'retry-after': '30' },
      errorBody: { error: { message: 'Rate limit reached for org-abc', type: 'requests' } },
    };
    t.fake.enqueue(limited, limited);
    const { code, message } = await failedTurn(t, sessionId);
    expect(code).toBe('PROVIDER_RATE_LIMITED');
    expect(message).toBe('The model provider (openai) is rate-limiting requests; try again in 30 seconds.');
    expect(message).not.toMatch(/org-abc/);
  });

  it('PROVIDER_RATE_LIMITED without retry-after says "later"', async () => {
    const sessionId = await newSession(t);
    t.fake.enqueue({ status: 429 }, { status: 429 });
    const { code, message } = await failedTurn(t, sessionId);
    expect(code).toBe('PROVIDER_RATE_LIMITED');
    expect(message).toBe('The model provider (ollama) is rate-limiting requests; try again later.');
  });

  it('PROVIDER_REJECTED: a 400 carries the provider message, trimmed and without keys or URL credentials', async () => {
    const sessionId = await newSession(t, 'oa');
    const upstream =
      'Invalid value for max_tokens; key sk-proj-AbCdEf0123456789xyz ' +
      'was used from https://admin:hunter2@proxy.example/v1?token=s3cr3t ' +
      'x'.repeat(600);
    t.fake.enqueue({ status: 400, errorBody: { error: { message: upstream, type: 'invalid_request_error' } } });
    const { code, message } = await failedTurn(t, sessionId);
    expect(code).toBe('PROVIDER_REJECTED');
    expect(
      message.startsWith(
        'The model provider (openai) rejected the request (HTTP ' +
          '400): invalid_request_error: Invalid value for max_tokens;',
      ),
    ).toBe(true);
    expect(message).toContain('https://proxy.example/v1');
    expect(message).not.toMatch(/sk-proj|AbCdEf|hunter2|admin:|s3cr3t|token=/);
    expect(message.length).toBeLessThan(400);
    expect(message).not.toMatch(INTERNALS);
  });

  it(
    'never shows provider internals to clients: a 503 is ' + 'PROVIDER_UNAVAILABLE with only the configured host',
    async () => {
      const sessionId = await newSession(t);
      t.fake.enqueue({ status: 503 }, { status: 503 });
      const { code, message } = await failedTurn(t, sessionId);
      expect(code).toBe('PROVIDER_UNAVAILABLE');
      expect(message).toBe(
        `The model provider (ollama at ${t.fake.url}) is unreachable or stopped answering; try again.`,
      );
      expect(message).not.toMatch(INTERNALS);
      expect(message).not.toMatch(/503/);
    },
  );
});

describe(`a provider that refuses connections (${dbKind})`, () => {
  let t: ServerContext;
  let host: string;
  beforeAll(async () => {
    host = await closedPortUrl();
    t = await createTestServer({
      titleGenerationEnabled: false,
      ollamaHost: `http://user:pw@${host.slice('http://'.length)}/?k=1`,
    });
  });
  afterAll(() => t.close());

  it('PROVIDER_UNAVAILABLE names the configured host without its credentials, and nothing else', async () => {
    const sessionId = await newSession(t);
    const { code, message } = await failedTurn(t, sessionId);
    expect(code).toBe('PROVIDER_UNAVAILABLE');
    expect(message).toBe(`The model provider (ollama at ${host}) is unreachable or stopped answering; try again.`);
    expect(message).not.toMatch(INTERNALS);
    expect(message).not.toMatch(/user|pw@|k=1/);
  });
});

describe('sanitizeProviderMessage', () => {
  it('removes bearer tokens, api keys, long opaque tokens and URL credentials; trims to 300 chars', () => {
    const s = sanitizeProviderMessage(
      'Authorization: Bearer abc.def.ghi; api_key=XYZ123 and x-api-key: "q1w2e3" token ' +
        'A1b2C3d4'.repeat(6) +
        ' see http://u:p@h.example/x?sig=1',
    );
    expect(s).not.toMatch(/abc\.def|XYZ123|q1w2e3|A1b2C3d4A1b2|u:p@|sig=1/);
    expect(s).toContain('http://h.example/x');
    expect(sanitizeProviderMessage('y'.repeat(1000)).length).toBeLessThanOrEqual(300);
  });
});

function captureLog() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

describe('start-up provider check', () => {
  it(
    'one warning line per problem: a model not pulled, ' + 'an unreachable provider; nothing when all is well',
    async () => {
      const fake = await startFakeProvider();
      try {
        fake.models = ['llama3:latest', 'qwen3:8b'];
        const closed = await closedPortUrl();
        const config = testConfig({ ollamaHost: fake.url, openaiBaseUrl: `${closed}/v1` });
        const { log, lines } = captureLog();
        const warned = await checkProviders(
          [
            { provider: 'ollama', model: 'qwen3:8b' },
            { provider: 'ollama', model: 'llama3' },
            { provider: 'ollama', model: 'mistral:7b' },
            { provider: 'ollama', model: 'mistral:7b' },
            { provider: 'openai', model: 'gpt-x' },
            { provider: 'anthropic', model: 'claude' }, // no key: not asked
          ],
          config,
          log,
        );
        expect(warned.sort()).toEqual([
          `provider.check: model mistral:7b is not pulled in ollama at ${fake.url}: run ollama pull mistral:7b`,
          `provider.check: openai at ${closed}/v1 is unreachable`,
        ]);
        expect(
          lines
            .filter((l) => l.level === 40)
            .map((l) => l.msg)
            .sort(),
        ).toEqual(warned);
        // Ollama was asked once, whatever the number of profiles.
        expect(fake.calls.filter((c) => c.path === '/api/tags')).toHaveLength(1);

        const quiet = captureLog();
        expect(await checkProviders([{ provider: 'ollama', model: 'qwen3:8b' }], config, quiet.log)).toEqual([]);
        expect(quiet.lines).toEqual([]);
      } finally {
        await fake.stop();
      }
    },
  );

  it('an OpenAI-compatible server missing the model is one line', async () => {
    const fake = await startFakeProvider();
    try {
      const { log } = captureLog();
      const warned = await checkProviders(
        [{ provider: 'openai', model: 'gpt-x' }],
        testConfig({ openaiBaseUrl: `${fake.url}/v1` }),
        log,
      );
      expect(warned).toEqual([`provider.check: model gpt-x is not offered by openai at ${fake.url}/v1`]);
    } finally {
      await fake.stop();
    }
  });
  // The same through the real server's log after it listens: test/slow/provider-check.test.ts.
});
