/**
 * node(id:) has one policy for every Node type: what the caller may not see,
 * a missing id, a deleted one and a malformed one all answer `null` with no
 * error; without credentials it is UNAUTHENTICATED whatever the id.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { GraphQLInterfaceType, GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema } from '../src/schema/index.js';
import { nodeTypesWithPolicy } from '../src/schema/node.js';
import {
  NodeCreateSessionDocument,
  NodeDeleteSessionDocument,
  NodeNodeDocument,
  type NodeNodeQuery,
  NodeProfilesDocument,
  NodeSessionAndNodeDocument,
  NodeSessionOwnerDocument,
  NodeUpsertDoomedProfileDocument,
} from './generated/graphql.js';
import { codeOf, createTestApp, dbKind, type GqlResult, type TestContext } from './support/harness.js';

const gid = (typename: string, id: string) => Buffer.from(`${typename}:${id}`).toString('base64');
const rawOf = (id: string) => Buffer.from(id, 'base64').toString().split(':').slice(1).join(':');
const NODE = NodeNodeDocument;
/** The name of a node that is a User (the only type NODE asks a name of). */
const nameOf = (r: GqlResult<NodeNodeQuery>) => (r.data?.node?.__typename === 'User' ? r.data.node.name : undefined);
const NULL_ANSWER = { data: { node: null } };

/** Per Node type: an object alice can see, one deleted, and malformed ids of that type. */
interface Fixture {
  own: string;
  deleted: string;
  missing: string[];
  malformed: string[];
}

function nodeTypeNames(schema: GraphQLSchema) {
  const node = schema.getType('Node') as GraphQLInterfaceType;
  return schema
    .getPossibleTypes(node)
    .map((type) => type.name)
    .sort();
}

