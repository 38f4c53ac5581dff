/**
 * Nothing acknowledged is lost across kill -9, restarts and SIGTERM: the real
 * server in child processes (src/main.ts), the fake provider keeping a turn
 * running, and a resume with the cursor from before the restart.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ChildServer, startChildServer } from './support/child-server.js';
import { type FakeProvider, startFakeProvider } from './support/fake-provider.js';
import { createServerDatabase } from './support/durability.js';
import {
  FaultsResumeCreateSessionDocument,
  FaultsResumeEventsDocument,
  type FaultsResumeEventsSubscriptionVariables,
  FaultsResumeHistoryDocument,
  FaultsResumeRenameDocument,
  FaultsResumeSendDocument,
} from './generated/graphql.js';
import { createTestServer, dbKind, queryText, type SendGql, serverUrl, type ServerContext } from './support/harness.js';

/** The event stream this file resumes (test/operations/faults-resume.graphql). */
export const RESUME_EVENTS = queryText(FaultsResumeEventsDocument);

/** A session event as RESUME_EVENTS selects it: the fields of its own type are there. */
export interface ResumeEvent {
  __typename: string;
  eventId: string;
  reason?: string;
  turn?: { id: string; status: string };
  turnId?: string;
  text?: string;
  savedTurnId?: string;
  message?: { role: string; content: string };
  assistantMessage?: { content: string };
  code?: string;
  name?: string;
}

const SEND = FaultsResumeSendDocument;
const HISTORY = FaultsResumeHistoryDocument;
/** A message's metadata (JSON): the flags this file reads. */
const metadataOf = (node: { metadata: unknown }) => node.metadata as { interrupted?: boolean };

