import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { startServer } from '../src/server.js';
import {
  TransportCreateSessionDocument,
  TransportDeepSessionsDocument,
  TransportDeleteDocument,
  TransportListEventsBareDocument,
  TransportListEventsDocument,
  TransportPinDocument,
  TransportRenameToRenamedDocument,
  TransportSendDocument,
  TransportSmallEventsDocument,
} from './generated/graphql.js';
import {
  codeOf,
  createTestServer,
  dbKind,
  isEvent,
  queryText,
  SESSION_EVENTS,
  type SessionEvent,
  testConfig,
  watchListeners,
  type ServerContext,
} from './support/harness.js';
import { needsRedis, skipping } from './support/skips.js';

let t: ServerContext;
let alice: string;
let bob: string;
beforeAll(async () => {
  t = await createTestServer({ authEnabled: true, titleGenerationEnabled: false });
  alice = (await t.app.auth.createUser('alice')).key;
  bob = (await t.app.auth.createUser('bob')).key;
});
afterAll(() => t.close());

async function newSession(token: string) {
  const r = await t.http(TransportCreateSessionDocument, {}, token);
  return r.data!.createSession.id;
}
const SEND = TransportSendDocument;
/** The session event stream (the harness's EVENTS_SUBSCRIPTION) as text, for the raw clients below. */
const EVENTS_TEXT = queryText(SESSION_EVENTS);

