/**
 * Parking (issue 31): a queued message or recall whose dispatch keeps failing
 * is parked FAILED with its reason after PENDING_MAX_ATTEMPTS attempts, tells
 * live subscribers (QueuedMessageFailed / RecallFailed), logs one line (not
 * one per retry), and the entries behind it move on. The malformed queue row
 * holds a JSON string as its message: such a row once made every claim throw.
 * Waits are on state, never on time.
 */
import type { Logger } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  PendingParkingCreateSessionDocument,
  type PendingParkingEventsSubscription,
  PendingParkingEventsDocument,
  PendingParkingHistoryDocument,
  PendingParkingNodeDocument,
  PendingParkingScheduleDocument,
  PendingParkingSendDocument,
} from './generated/graphql.js';
import { gate } from './support/fake-provider.js';
import { createTestServer, dbKind, eventually, type ServerContext } from './support/harness.js';

const MAX = 3;
let t: ServerContext;

beforeAll(async () => {
  t = await createTestServer({
    pendingPollMs: 100,
    pendingLeaseMs: 60_000,
    pendingMaxAttempts: MAX,
    titleGenerationEnabled: false,
    contextCompressionEnabled: false,
  });
}, 180_000);
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await t?.close();
});

type Event = PendingParkingEventsSubscription['sessionEvents'];
const rawId = (id: string) =>
  Buffer.from(id, 'base64')
    .toString()
    .replace(/^[A-Za-z]+:/, '');

/** Every error and warning line the app logs (its root logger and the pending doors' own). */
function spyLogs() {
  const loggers = new Set<Logger>([t.app.log, (t.app.turns.pending as unknown as { log: Logger }).log]);
  const calls: unknown[][] = [];
  for (const log of loggers) {
    for (const level of ['error', 'warn'] as const) {
      const original = log[level].bind(log);
      vi.spyOn(log, level).mockImplementation(((...args: unknown[]) => {
        calls.push(args);
        return (original as (...a: unknown[]) => void)(...args);
      }) as never);
    }
  }
  return (id: string) => calls.filter((args) => JSON.stringify(args).includes(id));
}

const history = async (sessionId: string) =>
  (await t.http(PendingParkingHistoryDocument, { id: sessionId })).data!.session!.history.edges.map(
    (e) => e.node.content,
  );

