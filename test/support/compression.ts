/** Helpers shared by the compression test files. */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { CONTEXT_TOO_LARGE_REPLY } from '../../src/turns/runner.js';
import type { NewMessage } from '../../src/domain/types.js';
import { parseGlobalId } from '../../src/schema/ids.js';
import {
  SupportCompressionCompactDocument,
  SupportCompressionCreateSessionDocument,
  SupportCompressionPlanDocument,
  SupportCompressionSendDocument,
  SupportCompressionUpsertProfileDocument,
} from '../generated/graphql.js';
import { isEvent, queryText, SESSION_EVENTS, type SessionEvent, type ServerContext } from './harness.js';
import {
  type FakeCall,
  type FakeScript,
  jsonList,
  jsonRecord,
  type OllamaChatRequest,
  ollamaRequest,
} from './fake-provider.js';

/** Typed documents (test/operations/support-compression.graphql). */
export const SEND_DOC = SupportCompressionSendDocument;
export const COMPACT_DOC = SupportCompressionCompactDocument;
export const PLAN_DOC = SupportCompressionPlanDocument;
/** The same operations as text, for callers that send strings. */
export const SEND = queryText(SEND_DOC);
export const COMPACT = queryText(COMPACT_DOC);
export const PLAN = queryText(PLAN_DOC);

export interface TestSession {
  id: string;
  raw: string;
  model: string;
}

/** A session on its own profile (unique model name: calibration never leaks between tests). */
export async function profileSession(
  t: ServerContext,
  opts: {
    window?: number;
    provider?: string;
    keepRecent?: number;
    systemPrompt?: string;
    maxTokens?: number;
    prompt?: string;
    providerExtensions?: boolean;
  } = {},
): Promise<TestSession> {
  const key = `cmp_${randomBytes(4).toString('hex')}`;
  const model = `model-${key}`;
  const input = {
    key,
    name: key,
    model,
    provider: opts.provider ?? 'ollama',
    contextWindow: opts.window ?? 2048,
    compressionKeepRecent: opts.keepRecent ?? 2,
    systemPrompt: opts.systemPrompt ?? '',
    ...(opts.maxTokens && { compressionMaxTokens: opts.maxTokens }),
    ...(opts.prompt && { compressionPrompt: opts.prompt }),
    ...(opts.providerExtensions !== undefined && { providerExtensions: opts.providerExtensions }),
  };
  const p = await t.http(SupportCompressionUpsertProfileDocument, { i: input });
  if (p.errors) throw new Error(JSON.stringify(p.errors));
  const s = await t.http(SupportCompressionCreateSessionDocument, { p: p.data!.upsertProfile.id });
  const id = s.data!.createSession.id;
  return { id, raw: parseGlobalId(id, 'Session'), model };
}

/** `turns` user/assistant exchanges appended straight to the store. */
export function exchanges(turns: number, size = 200, tag = 'turn'): NewMessage[] {
  const out: NewMessage[] = [];
  for (let i = 0; i < turns; i++) {
    out.push({ role: 'user', content: `${tag} ${i} question: ${'q'.repeat(size)}` });
    out.push({ role: 'assistant', content: `${tag} ${i} answer: ${'a'.repeat(size)}` });
  }
  return out;
}

/** A request body (any API's) is a summary call: its system prompt is one of the compression prompts. */
export function isSummaryRequest(body: unknown): boolean {
  const b = jsonRecord(body);
  const first = jsonList(b.messages).map(jsonRecord)[0];
  const system =
    typeof b.system === 'string'
      ? b.system
      : Array.isArray(b.system)
        ? jsonList(b.system)
            .map((block) => String(jsonRecord(block).text ?? ''))
            .join('')
        : first?.role === 'system'
          ? String(first.content)
          : '';
  return /^You (compress|merge|write a continuation)/.test(system);
}

export const isSummaryCall = (call: FakeCall): boolean => isSummaryRequest(call.body);

export function lastUserText(body: unknown): string {
  const users = jsonList(jsonRecord(body).messages)
    .map(jsonRecord)
    .filter((m) => m.role === 'user');
  const last = users.at(-1);
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
}

