/**
 * A connection lost around sendMessage's commit (injected at the store's
 * transaction): when the write committed, the call answers that turn, never
 * an error; when it did not, the write runs again. Either way one user
 * message and one turn are stored, and the turn runs to its end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FaultsWriteAckCreateSessionDocument,
  FaultsWriteAckSendDocument,
  type FaultsWriteAckSendMutation,
} from './generated/graphql.js';
import { createTestServer, dbKind, eventually, type GqlResult, type ServerContext } from './support/harness.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false });
}, 240_000);
afterAll(() => t.close());

const SEND = FaultsWriteAckSendDocument;
const rawId = (id: string) => Buffer.from(id, 'base64').toString().split(':')[1]!;
const lostConnection = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });

/** The next store transaction fails with a lost connection, before or after its commit. */
function loseNextTransaction(when: 'before' | 'after') {
  const store = t.app.store;
  const original = store.transaction.bind(store);
  let armed = true;
  store.transaction = (async (fn: Parameters<typeof original>[0]) => {
    if (!armed) return original(fn);
    armed = false;
    if (when === 'before') throw lostConnection();
    await original(fn);
    throw lostConnection();
  }) as typeof store.transaction;
  return () => {
    store.transaction = original;
  };
}

async function newSession() {
  const r = await t.http(FaultsWriteAckCreateSessionDocument, {});
  return r.data!.createSession.id;
}

async function settled(sessionId: string) {
  await eventually(
    () =>
      t.app.db.prisma.turn.count({
        where: { sessionId: rawId(sessionId), status: { in: ['RUNNING', 'WAITING_FOR_TOOL'] } },
      }),
    (n) => n === 0,
    60_000,
  );
  const messages = await t.app.store.allMessages(rawId(sessionId));
  const turns = await t.app.db.prisma.turn.findMany({ where: { sessionId: rawId(sessionId) } });
  return { users: messages.filter((m) => m.role === 'user'), turns };
}

describe(`sendMessage across a lost connection (${dbKind})`, () => {
  for (const when of ['after', 'before'] as const) {
    it(`a connection lost ${when} the commit answers the turn, stores it once, and the turn completes`, async () => {
      const sessionId = await newSession();
      t.fake.enqueue({ text: 'answered' });
      const restore = loseNextTransaction(when);
      let sent: GqlResult<FaultsWriteAckSendMutation> | undefined;
      try {
        sent = await t.http(SEND, { input: { sessionId, content: `lost ${when}` } });
      } finally {
        restore();
      }
      expect(sent.errors).toBeUndefined();
      expect(sent.data!.sendMessage.userMessage.content).toBe(`lost ${when}`);
      const { users, turns } = await settled(sessionId);
      expect(users.map((m) => m.content)).toEqual([`lost ${when}`]);
      expect(turns).toHaveLength(1);
      expect(turns[0]!.status).toBe('COMPLETED');
    }, 120_000);
  }
});
