/**
 * What a reload learns about how each answer ended (the web client's "stopped" mark and its Retry after a reload):
 * Message.stopped on an answer cut short by a stop, and Message.turn on a user message, whose status says whether its
 * answer completed, failed (with the error line) or was stopped. Read from what is stored (the turn's status, the
 * saved answer's metadata), on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  StoppedCancelDocument,
  StoppedCreateSessionDocument,
  StoppedHistoryDocument,
  StoppedListEventsDocument,
  StoppedSendDocument,
  type SessionEventsSubscription,
} from './generated/graphql.js';
import {
  createTestServer,
  dbKind,
  isEvent,
  type ServerContext,
  SESSION_EVENTS,
  type Subscription,
} from './support/harness.js';
import { gate } from './support/fake-provider.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false, providerConnectRetries: 0 });
});
afterAll(async () => {
  await t?.close();
});

async function history(id: string) {
  const r = await t.http(StoppedHistoryDocument, { id });
  expect(r.errors).toBeUndefined();
  return r.data!.session!.history.edges.map((e) => e.node);
}

type Events = Subscription<SessionEventsSubscription['sessionEvents']>;

/** Sends `content` and waits on `sub` (the session's events) for its turn's end (TurnEnded or TurnFailed). */
async function exchange(sub: Events, sessionId: string, content: string, during?: (turnId: string) => Promise<void>) {
  const sent = await t.http(StoppedSendDocument, { input: { sessionId, content } });
  expect(sent.errors).toBeUndefined();
  const turnId = sent.data!.sendMessage.turn.id;
  await during?.(turnId);
  await sub.waitFor((es) =>
    es.some((e) => (isEvent('TurnEnded')(e) || isEvent('TurnFailed')(e)) && e.turn.id === turnId),
  );
  return turnId;
}

describe(`how each answer ended, as stored (${dbKind})`, () => {
  it('completed, stopped and failed turns read back from the history alone', async () => {
    const id = (await t.http(StoppedCreateSessionDocument, {})).data!.createSession.id;
    const sub = t.subscribe(SESSION_EVENTS, { sessionId: id });
    await t.listening(id);

    t.fake.enqueue({ text: 'a full answer' });
    const done = await exchange(sub, id, 'first');

    const held = gate();
    t.fake.enqueue({ text: ['cut ', 'short ', 'never sent'], hold: held.promise, holdBeforeChunk: 2 });
    const stopped = await exchange(sub, id, 'second', async (turnId) => {
      const streamed = (es: typeof sub.events) =>
        es
          .filter(isEvent('TextDelta'))
          .filter((e) => e.turnId === turnId)
          .map((e) => e.text)
          .join('');
      await sub.waitFor((es) => streamed(es) === 'cut short ');
      expect((await t.http(StoppedCancelDocument, { id: turnId })).data!.cancelTurn.status).toBe('CANCELLED');
      held.open();
    });

    t.fake.enqueue({ status: 500 });
    const failed = await exchange(sub, id, 'third');
    sub.dispose();

    const rows = await history(id);
    expect(rows.map((m) => [m.role, m.content, m.stopped, m.turn?.status ?? null])).toEqual([
      ['USER', 'first', false, 'COMPLETED'],
      ['ASSISTANT', 'a full answer', false, null],
      ['USER', 'second', false, 'CANCELLED'],
      ['ASSISTANT', 'cut short ', true, null],
      ['USER', 'third', false, 'FAILED'],
    ]);
    expect(rows.map((m) => m.turn?.id ?? null).filter(Boolean)).toEqual([done, stopped, failed]);
    // The failed turn's line names the cause, as TurnFailed did.
    expect(rows[4]!.turn!.error).toMatch(/\S/);
    expect(rows[0]!.turn!.error).toBeNull();
  });

  it("tells the session list of every turn's end: the preview and count are the saved answer's", async () => {
    const id = (await t.http(StoppedCreateSessionDocument, {})).data!.createSession.id;
    const list = t.subscribe(StoppedListEventsDocument, {});
    await t.listening('list');
    const sub = t.subscribe(SESSION_EVENTS, { sessionId: id });
    await t.listening(id);
    t.fake.enqueue({ text: 'the answer everyone sees' });
    await exchange(sub, id, 'question');
    sub.dispose();
    const seen = await list.waitFor((es) =>
      es.some((e) => e.sessionId === id && e.session?.preview === 'the answer everyone sees'),
    );
    expect(seen.findLast((e) => e.sessionId === id)).toMatchObject({
      kind: 'activity',
      session: { displayMessageCount: 2, preview: 'the answer everyone sees' },
    });
    list.dispose();
  });
});
