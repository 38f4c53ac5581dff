/**
 * Observability (docs/operations.md): `/metrics` in Prometheus' format with METRICS=true only, behind an admin key
 * when auth is on, counting GraphQL operations and their latency, live subscriptions, turns by status, model calls
 * (latency, errors, tokens) and compressions; and OpenTelemetry spans per turn and per model call with the GenAI
 * semantic-convention attributes, recorded by an in-memory SDK registered the way an operator's would be.
 */
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MetricsCompactDocument,
  MetricsCreateDocument,
  MetricsListEventsDocument,
  MetricsSendDocument,
} from './generated/graphql.js';
import {
  createTestApp,
  createTestServer,
  dbKind,
  isEvent,
  type ServerContext,
  SESSION_EVENTS,
} from './support/harness.js';

const spans = new InMemorySpanExporter();
let t: ServerContext;
let admin: string;
let user: string;

beforeAll(async () => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  t = await createTestServer({
    authEnabled: true,
    metrics: true,
    titleGenerationEnabled: false,
    providerConnectRetries: 0,
  });
  admin = (await t.app.auth.createUser('root', { admin: true })).key;
  user = (await t.app.auth.createUser('alice')).key;
});
afterAll(async () => {
  await t?.close();
  trace.disable();
});

const scrape = async (key?: string) => {
  const response = await fetch(`${t.url}/metrics`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
};

/** The value of one sample line (`name{labels} value`), or undefined. */
const sample = (text: string, line: string) => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};

/** A session and its event stream (one subscription for all its turns). */
async function session() {
  const id = (await t.http(MetricsCreateDocument, {}, admin)).data!.createSession.id;
  const events = t.subscribe(SESSION_EVENTS, { sessionId: id }, admin);
  await t.listening(id);
  return { id, events };
}

/** Sends `content` and waits for its turn's end. */
async function turn(s: Awaited<ReturnType<typeof session>>, content: string) {
  const sent = await t.http(MetricsSendDocument, { input: { sessionId: s.id, content } }, admin);
  const turnId = sent.data!.sendMessage.turn.id;
  await s.events.waitFor((es) =>
    es.some((e) => (isEvent('TurnEnded')(e) || isEvent('TurnFailed')(e)) && e.turn.id === turnId),
  );
  return turnId;
}

describe(`metrics and traces (${dbKind})`, () => {
  it('are off by default: the app has none (prom-client is never imported)', async () => {
    const plain = await createTestApp();
    try {
      expect(plain.app.metrics).toBeNull();
    } finally {
      await plain.close();
    }
  });

  it('serve /metrics to admins only: operations, turns, model calls, tokens and compressions', async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape(user)).status).toBe(403);

    const s = await session();
    const id = s.id;
    t.fake.enqueue({ text: 'measured answer', promptTokens: 40, completionTokens: 7 });
    await turn(s, 'first');
    t.fake.enqueue({ status: 400, errorBody: { error: 'no such model' } });
    await turn(s, 'second');
    s.events.dispose();
    const raw = Buffer.from(id, 'base64').toString('utf8').split(':')[1]!;
    await t.app.store.append(
      raw,
      Array.from({ length: 12 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `filler ${i}` }) as const),
    );
    t.fake.enqueue({ text: '- a summary\nKEYS: filler' });
    expect((await t.http(MetricsCompactDocument, { id }, admin)).errors).toBeUndefined();
    const live = t.subscribe(MetricsListEventsDocument, {}, admin);
    await t.listening('list');

    const { status, type, text } = await scrape(admin);
    live.dispose();
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(text, 'graphql_requests_total{operation="MetricsCreate",type="mutation",result="ok"}')).toBe(1);
    expect(sample(text, 'graphql_request_duration_seconds_count{operation="MetricsCreate",type="mutation"}')).toBe(1);
    expect(sample(text, 'graphql_requests_total{operation="MetricsListEvents",type="subscription",result="ok"}')).toBe(
      1,
    );
    expect(sample(text, 'chat_live_subscriptions')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'chat_turns_total{status="COMPLETED"}')).toBe(1);
    expect(sample(text, 'chat_turns_total{status="FAILED"}')).toBe(1);
    const model = 'provider="ollama",model="qwen3:8b"';
    expect(sample(text, `llm_request_duration_seconds_count{${model},operation="chat"}`)).toBeGreaterThanOrEqual(3);
    expect(sample(text, `llm_request_errors_total{${model},error="ProviderUnavailableError"}`)).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(text, `llm_tokens_total{${model},type="input"}`)).toBeGreaterThanOrEqual(40);
    expect(sample(text, `llm_tokens_total{${model},type="output"}`)).toBeGreaterThanOrEqual(7);
    expect(sample(text, 'chat_compactions_total{reason="FORCED",strategy="SUMMARY"}')).toBe(1);
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('trace each turn with a child span per model call, named and attributed by the GenAI conventions', async () => {
    spans.reset();
    const s = await session();
    const id = s.id;
    t.fake.enqueue({ text: 'traced answer', promptTokens: 12, completionTokens: 3 });
    const turnId = await turn(s, 'trace me');
    s.events.dispose();
    await expect.poll(() => spans.getFinishedSpans().some((s) => s.name === 'chat.turn')).toBe(true);
    const finished = spans.getFinishedSpans();
    const root = finished.find((s) => s.name === 'chat.turn')!;
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.conversation.id': Buffer.from(id, 'base64').toString('utf8').split(':')[1],
      'chat.turn.status': 'COMPLETED',
    });
    expect(Buffer.from(turnId, 'base64').toString('utf8')).toContain(String(root.attributes['chat.turn.id']));
    const call = finished.find((s) => s.name === 'chat qwen3:8b')!;
    expect(call.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'ollama',
      'gen_ai.request.model': 'qwen3:8b',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 3,
    });
  });
});
