import { describe, expect, it } from 'vitest';
import { compareEventIds, MemoryEventBus } from '../../src/events/bus.js';
import { RedisEventBus } from '../../src/events/redis-bus.js';
import { isPrivateEvent, sessionEventStream } from '../../src/events/stream.js';
import type { SessionEvent } from '../../src/events/types.js';
import { needsRedis, skipping } from '../support/skips.js';

describe('session event stream', () => {
  it('replays a long gap (more than 1,024 events) in order without overflowing', async () => {
    const bus = new MemoryEventBus(5000);
    for (let i = 0; i < 3000; i++) await bus.publish('s', { type: 'TextDelta', turnId: 't', text: String(i) });
    const stream = sessionEventStream(bus, 's', `${bus.epoch}-10`);
    const seen: string[] = [];
    for await (const event of stream) {
      seen.push(event.eventId);
      if (seen.length === 2990) break;
    }
    expect(seen[0]).toBe(`${bus.epoch}-11`);
    expect(seen.at(-1)).toBe(`${bus.epoch}-3000`);
  });

  it('a subscriber that never reads is closed; the publisher and other subscribers go on', async () => {
    const bus = new MemoryEventBus(100);
    const slow = sessionEventStream(bus, 's', null, 16);
    const fast = sessionEventStream(bus, 's', null, 16);
    const first = slow.next(); // starts the slow one, then never reads again
    const fastFirst = fast.next(); // next() registers the listener synchronously: nothing to wait for
    const received: string[] = [];
    const reading = (async () => {
      received.push((await fastFirst).value.eventId);
      for await (const event of fast) {
        received.push(event.eventId);
        if (received.length === 2000) break;
      }
    })();
    for (let i = 0; i < 2000; i++) {
      await bus.publish('s', { type: 'TextDelta', turnId: 't', text: String(i) });
      if (i % 10 === 0) await new Promise((r) => setImmediate(r));
    }
    await reading;
    expect(received).toHaveLength(2000);
    expect((await first).value.eventId).toBe(`${bus.epoch}-1`);
    // what was buffered is still delivered, then the stream ends with the error
    const drain = async () => {
      for (let i = 0; i < 3000; i++) if ((await slow.next()).done) return 'done';
      return 'not closed';
    };
    await expect(drain()).rejects.toThrow(/fell too far behind/);
  });
});

describe('session event stream, ending', () => {
  it(
    'return() ends a pending read and releases the listener ' + 'at once; every subscriber gets the same event object',
    async () => {
      const bus = new MemoryEventBus(100);
      let listening = 0;
      const onSession = bus.onSession.bind(bus);
      bus.onSession = (id, listener) => {
        listening++;
        const off = onSession(id, listener);
        return () => {
          listening--;
          off();
        };
      };
      const a = sessionEventStream(bus, 's', null);
      const b = sessionEventStream(bus, 's', null);
      const [pendingA, pendingB] = [a.next(), b.next()]; // both listen from here on (registered synchronously)
      const published = await bus.publish('s', { type: 'TextDelta', turnId: 't', text: 'x' });
      expect((await pendingA).value).toBe(published);
      expect((await pendingB).value).toBe(published);
      const waiting = a.next();
      await a.return!();
      expect(await waiting).toEqual({ value: undefined, done: true });
      expect(listening).toBe(1);
      await bus.publish('s', { type: 'TextDelta', turnId: 't', text: 'y' });
      expect((await b.next()).value.text).toBe('y');
      expect(await a.next()).toEqual({ value: undefined, done: true });
      await b.return!();
      expect(listening).toBe(0);
    },
  );
});

describe('in-memory event log', () => {
  it('keeps at most maxSessions logs, evicting the least recently active ones without listeners', async () => {
    const bus = new MemoryEventBus(10, 3);
    const off = bus.onSession('watched', () => undefined);
    await bus.publish('watched', { type: 'TextDelta', turnId: 't', text: 'w' });
    for (const id of ['a', 'b', 'c', 'd']) await bus.publish(id, { type: 'TextDelta', turnId: 't', text: id });
    expect(await bus.replay('watched', '0')).toHaveLength(1);
    expect(await bus.replay('a', '0')).toHaveLength(0);
    expect(await bus.replay('b', '0')).toHaveLength(0);
    expect(await bus.replay('d', '0')).toHaveLength(1);
    off();
  });
});

