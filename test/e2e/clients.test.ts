/**
 * The client libraries docs/api.md "Clients" documents, run against the real
 * server (HTTP, SSE and graphql-ws on real sockets; the LLM faked at its HTTP
 * boundary): each snippet between `// snippet:<name>` and `// end` below is
 * copied verbatim into docs/api.md, and the first test checks that it still is.
 */
import { readFileSync } from 'node:fs';
import { ApolloClient, gql, HttpLink, InMemoryCache, split } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import { Client as UrqlClient, fetchExchange } from '@urql/core';
import { GraphQLClient } from 'graphql-request';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient, type Sink } from 'graphql-ws';
import {
  Environment,
  Network,
  Observable,
  RecordSource,
  Store,
  type FetchFunction,
  type GraphQLResponse,
  type SubscribeFunction,
} from 'relay-runtime';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { ClientsHistoryDocument, type ClientsSessionsQuery } from '../generated/graphql.js';
import { createTestServer, type ServerContext } from '../support/harness.js';

const TIMEOUT = 60_000;
// Starting a server migrates a fresh database: slow on PGlite when the machine is loaded.
const SETUP_TIMEOUT = 180_000;

// snippet:documents
const SESSIONS = /* GraphQL */ `
  query Sessions {
    sessions(first: 10) { edges { node { id name } } }
  }
`;
const CREATE_SESSION = /* GraphQL */ `
  mutation CreateSession {
    createSession(input: {}) { id }
  }
`;
const SEND_MESSAGE = /* GraphQL */ `
  mutation SendMessage($input: SendMessageInput!) {
    sendMessage(input: $input) { turn { id status } }
  }
`;
// `after: "0"` replays the session's log from its start: nothing is missed
// between subscribing and the turn's first event.
const SESSION_EVENTS = /* GraphQL */ `
  subscription SessionEvents($sessionId: ID!, $after: String) {
    sessionEvents(sessionId: $sessionId, after: $after) {
      __typename
      eventId
      ... on TextDelta { text }
      ... on TurnEnded { turn { id status } }
      ... on TurnFailed { code errorMessage: message }
    }
  }
`;
// The results, as these documents select them.
interface SessionsData {
  sessions: { edges: { node: { id: string; name: string | null } }[] };
}
interface CreateSessionData {
  createSession: { id: string };
}
interface SendMessageData {
  sendMessage: { turn: { id: string; status: string } };
}
interface SessionEvent {
  __typename: string;
  eventId: string;
  text?: string;
  turn?: { id: string; status: string };
  code?: string;
  errorMessage?: string;
}
interface SessionEventsData {
  sessionEvents: SessionEvent;
}
// end

// snippet:apollo
function createApollo(url: string, token: string) {
  const http = new HttpLink({ uri: url, headers: { authorization: `Bearer ${token}` } });
  const ws = new GraphQLWsLink(
    createWsClient({
      url: url.replace(/^http/, 'ws'),
      connectionParams: { authorization: `Bearer ${token}` },
      webSocketImpl: WebSocket, // Node only: browsers have a global WebSocket
    }),
  );
  const isSubscription = ({ query }: { query: Parameters<typeof getMainDefinition>[0] }) => {
    const definition = getMainDefinition(query);
    return definition.kind === 'OperationDefinition' && definition.operation === 'subscription';
  };
  return new ApolloClient({ link: split(isSubscription, ws, http), cache: new InMemoryCache() });
}
// end