/** Summary calls answer `summary`; turn calls answer `turn(call)` or plain text. */
export function respond(t: ServerContext, summary: string, turn?: (call: FakeCall) => FakeScript | undefined) {
  t.fake.responder = (call) => (isSummaryCall(call) ? { text: summary } : (turn?.(call) ?? { text: 'fine' }));
}

export function sendAndWait(
  t: ServerContext,
  sessionId: string,
  content: string,
  until = (es: SessionEvent[]) => es.some((e) => e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed'),
  timeoutMs = 60_000,
) {
  return withEvents(t, sessionId, () => t.http(SEND_DOC, { input: { sessionId, content } }), until, timeoutMs);
}

export async function withEvents<R extends { errors?: unknown } | undefined>(
  t: ServerContext,
  sessionId: string,
  action: () => Promise<R>,
  until: (es: SessionEvent[]) => boolean,
  timeoutMs = 60_000,
) {
  // Subscribe from the last event seen: anything published before the socket is live is replayed, not lost.
  const past = await t.app.bus.replay(parseGlobalId(sessionId, 'Session'), '0');
  const sub = t.subscribe(SESSION_EVENTS, { sessionId, after: past.at(-1)?.eventId ?? '0' });
  const result = await action();
  if (result?.errors) {
    sub.dispose();
    return { result, events: sub.events };
  }
  const events = await sub.waitFor(until, timeoutMs);
  sub.dispose();
  return { result, events: [...events] };
}

export const compressed = (es: SessionEvent[]) => es.filter(isEvent('ContextCompressed'));

/**
 * A long autonomous turn: one user message, then `steps` tool iterations (each output about 130 tokens) on a
 * 4,096-token window. Checks that it ends COMPLETED after `steps + 1` calls, compressing mid-turn at least
 * `minCompressions` times; that every call fit the window (the fake counts 0.25 token/char and would truncate past
 * num_ctx); that the request stays verbatim in the last calls; and that the display history lost nothing. The server
 * needs MAX_TOOL_ITERATIONS above `steps`.
 */
export async function midTurnLoop(
  t: ServerContext,
  { steps, minCompressions }: { steps: number; minCompressions: number },
) {
  const window = 4096;
  const request = `run the ${steps} steps`;
  const s = await profileSession(t, { window, keepRecent: 4 });
  let step = 0;
  t.app.tools.register({
    name: 'step',
    description: 'one step of work',
    parameters: { type: 'object', properties: { i: { type: 'integer' } } },
    run: async (args) => ({ content: `step ${String(args.i)} output: ${'r'.repeat(500)}` }),
  });
  respond(t, '- Earlier work summarized.\nKEYS: earlier', () =>
    step < steps ? { toolCalls: [{ name: 'step', arguments: { i: ++step } }] } : { text: `all ${steps} steps done` },
  );
  const from = t.fake.requests.length;
  const { events } = await sendAndWait(t, s.id, request, undefined, 200_000);
  const ended = events.find(isEvent('TurnEnded'));
  expect(ended?.turn.status).toBe('COMPLETED');
  expect(ended!.assistantMessage!.content).toBe(`all ${steps} steps done`);
  const mid = compressed(events).filter((e) => e.reason === 'MIDTURN');
  expect(mid.length).toBeGreaterThanOrEqual(minCompressions);
  const calls = t.fake.requests
    .slice(from)
    .filter((b) => !isSummaryRequest(b))
    .map(ollamaRequest);
  expect(calls).toHaveLength(steps + 1);
  const promptChars = (b: OllamaChatRequest) =>
    (b.messages ?? []).reduce((n, m) => n + String(m.content ?? '').length, 0) +
    (b.tools ? JSON.stringify(b.tools).length : 0);
  for (const c of calls) expect(promptChars(c) * 0.25).toBeLessThan(window);
  for (const c of calls.slice(-5))
    expect(c.messages!.some((m) => m.role === 'user' && m.content === request)).toBe(true);
  const all = await t.app.store.allMessages(s.raw);
  expect(all.filter((m) => m.role === 'tool' && m.isDisplay)).toHaveLength(steps);
  const tooLarge = CONTEXT_TOO_LARGE_REPLY(0, 0).slice(0, 40);
  expect(all.some((m) => m.content.startsWith(tooLarge))).toBe(false);
}
