/** Issue 6: public read-only share links. */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema } from '../src/schema/index.js';
import {
  ShareDeleteDocument,
  ShareEventsDocument,
  ShareIssueDocument,
  ShareOwnerHistoryDocument,
  ShareRenameDocument,
  ShareSharedDocument,
} from './generated/graphql.js';
import { codeOf, createTestServer, dbKind, type ServerContext } from './support/harness.js';
import { newSession, rawId } from './support/uploads.js';

const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');

let t: ServerContext;
let alice: string, bob: string, reader: string, admin: string, aliceId: string;

beforeAll(async () => {
  t = await createTestServer({ authEnabled: true, titleGenerationEnabled: false });
  const a = await t.app.auth.createUser('alice');
  aliceId = a.user.id;
  alice = a.key;
  bob = (await t.app.auth.createUser('bob')).key;
  reader = (await t.app.auth.createUser('reader', { permissions: ['sessions.read_all'] })).key;
  admin = (await t.app.auth.createUser('root', { admin: true })).key;
});
afterAll(() => t.close());

const SHARE = ShareIssueDocument;
const SHARED = ShareSharedDocument;
const OWNER_HISTORY = ShareOwnerHistoryDocument;

/** A session of alice with `n` display messages (user/assistant alternating) plus a hidden context row. */
async function sessionWithMessages(n: number, marker = 'SECRET') {
  const id = await newSession(t, alice);
  await t.http(ShareRenameDocument, { id }, alice);
  const messages = Array.from({ length: n }, (_, i) => ({
    role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant',
    content: `${marker} message ${i}`,
  }));
  await t.app.store.append(rawId(id), [
    ...messages,
    {
      role: 'user',
      content: `${marker} hidden context only`,
      isDisplay: false,
      metadata: { contextNotice: `${marker} notice` },
    },
  ]);
  return id;
}

