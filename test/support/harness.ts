/**
 * Test harness: a real database (in-memory PGlite by default; a database
 * on the server from TEST_DATABASE_URL; see databases.ts), the real app, and GraphQL
 * in-process through yoga.fetch or over a real HTTP server.
 */
import { createRequire } from 'node:module';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { createApp, type App, type AppOptions } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createGraphQLHandler } from '../../src/server.js';
import { createTestDatabase, serverUrl, type TestDatabase, type TestDatabaseOptions } from './databases.js';
import { SessionEventsDocument, type SessionEventsSubscription } from '../generated/graphql.js';

export { serverUrl };
export const dbKind = serverUrl ? 'postgres' : 'pglite';
export { createTestDatabase, type TestDatabase, type TestDatabaseOptions };

export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(
    {},
    {
      // TEST_LOG_LEVEL=error shows the server's logs of a failing test (docs/testing.md).
      logLevel: (process.env.TEST_LOG_LEVEL as Config['logLevel'] | undefined) ?? 'silent',
      port: 0,
      sessionFilesDir: `/tmp/chat-test-files-${process.pid}`,
      ...overrides,
    },
  );
}

/**
 * Sends one GraphQL operation: a generated typed document (test/generated,
 * from test/operations; `npm run codegen`), whose variables and result are
 * typed by it, or a query string (only for text a test sends on purpose: a
 * bad document, a raw transport body), whose result is `unknown` unless the
 * test names its shape.
 */
export interface SendGql {
  <R, V extends Record<string, unknown>>(
    document: TypedDocumentNode<R, V>,
    variables: V,
    token?: string,
  ): Promise<GqlResult<R>>;
  <T = unknown>(query: string, variables?: Record<string, unknown>, token?: string): Promise<GqlResult<T>>;
}

/**
 * graphql as Pothos loads it (CommonJS): under vitest a plain `import` gets
 * the ESM build, a second copy of the module.
 */
const { print } = createRequire(import.meta.url)('graphql') as typeof import('graphql');
const printed = new WeakMap<TypedDocumentNode<unknown, never>, string>();
/** The text of a query string or a typed document. */
export function queryText(query: string | TypedDocumentNode<unknown, never>): string {
  if (typeof query === 'string') return query;
  let text = printed.get(query);
  if (text === undefined) printed.set(query, (text = print(query)));
  return text;
}

export interface TestContext {
  app: App;
  gql: SendGql;
  close(): Promise<void>;
}

export interface GqlResult<T> {
  data?: T;
  errors?: { message: string; extensions?: { code?: string }; path?: unknown[] }[];
}

/** A SendGql over the app's GraphQL handler, in process (no socket). */
export function gqlFor(app: App): SendGql {
  const yoga = createGraphQLHandler(app);
  return async (
    query: string | TypedDocumentNode<unknown, never>,
    variables: Record<string, unknown> = {},
    token?: string,
  ) => {
    const response = await yoga.fetch('http://test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query: queryText(query), variables }),
    });
    return (await response.json()) as GqlResult<never>;
  };
}