describe(`node(id:) (${dbKind})`, { timeout: 120_000 }, () => {
  let t: TestContext;
  let alice: string;
  let bob: string;
  let root: string;
  let auditor: string;
  const fixtures: Record<string, Fixture> = {};
  let contextOnlyMessage: string;
  let bobSession: string;
  let legacySession: string;
  let systemPrompt: string;

  const createSession = async (token: string, name: string) =>
    (await t.gql(NodeCreateSessionDocument, { n: name }, token)).data!.createSession.id;

  beforeAll(async () => {
    t = await createTestApp({ authEnabled: true });
    const made = await Promise.all(
      [
        ['alice'],
        ['bob'],
        ['root', { admin: true }],
        ['auditor', { permissions: ['sessions.read_all'] }],
        ['gone'],
      ].map(([name, options]) => t.app.auth.createUser(name as string, options as object)),
    );
    [alice, bob, root, auditor] = made.map((m) => m.key);
    const [aliceUser, , , , goneUser] = made.map((m) => m.user);
    await t.app.db.prisma.user.delete({ where: { id: goneUser!.id } });

    // alice's session, a display message, a context-only summary and a turn; the same in a session she deletes.
    const withContent = async (name: string) => {
      const session = await createSession(alice, name);
      const raw = rawOf(session);
      const [shown, summary] = await t.app.store.append(raw, [
        { role: 'user', content: `hello from ${name}` },
        { role: 'system', content: 'a summary', isDisplay: false, isSummary: true },
      ]);
      const turn = await t.app.db.prisma.turn.create({
        data: { sessionId: raw, status: 'COMPLETED', endedAt: new Date() },
      });
      const recall = await t.app.db.prisma.pendingTurn.create({
        data: {
          sessionId: raw,
          owner: null,
          dueAt: new Date(Date.now() + 3_600_000),
          kind: 'RECALL',
          content: 'later',
        },
      });
      const queued = await t.app.db.prisma.pendingTurn.create({
        data: {
          id: randomUUID(),
          sessionId: raw,
          kind: 'QUEUE',
          content: 'queued',
          message: { role: 'user', content: 'queued' },
        },
      });
      return {
        queued: gid('QueuedMessage', queued.id),
        recall: gid('Recall', recall.id),
        session,
        message: gid('Message', `${raw}:${shown!.messageId}`),
        summary: gid('Message', `${raw}:${summary!.messageId}`),
        turn: gid('Turn', turn.id),
        raw,
      };
    };
    const kept = await withContent('kept');
    const gone = await withContent('deleted');
    const del = await t.gql(NodeDeleteSessionDocument, { id: gone.session }, alice);
    expect(del.errors).toBeUndefined();
    contextOnlyMessage = kept.summary;
    bobSession = await createSession(bob, 'bob');
    const profile = await t.app.profiles.default();
    legacySession = gid(
      'Session',
      (await t.app.store.create({ profileId: profile.id, userId: null, name: 'legacy' })).id,
    );

    const upsert = await t.gql(NodeUpsertDoomedProfileDocument, {}, root);
    const doomed = upsert.data!.upsertProfile.id;
    await t.app.db.prisma.profile.delete({ where: { id: rawOf(doomed) } });
    systemPrompt = (await t.gql(NodeProfilesDocument, {}, bob)).data!.profiles.find(
      (p) => p.id === gid('Profile', profile.id),
    )!.systemPrompt;

    const uuidish = ['not-a-uuid', '1', `${randomUUID()}x`, "' OR 1=1 --", randomUUID().replace(/-/g, '')];
    const common = (typename: string) => [
      ...uuidish.map((inner) => gid(typename, inner)),
      gid(typename, ''),
      Buffer.from(typename).toString('base64'),
      gid(typename.toLowerCase(), randomUUID()),
    ];
    fixtures.Session = {
      own: kept.session,
      deleted: gone.session,
      missing: [gid('Session', randomUUID())],
      malformed: common('Session'),
    };
    fixtures.Turn = {
      own: kept.turn,
      deleted: gone.turn,
      missing: [gid('Turn', randomUUID()), gid('Turn', kept.raw)],
      malformed: common('Turn'),
    };
    fixtures.Message = {
      own: kept.message,
      deleted: gone.message,
      missing: [
        gid('Message', `${kept.raw}:${randomUUID()}`),
        gid('Message', `${randomUUID()}:${randomUUID()}`),
        // the old positional form still parses: a position with no message
        gid('Message', `${kept.raw}:999999`),
        gid('Message', `${randomUUID()}:0`),
      ],
      malformed: [
        ...common('Message'),
        gid('Message', kept.raw),
        gid('Message', `${kept.raw}:abc`),
        gid('Message', `${kept.raw}:-1`),
        gid('Message', `${kept.raw}:1.5`),
        gid('Message', `${kept.raw}:99999999999999999999`),
        gid('Message', `not-a-uuid:0`),
        gid('Message', `${kept.raw}:${randomUUID()}x`),
        gid('Message', `${kept.raw}:${randomUUID()}:0`),
      ],
    };
    fixtures.Recall = {
      own: kept.recall,
      deleted: gone.recall,
      missing: [gid('Recall', randomUUID()), gid('Recall', kept.raw)],
      malformed: common('Recall'),
    };
    fixtures.QueuedMessage = {
      own: kept.queued,
      deleted: gone.queued,
      missing: [gid('QueuedMessage', randomUUID()), gid('QueuedMessage', kept.raw)],
      malformed: common('QueuedMessage'),
    };
    fixtures.User = {
      own: gid('User', aliceUser!.id),
      deleted: gid('User', goneUser!.id),
      missing: [gid('User', randomUUID())],
      malformed: common('User'),
    };
    fixtures.Profile = {
      own: gid('Profile', profile.id),
      deleted: doomed,
      missing: [gid('Profile', randomUUID())],
      malformed: common('Profile'),
    };
    // API keys: their user's (and an admin's); a deleted key is gone.
    const aliceKey = await t.app.db.prisma.apiKey.findFirstOrThrow({ where: { userId: aliceUser!.id } });
    const extra = await t.app.auth.keys.createKey(aliceUser!.id);
    await t.app.db.prisma.apiKey.delete({ where: { id: extra.record.id } });
    fixtures.ApiKey = {
      own: gid('ApiKey', aliceKey.id),
      deleted: gid('ApiKey', extra.record.id),
      missing: [gid('ApiKey', randomUUID())],
      malformed: common('ApiKey'),
    };
  }, 240_000);
  afterAll(() => t.close());

  /** Ids that name no Node of any type. */
  const garbage = () => [
    randomBytes(24).toString('base64'),
    randomBytes(7).toString('base64url'),
    '!!!',
    '',
    ' ',
    gid('Viewer', randomUUID()),
    gid('SessionConnection', randomUUID()),
    gid('Nope', randomUUID()),
    gid('__proto__', randomUUID()),
    gid('constructor', randomUUID()),
    gid('hasOwnProperty', randomUUID()),
    `${gid('Session', randomUUID())}garbage`,
  ];

  it('covers every Node type in the schema, each with a policy', () => {
    const types = nodeTypeNames(buildSchema());
    expect(types).toEqual(Object.keys(fixtures).sort());
    expect([...nodeTypesWithPolicy].sort()).toEqual(types);
    expect(buildSchema().getQueryType()!.getFields().nodes).toBeUndefined();
  });

  it('answers what the caller may see (the control)', async () => {
    for (const [typename, f] of Object.entries(fixtures)) {
      const r = await t.gql(NODE, { id: f.own }, alice);
      expect(r, typename).toMatchObject({ data: { node: { __typename: typename, id: f.own } } });
      expect(r.errors, typename).toBeUndefined();
    }
    expect((await t.gql(NODE, { id: contextOnlyMessage }, alice)).data!.node!.id).toBe(contextOnlyMessage);
  });

  it('answers a foreign, missing, deleted or malformed id of every type exactly like null, with no error', async () => {
    for (const [typename, f] of Object.entries(fixtures)) {
      const asBob = typename === 'Profile' ? [] : [f.own]; // profiles are everyone's (below)
      const cases: [string, string, string][] = [
        ...asBob.map((id) => ['foreign', id, bob] as [string, string, string]),
        ...[f.deleted, ...f.missing, ...f.malformed].flatMap((id) => [
          [`${typename} missing/deleted/malformed`, id, alice] as [string, string, string],
          [`${typename} missing/deleted/malformed`, id, bob] as [string, string, string],
          [`${typename} missing/deleted/malformed`, id, root] as [string, string, string],
        ]),
      ];
      for (const [what, id, token] of cases) {
        expect(await t.gql(NODE, { id }, token), `${typename} ${what} ${id}`).toEqual(NULL_ANSWER);
      }
    }
    for (const id of garbage()) {
      expect(await t.gql(NODE, { id }, alice), id).toEqual(NULL_ANSWER);
    }
  });

  it('follows session(id:) for sessions, and the session rule for their turns and messages', async () => {
    const sessions = [fixtures.Session!.own, bobSession, legacySession, fixtures.Session!.deleted];
    for (const token of [alice, bob, root, auditor]) {
      for (const id of sessions) {
        const r = await t.gql(NodeSessionAndNodeDocument, { id }, token);
        expect(r.errors).toBeUndefined();
        expect(r.data!.node).toEqual(r.data!.session);
      }
    }
    // read_all reads alice's session, its turn and displayed messages, not its context-only rows.
    for (const id of [fixtures.Session!.own, fixtures.Turn!.own, fixtures.Message!.own]) {
      expect((await t.gql(NODE, { id }, auditor)).data!.node!.id).toBe(id);
    }
    expect(await t.gql(NODE, { id: contextOnlyMessage }, auditor)).toEqual(NULL_ANSWER);
    // Recalls follow Session.recalls: the session's owner or an admin, not a reader.
    expect(await t.gql(NODE, { id: fixtures.Recall!.own }, auditor)).toEqual(NULL_ANSWER);
    expect((await t.gql(NODE, { id: fixtures.Recall!.own }, root)).data!.node!.id).toBe(fixtures.Recall!.own);
    // Queued messages follow Session.queuedMessages: the same rule.
    expect(await t.gql(NODE, { id: fixtures.QueuedMessage!.own }, auditor)).toEqual(NULL_ANSWER);
    expect((await t.gql(NODE, { id: fixtures.QueuedMessage!.own }, root)).data!.node!.id).toBe(
      fixtures.QueuedMessage!.own,
    );
    expect(await t.gql(NODE, { id: legacySession }, auditor)).toEqual(NULL_ANSWER);
    expect((await t.gql(NODE, { id: legacySession }, root)).data!.node!.id).toBe(legacySession);
  });

  it('users: yourself, owners of sessions you may read, everyone for an admin', async () => {
    const aliceUser = fixtures.User!.own;
    expect((await t.gql(NODE, { id: aliceUser }, alice)).data!.node).toEqual({
      __typename: 'User',
      id: aliceUser,
      name: 'alice',
    });
    expect(await t.gql(NODE, { id: aliceUser }, bob)).toEqual(NULL_ANSWER);
    expect(nameOf(await t.gql(NODE, { id: aliceUser }, auditor))).toBe('alice');
    expect(nameOf(await t.gql(NODE, { id: aliceUser }, root))).toBe('alice');
    // What Session.owner shows to a reader, node shows too.
    const owner = await t.gql(NodeSessionOwnerDocument, { id: fixtures.Session!.own }, auditor);
    expect(owner.data!.session!.owner!.id).toBe(aliceUser);
  });

  it('profiles: as `profiles` shows them, systemPrompt included, to every authenticated caller', async () => {
    const id = fixtures.Profile!.own;
    for (const token of [alice, bob, auditor]) {
      expect((await t.gql(NODE, { id }, token)).data!.node).toEqual({ __typename: 'Profile', id, systemPrompt });
    }
  });

  it('without credentials is UNAUTHENTICATED whatever the id, and tells nothing else', async () => {
    const ids = [
      ...Object.values(fixtures).flatMap((f) => [f.own, f.deleted, ...f.missing, f.malformed[0]!]),
      ...garbage(),
    ];
    for (const token of [undefined, 'csk_wrong', 'not-a-jwt']) {
      const answers = new Set<string>();
      for (const id of ids) {
        const r = await t.gql(NODE, { id }, token);
        expect(codeOf(r), id).toBe('UNAUTHENTICATED');
        expect(r.data?.node ?? null).toBeNull();
        answers.add(JSON.stringify(r));
      }
      // The same answer for every id: it depends on the credentials only.
      expect([...answers], String(token)).toHaveLength(1);
    }
  });
});