describe(`transports (${dbKind})`, () => {
  it('serves /healthz with a database check and GraphiQL on GET /graphql', async () => {
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const page = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('GraphiQL');
  });

  it('is hardened: CSRF prevention, no batching, depth and alias limits, masked errors', async () => {
    const csrf = await fetch(`${t.url}/graphql?query=${encodeURIComponent('{ viewer { isAdmin } }')}`, {
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    expect(csrf.status).toBeGreaterThanOrEqual(400);
    const batch = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice}` },
      body: JSON.stringify([{ query: '{ viewer { isAdmin } }' }, { query: '{ viewer { isAdmin } }' }]),
    });
    expect(batch.status).toBeGreaterThanOrEqual(400);
    const aliases = 'query { ' + Array.from({ length: 40 }, (_, i) => `a${i}: viewer { isAdmin }`).join(' ') + ' }';
    expect((await t.http(aliases, {}, alice)).errors?.[0]?.message).toMatch(/alias/i);
    expect((await t.http(TransportDeepSessionsDocument, {}, alice)).errors).toBeUndefined();
    // The schema has no type cycles, so depth is bounded by construction; token count is the flooding vector.
    const flood = `{ viewer { ${'isAdmin '.repeat(2500)} } }`;
    expect(JSON.stringify(await t.http(flood, {}, alice))).toMatch(/token/i);
    const broken = await t.http(`{ viewer { isAdmin `, {}, alice);
    expect(JSON.stringify(broken)).toMatch(/Syntax Error/);
  });

  it('refuses subscriptions without credentials or to a session the caller may not read', async () => {
    const sessionId = await newSession(alice);
    const anon = t.subscribe(SESSION_EVENTS, { sessionId });
    await anon.waitFor(() => anon.errors.length > 0);
    expect(JSON.stringify(anon.errors)).toMatch(/UNAUTHENTICATED|Authentication required/);
    const foreign = t.subscribe(SESSION_EVENTS, { sessionId }, bob);
    await foreign.waitFor(() => foreign.errors.length > 0);
    expect(JSON.stringify(foreign.errors)).toMatch(/NOT_FOUND|not found/);
    const bad = t.ws('csk_invalid');
    const failed = await new Promise<unknown>((resolve) => {
      bad.subscribe(
        { query: EVENTS_TEXT, variables: { sessionId } },
        { next: () => undefined, error: resolve, complete: () => resolve('complete') },
      );
    });
    expect(String((failed as { reason?: unknown } | null)?.reason ?? failed)).toMatch(/Forbidden|4403|close/i);
  });

  it('streams a turn over GraphQL SSE', async () => {
    const sessionId = await newSession(alice);
    t.fake.enqueue({ text: ['sse ', 'works'], chunkDelayMs: 100 });
    const controller = new AbortController();
    const response = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${alice}` },
      body: JSON.stringify({ query: EVENTS_TEXT, variables: { sessionId } }),
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    await t.listening(sessionId);
    void t.http(SEND, { input: { sessionId, content: 'over sse' } }, alice);
    const reader = response.body!.getReader();
    let buffer = '';
    const decoder = new TextDecoder();
    while (!buffer.includes('TurnEnded')) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value);
    }
    controller.abort();
    const texts = [...buffer.matchAll(/"text":"([^"]*)"/g)].map((m) => m[1]).join('');
    expect(texts).toBe('sse works');
  });

  it('keeps a session list current through sessionListEvents, only for its owner', async () => {
    const listBefore = t.listenerCount('list');
    const mine = t.subscribe(TransportListEventsDocument, {}, alice);
    const theirs = t.subscribe(TransportListEventsBareDocument, {}, bob);
    await t.listening('list', listBefore + 2);
    const id = await newSession(alice);
    await t.http(TransportRenameToRenamedDocument, { id }, alice);
    await t.http(TransportPinDocument, { id }, alice);
    await t.http(TransportDeleteDocument, { id }, alice);
    const events = await mine.waitFor((es) => es.some((e) => e.kind === 'deleted'));
    expect(events.filter((e) => e.sessionId === id).map((e) => e.kind)).toEqual([
      'created',
      'renamed',
      'pinned',
      'deleted',
    ]);
    expect(events.find((e) => e.kind === 'pinned')!.session).toEqual({ name: 'renamed', pinned: true });
    expect(theirs.events.filter((e) => e.sessionId === id)).toEqual([]);
  });

  it('subscribers share event results per document, variables and viewer without mixing them up', async () => {
    const root = (await t.app.auth.createUser('root-shared', { admin: true })).key;
    const sessionId = await newSession(alice);
    const first = t.subscribe(SESSION_EVENTS, { sessionId }, alice);
    await t.listening(sessionId);
    t.fake.enqueue({ text: ['one ', 'two'], chunkDelayMs: 10 });
    await t.http(SEND, { input: { sessionId, content: 'first turn' } }, alice);
    const before = [...(await first.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded')))];
    const cursor = before[1].eventId; // resume from inside the first turn

    const same = [t.subscribe(SESSION_EVENTS, { sessionId }, alice), t.subscribe(SESSION_EVENTS, { sessionId }, alice)];
    const resumed = t.subscribe(SESSION_EVENTS, { sessionId, after: cursor }, alice);
    const admin = t.subscribe(SESSION_EVENTS, { sessionId }, root);
    const small = t.subscribe(TransportSmallEventsDocument, { id: sessionId }, alice);
    await t.listening(sessionId, 6); // `first` and these five
    t.fake.enqueue({ text: ['three ', 'four'], chunkDelayMs: 10 });
    await t.http(SEND, { input: { sessionId, content: 'second turn' } }, alice);
    const ended = (es: SessionEvent[]) => es.filter((e) => e.__typename === 'TurnEnded').length >= 1;
    const live = await Promise.all([...same, admin].map((s) => s.waitFor(ended)));
    const all = await first.waitFor((es) => es.filter((e) => e.__typename === 'TurnEnded').length === 2);
    const secondTurn = all.slice(before.length);
    for (const events of live) expect(events).toEqual(secondTurn);
    // the resumed subscriber: the rest of the first turn, then the second, no gap, no duplicate
    const resumedEvents = await resumed.waitFor((es) => es.filter((e) => e.__typename === 'TurnEnded').length === 2);
    expect(resumedEvents).toEqual(all.slice(2));
    // another document gets its own shape
    const smallEvents = await small.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    expect(smallEvents.filter((e) => e.__typename === 'TextDelta')).toEqual([
      { __typename: 'TextDelta', text: 'three ' },
      { __typename: 'TextDelta', text: 'four' },
    ]);
    expect(Object.keys(smallEvents.find((e) => e.__typename === 'TurnEnded')!)).toEqual(['__typename']);
    for (const s of [first, ...same, resumed, admin, small]) expect(s.errors).toEqual([]);
  });

  it('rejects a malformed resume cursor', async () => {
    const sessionId = await newSession(alice);
    const sub = t.subscribe(SESSION_EVENTS, { sessionId, after: 'not-an-id' }, alice);
    await sub.waitFor(() => sub.errors.length > 0);
    expect(JSON.stringify(sub.errors)).toMatch(/BAD_USER_INPUT|Malformed/);
    void codeOf;
  });
});

const skipped = skipping('two server processes through Redis', needsRedis());
describe.skipIf(skipped)('two server processes sharing events through Redis', () => {
  it('a subscriber on one server sees a turn run by the other, and can resume there', async () => {
    const a = await createTestServer({ redisUrl: process.env.REDIS_URL, titleGenerationEnabled: false });
    const bApp = await createApp(testConfig({ redisUrl: process.env.REDIS_URL, ollamaHost: a.fake.url }), {
      db: a.app.db,
    });
    const bListeners = watchListeners(bApp);
    const b = await startServer(bApp);
    try {
      const created = await a.http(TransportCreateSessionDocument, {});
      const sessionId = created.data!.createSession.id;
      const { createClient } = await import('graphql-ws');
      const WebSocket = (await import('ws')).default;
      const client = createClient({
        url: `${b.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      });
      const events: SessionEvent[] = [];
      const done = new Promise<void>((resolve, reject) => {
        client.subscribe(
          { query: EVENTS_TEXT, variables: { sessionId } },
          {
            next: (v) => {
              const event = (v.data as { sessionEvents: SessionEvent }).sessionEvents;
              events.push(event);
              if (event.__typename === 'TurnEnded') resolve();
            },
            error: reject,
            complete: () => undefined,
          },
        );
      });
      await bListeners.until(Buffer.from(sessionId, 'base64').toString().split(':')[1]!);
      await (bApp.bus as { ready?: () => Promise<void> }).ready?.(); // B's Redis SUBSCRIBE went through
      a.fake.enqueue({ text: ['across ', 'processes'], chunkDelayMs: 20 });
      await a.http(SEND, { input: { sessionId, content: 'hello from A' } });
      await done;
      expect(
        events
          .filter(isEvent('TextDelta'))
          .map((e) => e.text)
          .join(''),
      ).toBe('across processes');
      // replay on B from the first event id, as a reconnecting client would
      const replay = await bApp.bus.replay(
        Buffer.from(sessionId, 'base64').toString().split(':')[1]!,
        events[0].eventId,
      );
      expect(replay.map((e) => e.eventId)).toEqual(events.slice(1).map((e) => e.eventId));
      await client.dispose();
    } finally {
      await b.close();
      await bApp.close();
      await a.close();
    }
  }, 120_000);
});
