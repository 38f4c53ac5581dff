/**
 * Turns of a session start in one order whatever the door (issue 31):
 * REJECT answers CONFLICT while a turn runs or queued entries wait; INTERRUPT
 * cancels the running turn and its message runs next, ahead of the waiting
 * entries, which then follow in order. Waits are on state, never on time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  PendingParkingCreateSessionDocument,
  PendingParkingHistoryDocument,
  PendingParkingSendDocument,
  type WhileRunning,
} from './generated/graphql.js';
import { gate, jsonList, jsonRecord, messagesOf } from './support/fake-provider.js';
import { codeOf, createTestServer, dbKind, eventually, type ServerContext } from './support/harness.js';

let t: ServerContext;

beforeAll(async () => {
  t = await createTestServer({ pendingPollMs: 100, titleGenerationEnabled: false, contextCompressionEnabled: false });
  t.fake.responder = (call) => {
    const last = messagesOf(call.body)
      .filter((m) => m.role === 'user')
      .at(-1);
    const text =
      typeof last?.content === 'string'
        ? last.content
        : jsonList(last?.content)
            .map(jsonRecord)
            .map((b) => b.text)
            .join('');
    return { text: `answer to ${text}` };
  };
}, 180_000);
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await t?.close();
});

const rawId = (id: string) =>
  Buffer.from(id, 'base64')
    .toString()
    .replace(/^[A-Za-z]+:/, '');
const history = async (sessionId: string) =>
  (await t.http(PendingParkingHistoryDocument, { id: sessionId })).data!.session!.history.edges.map(
    (e) => e.node.content,
  );
const turnStatus = (id: string) => t.app.db.prisma.turn.findUnique({ where: { id: rawId(id) } }).then((r) => r?.status);
const settled = (ids: string[], status = 'COMPLETED') =>
  eventually(
    () => Promise.all(ids.map(turnStatus)),
    (all) => all.every((s) => s === status),
    60_000,
  );

async function session() {
  const sessionId = (await t.http(PendingParkingCreateSessionDocument, {})).data!.createSession.id;
  const send = (content: string, whileRunning?: WhileRunning) =>
    t.http(PendingParkingSendDocument, { input: { sessionId, content, ...(whileRunning && { whileRunning }) } });
  return { sessionId, send };
}

describe(`one order across doors (${dbKind})`, () => {
  it('REJECT answers CONFLICT while entries wait with no turn running; INTERRUPT runs ahead of them', async () => {
    const { sessionId, send } = await session();
    const held = gate();
    t.fake.enqueue({ text: 'first answer', hold: held.promise });
    const one = (await send('one')).data!.sendMessage;
    const two = (await send('two', 'QUEUE')).data!.sendMessage;
    const three = (await send('three', 'QUEUE')).data!.sendMessage;
    // The dispatcher pauses: the turn ends and the entries wait with no turn running.
    const pause = vi.spyOn(t.app.turns, 'dispatchQueued').mockImplementation(async (row, claimant) => {
      await t.app.turns.queued.release(row.id, claimant);
      return 'busy';
    });
    held.open();
    await settled([one.turn.id]);
    expect(await t.app.turns.queued.hasWaiting(rawId(sessionId))).toBe(true);

    expect(codeOf(await send('rejected'))).toBe('CONFLICT');
    expect(codeOf(await send('rejected', 'REJECT'))).toBe('CONFLICT');
    const urgent = await send('urgent', 'INTERRUPT');
    expect(urgent.errors).toBeUndefined();
    await settled([urgent.data!.sendMessage.turn.id]);
    pause.mockRestore();
    await t.app.queue.dispatchNow();
    await settled([two.turn.id, three.turn.id]);
    expect(await history(sessionId)).toEqual([
      'one',
      'first answer',
      'urgent',
      'answer to urgent',
      'two',
      'answer to two',
      'three',
      'answer to three',
    ]);
  });

  it('an entry queued after REJECT looked is seen in the transaction that starts the turn: CONFLICT', async () => {
    const { sessionId, send } = await session();
    const id = rawId(sessionId);
    // The dispatcher pauses: the entry queued in the gap stays waiting.
    vi.spyOn(t.app.turns, 'dispatchQueued').mockImplementation(async (row, claimant) => {
      await t.app.turns.queued.release(row.id, claimant);
      return 'busy';
    });
    const accept = t.app.turns.intake.accept.bind(t.app.turns.intake);
    // Between the checks at the door and the turn's transaction, another request queues an entry.
    const gap = vi.spyOn(t.app.turns.intake, 'accept').mockImplementation(async (s, input) => {
      gap.mockRestore();
      await t.app.turns.pending.enqueue(id, { role: 'user', content: 'in the gap' }, [], null, null);
      return accept(s, input);
    });
    const rejected = await send('rejected', 'REJECT');
    expect(codeOf(rejected)).toBe('CONFLICT');
    expect(await history(sessionId)).toEqual([]);

    // QUEUE in the same gap waits behind the entry instead of starting ahead of it.
    const again = vi.spyOn(t.app.turns.intake, 'accept').mockImplementation(async (s, input) => {
      again.mockRestore();
      await t.app.turns.pending.enqueue(id, { role: 'user', content: 'also in the gap' }, [], null, null);
      return accept(s, input);
    });
    const queued = (await send('queued', 'QUEUE')).data!.sendMessage;
    expect(queued.queued).not.toBeNull();
    vi.restoreAllMocks();
    await t.app.queue.dispatchNow();
    await settled([queued.turn.id]);
    expect(await history(sessionId)).toEqual([
      'in the gap',
      'answer to in the gap',
      'also in the gap',
      'answer to also in the gap',
      'queued',
      'answer to queued',
    ]);
  });

  it('INTERRUPT cancels the running turn; its message runs next, then the waiting entries in order', async () => {
    const { sessionId, send } = await session();
    const held = gate();
    t.fake.enqueue({ text: ['partial ', 'never'], hold: held.promise, holdBeforeChunk: 1 });
    const one = (await send('one')).data!.sendMessage;
    const two = (await send('two', 'QUEUE')).data!.sendMessage;
    const three = (await send('three', 'QUEUE')).data!.sendMessage;
    expect(codeOf(await send('rejected'))).toBe('CONFLICT');
    const urgent = (await send('urgent', 'INTERRUPT')).data!.sendMessage;
    held.open();
    await settled([one.turn.id], 'CANCELLED');
    await settled([urgent.turn.id, two.turn.id, three.turn.id]);
    const rows = await history(sessionId);
    expect(rows.filter((c) => c !== 'partial ')).toEqual([
      'one',
      'urgent',
      'answer to urgent',
      'two',
      'answer to two',
      'three',
      'answer to three',
    ]);
  });
});
