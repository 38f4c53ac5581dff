/**
 * Scheduled recalls (is_recall) in one process, on the test database
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL): a due recall fires exactly
 * once as an isRecall message answered by a turn, announced on the session's
 * events; a cancelled one never fires; a session busy with a turn gets its
 * recall after that turn; the model's schedule_recall tool; a claim whose
 * lease expired (its process died) is taken over and fires once; bad input is
 * refused with nothing written. Waits are on state (eventually) or events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, codeOf, eventually, type ServerContext } from './support/harness.js';
import { ollamaRequest } from './support/fake-provider.js';
import {
  RecallsCancelDocument,
  RecallsCreateSessionDocument,
  RecallsEventsDocument,
  type RecallsEventsSubscription,
  RecallsHistoryDocument,
  RecallsIdsDocument,
  RecallsListedDocument,
  RecallsNodeDocument,
  RecallsPendingAndAllDocument,
  RecallsPendingDocument,
  RecallsScheduleDocument,
  type RecallsScheduleMutationVariables,
  RecallsSendLongQuestionDocument,
  RecallsSendRemindMeDocument,
  RecallsTurnStatusDocument,
} from './generated/graphql.js';

let t: ServerContext;
let alice: string;
let bob: string;
let auditor: string;

beforeAll(async () => {
  t = await createTestServer({
    authEnabled: true,
    pendingPollMs: 200,
    titleGenerationEnabled: false,
    recallToolEnabled: true,
  });
  alice = (await t.app.auth.createUser('alice')).key;
  bob = (await t.app.auth.createUser('bob')).key;
  auditor = (await t.app.auth.createUser('auditor', { permissions: ['sessions.read_all'] })).key;
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const SCHEDULE = RecallsScheduleDocument;
const CANCEL = RecallsCancelDocument;
const RECALL = RecallsNodeDocument;
const HISTORY = RecallsHistoryDocument;

async function newSession(token = alice): Promise<string> {
  const r = await t.http(RecallsCreateSessionDocument, {}, token);
  return r.data!.createSession.id;
}
/** An event of RecallsEvents of the given type. */
type EventOf<N extends RecallsEventsSubscription['sessionEvents']['__typename']> = Extract<
  RecallsEventsSubscription['sessionEvents'],
  { __typename: N }
>;
/** The database id inside a global id. */
const rawId = (gid: string) =>
  Buffer.from(gid, 'base64')
    .toString()
    .replace(/^[A-Za-z]+:/, '');
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
/** Recalls are scheduled an hour ahead (in the future however slow the request) and made due here, in the database. */
const makeDue = (...ids: string[]) =>
  t.app.db.prisma.pendingTurn.updateMany({ where: { id: { in: ids.map(rawId) } }, data: { dueAt: new Date() } });
const history = async (sessionId: string) =>
  (await t.http(HISTORY, { id: sessionId }, alice)).data!.session!.history.edges.map((e) => e.node);
/** The recall (null when not found or not readable); `node` is typed as the Recall its fragment selects. */
const recall = async (id: string) => {
  const node = (await t.http(RECALL, { id }, alice)).data?.node;
  return node && 'status' in node ? node : null;
};
const fired = (id: string) =>
  eventually(
    () => recall(id),
    (r) => r?.status === 'FIRED' && r.turn?.status === 'COMPLETED',
    60_000,
  );

