import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_TOOL_RESULT } from '../src/llm/pairing.js';
import { TOOL_RESULT_CANCELLED, TOOL_RESULT_SERVER_STOPPED } from '../src/turns/tool-pairing.js';
import {
  FaultsToolPairingCancelTurnDocument,
  FaultsToolPairingCreateSessionDocument,
  FaultsToolPairingProfilesDocument,
  FaultsToolPairingSendDocument,
  FaultsToolPairingUpsertProfileDocument,
  type SendMessageInput,
} from './generated/graphql.js';
import { jsonRecord, messagesOf } from './support/fake-provider.js';
import {
  createTestServer,
  dbKind,
  type EventOf,
  eventually,
  isEvent,
  SESSION_EVENTS,
  type ServerContext,
  type SessionEvent,
} from './support/harness.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false, contextCompressionEnabled: false });
  t.app.tools.register({
    name: 'slow_lookup',
    description: 'a server tool that runs until the turn is cancelled',
    parameters: { type: 'object', properties: {} },
    run: (_args, ctx) =>
      new Promise((_resolve, reject) =>
        ctx.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      ),
  });
});
afterAll(() => t.close());

const SEND = FaultsToolPairingSendDocument;
const WEATHER = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};
const PROVIDERS = ['openai', 'anthropic'] as const;
const rawId = (id: string) => Buffer.from(id, 'base64').toString().split(':')[1]!;

async function profileSession(provider: string) {
  const key = `pair-${provider}`;
  await t.http(FaultsToolPairingUpsertProfileDocument, { key, name: key, model: `${key}-model`, provider });
  const p = (await t.http(FaultsToolPairingProfilesDocument, {})).data!.profiles.find((x) => x.key === key)!.id;
  return (await t.http(FaultsToolPairingCreateSessionDocument, { p })).data!.createSession.id;
}