/** A fresh store for one child server family: a temp DATA_DIR, or a fresh database on TEST_DATABASE_URL. */
export async function freshStore(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'faults-resume-'));
  const files = { SESSION_FILES_DIR: join(dir, 'files') };
  if (!serverUrl)
    return { env: { DATA_DIR: join(dir, 'data'), ...files }, drop: () => rm(dir, { recursive: true, force: true }) };
  const db = await createServerDatabase(serverUrl);
  return {
    // The same INSTANCE_ID across restarts: the restarted process recognises its own turns.
    env: { DATABASE_URL: db.url, INSTANCE_ID: `resume-test-${randomBytes(4).toString('hex')}`, ...files },
    drop: async () => {
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface WsSub {
  events: ResumeEvent[];
  errors: unknown[];
  closes: number[];
  completed: boolean;
  waitFor(predicate: (events: ResumeEvent[]) => boolean, timeoutMs?: number): Promise<ResumeEvent[]>;
  dispose(): Promise<void>;
}

export function wsSubscribe(
  url: string,
  variables: FaultsResumeEventsSubscriptionVariables,
  onEvent?: (event: ResumeEvent) => void,
): WsSub {
  const sub: WsSub = {
    events: [],
    errors: [],
    closes: [],
    completed: false,
    waitFor: null as never,
    dispose: null as never,
  };
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  const client = createClient({
    url: `${url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    // not lazy: a lazy client closes the socket itself (1000) once its last subscription completes
    lazy: false,
    on: { closed: (e) => void (sub.closes.push((e as { code: number }).code), notify()) },
  });
  client.subscribe(
    { query: RESUME_EVENTS, variables },
    {
      next: (value) => {
        if (value.errors) sub.errors.push(...value.errors);
        const event = value.data?.sessionEvents as ResumeEvent | undefined;
        if (event) {
          sub.events.push(event);
          onEvent?.(event);
        }
        notify();
      },
      error: (error) => void (sub.errors.push(error), notify()),
      complete: () => void ((sub.completed = true), notify()),
    },
  );
  sub.waitFor = waitable(
    sub.events,
    waiters,
    () => `errors: ${JSON.stringify(sub.errors).slice(0, 300)} closes: ${sub.closes}`,
  );
  sub.dispose = () => client.dispose() as Promise<void>;
  return sub;
}

/**
 * `waitFor` over an event list that grows: resolves once the predicate holds (checked again on every `notify` of
 * `waiters`), rejects after `timeoutMs` saying what was seen.
 */
function waitable(events: ResumeEvent[], waiters: Set<() => void>, describe: () => string) {
  return (predicate: (events: ResumeEvent[]) => boolean, timeoutMs = 90_000) =>
    new Promise<ResumeEvent[]>((resolve, reject) => {
      const check = () => {
        if (!predicate(events)) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(events);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out; events: ${JSON.stringify(events.map(shape))} ${describe()}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
}

export const shape = (e: ResumeEvent): string =>
  e.__typename === 'EventsReset'
    ? `EventsReset:${e.reason}`
    : e.__typename === 'TurnFailed'
      ? `TurnFailed:${e.code}`
      : e.__typename === 'TurnEnded'
        ? `TurnEnded:${e.turn!.status}`
        : e.__typename;

type Waitable = { waitFor(predicate: (events: ResumeEvent[]) => boolean, timeoutMs?: number): Promise<unknown> };

/**
 * Renames the session until every subscription shows the rename: from then on each receives every event. A rename
 * sent before a subscription was live never reaches it, so each round waits for that rename's event and, when one
 * subscriber has not shown it after a while, renames again (the pause only triggers the next try, never a verdict).
 */
export async function untilSubscribed(gql: SendGql, sessionId: string, subs: Waitable[]) {
  for (let i = 0; ; i++) {
    await gql(FaultsResumeRenameDocument, { id: sessionId, name: `ready ${i}` });
    const renamed = (es: ResumeEvent[]) => es.some((e) => e.__typename === 'SessionRenamed' && e.name === `ready ${i}`);
    const reached = await Promise.all(
      subs.map((s) =>
        s.waitFor(renamed, 1_000).then(
          () => true,
          () => false,
        ),
      ),
    );
    if (reached.every(Boolean)) return;
  }
}

const childEnv = (fake: FakeProvider, store: { env: Record<string, string> }) => ({
  OLLAMA_HOST: fake.url,
  PARTIAL_FLUSH_MS: '100',
  PROVIDER_TIMEOUT_MS: '120000',
  ...store.env,
});

describe(`faults: resume across restarts (${dbKind})`, () => {
  let fake: FakeProvider;
  const servers: ChildServer[] = [];
  const drops: (() => Promise<void>)[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startChildServer(env, { timeoutMs: 120_000 });
    servers.push(server);
    return server;
  };
  beforeAll(async () => {
    fake = await startFakeProvider();
  }, 300_000);
  afterAll(async () => {
    for (const s of servers) {
      s.kill('SIGKILL');
      await s.exited;
    }
    for (const drop of drops) await drop();
    await fake.stop();
  }, 300_000);

  it('kill -9 mid-turn, restart: the old cursor gets EventsReset, the ' +
    'INTERRUPTED end, then live events; sendMessage is taken at once', async () => {
    const store = await freshStore();
    drops.push(store.drop);
    const env = childEnv(fake, store);
    let server = await start(env);
    const created = await server.gql(FaultsResumeCreateSessionDocument, {});
    const sessionId = created.data!.createSession.id;
    const sub = wsSubscribe(server.url, { sessionId });
    await untilSubscribed(server.gql, sessionId, [sub]);
    fake.enqueue({ text: ['Hel', 'lo ', 'never sent'], chunkDelayMs: 300, stallAfterChunks: 2 });
    expect((await server.gql(SEND, { input: { sessionId, content: 'first' } })).errors).toBeUndefined();
    await sub.waitFor((es) => es.filter((e) => e.__typename === 'TextDelta').length >= 2);
    const cursor = sub.events.at(-1)!.eventId;
    server.kill('SIGKILL');
    await server.exited;
    await sub.dispose();

    server = await start(env);
    const resumed = wsSubscribe(server.url, { sessionId, after: cursor });
    await resumed.waitFor((es) => es.some((e) => e.__typename === 'TurnFailed'));
    // Immediately accepted: the previous incarnation's turn is already over, no CONFLICT.
    fake.enqueue({ text: 'fine' });
    const again = await server.gql(SEND, { input: { sessionId, content: 'second' } });
    expect(again.errors).toBeUndefined();
    await resumed.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    expect(resumed.events.map(shape)).toEqual([
      'EventsReset:RESTARTED',
      'TurnFailed:INTERRUPTED',
      'TurnStarted',
      'TextDelta',
      'MessageSaved',
      'TurnEnded:COMPLETED',
    ]);
    expect(resumed.events[1].turn!.status).toBe('INTERRUPTED');
    const h = await server.gql(HISTORY, { id: sessionId });
    const history = h.data!.session!.history.edges.map((e) => e.node);
    expect(history.map((m) => m.role)).toEqual(['USER', 'ASSISTANT', 'USER', 'ASSISTANT']);
    expect(history[1].content).toMatch(/^Hel/);
    expect(metadataOf(history[1]).interrupted).toBe(true);
    expect(history[3].content).toBe('fine');
    await resumed.dispose();
  }, 600_000);

  it('kill -9 right after the final MessageSaved: the answer is ' +
    'never duplicated and no false recovery note reaches the model', async () => {
    const store = await freshStore();
    drops.push(store.drop);
    const env = childEnv(fake, store);
    let server = await start(env);
    const created = await server.gql(FaultsResumeCreateSessionDocument, {});
    const sessionId = created.data!.createSession.id;
    let killed: Promise<unknown> | null = null;
    const sub = wsSubscribe(server.url, { sessionId }, (event) => {
      if (event.__typename === 'MessageSaved' && event.message!.role === 'ASSISTANT' && !killed) {
        server.kill('SIGKILL');
        killed = server.exited;
      }
    });
    await untilSubscribed(server.gql, sessionId, [sub]);
    // slow chunks: the partial answer is checkpointed (PARTIAL_FLUSH_MS=100) before the final save
    fake.enqueue({ text: ['The ', 'whole ', 'answer'], chunkDelayMs: 250 });
    await server.gql(SEND, { input: { sessionId, content: 'question' } });
    await sub.waitFor(() => killed !== null);
    await killed;
    await sub.dispose();

    server = await start(env);
    const h = await server.gql(HISTORY, { id: sessionId });
    expect(h.data!.session!.activeTurn).toBeNull();
    const history = h.data!.session!.history.edges.map((e) => e.node);
    expect(history.map((m) => [m.role, m.content])).toEqual([
      ['USER', 'question'],
      ['ASSISTANT', 'The whole answer'],
    ]);
    expect(h.data!.session!.context.some((m) => m.isAgentNote)).toBe(false);
    fake.enqueue({ text: 'next' });
    expect((await server.gql(SEND, { input: { sessionId, content: 'more' } })).errors).toBeUndefined();
  }, 600_000);

  it('SIGTERM: subscribers (graphql-ws and SSE) get TurnFailed SHUTDOWN then ' +
    'complete; a request in flight is answered; new connections are refused', async () => {
    const store = await freshStore();
    drops.push(store.drop);
    const env = childEnv(fake, store);
    let server = await start(env);
    const created = await server.gql(FaultsResumeCreateSessionDocument, {});
    const sessionId = created.data!.createSession.id;
    const ws = wsSubscribe(server.url, { sessionId });
    const sse = sseSubscribe(server.url, { sessionId });
    await untilSubscribed(server.gql, sessionId, [ws, sse]);
    fake.enqueue({ text: ['Par', 'tial ', 'never sent'], stallAfterChunks: 2 });
    await server.gql(SEND, { input: { sessionId, content: 'long one' } });
    await ws.waitFor((es) => es.filter((e) => e.__typename === 'TextDelta').length >= 2);

    // A request the server has accepted (100 Continue) whose body arrives only after SIGTERM.
    const slow = slowRequest(server.url, JSON.stringify({ query: '{ __typename }' }));
    await slow.accepted;
    server.kill('SIGTERM');
    await server.waitForLine((line) => line.includes('shutting down'));

    await ws.waitFor(() => ws.completed && ws.closes.length > 0);
    expect(ws.events.slice(-1).map(shape)).toEqual(['TurnFailed:SHUTDOWN']);
    expect(ws.events.at(-1)!.turn!.status).toBe('INTERRUPTED');
    expect(ws.closes).toEqual([1001]);
    await sse.ended;
    expect(sse.events.slice(-1).map(shape)).toEqual(['TurnFailed:SHUTDOWN']);
    expect(sse.completeFrame).toBe(true);
    // the listener is closed: no new connection
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    slow.sendBody();
    expect(await slow.response).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
    expect((await server.exited).code).toBe(0);

    server = await start(env);
    const h = await server.gql(HISTORY, { id: sessionId });
    expect(h.data!.session!.activeTurn).toBeNull();
    const history = h.data!.session!.history.edges.map((e) => e.node);
    expect(history.map((m) => [m.role, m.content])).toEqual([
      ['USER', 'long one'],
      ['ASSISTANT', 'Partial '],
    ]);
    expect(metadataOf(history[1]).interrupted).toBe(true);
    fake.enqueue({ text: 'back' });
    expect((await server.gql(SEND, { input: { sessionId, content: 'again' } })).errors).toBeUndefined();
  }, 600_000);
});

/** An SSE subscription read as text: its events, whether `event: complete` came, and when the stream ended. */
function sseSubscribe(url: string, variables: FaultsResumeEventsSubscriptionVariables) {
  const events: ResumeEvent[] = [];
  const waiters = new Set<() => void>();
  const out = {
    events,
    completeFrame: false,
    ended: null as unknown as Promise<void>,
    waitFor: waitable(events, waiters, () => '(SSE)'),
  };
  out.ended = (async () => {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: RESUME_EVENTS, variables }),
    });
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^event: complete/m.test(frame)) out.completeFrame = true;
        const data = frame.split('\n').find((l) => l.startsWith('data: '));
        const event = data
          ? (JSON.parse(data.slice(6)) as { data?: { sessionEvents?: ResumeEvent } }).data?.sessionEvents
          : null;
        if (event) {
          out.events.push(event);
          for (const w of [...waiters]) w();
        }
        end = buffer.indexOf('\n\n');
      }
    }
  })();
  return out;
}

/** POST with `Expect: 100-continue`: `accepted` once the server took the request, the body only on sendBody(). */
function slowRequest(url: string, body: string) {
  const { hostname, port } = new URL(url);
  const req = request({
    host: hostname,
    port,
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
  });
  const accepted = new Promise<void>((resolve) => req.once('continue', () => resolve()));
  const response = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
  });
  response.catch(() => undefined); // awaited by the test; never an unhandled rejection after a failure
  req.flushHeaders();
  return { accepted, response, sendBody: () => req.end(body) };
}

describe(`resume and recovery in process (${dbKind})`, () => {
  let t: ServerContext;
  beforeAll(async () => {
    t = await createTestServer({ titleGenerationEnabled: false, eventRetention: 10, instanceId: 'in-process-test' });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  }, 300_000);
  const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':')[1]!;
  const newSession = async () => (await t.http(FaultsResumeCreateSessionDocument, {})).data!.createSession.id;

  it('a cursor past EVENT_RETENTION gets EventsReset TRIMMED, then ' +
    'only the end of the turn whose start was trimmed, then live events', async () => {
    const sessionId = await newSession();
    const first = wsSubscribe(t.url, { sessionId });
    await untilSubscribed(t.http, sessionId, [first]);
    t.fake.enqueue({ text: Array.from({ length: 30 }, (_, i) => `w${i} `) });
    await t.http(SEND, { input: { sessionId, content: 'many words' } });
    await first.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    const started = first.events.find((e) => e.__typename === 'TurnStarted');
    await first.dispose();

    const resumed = wsSubscribe(t.url, { sessionId, after: started!.eventId });
    await resumed.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    t.fake.enqueue({ text: 'short' });
    await t.http(SEND, { input: { sessionId, content: 'again' } });
    await resumed.waitFor((es) => es.filter((e) => e.__typename === 'TurnEnded').length === 2);
    expect(resumed.events.map(shape)).toEqual([
      'EventsReset:TRIMMED',
      'TurnEnded:COMPLETED',
      'TurnStarted',
      'TextDelta',
      'MessageSaved',
      'TurnEnded:COMPLETED',
    ]);
    expect(resumed.events[1].assistantMessage!.content).toMatch(/^w0 w1 .* w29 $/);
    await resumed.dispose();
  }, 600_000);

  it("sendMessage ends a turn its own instance's previous process " +
    'left running (fresh heartbeat) instead of answering CONFLICT', async () => {
    const sessionId = await newSession();
    const raw = rawId(sessionId);
    const [user] = await t.app.store.append(raw, [{ role: 'user', content: 'before the restart' }]);
    const left = await t.app.db.prisma.turn.create({
      data: {
        sessionId: raw,
        userSequence: user!.sequenceNumber,
        partialText: 'half an',
        ownerProcess: 'previous',
        ownerInstance: 'in-process-test',
      },
    });
    const sent = await t.http(SEND, { input: { sessionId, content: 'after the restart' } });
    expect(sent.errors).toBeUndefined();
    expect((await t.app.db.prisma.turn.findUniqueOrThrow({ where: { id: left.id } })).status).toBe('INTERRUPTED');
    // another instance's turn with a fresh heartbeat is not ours: CONFLICT as before
    const other = await newSession();
    const [u2] = await t.app.store.append(rawId(other), [{ role: 'user', content: 'x' }]);
    await t.app.db.prisma.turn.create({
      data: {
        sessionId: rawId(other),
        userSequence: u2!.sequenceNumber,
        ownerProcess: 'p',
        ownerInstance: 'someone-else',
      },
    });
    const refused = await t.http(SEND, { input: { sessionId: other, content: 'y' } });
    expect(refused.errors?.[0]?.extensions?.code).toBe('CONFLICT');
  }, 600_000);

  it('recovery of a turn whose final answer was saved ends it COMPLETED with that answer, adding nothing', async () => {
    const sessionId = await newSession();
    const raw = rawId(sessionId);
    const [user] = await t.app.store.append(raw, [{ role: 'user', content: 'q' }]);
    // the state a kill -9 between the final save and the turn's end leaves: partial still set, row RUNNING
    const turn = await t.app.db.prisma.turn.create({
      data: {
        sessionId: raw,
        userSequence: user!.sequenceNumber,
        partialText: 'The wh',
        heartbeatAt: new Date(Date.now() - 60_000),
        ownerProcess: 'dead',
      },
    });
    await t.app.store.append(raw, [{ role: 'assistant', content: 'The whole answer' }]);
    const sub = wsSubscribe(t.url, { sessionId });
    await untilSubscribed(t.http, sessionId, [sub]);
    expect(await t.app.turns.recoverOrphans(5_000)).toBe(1);
    await sub.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'));
    expect(sub.events.filter((e) => e.__typename !== 'SessionRenamed').map(shape)).toEqual(['TurnEnded:COMPLETED']);
    expect(sub.events.at(-1)!.assistantMessage!.content).toBe('The whole answer');
    expect((await t.app.db.prisma.turn.findUniqueOrThrow({ where: { id: turn.id } })).status).toBe('COMPLETED');
    const messages = await t.app.store.allMessages(raw);
    expect(messages.map((m) => m.content)).toEqual(['q', 'The whole answer']);
    await sub.dispose();
  }, 600_000);
});
