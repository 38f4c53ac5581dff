/**
 * The recall scheduler under injected database faults: a connection lost
 * while claiming, inside the fire transaction (before its commit), and after
 * the commit with the answer lost. Each recall still fires exactly once (one
 * isRecall message, one turn), and the scheduler keeps running: a later
 * recall fires too. Waits are on state, never on time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  RecallsFaultsCreateSessionDocument,
  RecallsFaultsHistoryDocument,
  RecallsFaultsNodeDocument,
  RecallsFaultsRolesDocument,
  RecallsFaultsScheduleDocument,
} from './generated/graphql.js';
import { createTestServer, eventually, type ServerContext } from './support/harness.js';

let t: ServerContext;
const restore: (() => void)[] = [];

beforeAll(async () => {
  t = await createTestServer({ pendingPollMs: 100, pendingLeaseMs: 500, titleGenerationEnabled: false });
}, 60_000);
afterEach(() => {
  for (const undo of restore.splice(0)) undo();
});
afterAll(async () => {
  await t?.close();
});

const SCHEDULE = RecallsFaultsScheduleDocument;
const RECALL = RecallsFaultsNodeDocument;
const HISTORY = RecallsFaultsHistoryDocument;

const connectionLost = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

/** Replaces `target[name]` for this test: `wrap` gets the original and the call number (1-based). */
function inject<T extends object, K extends keyof T>(target: T, name: K, wrap: (original: T[K], call: number) => T[K]) {
  const original = target[name];
  let calls = 0;
  target[name] = ((...args: unknown[]) => {
    calls++;
    return (wrap(original, calls) as (...a: unknown[]) => unknown).apply(target, args);
  }) as T[K];
  restore.push(() => {
    target[name] = original;
  });
  return { calls: () => calls };
}

async function schedule(text: string, dueInMs: number) {
  const sessionId = (await t.http(RecallsFaultsCreateSessionDocument, {})).data!.createSession.id;
  t.fake.enqueue({ text: `answer to ${text}` });
  // An hour ahead, so it is in the future however slow the request; then made due in the database.
  const r = await t.http(SCHEDULE, { s: sessionId, at: inMs(3_600_000), text });
  expect(r.errors).toBeUndefined();
  const id = r.data!.scheduleRecall.id;
  const rawId = Buffer.from(id, 'base64')
    .toString()
    .replace(/^[A-Za-z]+:/, '');
  await t.app.db.prisma.pendingTurn.update({ where: { id: rawId }, data: { dueAt: new Date(Date.now() + dueInMs) } });
  return { sessionId, id };
}

const fired = (id: string) =>
  eventually(
    () => t.http(RECALL, { id }),
    (r) => {
      const node = r.data?.node;
      return node != null && 'status' in node && node.status === 'FIRED' && node.turn?.status === 'COMPLETED';
    },
  );

async function recallMessages(sessionId: string, text: string) {
  const edges = (await t.http(HISTORY, { id: sessionId })).data!.session!.history.edges;
  return edges.filter((e) => e.node.isRecall && e.node.content === text).length;
}

/** A later recall fired: the scheduler lived through the fault and has looked again since. */
async function schedulerStillRuns() {
  const later = await schedule('a later recall', 300);
  await fired(later.id);
  expect(await recallMessages(later.sessionId, 'a later recall')).toBe(1);
}

describe('recall scheduler under database faults', () => {
  it('a connection lost while claiming: the recall fires once on a later wake-up', async () => {
    // The one dispatcher of pending turns claims recalls (with queued messages) in one statement.
    const claims = inject(t.app.queue.store, 'claimHeads', (original, call) =>
      call === 1 ? ((async () => Promise.reject(connectionLost())) as never) : original,
    );
    const r = await schedule('claim blip', 300);
    await fired(r.id);
    expect(claims.calls()).toBeGreaterThan(1);
    expect(await recallMessages(r.sessionId, 'claim blip')).toBe(1);
    await schedulerStillRuns();
  });

  it(
    'a connection lost inside the fire transaction: ' + 'nothing is written, the claim expires and it fires once',
    async () => {
      const store = t.app.recalls.store;
      const locks = inject(store, 'lockClaimed', (original, call) =>
        call === 1 ? ((async () => Promise.reject(connectionLost())) as never) : original,
      );
      const r = await schedule('fire blip', 300);
      await fired(r.id);
      expect(locks.calls()).toBeGreaterThan(1);
      expect(await recallMessages(r.sessionId, 'fire blip')).toBe(1);
      await schedulerStillRuns();
    },
  );

  it(
    'the commit went through but its answer was lost: ' + 'the turn runs once and the recall never fires again',
    async () => {
      const turns = t.app.turns as unknown as { store: { transaction: (fn: unknown) => Promise<unknown> } };
      let lostOnce = false;
      const store = t.app.recalls.store;
      // Only the fire transaction's answer is lost: the one that marks the recall fired.
      inject(
        store,
        'markFired',
        (original) =>
          (async (...args: unknown[]) => {
            const row = await (original as (...a: unknown[]) => Promise<unknown>).apply(store, args);
            lostOnce = true;
            return row;
          }) as never,
      );
      inject(
        turns.store,
        'transaction',
        (original) =>
          (async (fn: unknown) => {
            const before = lostOnce;
            const result = await (original as (f: unknown) => Promise<unknown>).call(turns.store, fn);
            if (!before && lostOnce) {
              lostOnce = false;
              (turns.store as { lost?: boolean }).lost = true;
              throw connectionLost();
            }
            return result;
          }) as never,
      );
      const r = await schedule('commit lost', 300);
      await fired(r.id);
      expect((turns.store as { lost?: boolean }).lost).toBe(true);
      await schedulerStillRuns();
      expect(await recallMessages(r.sessionId, 'commit lost')).toBe(1);
      const turnsOfSession = await t.http(RecallsFaultsRolesDocument, { id: r.sessionId });
      expect(turnsOfSession.data!.session!.history.edges.map((e) => e.node.role)).toEqual(['USER', 'ASSISTANT']);
    },
  );
});
