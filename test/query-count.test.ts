/**
 * Statements per sessions list page: the page itself (count, rows, previews)
 * is one statement, and Session.owner loads once per page, not once per
 * session. Prisma operations are counted with a `$extends` hook (users
 * table apart), raw-driver statements by wrapping `db.raw.query`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import type { Database } from '../src/db/client.js';
import { createGraphQLHandler } from '../src/server.js';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  QueryCountCreateSessionDocument,
  QueryCountForeignDocument,
  QueryCountHistoryDocument,
  QueryCountHistoryEveryFieldDocument,
  QueryCountHistoryEveryFieldFragmentDocument,
  QueryCountHistoryEveryFieldWithProfileDocument,
  QueryCountHistoryTwoFieldsDocument,
  type QueryCountHistoryQueryVariables,
  QueryCountHistoryWithProfileDocument,
  QueryCountOwnersDocument,
  QueryCountPageDocument,
  QueryCountPageWithOwnerDocument,
  QueryCountViewerDocument,
} from './generated/graphql.js';
import { createTestDatabase, type GqlResult, queryText, testConfig } from './support/harness.js';

let app: App;
let drop: () => Promise<void>;
let userQueries = 0;
/** Prisma operations (any model but ApiKey, raw SQL included) plus raw-driver statements */
let statements = 0;
/** the SQL text of every raw-driver statement, in order */
const rawSql: string[] = [];
let yoga: ReturnType<typeof createGraphQLHandler>;
let gql: <R, V extends Record<string, unknown>>(
  document: TypedDocumentNode<R, V>,
  variables: V,
  token: string,
) => Promise<GqlResult<R>>;

beforeAll(async () => {
  const opened = await createTestDatabase();
  drop = opened.drop;
  const counted = opened.db.prisma.$extends({
    query: {
      $allOperations: ({ args, query, model }) => {
        // The bearer key's lookup is authentication (one per request, whatever it asks), not the page.
        if (model !== 'ApiKey') statements++;
        return query(args);
      },
      // Prisma's raw statements (the ordinary history page's displayRange): not seen by `$allOperations`.
      $queryRawUnsafe: ({ args, query }) => {
        statements++;
        return query(args);
      },
      user: {
        $allOperations: ({ args, query }) => {
          userQueries++;
          return query(args);
        },
      },
    },
  });
  const rawQuery = opened.db.raw.query.bind(opened.db.raw);
  const raw = {
    ...opened.db.raw,
    query: (sql: string, params?: unknown[], options?: unknown) => {
      statements++;
      rawSql.push(sql);
      return rawQuery(sql, params, options as never);
    },
  };
  const db = { ...opened.db, prisma: counted, raw } as unknown as Database;
  app = await createApp(testConfig({ authEnabled: true, jwtSecret: 'test-secret-that-is-long-enough-for-hs256' }), {
    db,
  });
  yoga = createGraphQLHandler(app);
  gql = async <R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables: V, token: string) =>
    (await (
      await yoga.fetch('http://test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: queryText(document), variables }),
      })
    ).json()) as GqlResult<R>;
}, 180_000);
afterAll(async () => {
  await app?.close();
  await drop?.();
});

it('lists sessions of many owners with one user query', async () => {
  const owners = await Promise.all(['ann', 'ben', 'cat', 'dan'].map((name) => app.auth.createUser(name)));
  for (const owner of owners) {
    for (let i = 0; i < 2; i++) {
      const created = await gql(QueryCountCreateSessionDocument, { name: `s${i}` }, owner.key);
      expect(created.errors).toBeUndefined();
    }
  }
  const admin = (await app.auth.createUser('root', { admin: true })).key;
  // Resolving the admin's key may itself read the users table: count only the page.
  await gql(QueryCountViewerDocument, {}, admin);
  userQueries = 0;
  const page = await gql(QueryCountOwnersDocument, {}, admin);
  expect(page.errors).toBeUndefined();
  const names = page.data!.sessions.edges.map((e) => e.node.owner!.name);
  expect(new Set(names)).toEqual(new Set(['ann', 'ben', 'cat', 'dan']));
  expect(names).toHaveLength(8);
  expect(userQueries).toBe(1);
}, 120_000);

it('answers a sessions list page (count, rows, previews) in one statement, whatever the page size', async () => {
  const user = await app.auth.createUser('eve');
  for (let i = 0; i < 3; i++) {
    const created = await gql(QueryCountCreateSessionDocument, { name: `e${i}` }, user.key);
    expect(created.errors).toBeUndefined();
  }
  await gql(QueryCountViewerDocument, {}, user.key);
  for (const first of [1, 3, 0]) {
    statements = 0;
    const r = await gql(QueryCountPageDocument, { first }, user.key);
    expect(r.errors).toBeUndefined();
    expect(r.data!.sessions.totalCount).toBe(3);
    expect(r.data!.sessions.edges).toHaveLength(first);
    expect(statements).toBe(1);
  }
  // The owner adds one statement for the whole page.
  statements = 0;
  const withOwner = await gql(QueryCountPageWithOwnerDocument, { first: 3 }, user.key);
  expect(withOwner.errors).toBeUndefined();
  expect(withOwner.data!.sessions.edges.map((e) => e.node.owner!.name)).toEqual(['eve', 'eve', 'eve']);
  expect(statements).toBe(2);
}, 120_000);