describe(`share links (${dbKind})`, () => {
  it('answers CONFLICT before the first saved message, then issues one stable 256-bit token', async () => {
    const id = await newSession(t, alice);
    const early = await t.http(SHARE, { id }, alice);
    expect(codeOf(early)).toBe('CONFLICT');
    expect(await t.app.db.prisma.sessionShare.count({ where: { sessionId: rawId(id) } })).toBe(0);

    await t.app.store.append(rawId(id), [{ role: 'user', content: 'hello' }]);
    const first = await t.http(SHARE, { id }, alice);
    expect(first.errors).toBeUndefined();
    const { token, url } = first.data!.shareSession;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes base64url = 256 bits
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(url).toBe(`/#share=${token}`);
    const again = await t.http(SHARE, { id }, alice);
    expect(again.data!.shareSession).toEqual({ token, url });
    const byAdmin = await t.http(SHARE, { id }, admin);
    expect(byAdmin.data!.shareSession.token).toBe(token);

    const owner = await t.http(OWNER_HISTORY, { id }, alice);
    expect(owner.data!.session!.shareUrl).toBe(url);
    // read_all may read the session but not see (or mint) its capability link
    const asReader = await t.http(OWNER_HISTORY, { id }, reader);
    expect(asReader.data!.session!.shareUrl).toBeNull();
    // tokens differ between sessions
    const other = await sessionWithMessages(2);
    const otherToken = (await t.http(SHARE, { id: other }, alice)).data!.shareSession.token;
    expect(otherToken).not.toBe(token);
  });

  it('only the owner or an admin may issue: read_all is FORBIDDEN, others see NOT_FOUND', async () => {
    const id = await sessionWithMessages(2);
    expect(codeOf(await t.http(SHARE, { id }, bob))).toBe('NOT_FOUND');
    expect(codeOf(await t.http(SHARE, { id }, reader))).toBe('FORBIDDEN');
    expect(codeOf(await t.http(SHARE, { id }))).toBe('UNAUTHENTICATED');
    expect(await t.app.db.prisma.sessionShare.count({ where: { sessionId: rawId(id) } })).toBe(0);
    const r = await t.http(SHARE, { id }, admin);
    expect(r.errors).toBeUndefined();
  });

  it('the holder sees name, profile name, dates and the same pages the owner scrolls, with no ids', async () => {
    const id = await sessionWithMessages(75);
    const { token } = (await t.http(SHARE, { id }, alice)).data!.shareSession;
    const shared = await t.http(SHARED, { token }); // no credentials at all
    expect(shared.errors).toBeUndefined();
    const owner = await t.http(OWNER_HISTORY, { id }, alice);
    const s = shared.data!.sharedSession!;
    expect(s.name).toBe('Shared chat');
    expect(s.profileName).toBe('Default');
    expect(s.createdAt).toBe(owner.data!.session!.createdAt);
    expect(s.lastActive).toBe(owner.data!.session!.lastActive);
    // newest page by default (50), identical rows and cursors
    expect(s.history.edges).toHaveLength(50);
    expect(s.history.edges.at(-1)!.node.content).toBe('SECRET message 74');
    expect(s.history).toEqual(owner.data!.session!.history);
    // page back
    const before = s.history.pageInfo.startCursor;
    const back = await t.http(SHARED, { token, before, last: 50 });
    const ownerBack = await t.http(OWNER_HISTORY, { id, before, last: 50 }, alice);
    expect(back.data!.sharedSession!.history).toEqual(ownerBack.data!.session!.history);
    expect(back.data!.sharedSession!.history.edges.map((e) => e.displayIndex)).toEqual(
      Array.from({ length: 25 }, (_, i) => i),
    );
    expect(back.data!.sharedSession!.history.pageInfo.hasPreviousPage).toBe(false);
    // never the session id, the owner id, the context or the hidden notice
    const text = JSON.stringify([shared, back]);
    expect(text).not.toContain(rawId(id));
    expect(text).not.toContain(id);
    expect(text).not.toContain(aliceId);
    expect(text).not.toContain('hidden context only');
    expect(text).not.toContain('SECRET notice');
  });

  it('the shared types expose no id, context or files field', () => {
    const schema = buildSchema();
    for (const name of ['SharedSession', 'SharedMessage', 'SharedMessageEdge', 'SharedMessageConnection']) {
      const type = schema.getType(name) as import('graphql').GraphQLObjectType;
      const fields = Object.keys(type.getFields());
      expect(fields.filter((f) => /id$|context|files|images|owner|metadata|session/i.test(f))).toEqual([]);
    }
  });

  it('a holder with just the token gets nothing from any other query or mutation', async () => {
    const id = await sessionWithMessages(4, 'TOPSECRET');
    const { token } = (await t.http(SHARE, { id }, alice)).data!.shareSession;
    const before = await t.app.db.prisma.session.findUnique({ where: { id: rawId(id) } });
    const sessionsBefore = await t.app.db.prisma.session.count();
    const schema = buildSchema();
    const ops = [
      ...operationsFor(schema, 'query', schema.getQueryType()!, id, token),
      ...operationsFor(schema, 'mutation', schema.getMutationType()!, id, token),
    ];
    expect(ops.length).toBeGreaterThan(25);
    const codes = new Set<string>();
    for (const { field, query, variables } of ops) {
      for (const credential of [undefined, token, `csk_${token}`]) {
        const r = await t.http<Record<string, unknown>>(query, variables, credential);
        const text = JSON.stringify(r);
        expect(text, `${field} leaked`).not.toContain('TOPSECRET');
        // executed and refused, not rejected by validation (which would prove nothing)
        for (const e of r.errors ?? [])
          expect(['UNAUTHENTICATED', 'BAD_USER_INPUT', 'NOT_FOUND'], `${field}: ${e.message}`).toContain(
            e.extensions?.code,
          );
        codes.add(`${field}:${codeOf(r) ?? 'ok'}`);
        if (field === 'sharedSession' || field === 'viewer' || field === 'profiles') continue;
        const value = r.data?.[field];
        expect(value ?? null, `${field} with ${credential ? 'token' : 'nothing'}: ${text.slice(0, 300)}`).toBeNull();
      }
    }
    // the token is not a credential for subscriptions either
    const sub = t.subscribe(ShareEventsDocument, { s: id }, token);
    await expect(sub.waitFor(() => sub.errors.length > 0).catch(() => null)).resolves.toBeDefined();
    expect(sub.errors.length).toBeGreaterThan(0);
    sub.dispose();
    const after = await t.app.db.prisma.session.findUnique({ where: { id: rawId(id) } });
    expect(after).toEqual(before);
    expect(await t.app.db.prisma.session.count()).toBe(sessionsBefore);
  });

  it('an unknown or forged token answers exactly like a deleted session', async () => {
    const id = await sessionWithMessages(2);
    const { token } = (await t.http(SHARE, { id }, alice)).data!.shareSession;
    expect((await t.http(SHARED, { token })).data!.sharedSession).not.toBeNull();
    const forged = await t.http(SHARED, { token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` });
    const garbage = await t.http(SHARED, { token: "' OR 1=1 --" });
    const empty = await t.http(SHARED, { token: '' });
    await t.http(ShareDeleteDocument, { id }, alice);
    const deleted = await t.http(SHARED, { token });
    expect(deleted).toEqual({ data: { sharedSession: null } });
    for (const r of [forged, garbage, empty]) expect(r).toEqual(deleted);
    expect(await t.app.db.prisma.sessionShare.count({ where: { token } })).toBe(0);
  });

  it('GraphQL responses carry Referrer-Policy: no-referrer', async () => {
    const response = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ sharedSession(token: "x") { name } }' }),
    });
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await response.json()).toEqual({ data: { sharedSession: null } });
  });
});

describe(`share links with auth disabled (${dbKind})`, () => {
  let local: ServerContext;
  beforeAll(async () => {
    local = await createTestServer({ titleGenerationEnabled: false });
  });
  afterAll(() => local.close());

  it('only ownerless (local-mode) sessions qualify', async () => {
    const mine = await newSession(local);
    await local.app.store.append(rawId(mine), [{ role: 'user', content: 'hi' }]);
    expect((await local.http(SHARE, { id: mine })).errors).toBeUndefined();
    const profile = await local.app.profiles.default();
    const legacy = await local.app.store.create({ profileId: profile.id, userId: null });
    await local.app.store.append(legacy.id, [{ role: 'user', content: 'hi' }]);
    const legacyId = Buffer.from(`Session:${legacy.id}`).toString('base64');
    expect((await local.http(SHARE, { id: legacyId })).errors).toBeUndefined();
    const owned = await local.app.store.create({
      profileId: profile.id,
      userId: '6f1c2d7e-0000-4000-8000-000000000001',
    });
    await local.app.store.append(owned.id, [{ role: 'user', content: 'hi' }]);
    const ownedId = Buffer.from(`Session:${owned.id}`).toString('base64');
    expect(codeOf(await local.http(SHARE, { id: ownedId }))).toBe('FORBIDDEN');
  });
});

// ---------------------------------------------------------------- every root field, generated from the schema

type Op = { field: string; query: string; variables: Record<string, unknown> };

function operationsFor(
  schema: import('graphql').GraphQLSchema,
  kind: 'query' | 'mutation',
  root: import('graphql').GraphQLObjectType,
  sessionGid: string,
  token: string,
): Op[] {
  const {
    getNamedType,
    isNonNullType,
    isListType,
    isInputObjectType,
    isEnumType,
    isScalarType,
    isObjectType,
    isInterfaceType,
    isUnionType,
  } = graphql;
  const valueFor = (type: import('graphql').GraphQLInputType, depth = 0): unknown => {
    if (isNonNullType(type)) return valueFor(type.ofType, depth);
    if (isListType(type)) return [];
    if (isEnumType(type)) return type.getValues()[0]!.value;
    if (isInputObjectType(type)) {
      const out: Record<string, unknown> = {};
      for (const f of Object.values(type.getFields())) {
        if (isNonNullType(f.type) || depth === 0) out[f.name] = valueFor(f.type, depth + 1);
      }
      return out;
    }
    switch ((type as import('graphql').GraphQLScalarType).name) {
      case 'ID':
        return sessionGid;
      case 'String':
        return token;
      case 'Int':
        return 1;
      case 'Float':
        return 1;
      case 'Boolean':
        return false;
      case 'JSON':
        return {};
      case 'DateTime':
        return new Date().toISOString();
      default:
        return null;
    }
  };
  const selection = (type: import('graphql').GraphQLOutputType): string => {
    const named = getNamedType(type);
    if (isScalarType(named) || isEnumType(named)) return '';
    if (isObjectType(named) || isInterfaceType(named) || isUnionType(named)) return '{ __typename }';
    return '';
  };
  void schema;
  return Object.values(root.getFields()).map((field) => {
    const defs = field.args.map((a) => `$${a.name}: ${a.type.toString()}`);
    const args = field.args.map((a) => `${a.name}: $${a.name}`);
    const variables = Object.fromEntries(field.args.map((a) => [a.name, valueFor(a.type)]));
    const head = `${kind}${defs.length ? `(${defs.join(', ')})` : ''}`;
    const call = `${field.name}${args.length ? `(${args.join(', ')})` : ''}`;
    const query = `${head} { ${call} ${selection(field.type)} }`;
    return { field: field.name, query, variables };
  });
}
