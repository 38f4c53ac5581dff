import { describe, expect, it } from 'vitest';
import { MemoryEventBus, sessionEventStream } from '../../src/events/bus.js';

describe('session event stream', () => {
  it('replays a long gap (more than 1,024 events) in order without overflowing', async () => {
    const bus = new MemoryEventBus(5000);
    for (let i = 0; i < 3000; i++) await bus.publish('s', { type: 'TextDelta', turnId: 't', text: String(i) });
    const stream = sessionEventStream(bus, 's', '10');
    const seen: string[] = [];
    for await (const event of stream) {
      seen.push(event.eventId);
      if (seen.length === 2990) break;
    }
    expect(seen[0]).toBe('11');
    expect(seen.at(-1)).toBe('3000');
  });

  it('a subscriber that never reads is closed; the publisher and other subscribers go on', async () => {
    const bus = new MemoryEventBus(100);
    const slow = sessionEventStream(bus, 's', null, 16);
    const fast = sessionEventStream(bus, 's', null, 16);
    const first = slow.next(); // starts the slow one, then never reads again
    const fastFirst = fast.next();
    await new Promise((r) => setTimeout(r, 10));
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
    expect((await first).value.eventId).toBe('1');
    // what was buffered is still delivered, then the stream ends with the error
    const drain = async () => {
      for (let i = 0; i < 3000; i++) if ((await slow.next()).done) return 'done';
      return 'not closed';
    };
    await expect(drain()).rejects.toThrow(/fell too far behind/);
  });
});

describe('session event stream, ending', () => {
  it('return() ends a pending read and releases the listener at once; every subscriber gets the same event object', async () => {
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
    const [pendingA, pendingB] = [a.next(), b.next()];
    await new Promise((r) => setTimeout(r, 5));
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
  });
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
