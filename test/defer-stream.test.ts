/**
 * `@defer` and `@stream` (@graphql-yoga/plugin-defer-stream; graphql 16 runs
 * them through Yoga's own executor): a session's history deferred arrives as
 * an incremental payload after the session's fields, with Apollo Client 4
 * (multipart HTTP) and raw multipart/mixed; a session list streamed with
 * `@stream(initialCount)` arrives in chunks, in order; the request limits and
 * error masking hold inside deferred fragments and over graphql-ws.
 */
import { ApolloClient, gql, HttpLink, InMemoryCache, type ObservableQuery } from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeferStreamSessionsDocument } from './generated/graphql.js';
import { createTestServer, dbKind, type ServerContext } from './support/harness.js';

let t: ServerContext;
let sessionId: string;
let listed: string[];
const gid = (id: string) => Buffer.from(`Session:${id}`).toString('base64');

interface Edge<N> {
  node: N;
}
interface GqlError {
  message: string;
  extensions: { code: string };
}
interface SessionsData {
  sessions: { edges: Edge<{ id: string }>[] };
}
interface HistoryEdge {
  displayIndex: number;
  node: { role: string; content: string };
}
interface DeferredData {
  session: { id: string; name: string; history?: { edges: HistoryEdge[] } };
}
/** One incremental payload: a deferred fragment's `data` or a streamed list's `items`. */
interface Incremental {
  data?: unknown;
  items?: unknown[];
  errors?: GqlError[];
  path: (string | number)[];
  label?: string;
}
/** One payload of an incremental response (multipart, SSE or graphql-ws). */
interface Payload<D> {
  data?: D;
  errors?: GqlError[];
  hasNext?: boolean;
  incremental?: Incremental[];
}

beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false });
  const profile = await t.app.profiles.default();
  const s = await t.app.store.create({ profileId: profile.id, userId: 'anonymous', name: 'deferred' });
  await t.app.store.append(
    s.id,
    Array.from({ length: 6 }, (_, i) => ({
      role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant',
      content: `message ${i}`,
    })),
  );
  sessionId = gid(s.id);
  for (let i = 0; i < 4; i++) await t.app.store.create({ profileId: profile.id, userId: 'anonymous', name: `s${i}` });
  const all = await t.http(DeferStreamSessionsDocument, {});
  listed = all.data!.sessions.edges.map((e) => e.node.id);
});
afterAll(() => t?.close());

/**
 * The documents with @defer or @stream stay text: the schema the operations are validated against (buildSchema,
 * test/codegen.test.ts) does not define those directives (the Yoga plugin adds them); their results are typed above.
 */
const DEFERRED_HISTORY = `query Deferred($id: ID!) {
  session(id: $id) {
    id name
    ... @defer(label: "history") { history(last: 4) { edges { displayIndex node { role content } } } }
  }
}`;

/** The parts of a multipart/mixed response, each a parsed JSON payload. */
async function multipart<D>(query: string, variables: Record<string, unknown> = {}): Promise<Payload<D>[]> {
  const response = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'multipart/mixed; deferSpec=20220824, application/json' },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed/);
  const boundary = /boundary="?([^";]+)"?/.exec(response.headers.get('content-type')!)![1]!;
  const text = await response.text();
  return text
    .split(`--${boundary}`)
    .map((part) => part.split('\r\n\r\n').slice(1).join('\r\n\r\n').trim())
    .filter((body) => body.startsWith('{'))
    .map((body) => JSON.parse(body) as Payload<D>);
}

const history = [
  { displayIndex: 2, node: { role: 'USER', content: 'message 2' } },
  { displayIndex: 3, node: { role: 'ASSISTANT', content: 'message 3' } },
  { displayIndex: 4, node: { role: 'USER', content: 'message 4' } },
  { displayIndex: 5, node: { role: 'ASSISTANT', content: 'message 5' } },
];