// snippet:apollo-usage
async function apolloTurn(client: ApolloClient, text: string) {
  const { data: list } = await client.query<SessionsData>({ query: gql(SESSIONS), fetchPolicy: 'network-only' });
  const { data: created } = await client.mutate<CreateSessionData>({ mutation: gql(CREATE_SESSION) });
  const sessionId = created!.createSession.id;
  const events: SessionEvent[] = [];
  const done = new Promise<void>((resolve, reject) => {
    const subscription = client
      .subscribe<SessionEventsData>({
        query: gql(SESSION_EVENTS),
        variables: { sessionId, after: '0' },
        fetchPolicy: 'no-cache',
      })
      .subscribe({
        next: ({ data, error }) => {
          if (error) return reject(error);
          events.push(data!.sessionEvents);
          if (['TurnEnded', 'TurnFailed'].includes(data!.sessionEvents.__typename)) {
            subscription.unsubscribe();
            resolve();
          }
        },
        error: reject,
      });
  });
  await client.mutate({ mutation: gql(SEND_MESSAGE), variables: { input: { sessionId, content: text } } });
  await done;
  return { list, sessionId, events };
}
// end

// snippet:sse
function createSse(url: string, token: string) {
  // Distinct connections mode (graphql-sse's default): each operation is its
  // own POST with `Accept: text/event-stream`, which Yoga answers as SSE.
  return createSseClient({ url, headers: { authorization: `Bearer ${token}` } });
}

async function sseTurn(client: ReturnType<typeof createSse>, text: string) {
  const first = async <D>(query: string, variables?: Record<string, unknown>) => {
    for await (const result of client.iterate<D>({ query, variables })) return result;
    throw new Error('no result');
  };
  const list = await first<SessionsData>(SESSIONS);
  const sessionId = (await first<CreateSessionData>(CREATE_SESSION)).data!.createSession.id;
  const events: SessionEvent[] = [];
  const stream = client.iterate<SessionEventsData>({ query: SESSION_EVENTS, variables: { sessionId, after: '0' } });
  const sent = first<SendMessageData>(SEND_MESSAGE, { input: { sessionId, content: text } });
  for await (const { data } of stream) {
    events.push(data!.sessionEvents);
    if (['TurnEnded', 'TurnFailed'].includes(data!.sessionEvents.__typename)) break; // ends the request
  }
  return { list, sent: await sent, sessionId, events };
}
// end

// snippet:urql
function createUrql(url: string, token: string) {
  return new UrqlClient({
    url,
    exchanges: [fetchExchange],
    preferGetMethod: false, // queries as JSON POST; or keep GET and send the x-graphql-yoga-csrf header
    fetchOptions: { headers: { authorization: `Bearer ${token}` } },
  });
}
// end

// snippet:urql-get
function createUrqlGet(url: string) {
  // urql's default: queries as GET. Without auth, a GET needs the CSRF header.
  return new UrqlClient({ url, exchanges: [fetchExchange], fetchOptions: { headers: { 'x-graphql-yoga-csrf': '1' } } });
}
// end

// snippet:graphql-request
function createRequestClient(url: string, token: string) {
  return new GraphQLClient(url, { headers: { authorization: `Bearer ${token}` } });
}
// end

// snippet:relay
function createRelayEnvironment(url: string, token: string) {
  const ws = createWsClient({
    url: url.replace(/^http/, 'ws'),
    connectionParams: { authorization: `Bearer ${token}` },
    webSocketImpl: WebSocket,
  });
  const fetchFn: FetchFunction = async (operation, variables) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ operationName: operation.name, query: operation.text, variables }),
    });
    return response.json();
  };
  const subscribeFn: SubscribeFunction = (operation, variables) =>
    Observable.create((sink) =>
      ws.subscribe({ operationName: operation.name, query: operation.text!, variables }, sink as Sink),
    );
  return new Environment({ network: Network.create(fetchFn, subscribeFn), store: new Store(new RecordSource()) });
}
// end

let t: ServerContext;
let key: string;
let url: string;
beforeAll(async () => {
  t = await createTestServer({ authEnabled: true, titleGenerationEnabled: false });
  key = (await t.app.auth.createUser('client-user')).key;
  url = `${t.url}/graphql`;
}, SETUP_TIMEOUT);
afterAll(() => t?.close(), SETUP_TIMEOUT);

