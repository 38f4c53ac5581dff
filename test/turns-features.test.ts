import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionMetadata } from '../src/domain/session-metadata.js';
import { parseGlobalId } from '../src/schema/ids.js';
import { jsonList } from './support/fake-provider.js';
import {
  TurnsFeaturesCreateSessionDocument,
  TurnsFeaturesPlanningDocument,
  TurnsFeaturesProfilesDocument,
  TurnsFeaturesRenameMineDocument,
  TurnsFeaturesSendDocument,
  TurnsFeaturesTitleDocument,
  TurnsFeaturesTitleListDocument,
  TurnsFeaturesUpsertProfileDocument,
  TurnsFeaturesUsageDocument,
  type UpsertProfileInput,
} from './generated/graphql.js';
import {
  createTestServer,
  dbKind,
  eventually,
  isEvent,
  type ServerContext,
  SESSION_EVENTS,
} from './support/harness.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: true, maxToolIterations: 3 });
});
afterAll(() => t.close());

const SEND = TurnsFeaturesSendDocument;

async function profileSession(key: string, extra: Partial<UpsertProfileInput> = {}) {
  await t.http(TurnsFeaturesUpsertProfileDocument, { i: { key, name: key, model: `${key}-model`, ...extra } });
  const p = (await t.http(TurnsFeaturesProfilesDocument, {})).data!.profiles.find((x) => x.key === key)!.id;
  return (await t.http(TurnsFeaturesCreateSessionDocument, { p })).data!.createSession.id;
}