describe(`@defer / @stream (${dbKind})`, () => {
  it('defers a session history: the session first, the history as an incremental payload', async () => {
    const parts = await multipart<DeferredData>(DEFERRED_HISTORY, { id: sessionId });
    expect(parts[0]).toEqual({ data: { session: { id: sessionId, name: 'deferred' } }, hasNext: true });
    const incremental = parts.slice(1).flatMap((p) => p.incremental ?? []);
    expect(incremental).toEqual([{ data: { history: { edges: history } }, path: ['session'], label: 'history' }]);
    expect(parts.at(-1)!.hasNext).toBe(false);
  });

  it('delivers the deferred history to Apollo Client 4 over multipart HTTP', async () => {
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${t.url}/graphql` }),
      cache: new InMemoryCache(),
      incrementalHandler: new Defer20220824Handler(),
    });
    const results: ObservableQuery.Result<DeferredData>[] = [];
    await new Promise<void>((resolve, reject) => {
      const subscription = client
        .watchQuery<DeferredData>({
          query: gql(DEFERRED_HISTORY),
          variables: { id: sessionId },
          fetchPolicy: 'network-only',
        })
        .subscribe({
          next: (result) => {
            if (result.error) return reject(result.error);
            if (result.loading && !result.data) return;
            results.push(result);
            if (result.dataState === 'complete') {
              subscription.unsubscribe();
              resolve();
            }
          },
          error: reject,
        });
    });
    const last = results.at(-1)!;
    if (last.dataState !== 'complete') throw new Error(`the last result is ${last.dataState}`);
    expect(last.data.session).toMatchObject({ id: sessionId, name: 'deferred' });
    expect(last.data.session.history!.edges.map((e) => e.node.content)).toEqual(history.map((e) => e.node.content));
    client.stop();
  });

  it('streams a session list in chunks, in order', async () => {
    const parts = await multipart<SessionsData>(
      `{ sessions(first: 50) { edges @stream(initialCount: 2) { node { id } } } }`,
    );
    expect(parts[0].data!.sessions.edges).toHaveLength(2);
    expect(parts[0].hasNext).toBe(true);
    const streamed = parts
      .slice(1)
      .flatMap((p) => (p.incremental ?? []).flatMap((i) => (i.items ?? []) as Edge<{ id: string }>[]));
    expect(parts.length).toBeGreaterThan(1);
    expect([...parts[0].data!.sessions.edges, ...streamed].map((e) => e.node.id)).toEqual(listed);
    expect(listed.length).toBeGreaterThanOrEqual(5);
  });

  it('masks errors inside a deferred fragment (a contract code, never internals)', async () => {
    const parts = await multipart<DeferredData>(
      `query($id: ID!) { session(id: $id) { id ... @defer { history(last: 201) { edges { cursor } } } } }`,
      { id: sessionId },
    );
    const errors = parts.flatMap((p) => (p.incremental ?? []).flatMap((i) => i.errors ?? []));
    expect(errors).toHaveLength(1);
    expect(errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it("keeps the request limits (directives count) and the plugin's rules (@stream only on lists)", async () => {
    const fragments = Array.from({ length: 21 }, (_, i) => `... @defer(label: "d${i}") { name }`).join(' ');
    const many = `query($id: ID!) { session(id: $id) { id ${fragments} } }`;
    expect((await t.http(many, { id: sessionId })).errors?.[0]?.extensions?.code).toBe('TOO_MANY_DIRECTIVES');
    const streamOnObject = `{ viewer @stream { authEnabled } }`;
    expect((await t.http(streamOnObject)).errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('answers a deferred query over SSE as several events', async () => {
    const response = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: DEFERRED_HISTORY, variables: { id: sessionId } }),
    });
    const events = [...(await response.text()).matchAll(/^data: (.+)$/gm)].map(
      (m) => JSON.parse(m[1]!) as Payload<DeferredData>,
    );
    expect(events[0]).toMatchObject({ data: { session: { id: sessionId, name: 'deferred' } }, hasNext: true });
    expect(events.flatMap((e) => e.incremental ?? [])).toEqual([
      { data: { history: { edges: history } }, path: ['session'], label: 'history' },
    ]);
  });

  it('answers a deferred query over graphql-ws as several results', async () => {
    const results: Payload<DeferredData>[] = [];
    await new Promise<void>((resolve, reject) =>
      t
        .ws()
        .subscribe(
          { query: DEFERRED_HISTORY, variables: { id: sessionId } },
          { next: (value) => results.push(value as Payload<DeferredData>), error: reject, complete: resolve },
        ),
    );
    expect(results[0]).toMatchObject({ data: { session: { id: sessionId, name: 'deferred' } }, hasNext: true });
    expect(results.flatMap((r) => r.incremental ?? [])).toEqual([
      { data: { history: { edges: history } }, path: ['session'], label: 'history' },
    ]);
  });
});