const textOf = (events: SessionEvent[]) =>
  events
    .filter((e) => e.__typename === 'TextDelta')
    .map((e) => e.text)
    .join('');
const lastOf = (events: SessionEvent[]) => events.at(-1);
/** The data of a Relay response (one result, not a batch). */
const dataOf = <D>(response: GraphQLResponse | undefined) => (response as { data: D }).data;

describe('client libraries (docs/api.md "Clients")', () => {
  it('SessionsData is what codegen makes of the same selection (schema.graphql)', () => {
    expectTypeOf<ClientsSessionsQuery>().toExtend<SessionsData>();
  });

  it('docs/api.md shows every snippet exactly as this file runs it', () => {
    const source = readFileSync(new URL(import.meta.url), 'utf8');
    const docs = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const snippets = [...source.matchAll(/^\/\/ snippet:([\w-]+)\n([\s\S]*?)^\/\/ end$/gm)];
    expect(snippets.map((m) => m[1])).toEqual([
      'documents',
      'apollo',
      'apollo-usage',
      'sse',
      'urql',
      'urql-get',
      'graphql-request',
      'relay',
    ]);
    for (const [, name, code] of snippets)
      expect(docs.includes(code!.trimEnd()), `snippet "${name}" differs in docs/api.md`).toBe(true);
  });

  it('Apollo Client: query and mutation over HTTP, a streamed turn over GraphQLWsLink', {
    timeout: TIMEOUT,
  }, async () => {
    t.fake.enqueue({ text: ['apollo ', 'streams'], chunkDelayMs: 20 });
    const client = createApollo(url, key);
    try {
      const { list, sessionId, events } = await apolloTurn(client, 'hello apollo');
      expect(Array.isArray(list!.sessions.edges)).toBe(true);
      expect(events[0].__typename === 'EventsReset' ? events[1].__typename : events[0].__typename).toBe('TurnStarted');
      expect(textOf(events)).toBe('apollo streams');
      expect(lastOf(events)).toMatchObject({ __typename: 'TurnEnded', turn: { status: 'COMPLETED' } });
      const { data } = await client.query<SessionsData>({ query: gql(SESSIONS), fetchPolicy: 'network-only' });
      expect(data!.sessions.edges.map((e) => e.node.id)).toContain(sessionId);
    } finally {
      client.stop();
    }
  });

  it('graphql-sse (distinct connections): query, mutation and a streamed turn over SSE', {
    timeout: TIMEOUT,
  }, async () => {
    t.fake.enqueue({ text: ['sse ', 'streams'], chunkDelayMs: 20 });
    const client = createSse(url, key);
    try {
      const { list, sent, sessionId, events } = await sseTurn(client, 'hello sse');
      expect(list.errors).toBeUndefined();
      expect(Array.isArray(list.data!.sessions.edges)).toBe(true);
      expect(sent.data!.sendMessage.turn.id).toBeTruthy();
      expect(textOf(events)).toBe('sse streams');
      expect(lastOf(events)).toMatchObject({ __typename: 'TurnEnded', turn: { status: 'COMPLETED' } });
      const again = await t.http(ClientsHistoryDocument, { id: sessionId }, key);
      expect(again.data!.session!.history.edges.map((e) => e.node)).toEqual([
        { role: 'USER', content: 'hello sse' },
        { role: 'ASSISTANT', content: 'sse streams' },
      ]);
    } finally {
      client.dispose();
    }
  });

  it("graphql-sse's single connection mode is not served (no " +
    'reservation endpoint): the client fails, it does not hang', {
    timeout: TIMEOUT,
  }, async () => {
    const single = createSseClient({
      url,
      headers: { authorization: `Bearer ${key}` },
      singleConnection: true,
      retryAttempts: 0,
    });
    try {
      const run = async () => {
        for await (const result of single.iterate({ query: SESSIONS })) return result;
      };
      const error = await run().then(
        () => null,
        (e: unknown) => e,
      );
      expect(String((error as { response?: Response })?.response?.status ?? error)).toBe('405');
    } finally {
      single.dispose();
    }
  });

  it('urql (POST) and graphql-request: query and mutation', { timeout: TIMEOUT }, async () => {
    const urql = createUrql(url, key);
    const created = await urql.mutation<CreateSessionData>(CREATE_SESSION, {}).toPromise();
    expect(created.error).toBeUndefined();
    const listed = await urql.query<SessionsData>(SESSIONS, {}, { requestPolicy: 'network-only' }).toPromise();
    expect(listed.error).toBeUndefined();
    expect(listed.data!.sessions.edges.map((e) => e.node.id)).toContain(created.data!.createSession.id);

    const request = createRequestClient(url, key);
    const made = await request.request<CreateSessionData>(CREATE_SESSION);
    const list = await request.request<SessionsData>(SESSIONS);
    expect(list.sessions.edges.map((e) => e.node.id)).toContain(made.createSession.id);
  });

  it('Relay network layer: fetchFn for a query, subscribeFn over graphql-ws for a streamed turn', {
    timeout: TIMEOUT,
  }, async () => {
    t.fake.enqueue({ text: ['relay ', 'streams'], chunkDelayMs: 20 });
    const network = createRelayEnvironment(url, key).getNetwork();
    const params = (name: string, operationKind: 'query' | 'mutation' | 'subscription', text: string) =>
      ({ id: null, cacheID: name, name, operationKind, text, metadata: {} }) as const;
    const list = await network.execute(params('Sessions', 'query', SESSIONS), {}, {}).toPromise();
    expect(Array.isArray(dataOf<SessionsData>(list).sessions.edges)).toBe(true);
    const created = await network.execute(params('CreateSession', 'mutation', CREATE_SESSION), {}, {}).toPromise();
    const sessionId = dataOf<CreateSessionData>(created).createSession.id;
    const events: SessionEvent[] = [];
    const done = new Promise<void>((resolve, reject) => {
      const subscription = network
        .execute(params('SessionEvents', 'subscription', SESSION_EVENTS), { sessionId, after: '0' }, {})
        .subscribe({
          next: (result) => {
            const { sessionEvents } = dataOf<SessionEventsData>(result);
            events.push(sessionEvents);
            if (['TurnEnded', 'TurnFailed'].includes(sessionEvents.__typename)) {
              subscription.unsubscribe();
              resolve();
            }
          },
          error: reject,
        });
    });
    await network
      .execute(params('SendMessage', 'mutation', SEND_MESSAGE), { input: { sessionId, content: 'hello relay' } }, {})
      .toPromise();
    await done;
    expect(textOf(events)).toBe('relay streams');
    expect(lastOf(events)).toMatchObject({ __typename: 'TurnEnded', turn: { status: 'COMPLETED' } });
  });
});

describe('urql GET and the CSRF header (auth off)', () => {
  let open: ServerContext;
  beforeAll(async () => {
    open = await createTestServer({ authEnabled: false, titleGenerationEnabled: false });
  }, SETUP_TIMEOUT);
  afterAll(() => open?.close(), SETUP_TIMEOUT);

  it("urql's default GET is refused without the header and served with it", { timeout: TIMEOUT }, async () => {
    const bare = new UrqlClient({ url: `${open.url}/graphql`, exchanges: [fetchExchange] });
    const refused = await bare.query<SessionsData>(SESSIONS, {}).toPromise();
    expect(refused.error?.graphQLErrors[0]?.extensions.code).toBe('CSRF_HEADER_REQUIRED');
    expect(refused.error?.response?.status).toBe(403);
    const withHeader = await createUrqlGet(`${open.url}/graphql`).query<SessionsData>(SESSIONS, {}).toPromise();
    expect(withHeader.error).toBeUndefined();
    expect(Array.isArray(withHeader.data!.sessions.edges)).toBe(true);
  });
});