/** Sends a message and waits for its turn's end event; `during` runs once `until` holds. */
async function turn(
  sessionId: string,
  input: Omit<SendMessageInput, 'sessionId'>,
  opts: { until?: (es: SessionEvent[]) => boolean; during?: (turnId: string) => Promise<unknown> } = {},
) {
  const sub = t.subscribe(SESSION_EVENTS, { sessionId, after: '0' });
  const sent = await t.http(SEND, { input: { sessionId, ...input } });
  expect(sent.errors).toBeUndefined();
  const turnId = sent.data!.sendMessage.turn.id;
  const mine = (es: SessionEvent[]) =>
    es.slice(es.findIndex((e) => e.__typename === 'TurnStarted' && e.turn.id === turnId));
  if (opts.until) await sub.waitFor((es) => opts.until!(mine(es)), 60_000);
  await opts.during?.(turnId);
  const all = await sub.waitFor(
    (es) => es.some((e) => (e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed') && e.turn.id === turnId),
    60_000,
  );
  sub.dispose();
  const events = mine(all);
  return { turnId, events, end: events.find(isEvent('TurnEnded', 'TurnFailed'))! };
}

const cancel = (turnId: string) => t.http(FaultsToolPairingCancelTurnDocument, { id: turnId });

/** The tool messages of the last request, as the provider's wire format carries them. */
function toolResultsSent(body: unknown): { id: unknown; content: unknown }[] {
  return messagesOf(body).flatMap((m) =>
    m.role === 'tool'
      ? [{ id: m.tool_call_id, content: m.content }]
      : Array.isArray(m.content)
        ? m.content
            .map(jsonRecord)
            .filter((b) => b.type === 'tool_result')
            .map((b) => ({ id: b.tool_use_id, content: b.content }))
        : [],
  );
}

describe(`tool calls never poison a session (${dbKind})`, () => {
  for (const provider of PROVIDERS) {
    it(
      `${provider}: a cancel during a client tool wait stores ` + 'a result for the call, and the next turn succeeds',
      async () => {
        const sessionId = await profileSession(provider);
        t.fake.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' }, id: `call_${provider}_1` }] });
        const cancelled = await turn(
          sessionId,
          { content: 'Weather in Oslo?', clientTools: [WEATHER] },
          {
            until: (es) => es.some((e) => e.__typename === 'ToolCallRequested'),
            during: async (turnId) => {
              await eventually(
                () => t.app.db.prisma.turn.findUnique({ where: { id: rawId(turnId) } }),
                (r) => r?.status === 'WAITING_FOR_TOOL',
                30_000,
              );
              return cancel(turnId);
            },
          },
        );
        expect(cancelled.end.turn.status).toBe('CANCELLED');
        const saved = cancelled.events.find(
          (e): e is EventOf<'MessageSaved'> => e.__typename === 'MessageSaved' && e.message.role === 'TOOL',
        );
        expect(saved!.message).toMatchObject({
          toolCallId: `call_${provider}_1`,
          content: TOOL_RESULT_CANCELLED,
          isDisplay: true,
          isContext: true,
        });

        const rejectionsBefore = t.fake.rejections.length;
        t.fake.enqueue({ text: 'Back again.' });
        const next = await turn(sessionId, { content: 'Never mind. Hello?' });
        expect(
          next.end.__typename,
          JSON.stringify(t.fake.rejections.slice(rejectionsBefore).map((r) => r.message)),
        ).toBe('TurnEnded');
        expect(next.end.turn.status).toBe('COMPLETED');
        expect(t.fake.rejections.length).toBe(rejectionsBefore);
        expect(toolResultsSent(t.fake.requests.at(-1))).toEqual([
          { id: `call_${provider}_1`, content: TOOL_RESULT_CANCELLED },
        ]);
      },
    );

    it(
      `${provider}: a cancel while a server tool runs ` + 'leaves the call answered, and the next turn succeeds',
      async () => {
        const sessionId = await profileSession(provider);
        t.fake.enqueue({ toolCalls: [{ name: 'slow_lookup', arguments: {}, id: `call_${provider}_srv` }] });
        const cancelled = await turn(
          sessionId,
          { content: 'look it up' },
          {
            until: (es) => es.some((e) => e.__typename === 'ToolCallRequested'),
            during: cancel,
          },
        );
        expect(cancelled.end.turn.status).toBe('CANCELLED');
        const context = (await t.app.store.context(rawId(sessionId))).filter((m) => m.role === 'tool');
        expect(context.map((m) => m.toolCallId)).toEqual([`call_${provider}_srv`]);
        t.fake.enqueue({ text: 'ok then' });
        const next = await turn(sessionId, { content: 'and now?' });
        expect(next.end.turn.status).toBe('COMPLETED');
      },
    );

    it(
      `${provider}: a call the store left unanswered (a crash) ` +
        'gets a synthetic result in the request, and the turn succeeds',
      async () => {
        const sessionId = await profileSession(provider);
        const raw = rawId(sessionId);
        // What a kill -9 during a tool wait leaves when recovery never ran: the call, no result.
        await t.app.store.append(raw, [
          { role: 'user', content: 'Weather in Oslo?' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'call_lost', name: 'get_weather', arguments: { city: 'Oslo' } }],
          },
        ]);
        t.fake.enqueue({ text: 'Sorry, where were we?' });
        const next = await turn(sessionId, { content: 'Hello?' });
        expect(next.end.turn.status).toBe('COMPLETED');
        expect(toolResultsSent(t.fake.requests.at(-1))).toEqual([{ id: 'call_lost', content: MISSING_TOOL_RESULT }]);
        // The store is left as it was: the repair is in the request only.
        expect((await t.app.store.context(raw)).filter((m) => m.role === 'tool')).toHaveLength(0);
      },
    );

    it(
      `${provider}: a result whose call was cut, and a note ` +
        'between a call and its result, do not break the request',
      async () => {
        const sessionId = await profileSession(provider);
        const raw = rawId(sessionId);
        await t.app.store.append(raw, [
          // A history edit or a compression removed this result's call.
          { role: 'tool', content: 'ORPHAN-RESULT', toolCallId: 'call_gone', name: 'get_weather' },
          { role: 'user', content: 'And in Bergen?' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'call_b', name: 'get_weather', arguments: { city: 'Bergen' } }],
          },
          // Recorded while the tool ran: it must not sit between the call and its result.
          { role: 'system', content: 'NOTE-DURING-TOOL', metadata: { source: 'task_note' } },
          { role: 'tool', content: 'rain', toolCallId: 'call_b', name: 'get_weather' },
          { role: 'assistant', content: 'Rain in Bergen.' },
        ]);
        t.fake.enqueue({ text: 'Anything else?' });
        const next = await turn(sessionId, { content: 'Thanks' });
        expect(next.end.turn.status).toBe('COMPLETED');
        const body = t.fake.requests.at(-1);
        expect(toolResultsSent(body)).toEqual([{ id: 'call_b', content: 'rain' }]);
        const text = JSON.stringify(body);
        expect(text).toContain('ORPHAN-RESULT');
        expect(text).toContain('NOTE-DURING-TOOL');
      },
    );
  }

  it('recovery of a crashed turn stores a result for the call it left open', async () => {
    const sessionId = await profileSession('openai');
    const raw = rawId(sessionId);
    const [user] = await t.app.store.append(raw, [{ role: 'user', content: 'Weather?' }]);
    await t.app.store.append(raw, [
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_crash', name: 'get_weather', arguments: {} }] },
    ]);
    // The row a process that died during the wait leaves behind: still waiting, no heartbeat since.
    const dead = await t.app.db.prisma.turn.create({
      data: {
        sessionId: raw,
        status: 'WAITING_FOR_TOOL',
        userSequence: user!.sequenceNumber,
        ownerProcess: 'dead-process',
        heartbeatAt: new Date(Date.now() - 3_600_000),
        pendingToolCalls: [{ id: 'call_crash', name: 'get_weather', arguments: {}, clientSide: true }] as never,
      },
    });
    // This call or the app's own sweep (every second) ends it.
    await t.app.turns.recoverOrphans(60_000);
    const ended = await eventually(
      () => t.app.db.prisma.turn.findUnique({ where: { id: dead.id } }),
      (row) => row?.status !== 'WAITING_FOR_TOOL',
    );
    expect(ended!.status).toBe('INTERRUPTED');
    const tools = (await t.app.store.context(raw)).filter((m) => m.role === 'tool');
    expect(tools.map((m) => [m.toolCallId, m.content, m.isDisplay])).toEqual([
      ['call_crash', TOOL_RESULT_SERVER_STOPPED, true],
    ]);
    t.fake.enqueue({ text: 'recovered' });
    const next = await turn(sessionId, { content: 'again' });
    expect(next.end.turn.status).toBe('COMPLETED');
    expect(toolResultsSent(t.fake.requests.at(-1))).toEqual([
      { id: 'call_crash', content: TOOL_RESULT_SERVER_STOPPED },
    ]);
  });
});