async function runTurn(sessionId: string, content: string) {
  // after: '0' replays from the start of the log, so a slow subscription start misses nothing
  const sub = t.subscribe(SESSION_EVENTS, { sessionId, after: '0' });
  const sent = await t.http(SEND, { input: { sessionId, content } });
  const turnId = sent.data!.sendMessage.turn.id;
  const all = await sub.waitFor((es) =>
    es.some((e) => (e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed') && e.turn.id === turnId),
  );
  const events = all.slice(all.findIndex((e) => e.__typename === 'TurnStarted' && e.turn.id === turnId));
  return { events, sub };
}

describe(`turn features (${dbKind})`, () => {
  it('titles: heuristic at once, generated after the first exchange, manual never overwritten', async () => {
    const sessionId = await profileSession('titles');
    t.fake.responder = (call) =>
      JSON.stringify(call.body).includes('You name chat sessions')
        ? { text: '"Trip To Lisbon."' }
        : { text: 'Sure, let us plan.' };
    const { events, sub } = await runTurn(sessionId, 'Help me plan a trip to Lisbon in May with a tight budget please');
    expect(
      events.find((e) => e.__typename === 'SessionRenamed'),
      JSON.stringify(events.map((e) => e.__typename)),
    ).toMatchObject({ titleSource: 'HEURISTIC' });
    const all = await sub.waitFor((es) =>
      es.some((e) => e.__typename === 'SessionRenamed' && e.titleSource === 'GENERATED'),
    );
    expect(all.filter(isEvent('SessionRenamed')).find((e) => e.titleSource === 'GENERATED')!.name).toBe(
      'Trip To Lisbon',
    );
    sub.dispose();
    const s = await t.http(TurnsFeaturesTitleDocument, { id: sessionId });
    expect(s.data!.session).toEqual({ name: 'Trip To Lisbon', titleSource: 'GENERATED' });

    const manual = await profileSession('titles2');
    await t.http(TurnsFeaturesRenameMineDocument, { id: manual });
    const second = await runTurn(manual, 'Another long question about something entirely different');
    second.sub.dispose();
    // A negative check: a manual title makes the title job return before any request. Waited on instead of a
    // pause: a later session's title job, which starts after this one and asks the model after a whole turn more.
    const later = await runTurn(
      await profileSession('titles'),
      'A later long question that does get a generated title',
    );
    await later.sub.waitFor((es) => es.some((e) => e.__typename === 'SessionRenamed' && e.titleSource === 'GENERATED'));
    later.sub.dispose();
    expect(
      t.fake.requests.some(
        (b) => JSON.stringify(b).includes('You name chat sessions') && JSON.stringify(b).includes('entirely different'),
      ),
    ).toBe(false);
    const kept = await t.http(TurnsFeaturesTitleDocument, { id: manual });
    expect(kept.data!.session).toEqual({ name: 'Mine', titleSource: 'MANUAL' });
    t.fake.responder = undefined;
  });

  it('a placeholder title shows the first prompt when listed or resumed (no write); a turn stores it', async () => {
    const sessionId = await profileSession('titles-history');
    const raw = parseGlobalId(sessionId, 'Session');
    // History written without a turn (an import, a hidden first prompt, a title write that failed): still DEFAULT.
    await t.app.store.append(raw, [
      { role: 'user', content: '```\ncode only\n```' },
      { role: 'assistant', content: 'That is code.' },
      { role: 'user', content: 'Deploy the **gateway** on port 8443 with TLS' },
      { role: 'assistant', content: 'Done.' },
    ]);
    const resumed = await t.http(TurnsFeaturesTitleDocument, { id: sessionId });
    expect(resumed.data!.session).toEqual({ name: 'Deploy the gateway on port 8443 with TLS', titleSource: 'DEFAULT' });
    const listed = await t.http(TurnsFeaturesTitleListDocument, {});
    expect(listed.data!.sessions.edges.find((e) => e.node.id === sessionId)!.node.name).toBe(
      'Deploy the gateway on port 8443 with TLS',
    );
    // Derived on read: nothing was written.
    expect(await t.app.store.get(raw)).toMatchObject({ name: null, titleSource: 'DEFAULT' });

    t.fake.responder = (call) =>
      JSON.stringify(call.body).includes('You name chat sessions') ? { text: 'Gateway Rollout' } : { text: 'Welcome.' };
    const { events, sub } = await runTurn(sessionId, 'ok thanks');
    // The heuristic title is written with the turn (the event is published only once the write succeeded) and
    // is the first prompt's, not the newest message's; the generated title follows as before.
    expect(events.find(isEvent('SessionRenamed'))).toMatchObject({
      name: 'Deploy the gateway on port 8443 with TLS',
      titleSource: 'HEURISTIC',
    });
    const all = await sub.waitFor((es) =>
      es.some((e) => e.__typename === 'SessionRenamed' && e.titleSource === 'GENERATED'),
    );
    sub.dispose();
    t.fake.responder = undefined;
    expect(all.filter(isEvent('SessionRenamed')).map((e) => e.name)).not.toContain('ok thanks');
    expect(await t.app.store.get(raw)).toMatchObject({ name: 'Gateway Rollout', titleSource: 'GENERATED' });
  });

  it('planning profiles save an isPlan message and a planning log before answering', async () => {
    const sessionId = await profileSession('planner', { planning: true });
    t.fake.enqueue({ text: '1. look\n2. answer' }, { text: 'Done.' });
    const { sub } = await runTurn(sessionId, 'do the thing');
    sub.dispose();
    const s = await t.http(TurnsFeaturesPlanningDocument, { id: sessionId });
    const rows = s.data!.session!.history.edges.map((e) => e.node);
    expect(rows.find((r) => r.isPlan)).toMatchObject({ role: 'ASSISTANT', content: '1. look\n2. answer' });
    expect(rows.at(-1)).toMatchObject({ content: 'Done.', isPlan: false });
    expect(jsonList(s.data!.session!.planningLogs)[0]).toMatchObject({ output: '1. look\n2. answer' });
  });

  it('runs server-side tools from the registry and stops at the iteration limit', async () => {
    t.app.tools.register({
      name: 'add',
      description: 'adds two numbers',
      parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
      run: async (args) => ({ content: String(Number(args.a) + Number(args.b)) }),
    });
    const sessionId = await profileSession('tools');
    t.fake.enqueue({ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' });
    const { events, sub } = await runTurn(sessionId, 'add 2 and 3');
    sub.dispose();
    const req = events.find(isEvent('ToolCallRequested'));
    expect(req).toMatchObject({ clientSide: false, toolCall: { name: 'add' } });
    const tool = events.filter(isEvent('MessageSaved')).find((e) => e.message.role === 'TOOL')!;
    expect(tool.message.content).toBe('5');
    expect(events.find(isEvent('TurnEnded'))!.assistantMessage!.content).toBe('The sum is 5.');

    const looping = await profileSession('loop');
    t.fake.responder = () => ({ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] });
    const loop = await runTurn(looping, 'loop forever');
    loop.sub.dispose();
    t.fake.responder = undefined;
    const ended = loop.events.find(isEvent('TurnEnded'))!;
    expect(ended.turn.status).toBe('COMPLETED');
    expect(ended.assistantMessage!.content).toMatch(/Stopped after 3 model calls/);
  });

  it('speaks to OpenAI-compatible servers with usage including cached prompt tokens', async () => {
    const sessionId = await profileSession('oai', { provider: 'openai' });
    t.fake.enqueue({ text: ['open', 'ai'], promptTokens: 50, completionTokens: 2, cachedTokens: 30 });
    const { events, sub } = await runTurn(sessionId, 'hello');
    sub.dispose();
    expect(t.fake.calls.at(-1)!.path).toBe('/v1/chat/completions');
    expect(events.find(isEvent('TurnEnded'))!.assistantMessage!.content).toBe('openai');
    const s = await t.http(TurnsFeaturesUsageDocument, { id: sessionId });
    expect(s.data!.session!.usage).toEqual({ promptTokens: 50, cachedPromptTokens: 30, completionTokens: 2 });
    expect(s.data!.session!.cost).toEqual({ priced: false, usd: 0 });
  });

  it('records each real prompt count against the size of the prompt sent (calibration)', async () => {
    // its call would take the scripted answers
    (t.app.config as { titleGenerationEnabled: boolean }).titleGenerationEnabled = false;
    const sessionId = await profileSession('calib');
    t.fake.enqueue({ text: 'a', promptTokens: 400 });
    (await runTurn(sessionId, 'x'.repeat(1000))).sub.dispose();
    t.fake.enqueue({ text: 'b', promptTokens: 900 });
    (await runTurn(sessionId, 'y'.repeat(2000))).sub.dispose();
    const observations = t.app.calibration.calibrationFor('calib-model').observations;
    expect(observations.map((o) => o.tokens)).toEqual([400, 900]);
    const raw = Buffer.from(sessionId, 'base64').toString().split(':')[1]!;
    const row = await eventually(
      () => t.app.store.get(raw),
      (r) => r!.contextTokenCount === 900,
    );
    expect((row!.metadata as SessionMetadata).baseline!.promptTokens).toBe(900);
  });
});
