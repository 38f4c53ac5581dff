/**
 * Shared by the resume tests (test/faults-resume.test.ts in process, test/slow/faults-resume.test.ts across kill -9
 * and restarts of a real server): the event stream they resume, subscriptions over graphql-ws and SSE that record
 * what they got, and stores for child servers.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import {
  FaultsResumeEventsDocument,
  type FaultsResumeEventsSubscriptionVariables,
  FaultsResumeRenameDocument,
} from '../generated/graphql.js';
import { migratedDataDir, serverUrl } from './databases.js';
import { createServerDatabase } from './durability.js';
import type { FakeProvider } from './fake-provider.js';
import { queryText, type SendGql } from './harness.js';
import { randomBytes } from 'node:crypto';

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

/** A message's metadata (JSON): the flags the resume tests read. */
export const metadataOf = (node: { metadata: unknown }) => node.metadata as { interrupted?: boolean };

/** A fresh store for one child server family: a temp DATA_DIR, or a fresh database on TEST_DATABASE_URL. */
export async function freshStore(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'faults-resume-'));
  const files = { SESSION_FILES_DIR: join(dir, 'files') };
  if (!serverUrl) {
    // Written from a migrated dump: the child server neither initialises a cluster nor migrates.
    const dataDir = await migratedDataDir(join(dir, 'data'));
    return { env: { DATA_DIR: dataDir, ...files }, drop: () => rm(dir, { recursive: true, force: true }) };
  }
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
export function waitable(events: ResumeEvent[], waiters: Set<() => void>, describe: () => string) {
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

export const childEnv = (fake: FakeProvider, store: { env: Record<string, string> }) => ({
  OLLAMA_HOST: fake.url,
  PARTIAL_FLUSH_MS: '100',
  PROVIDER_TIMEOUT_MS: '120000',
  ...store.env,
});

/** An SSE subscription read as text: its events, whether `event: complete` came, and when the stream ended. */
export function sseSubscribe(url: string, variables: FaultsResumeEventsSubscriptionVariables) {
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
export function slowRequest(url: string, body: string) {
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
