/**
 * Over graphql-ws a bad operation fails only its own id: a syntax error and
 * an over-cost query on a socket that carries a live subscription each get
 * an `error` message with a code; the socket stays open and the live
 * subscription keeps receiving events.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import {
  WsErrorsCreateSessionDocument,
  WsErrorsLiveDocument,
  type WsErrorsLiveSubscription,
  WsErrorsRenameDocument,
} from './generated/graphql.js';
import { createTestServer, queryText, type ServerContext } from './support/harness.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer();
}, 180_000);
afterAll(() => t?.close());

const LIVE = queryText(WsErrorsLiveDocument);

it('a syntax error and an over-cost operation fail alone; the socket and its live subscription live on', async () => {
  const { data } = await t.gql(WsErrorsCreateSessionDocument, {});
  const id = data!.createSession.id;
  let closed: unknown = null;
  let opened = 0;
  const client = createClient({
    url: t.wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    on: { connected: () => void opened++, closed: (event) => void (closed = event) },
  });
  try {
    const events: { __typename: string; name?: string }[] = [];
    let onEvent = () => undefined as void;
    const acknowledged = new Promise<void>((resolve) => client.on('connected', () => resolve()));
    client.subscribe(
      { query: LIVE, variables: { id } },
      {
        next: (value) => {
          if (value.data) events.push((value.data as WsErrorsLiveSubscription).sessionEvents);
          onEvent();
        },
        error: () => undefined,
        complete: () => undefined,
      },
    );
    await acknowledged;

    const failure = (query: string) =>
      new Promise<unknown>((resolve) => {
        client.subscribe(
          { query },
          {
            next: (value) => resolve(value.errors),
            error: resolve,
            complete: () => resolve('completed without an error'),
          },
        );
      });
    const syntax = (await failure('subscription { sessionEvents(')) as { extensions?: { code?: string } }[];
    const costly = (await failure('{ sessions(first: 100000) { totalCount } }')) as {
      extensions?: { code?: string };
    }[];
    expect(Array.isArray(syntax) && syntax[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(Array.isArray(costly) && costly[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');

    // The live subscription's start is not acknowledged by the protocol: the server's listener tells.
    const renamed = new Promise<void>((resolve) => {
      onEvent = () => {
        if (events.some((e) => e.__typename === 'SessionRenamed')) resolve();
      };
    });
    await t.listening(id);
    await t.gql(WsErrorsRenameDocument, { id, n: 'after the errors' });
    await renamed;
    expect(closed).toBeNull();
    expect(opened).toBe(1);
  } finally {
    await client.dispose();
  }
}, 180_000);