describe(`parking failed pending entries (${dbKind})`, () => {
  it('a queued row whose message is a JSON string is parked after N attempts; the next one runs', async () => {
    const sessionId = (await t.http(PendingParkingCreateSessionDocument, {})).data!.createSession.id;
    const held = gate();
    t.fake.enqueue({ text: 'first answer', hold: held.promise });
    const sub = t.subscribe(PendingParkingEventsDocument, { sessionId, after: '0' });
    const send = (content: string, whileRunning?: 'QUEUE') =>
      t.http(PendingParkingSendDocument, { input: { sessionId, content, ...(whileRunning && { whileRunning }) } });
    expect((await send('one')).errors).toBeUndefined();
    const bad = (await send('two', 'QUEUE')).data!.sendMessage;
    const good = (await send('three', 'QUEUE')).data!.sendMessage;
    await t.app.db.prisma.$executeRawUnsafe(
      `UPDATE pending_turns SET message = '"not a message"'::jsonb WHERE id = $1::uuid`,
      rawId(bad.queued!.id),
    );
    const logged = spyLogs();
    t.fake.enqueue({ text: 'answer to three' });
    held.open();

    const events = await sub.waitFor(
      (es) =>
        es.some((e) => e.__typename === 'QueuedMessageFailed') &&
        es.some((e) => e.__typename === 'TurnEnded' && e.turn.id === good.turn.id),
      60_000,
    );
    sub.dispose();
    const failed = events.filter(
      (e): e is Extract<Event, { __typename: 'QueuedMessageFailed' }> => e.__typename === 'QueuedMessageFailed',
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]!.queuedId).toBe(bad.queued!.id);
    expect(failed[0]!.failureReason).toMatch(/not an object/);
    expect(await history(sessionId)).toEqual(['one', 'first answer', 'three', 'answer to three']);

    const node = (await t.http(PendingParkingNodeDocument, { id: bad.queued!.id })).data!.node;
    expect(node).toMatchObject({ status: 'FAILED', position: null });
    expect(node && 'failureReason' in node && node.failureReason).toMatch(/not an object/);
    const row = await t.app.db.prisma.pendingTurn.findUnique({ where: { id: rawId(bad.queued!.id) } });
    expect(row).toMatchObject({ status: 'FAILED', failures: MAX });
    expect(row!.failedAt).not.toBeNull();
    // Its QUEUED turn ended with it.
    expect((await t.app.db.prisma.turn.findUnique({ where: { id: rawId(bad.turn.id) } }))?.status).toBe('CANCELLED');
    // One line, when it was parked: none per retry.
    expect(logged(rawId(bad.queued!.id))).toHaveLength(1);
    // Parked rows are not claimed again.
    await t.app.queue.dispatchNow();
    expect((await t.app.db.prisma.pendingTurn.findUnique({ where: { id: rawId(bad.queued!.id) } }))?.failures).toBe(
      MAX,
    );
  });

  it('transient database failures (serialization, lock timeout, lost connection) are not counted', async () => {
    const sessionId = (await t.http(PendingParkingCreateSessionDocument, {})).data!.createSession.id;
    const held = gate();
    t.fake.enqueue({ text: 'first answer', hold: held.promise });
    const send = (content: string, whileRunning?: 'QUEUE') =>
      t.http(PendingParkingSendDocument, { input: { sessionId, content, ...(whileRunning && { whileRunning }) } });
    expect((await send('one')).errors).toBeUndefined();
    const queued = (await send('two', 'QUEUE')).data!.sendMessage;
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const recallId = (await t.http(PendingParkingSchedule, { s: sessionId, at, text: 'later' })).data!.scheduleRecall
      .id;
    // What the database says when it fails, not the entry: SQLSTATEs 40001, 55P03, 57P01, 08006, 40P01.
    const blips = [
      ['40001', 'could not serialize access due to concurrent update'],
      ['55P03', 'canceling statement due to lock timeout'],
      ['57P01', 'terminating connection due to administrator command'],
      ['08006', 'Connection terminated unexpectedly'],
      ['40P01', 'deadlock detected'],
    ] as const;
    const blip = (n: number) =>
      Object.assign(new Error(blips[n % blips.length]![1]), { code: blips[n % blips.length]![0] });
    let queueFailures = 0;
    let recallFailures = 0;
    const dispatch = t.app.turns.dispatchQueued.bind(t.app.turns);
    vi.spyOn(t.app.turns, 'dispatchQueued').mockImplementation((row, claimant) =>
      row.id === rawId(queued.queued!.id) && queueFailures < MAX + 2
        ? Promise.reject(blip(queueFailures++))
        : dispatch(row, claimant),
    );
    const fire = t.app.turns.fireRecall.bind(t.app.turns);
    vi.spyOn(t.app.turns, 'fireRecall').mockImplementation((recall, ...rest) =>
      recall.id === rawId(recallId) && recallFailures < MAX + 2
        ? Promise.reject(blip(recallFailures++))
        : fire(recall, ...rest),
    );
    t.fake.enqueue({ text: 'answer to two' });
    t.fake.enqueue({ text: 'answer to later' });
    held.open();
    await eventually(
      () => t.app.db.prisma.turn.findUnique({ where: { id: rawId(queued.turn.id) } }),
      (turn) => turn?.status === 'COMPLETED',
      60_000,
    );
    expect(queueFailures).toBe(MAX + 2);
    await t.app.db.prisma.pendingTurn.update({ where: { id: rawId(recallId) }, data: { dueAt: new Date() } });
    await eventually(
      () => t.http(PendingParkingNodeDocument, { id: recallId }),
      (r) => r.data?.node != null && 'recallStatus' in r.data.node && r.data.node.recallStatus === 'FIRED',
      60_000,
    );
    expect(recallFailures).toBe(MAX + 2);
    const row = await t.app.db.prisma.pendingTurn.findUnique({ where: { id: rawId(queued.queued!.id) } });
    expect(row).toMatchObject({ status: 'DISPATCHED', failures: 0 });
    expect((await t.app.db.prisma.pendingTurn.findUnique({ where: { id: rawId(recallId) } }))?.failures).toBe(0);
    expect(
      await eventually(
        () => history(sessionId),
        (h) => h.length >= 6,
        60_000,
      ),
    ).toEqual(['one', 'first answer', 'two', 'answer to two', 'later', 'answer to later']);
  });

  it('a recall whose firing keeps failing is parked after N attempts; another recall fires', async () => {
    const sessionId = (await t.http(PendingParkingCreateSessionDocument, {})).data!.createSession.id;
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const badId = (await t.http(PendingParkingSchedule, { s: sessionId, at, text: 'bad' })).data!.scheduleRecall.id;
    const sub = t.subscribe(PendingParkingEventsDocument, { sessionId, after: '0' });
    const logged = spyLogs();
    const fire = t.app.turns.fireRecall.bind(t.app.turns);
    vi.spyOn(t.app.turns, 'fireRecall').mockImplementation((recall, ...rest) =>
      recall.id === rawId(badId) ? Promise.reject(new Error('injected: cannot fire')) : fire(recall, ...rest),
    );
    await t.app.db.prisma.pendingTurn.update({ where: { id: rawId(badId) }, data: { dueAt: new Date() } });
    const events = await sub.waitFor((es) => es.some((e) => e.__typename === 'RecallFailed'), 60_000);
    sub.dispose();
    const failed = events.find((e) => e.__typename === 'RecallFailed');
    expect(failed).toMatchObject({ recallId: badId, failureReason: 'Error: injected: cannot fire' });
    const node = (await t.http(PendingParkingNodeDocument, { id: badId })).data!.node;
    expect(node).toMatchObject({ recallStatus: 'FAILED', failureReason: 'Error: injected: cannot fire' });
    expect((await t.app.db.prisma.pendingTurn.findUnique({ where: { id: rawId(badId) } }))?.failures).toBe(MAX);
    expect(logged(rawId(badId))).toHaveLength(1);

    // The scheduler lives on: another recall of the session fires.
    t.fake.enqueue({ text: 'answer to good' });
    const goodId = (await t.http(PendingParkingSchedule, { s: sessionId, at, text: 'good' })).data!.scheduleRecall.id;
    await t.app.db.prisma.pendingTurn.update({ where: { id: rawId(goodId) }, data: { dueAt: new Date() } });
    await eventually(
      () => t.http(PendingParkingNodeDocument, { id: goodId }),
      (r) => r.data?.node != null && 'recallStatus' in r.data.node && r.data.node.recallStatus === 'FIRED',
      60_000,
    );
    expect(await history(sessionId)).toContain('good');
    expect(await history(sessionId)).not.toContain('bad');
  });
});

const PendingParkingSchedule = PendingParkingScheduleDocument;