it('answers session(id:) with one history page in one statement, the same page the two-step path answers', async () => {
  const owner = await app.auth.createUser('hal');
  const other = await app.auth.createUser('ida');
  const created = await gql(QueryCountCreateSessionDocument, { name: 'h' }, owner.key);
  const id: string = created.data!.createSession.id;
  const raw = Buffer.from(id, 'base64').toString().split(':')[1]!;
  await app.store.append(
    raw,
    Array.from({ length: 9 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` }) as const),
  );
  // rows 0–3 archived: a page spans both tables
  await app.store.archiveOldMessages(raw, 4);
  type PageArgs = Omit<QueryCountHistoryQueryVariables, 'id'>;
  // the page arguments as variables; `withProfile` adds `profile { key }` to the session's selection
  const read = (args: PageArgs, withProfile = false) =>
    withProfile
      ? gql(QueryCountHistoryWithProfileDocument, { id, ...args }, owner.key)
      : gql(QueryCountHistoryDocument, { id, ...args }, owner.key);
  for (const args of [
    { last: 3 },
    { first: 5 },
    { first: 2, after: 'bTox' },
    { last: 2, before: 'bTo2' },
    { last: 0 },
    // cursors past any position (beyond 2^31 and 2^53): the same answer as the two-step path
    { first: 2, after: 'bTo5OTk5OTk5OTk5OTk5OTk5OTk5OQ' },
    { last: 2, before: 'bTo5OTk5OTk5OTk5' },
  ]) {
    statements = 0;
    const one = await read(args);
    expect(one.errors).toBeUndefined();
    expect(statements).toBe(1);
    // a relation in the selection takes the ordinary path (Prisma's row with its profile, then the page)
    statements = 0;
    const two = await read(args, true);
    // the row with its profile, and the page unless it is empty
    if (one.data!.session!.history.edges.length > 0) expect(statements).toBeGreaterThan(1);
    expect(one.data!.session!.history).toEqual(two.data!.session!.history);
    expect(one.data!.session!.history.totalCount).toBe(9);
  }
  const newest = await read({ last: 5 });
  expect(newest.data!.session!.history.edges.map((e) => e.node.archived)).toEqual([false, false, false, false, false]);
  const spanning = await read({ first: 6 });
  expect(spanning.data!.session!.history.edges.map((e) => e.node.content)).toEqual([
    'm0',
    'm1',
    'm2',
    'm3',
    'm4',
    'm5',
  ]);
  // another user: null, in the same one statement
  statements = 0;
  const foreign = await gql(QueryCountForeignDocument, { id }, other.key);
  expect(foreign.errors).toBeUndefined();
  expect(foreign.data!.session).toBeNull();
  expect(statements).toBe(1);
  // bad page arguments are still reported at the history field
  const bad = await read({ first: 1, last: 1 });
  expect(bad.errors?.[0]).toMatchObject({ path: ['session', 'history'], extensions: { code: 'BAD_USER_INPUT' } });
}, 120_000);

it('reads only the message columns the history selection names (all behind a fragment): same answers', async () => {
  const owner = await app.auth.createUser('jo');
  const created = await gql(QueryCountCreateSessionDocument, { name: 'cols' }, owner.key);
  const id: string = created.data!.createSession.id;
  const raw = Buffer.from(id, 'base64').toString().split(':')[1]!;
  const call = { id: 'call_1', name: 'lookup', arguments: { q: 'x' } };
  await app.store.append(raw, [
    { role: 'user', content: 'hi', files: ['a.txt'], images: ['img-1'] },
    {
      role: 'assistant',
      content: '',
      thinking: 'hmm',
      toolCalls: [call],
      metadata: { model: 'm' },
      elapsedSeconds: 1.5,
      toolCallCount: 1,
      tokenCount: 7,
      isPlan: true,
    },
    { role: 'tool', content: 'found', toolCallId: 'call_1', name: 'lookup' },
    { role: 'assistant', content: 'done', createdAt: new Date('2024-02-29T23:59:59.5Z') },
  ]);
  await app.store.archiveOldMessages(raw, 1);
  // the page's part of the one statement (the session's own columns come before it)
  const pageSql = () => {
    const found = rawSql.filter((sql) => sql.includes('json_agg'));
    expect(found).toHaveLength(1);
    return found[0]!.slice(found[0]!.indexOf('json_agg'), found[0]!.indexOf(') AS page'));
  };

  rawSql.length = 0;
  statements = 0;
  const named = await gql(QueryCountHistoryEveryFieldDocument, { id }, owner.key);
  expect(named.errors).toBeUndefined();
  expect(statements).toBe(1);
  for (const column of ['metadata', 'tool_calls', 'thinking', 'created_at', 'files', 'images']) {
    expect(pageSql()).toContain(column);
  }
  rawSql.length = 0;
  statements = 0;
  const fragment = await gql(QueryCountHistoryEveryFieldFragmentDocument, { id }, owner.key);
  expect(fragment.errors).toBeUndefined();
  expect(statements).toBe(1);
  expect(pageSql()).toContain('tool_calls');
  const ordinary = await gql(QueryCountHistoryEveryFieldWithProfileDocument, { id }, owner.key);
  expect(ordinary.errors).toBeUndefined();
  // the three paths answer the same page, every field of every row
  expect(named.data!.session!.history).toEqual(ordinary.data!.session!.history);
  expect(fragment.data!.session!.history).toEqual(ordinary.data!.session!.history);
  const nodes = named.data!.session!.history.edges.map((e) => e.node);
  expect(nodes.map((n) => n.archived)).toEqual([true, false, false, false]);
  expect(nodes[1]).toMatchObject({ thinking: 'hmm', toolCalls: [call], metadata: { model: 'm' }, isPlan: true });
  expect(nodes[1]).toMatchObject({ elapsedSeconds: 1.5, toolCallCount: 1, tokenCount: 7, role: 'ASSISTANT' });
  expect(nodes[0]).toMatchObject({ files: ['a.txt'], images: ['img-1'], role: 'USER' });
  expect(nodes[2]).toMatchObject({ toolCallId: 'call_1', name: 'lookup', role: 'TOOL' });
  // a fraction PostgreSQL writes trimmed (.5), on a leap day: the same string a Date gives
  expect(nodes[3]!.createdAt).toBe('2024-02-29T23:59:59.500Z');

  // two fields: the page reads the transcript's columns (role, content, createdAt) and the key, not the others
  for (const withRole of [true, false]) {
    rawSql.length = 0;
    const two = await gql(QueryCountHistoryTwoFieldsDocument, { id, withRole }, owner.key);
    expect(two.errors).toBeUndefined();
    expect(two.data!.session!.history.edges.map((e) => e.node)).toEqual([
      withRole ? { content: 'found', role: 'TOOL' } : { content: 'found' },
      withRole ? { content: 'done', role: 'ASSISTANT' } : { content: 'done' },
    ]);
    const sql = pageSql();
    for (const column of ['content', 'role', 'created_at']) expect(sql).toContain(column);
    for (const column of ['metadata', 'tool_calls', 'thinking', 'files', 'images', 'is_plan', 'token_count']) {
      expect(sql).not.toContain(column);
    }
  }

  // Any selection reads one of three column sets: the transcript's, every column but the bulky ones (thinking,
  // metadata, tool calls, files, images), or all. A client varying its selection cannot mint SQL texts (each would be
  // a prepared statement on every connection).
  const texts = new Map<string, string>();
  const fields = ['role', 'content', 'createdAt', 'isPlan', 'tokenCount', 'name', 'thinking', 'metadata', 'files'];
  for (let mask = 1; mask < 1 << fields.length; mask += 7) {
    const chosen = fields.filter((_, i) => mask & (1 << i));
    rawSql.length = 0;
    const node = `node { ${chosen.join(' ')} }`;
    const query = `query($id: ID!) { session(id: $id) { history(last: 3) { edges { ${node} } } } }`;
    const answer = (await (
      await yoga.fetch('http://test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.key}` },
        body: JSON.stringify({ query, variables: { id } }),
      })
    ).json()) as { data: { session: { history: { edges: { node: Record<string, unknown> }[] } } } };
    const last = answer.data.session.history.edges.at(-1)!.node;
    expect(Object.keys(last).sort()).toEqual([...chosen].sort());
    expect(last.content ?? 'done').toBe('done');
    const tier = chosen.some((f) => ['thinking', 'metadata', 'files'].includes(f))
      ? 'all'
      : chosen.some((f) => !['role', 'content', 'createdAt'].includes(f))
        ? 'scalar'
        : 'transcript';
    texts.set(pageSql(), tier);
  }
  expect(new Set(texts.values())).toEqual(new Set(['all', 'scalar', 'transcript']));
  expect(texts.size).toBe(3);
  const scalar = [...texts].find(([, tier]) => tier === 'scalar')![0];
  expect(scalar).toContain('is_plan');
  expect(scalar).toContain('token_count');
  expect(scalar).not.toContain('metadata');
}, 120_000);