describe('scheduled recalls', () => {
  it('a due recall fires exactly once: an isRecall message, ' +
    'answered by a turn, announced on the session events', async () => {
    const sessionId = await newSession();
    const sub = t.subscribe(RecallsEventsDocument, { s: sessionId }, alice);
    t.fake.enqueue({ text: 'Time to stretch!' });
    const scheduled = await t.http(
      SCHEDULE,
      { s: sessionId, at: inMs(3_600_000), text: 'Remind me to stretch' },
      alice,
    );
    expect(scheduled.errors).toBeUndefined();
    expect(scheduled.data!.scheduleRecall).toMatchObject({
      status: 'PENDING',
      text: 'Remind me to stretch',
      source: 'USER',
      session: { id: sessionId },
    });
    const id = scheduled.data!.scheduleRecall.id;
    const pending = await t.http(RecallsPendingDocument, { id: sessionId }, alice);
    expect(pending.data!.session!.recalls).toEqual([{ id, status: 'PENDING' }]);
    // The subscription is live before the recall is due, so it sees the recall's turn from its start.
    await t.listening(sessionId, 1);
    await makeDue(id);

    const done = (await fired(id))!;
    expect(done.message).toEqual({ content: 'Remind me to stretch', isRecall: true, role: 'USER' });
    const events = await sub.waitFor((es) => es.some((e) => e.__typename === 'TurnEnded'), 60_000);
    const started = events.find((e): e is EventOf<'TurnStarted'> => e.__typename === 'TurnStarted');
    expect(started!.userMessage).toEqual({ content: 'Remind me to stretch', isRecall: true });
    expect(events.find((e) => e.__typename === 'TurnEnded')).toMatchObject({
      turn: { id: done.turn!.id, status: 'COMPLETED' },
      assistantMessage: { content: 'Time to stretch!' },
    });
    // The model saw the text, with the notice that it is a scheduled recall.
    const asked = ollamaRequest(t.fake.requests.at(-1));
    const lastUser = asked.messages!.filter((m) => m.role === 'user').at(-1)!;
    expect(lastUser.content).toContain('Remind me to stretch');
    expect(lastUser.content).toContain('[Scheduled recall');

    // More wake-ups fire nothing again.
    await t.app.recalls.fireDue();
    await t.app.recalls.fireDue();
    const rows = await history(sessionId);
    expect(rows.filter((m) => m.isRecall)).toHaveLength(1);
    expect(rows.map((m) => [m.role, m.content])).toEqual([
      ['USER', 'Remind me to stretch'],
      ['ASSISTANT', 'Time to stretch!'],
    ]);
    // Pending list is empty now; includeFinished shows it.
    const after = await t.http(RecallsPendingAndAllDocument, { id: sessionId }, alice);
    expect(after.data!.session!.recalls).toEqual([]);
    expect(after.data!.session!.all).toEqual([{ id, status: 'FIRED' }]);
    // A fired recall cannot be cancelled.
    expect(codeOf(await t.http(CANCEL, { id }, alice))).toBe('CONFLICT');
    sub.dispose();
  }, 120_000);

  it('a cancelled recall never fires (a later one in the same session does)', async () => {
    const sessionId = await newSession();
    // Scheduled an hour ahead (however slow the machine, both are in the future when they arrive), then made due
    // in the database once one is cancelled: only the cancel keeps it from firing.
    const first = (await t.http(SCHEDULE, { s: sessionId, at: inMs(3_600_000), text: 'cancelled one' }, alice)).data!
      .scheduleRecall.id;
    const second = (await t.http(SCHEDULE, { s: sessionId, at: inMs(3_600_000), text: 'kept one' }, alice)).data!
      .scheduleRecall.id;
    const cancelled = await t.http(CANCEL, { id: first }, alice);
    expect(cancelled.errors).toBeUndefined();
    expect(cancelled.data!.cancelRecall).toMatchObject({ id: first, status: 'CANCELLED' });
    // Cancelling again answers the same.
    expect((await t.http(CANCEL, { id: first }, alice)).data!.cancelRecall.status).toBe('CANCELLED');
    await makeDue(first, second);
    await fired(second);
    expect((await recall(first))!.status).toBe('CANCELLED');
    const rows = await history(sessionId);
    expect(rows.filter((m) => m.isRecall).map((m) => m.content)).toEqual(['kept one']);
  }, 120_000);

  it('a recall due while a turn runs waits for that turn, then fires', async () => {
    const sessionId = await newSession();
    t.fake.enqueue({ text: ['slow ', 'answer ', 'in ', 'parts'], chunkDelayMs: 400 }, { text: 'recall answered' });
    const sent = await t.http(RecallsSendLongQuestionDocument, { s: sessionId }, alice);
    const turnId = sent.data!.sendMessage.turn.id;
    const id = (await t.http(SCHEDULE, { s: sessionId, at: inMs(3_600_000), text: 'while busy' }, alice)).data!
      .scheduleRecall.id;
    await makeDue(id);
    await fired(id);
    const first = await t.http(RecallsTurnStatusDocument, { id: turnId }, alice);
    expect(first.data!.turn!.status).toBe('COMPLETED');
    const rows = await history(sessionId);
    expect(rows.map((m) => [m.role, m.content, m.isRecall])).toEqual([
      ['USER', 'long question', false],
      ['ASSISTANT', 'slow answer in parts', false],
      ['USER', 'while busy', true],
      ['ASSISTANT', 'recall answered', false],
    ]);
  }, 120_000);

  it('the model schedules one with schedule_recall; it fires as source MODEL', async () => {
    const sessionId = await newSession();
    // A time without a zone would be read in the server's zone: the tool refuses it (and a date in prose).
    const tool = t.app.tools.get('schedule_recall')!;
    for (const at of ['2099-12-02T09:00:00', 'Dec 25 2099', '12/31/2099']) {
      const refused = await tool.run(
        { text: 'x', at },
        { sessionId: rawId(sessionId), turnId: 'none', signal: new AbortController().signal },
      );
      expect(refused.isError, at).toBe(true);
    }
    t.fake.enqueue(
      {
        toolCalls: [
          { name: 'schedule_recall', arguments: { in_seconds: 1, text: 'check the oven' }, id: 'call_recall' },
        ],
      },
      { text: 'I will remind you.' },
      { text: 'Oven check!' },
    );
    await t.http(RecallsSendRemindMeDocument, { s: sessionId }, alice);
    const listed = await eventually(
      () => t.http(RecallsListedDocument, { id: sessionId }, alice),
      (r) => r.data?.session?.recalls?.length === 1,
      60_000,
    );
    const scheduled = listed.data!.session!.recalls[0]!;
    expect(scheduled).toMatchObject({ source: 'MODEL', text: 'check the oven' });
    const done = (await fired(scheduled.id))!;
    expect(done.message).toMatchObject({ content: 'check the oven', isRecall: true });
    const rows = await history(sessionId);
    const recallAt = rows.findIndex((m) => m.isRecall);
    expect(rows.slice(0, recallAt).map((m) => m.content)).toContain('I will remind you.');
    expect(rows.slice(recallAt).map((m) => [m.role, m.content])).toEqual([
      ['USER', 'check the oven'],
      ['ASSISTANT', 'Oven check!'],
    ]);
    expect(rows.filter((m) => m.isRecall)).toHaveLength(1);
  }, 120_000);

  it('a claim whose lease expired (its process died before firing) ' +
    'is taken over and fires once; a live claim is left alone', async () => {
    const gid = await newSession();
    const sessionId = rawId(gid);
    const prisma = t.app.db.prisma;
    const dead = await prisma.pendingTurn.create({
      data: {
        sessionId,
        owner: null,
        dueAt: new Date(Date.now() - 60_000),
        kind: 'RECALL',
        content: 'left by a dead process',
        status: 'CLAIMED',
        claimedBy: 'dead-process',
        claimedAt: new Date(Date.now() - 10 * 60_000),
        attempts: 1,
      },
    });
    await prisma.pendingTurn.create({
      data: {
        sessionId,
        owner: null,
        dueAt: new Date(Date.now() - 60_000),
        kind: 'RECALL',
        content: 'held by a live process',
        status: 'CLAIMED',
        claimedBy: 'live-process',
        claimedAt: new Date(),
        attempts: 1,
      },
    });
    await t.app.recalls.fireDue();
    const deadGid = Buffer.from(`Recall:${dead.id}`).toString('base64');
    await fired(deadGid);
    await t.app.recalls.fireDue();
    const rows = await prisma.pendingTurn.findMany({ where: { sessionId }, orderBy: { content: 'asc' } });
    expect(rows.map((r) => [r.content, r.status, r.attempts])).toEqual([
      ['held by a live process', 'CLAIMED', 1],
      ['left by a dead process', 'FIRED', 2],
    ]);
    expect((await history(gid)).filter((m) => m.isRecall).map((m) => m.content)).toEqual(['left by a dead process']);
  }, 120_000);

  it('refuses bad input with BAD_USER_INPUT and writes ' +
    "nothing; another user's session or recall is NOT_FOUND", async () => {
    const sessionId = await newSession();
    const cases: [string, RecallsScheduleMutationVariables][] = [
      ['past', { s: sessionId, at: inMs(-1_000), text: 'x' }],
      ['too far', { s: sessionId, at: inMs(400 * 86_400_000), text: 'x' }],
      ['empty', { s: sessionId, at: inMs(60_000), text: '   ' }],
      ['only zero-width spaces', { s: sessionId, at: inMs(60_000), text: '\u200b\u2060\u200b' }],
      ['NUL', { s: sessionId, at: inMs(60_000), text: 'a\u0000b' }],
      ['bad date', { s: sessionId, at: 'tomorrow', text: 'x' }],
      ['bad id', { s: 'nope', at: inMs(60_000), text: 'x' }],
      ['too long', { s: sessionId, at: inMs(60_000), text: 'x'.repeat(t.app.config.maxMessageChars + 1) }],
    ];
    for (const [name, vars] of cases) {
      const r = await t.http(SCHEDULE, vars, alice);
      expect(codeOf(r), name).toBe('BAD_USER_INPUT');
    }
    expect(codeOf(await t.http(SCHEDULE, { s: sessionId, at: inMs(60_000), text: 'mine' }, bob))).toBe('NOT_FOUND');
    expect(await t.app.db.prisma.pendingTurn.count({ where: { sessionId: rawId(sessionId) } })).toBe(0);

    const id = (await t.http(SCHEDULE, { s: sessionId, at: inMs(3_600_000), text: 'private' }, alice)).data!
      .scheduleRecall.id;
    expect(codeOf(await t.http(CANCEL, { id }, bob))).toBe('NOT_FOUND');
    expect((await t.http(RECALL, { id }, bob)).data!.node).toBeNull();
    expect(codeOf(await t.http(RecallsIdsDocument, { id: sessionId }, auditor))).toBe('FORBIDDEN');
    expect(codeOf(await t.http(CANCEL, { id: 'bogus' }, alice))).toBe('BAD_USER_INPUT');
    expect((await recall(id))!.status).toBe('PENDING');
    expect((await t.http(CANCEL, { id }, alice)).data!.cancelRecall.status).toBe('CANCELLED');
  }, 120_000);

  it('bounds pending recalls per session', async () => {
    const sessionId = await newSession();
    const max = t.app.config.recallMaxPendingPerSession;
    await t.app.db.prisma.pendingTurn.createMany({
      data: Array.from({ length: max }, (_, i) => ({
        sessionId: rawId(sessionId),
        owner: null,
        dueAt: new Date(Date.now() + 3_600_000 + i),
        kind: 'RECALL',
        content: `r${i}`,
      })),
    });
    expect(codeOf(await t.http(SCHEDULE, { s: sessionId, at: inMs(60_000), text: 'one too many' }, alice))).toBe(
      'BAD_USER_INPUT',
    );
    expect(await t.app.db.prisma.pendingTurn.count({ where: { sessionId: rawId(sessionId) } })).toBe(max);
  }, 60_000);
});