export async function createTestApp(
  overrides: Partial<Config> = {},
  options: Parameters<typeof createTestDatabase>[0] = {},
  appOptions: Omit<AppOptions, 'db'> = {},
): Promise<TestContext> {
  const { db, drop } = await createTestDatabase(options);
  const app = await createApp(testConfig(overrides), { ...appOptions, db });
  const gql = gqlFor(app);
  return {
    app,
    gql,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

/** The first error code, for terse assertions. */
export const codeOf = (result: GqlResult<unknown>) => result.errors?.[0]?.extensions?.code;

import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startServer } from '../../src/server.js';
import { appRoutes } from '../../src/routes.js';
import { startFakeProvider, type FakeProvider } from './fake-provider.js';

export interface ServerContext extends TestContext {
  url: string;
  wsUrl: string;
  fake: FakeProvider;
  /** GraphQL over real HTTP */
  http: SendGql;
  ws(token?: string): Client;
  subscribe: Subscribe;
  /**
   * Resolves once the server holds `count` live listeners for the
   * session (or 'list' for sessionListEvents): see `watchListeners`.
   */
  listening(sessionId: string, count?: number, timeoutMs?: number): Promise<void>;
  /** the live listeners now (same keys as `listening`) */
  listenerCount(sessionId: string): number;
  /**
   * What SIGTERM does to `npm start` (src/main.ts): stop listening, answer the requests in flight, end the running
   * turns (their subscribers get the ending), then end every subscription. `close()` still cleans up after it.
   */
  shutdown(graceMs?: number): Promise<void>;
}

/**
 * Opens a subscription over WebSocket. With a typed document each event is
 * typed as the value of its root field (what `events` collects).
 */
export interface Subscribe {
  <R, V extends Record<string, unknown>>(
    document: TypedDocumentNode<R, V>,
    variables: V,
    token?: string,
  ): Subscription<R[keyof R]>;
  (query: string, variables: Record<string, unknown>, token?: string): Subscription;
}

export interface Subscription<E = unknown> {
  events: E[];
  errors: unknown[];
  waitFor(predicate: (events: E[]) => boolean, timeoutMs?: number): Promise<E[]>;
  dispose(): void;
  client: Client;
}

export async function createTestServer(
  overrides: Partial<Config> = {},
  options: Parameters<typeof createTestDatabase>[0] = {},
  appOptions: Omit<AppOptions, 'db'> = {},
): Promise<ServerContext> {
  const fake = await startFakeProvider();
  // providerTimeoutMs bounds a hang only: a test holding the fake's first chunk for longer than it on a loaded machine
  // would see the call retried (and the next script taken) instead of its held reply.
  const base = await createTestApp(
    {
      ollamaHost: fake.url,
      openaiBaseUrl: `${fake.url}/v1`,
      anthropicBaseUrl: fake.url,
      providerTimeoutMs: 60_000,
      partialFlushMs: 100,
      // Two in-process servers share one event loop on a loaded machine: neither takes the other's live turn for a
      // dead one. The default clock is proven across real processes (test/slow/turn-recovery.test.ts).
      turnStaleMs: 10_000,
      ...overrides,
    },
    options,
    appOptions,
  );
  const listeners = watchListeners(base.app);
  const running = await startServer(base.app, { routes: appRoutes(base.app) });
  await base.app.start?.();
  const url = running.url;
  let serverClosed = false;
  const wsUrl = `${url.replace('http', 'ws')}/graphql`;
  const clients: Client[] = [];
  const http: SendGql = async (
    query: string | TypedDocumentNode<unknown, never>,
    variables: Record<string, unknown> = {},
    token?: string,
  ) => {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query: queryText(query), variables }),
    });
    return (await response.json()) as GqlResult<never>;
  };
  const ws = (token?: string) => {
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: token ? { authorization: `Bearer ${token}` } : {},
      // Only the server's 3 s wait for connection_init is retried: server and client share one event loop here, and a
      // busy loop (a large PGlite write on a loaded machine) can run that timer first. Nothing was delivered before it.
      retryAttempts: 3,
      shouldRetry: (e) => (e as { code?: number } | null)?.code === 4408,
      lazy: true,
    });
    clients.push(client);
    return client;
  };
  const subscribe: Subscribe = (
    query: string | TypedDocumentNode<unknown, never>,
    variables: Record<string, unknown>,
    token?: string,
  ): Subscription => {
    const client = ws(token);
    const events: unknown[] = [];
    const errors: unknown[] = [];
    let notify = () => undefined as void;
    const dispose = client.subscribe(
      { query: queryText(query), variables },
      {
        next: (value) => {
          if (value.errors) errors.push(...value.errors);
          if (value.data) events.push(Object.values(value.data)[0]);
          notify();
        },
        error: (error) => {
          errors.push(error);
          notify();
        },
        complete: () => undefined,
      },
    );
    const waitFor = (predicate: (events: unknown[]) => boolean, timeoutMs = 60_000) =>
      new Promise<unknown[]>((resolve, reject) => {
        const check = () => {
          if (predicate(events)) {
            resolve(events);
            return true;
          }
          return false;
        };
        if (check()) return;
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `timed out; events: ${JSON.stringify(events.map(typeName)).slice(0, 800)}` +
                  ` errors: ${JSON.stringify(errors.map(described)).slice(0, 400)}`,
              ),
            ),
          timeoutMs,
        );
        notify = () => {
          if (check()) clearTimeout(timer);
        };
      });
    return { events, errors, waitFor, dispose, client };
  };
  return {
    ...base,
    url,
    wsUrl,
    fake,
    http,
    ws,
    subscribe,
    listening: listeners.until,
    listenerCount: listeners.count,
    shutdown: async (graceMs = 30_000) => {
      serverClosed = true;
      await running.close({ graceMs, beforeEnd: () => base.app.turns.shutdown() });
    },
    close: async () => {
      for (const c of clients) await c.dispose();
      if (!serverClosed) await running.close();
      await base.close();
      await fake.stop();
    },
  };
}