describe('resume across a restart or a trim', () => {
  const turn = (id: string) => ({
    id,
    sessionId: 's',
    status: 'RUNNING' as const,
    startedAt: '',
    endedAt: null,
    error: null,
    pendingToolCalls: [],
  });
  const userMessage = {} as never;
  const take = async (stream: AsyncIterator<SessionEvent>, n: number) => {
    const out: SessionEvent[] = [];
    while (out.length < n) out.push((await stream.next()).value);
    return out;
  };
  const shape = (e: SessionEvent) =>
    e.type === 'EventsReset'
      ? `EventsReset:${e.reason}`
      : e.type === 'TextDelta'
        ? `${e.type}:${e.turnId}:${e.text}`
        : `${e.type}:${'turn' in e ? e.turn.id : 'turnId' in e ? e.turnId : undefined}`;

  it('ids of one process sort after any id of an earlier one, and within it in publication order', async () => {
    const older = new MemoryEventBus(100);
    const a = await older.publish('s', { type: 'TextDelta', turnId: 't', text: 'a' });
    // the epoch is the start time in ms: wait for the clock to move on (not a fixed pause)
    while (Date.now() <= Number(older.epoch)) await new Promise((r) => setTimeout(r, 1));
    const newer = new MemoryEventBus(100);
    const b = await newer.publish('s', { type: 'TextDelta', turnId: 't', text: 'b' });
    const c = await newer.publish('s', { type: 'TextDelta', turnId: 't', text: 'c' });
    expect(compareEventIds(a.eventId, b.eventId)).toBeLessThan(0);
    expect(compareEventIds(b.eventId, c.eventId)).toBeLessThan(0);
    expect(compareEventIds('21', b.eventId)).toBeLessThan(0); // a plain id from before ids had an epoch
  });

  it(
    'a cursor from a previous process gets EventsReset RESTARTED, ' +
      'the interrupted end, then live events; never orphan fragments',
    async () => {
      const bus = new MemoryEventBus(100);
      // what the restarted process published at start: the old turn's end (and its saved partial)
      await bus.publish('s', { type: 'MessageSaved', turnId: 'old', message: {} as never });
      await bus.publish('s', { type: 'TurnFailed', turn: turn('old'), code: 'INTERRUPTED', message: 'x' });
      for (const cursor of ['21', '1700000000000-21']) {
        const stream = sessionEventStream(bus, 's', cursor);
        const first = await take(stream, 2);
        await bus.publish('s', { type: 'TurnStarted', turn: turn('new'), userMessage });
        await bus.publish('s', { type: 'TextDelta', turnId: 'new', text: 'hi' });
        const rest = await take(stream, 2);
        expect([...first, ...rest].map(shape)).toEqual([
          'EventsReset:RESTARTED',
          'TurnFailed:old',
          'TurnStarted:new',
          'TextDelta:new:hi',
        ]);
        expect(first[0]!.eventId).toBe(`${bus.epoch}-0`);
        // The reset is this subscriber's alone (not kept for sharing); the bus's events are shared.
        expect([...first, ...rest].map(isPrivateEvent)).toEqual([true, false, false, false]);
        await stream.return!();
      }
    },
  );

  it(
    'a cursor past EVENT_RETENTION gets EventsReset TRIMMED, then ' +
      'no fragment of the turn whose start was trimmed, only its end',
    async () => {
      const bus = new MemoryEventBus(10);
      const started = await bus.publish('s', { type: 'TurnStarted', turn: turn('t1'), userMessage });
      for (let i = 0; i < 20; i++) await bus.publish('s', { type: 'TextDelta', turnId: 't1', text: String(i) });
      const stream = sessionEventStream(bus, 's', started.eventId);
      const reset = await take(stream, 1);
      await bus.publish('s', { type: 'TextDelta', turnId: 't1', text: 'live' });
      await bus.publish('s', {
        type: 'TurnEnded',
        turn: turn('t1'),
        assistantMessage: null,
        usage: { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0, cacheWriteTokens: 0 },
      });
      await bus.publish('s', { type: 'TurnStarted', turn: turn('t2'), userMessage });
      await bus.publish('s', { type: 'TextDelta', turnId: 't2', text: 'new' });
      const rest = await take(stream, 3);
      expect([...reset, ...rest].map(shape)).toEqual([
        'EventsReset:TRIMMED',
        'TurnEnded:t1',
        'TurnStarted:t2',
        'TextDelta:t2:new',
      ]);
      await stream.return!();
      // a cursor the log still holds resumes exactly, without a reset
      const last = (await bus.replay('s', `${bus.epoch}-0`)).at(-3)!;
      expect(await bus.gap('s', last.eventId)).toBeNull();
      const exact = sessionEventStream(bus, 's', last.eventId);
      expect((await take(exact, 2)).map(shape)).toEqual(['TurnStarted:t2', 'TextDelta:t2:new']);
      await exact.return!();
    },
  );
});

const skipped = skipping('Redis stream gaps', needsRedis());
describe.skipIf(skipped)('Redis stream gaps', () => {
  it('tells a trimmed stream, a lost stream and an exact resume apart', async () => {
    const bus = new RedisEventBus(process.env.REDIS_URL!, 10);
    const sessionId = `gap-test-${process.pid}-${Date.now()}`;
    await bus.ready();
    try {
      const first = await bus.publish(sessionId, { type: 'TextDelta', turnId: 't', text: '0' });
      expect(await bus.gap(sessionId, first.eventId)).toBeNull();
      let last = first;
      for (let i = 0; i < 400; i++)
        last = await bus.publish(sessionId, { type: 'TextDelta', turnId: 't', text: String(i) });
      expect(await bus.gap(sessionId, first.eventId)).toMatchObject({ reason: 'TRIMMED' });
      expect(await bus.gap(sessionId, last.eventId)).toBeNull();
      expect(await bus.gap(`${sessionId}-never`, last.eventId)).toMatchObject({ reason: 'RESTARTED' });
      expect(await bus.gap(`${sessionId}-never`, '0-0')).toBeNull();
    } finally {
      await bus.publishList({ kind: 'deleted', sessionId, userId: null });
      await bus.close();
    }
  });
});