/**
 * Counts the event bus's live listeners per session (key: the raw session id;
 * 'list' for the session list), so a test can wait until a subscription is
 * established on the server before it triggers the event it expects, instead
 * of sleeping. A sessionEvents stream registers its listener before it
 * replays `after`, so from then on it misses nothing.
 */
export function watchListeners(app: App): {
  count(key: string): number;
  until(key: string, count?: number, timeoutMs?: number): Promise<void>;
} {
  const bus = app.bus;
  const counts = new Map<string, number>();
  const waiters = new Set<() => void>();
  const bump = (key: string, d: number) => {
    counts.set(key, (counts.get(key) ?? 0) + d);
    for (const w of [...waiters]) w();
  };
  const counted = (key: string, off: () => void) => {
    bump(key, 1);
    let live = true;
    return () => {
      off();
      if (live) bump(key, -1);
      live = false;
    };
  };
  const onSession = bus.onSession.bind(bus);
  const onList = bus.onList.bind(bus);
  bus.onSession = (id, listener) => counted(id, onSession(id, listener));
  bus.onList = (listener) => counted('list', onList(listener));
  const count = (key: string) => counts.get(rawSessionId(key)) ?? 0;
  const until = (key: string, n = 1, timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (count(key) < n) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`listening: ${count(key)} of ${n} listeners for ${key} after ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return { count, until };
}

/** An event as a timeout message lists it: its type name (or itself when it has none). */
const typeName = (e: unknown) => (e as { __typename?: string } | null)?.__typename ?? e;

/** A socket's close event says nothing as JSON: its code and reason do. */
const described = (e: unknown) =>
  e && typeof e === 'object' && 'code' in e && 'reason' in e ? { closeCode: e.code, reason: e.reason } : e;

/** The raw id from a global (base64 "Session:<id>") or raw session id. */
export function rawSessionId(id: string): string {
  if (id === 'list') return id;
  const decoded = Buffer.from(id, 'base64').toString();
  return decoded.startsWith('Session:') ? decoded.slice('Session:'.length) : id;
}

/** Waits until the predicate holds (polling), for state that has no event. */
export async function eventually<T>(
  fn: () => Promise<T>,
  predicate: (value: T) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (predicate(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`eventually: timed out, last value ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** EVENTS_SUBSCRIPTION as a typed document (test/operations/events.graphql): `subscribe` types its events. */
export const SESSION_EVENTS = SessionEventsDocument;
export type SessionEvent = SessionEventsSubscription['sessionEvents'];
export type EventOf<N extends SessionEvent['__typename']> = Extract<SessionEvent, { __typename: N }>;
/** A type guard for `filter`, `find`, `some`: the events of the given types. */
export const isEvent =
  <N extends SessionEvent['__typename']>(...names: N[]) =>
  (e: SessionEvent): e is EventOf<N> =>
    (names as string[]).includes(e.__typename);

export const EVENTS_SUBSCRIPTION = `subscription($sessionId: ID!, $after: String) {
  sessionEvents(sessionId: $sessionId, after: $after) {
    __typename eventId at
    ... on TurnStarted { turn { id status } userMessage { content role isDisplay } }
    ... on TextDelta { turnId text }
    ... on ThinkingDelta { turnId text }
    ... on ToolCallRequested { turnId clientSide toolCall { id name arguments } }
    ... on MessageSaved {
      savedTurnId: turnId
      message {
        sequenceNumber role content thinking isDisplay isContext toolCalls { id name } toolCallId metadata isAgentNote
      }
    }
    ... on TurnEnded {
      turn { id status } assistantMessage { content } usage { promptTokens completionTokens totalTokens }
    }
    ... on TurnFailed { turn { id status } code errorMessage: message }
    ... on SessionRenamed { name titleSource }
    ... on CompressionStarted { contextTokens maxContextTokens }
    ... on ContextCompressed {
      reason strategy summary messagesBefore messagesAfter contextTokens maxContextTokens
      receipt { found reAppended dropped }
    }
  }
}`;
