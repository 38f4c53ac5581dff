/**
 * A reconnect storm over GraphQL SSE (issue 32, item 3): 50 clients of one local-mode process (all `anonymous`,
 * all 127.0.0.1) make 500 subscription reconnects in all — each aborts its stream and opens the next one at once,
 * resuming with `after` = the last event id it saw — while a session's events are being published. No client is
 * ever refused (TOO_MANY_SUBSCRIPTIONS) though at most 50 streams (plus the ones whose abort the server has not seen
 * yet) are open against a limit of 100, and every client ends up with every event of the durable log, each once and
 * in order. With aborted streams keeping their slot until their session's next event, the storm fills the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LimitsCreateSessionDocument, LimitsRenameDocument } from './generated/graphql.js';
import { createTestServer, eventually, type ServerContext } from './support/harness.js';

const EVENTS =
  'subscription($id: ID!, $after: String) { sessionEvents(sessionId: $id, after: $after) { __typename eventId } }';
const CLIENTS = 50;
const RECONNECTS = 500;
const LIMIT = 100;

interface Seen {
  __typename: string;
  eventId: string;
}

/**
 * One SSE subscription from `after`: calls `onEvent` per event; resolves with the HTTP status once `stop` says so
 * (then aborts), or when the stream ends.
 */
async function stream(
  url: string,
  sessionId: string,
  after: string,
  onEvent: (event: Seen) => boolean,
  abortAtOnce = false,
): Promise<number> {
  const controller = new AbortController();
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: EVENTS, variables: { id: sessionId, after } }),
    signal: controller.signal,
  });
  if (response.status !== 200 || !response.body) {
    await response.text();
    return response.status;
  }
  if (abortAtOnce) {
    controller.abort();
    return 200;
  }
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('\n');
        buffer = buffer.slice(end + 2);
        if (!data) continue;
        const payload = JSON.parse(data) as { data?: { sessionEvents?: Seen }; errors?: unknown };
        if (payload.errors) throw new Error(`stream error: ${JSON.stringify(payload.errors)}`);
        const event = payload.data?.sessionEvents;
        if (event && onEvent(event)) {
          controller.abort();
          return 200;
        }
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return 200;
}

describe('an SSE reconnect storm (local mode, one process)', () => {
  let t: ServerContext;

  beforeAll(async () => {
    t = await createTestServer({ localMaxSseStreams: LIMIT, titleGenerationEnabled: false });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('500 reconnects from 50 clients: never refused under the limit, no event missed or repeated', async () => {
    const created = await t.http(LimitsCreateSessionDocument, {});
    const sessionId = created.data!.createSession.id;
    await t.http(LimitsRenameDocument, { id: sessionId, name: 'r0' });

    let tickets = RECONNECTS;
    let peak = 0;
    const held = () => t.app.subscriptions.held('anonymous');

    // The publisher: renames back to back until the storm is over (each rename is one event of the durable log).
    let storming = true;
    let published = 1;
    const publisher = (async () => {
      while (storming) {
        await t.http(LimitsRenameDocument, { id: sessionId, name: `r${published}` });
        published++;
      }
    })();

    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      const seen: Seen[] = [];
      let after = '0';
      let round = 0;
      while (tickets > 0) {
        tickets--;
        round++;
        // Some streams go away as soon as they are open (abort before any event), the others after 1-3 events.
        const want = (c + round) % 4;
        let got = 0;
        const status = await stream(
          t.url,
          sessionId,
          after,
          (event) => {
            seen.push(event);
            after = event.eventId;
            got++;
            return got >= want;
          },
          want === 0,
        ).catch((error: unknown) => {
          throw new Error(`client ${c}, reconnect ${round}: ${String(error)}`);
        });
        peak = Math.max(peak, held());
        // Fails the storm at once (a refused client would otherwise wait for nothing).
        if (status !== 200) throw new Error(`client ${c} refused (HTTP ${status}) with ${held()} of ${LIMIT} held`);
      }
      return { seen, after };
    });
    const results = await Promise.all(clients).finally(() => {
      storming = false;
    });
    await publisher;

    expect(peak).toBeLessThanOrEqual(LIMIT);

    // The durable log, whole, read once from its start.
    const log: Seen[] = [];
    const last = `r${published - 1}`;
    const total = published;
    await stream(t.url, sessionId, '0', (event) => {
      log.push(event);
      return log.filter((e) => e.__typename === 'SessionRenamed').length >= total;
    });
    expect(log.filter((e) => e.__typename === 'SessionRenamed')).toHaveLength(total);
    expect(last).toBeTruthy();

    // Each client catches up from where it stopped, then must have seen exactly the log: nothing missed, no repeat.
    let missed = 0;
    let repeated = 0;
    for (const { seen, after } of results) {
      const lastId = log.at(-1)!.eventId;
      if (after !== lastId)
        await stream(t.url, sessionId, after, (event) => {
          seen.push(event);
          return event.eventId === lastId;
        });
      const ids = seen.map((e) => e.eventId);
      repeated += ids.length - new Set(ids).size;
      const have = new Set(ids);
      missed += log.filter((e) => !have.has(e.eventId)).length;
      expect(ids).toEqual(log.map((e) => e.eventId));
    }
    expect({ missed, repeated }).toEqual({ missed: 0, repeated: 0 });

    // Every slot is given back once the storm is over.
    await eventually(
      async () => held(),
      (n) => n === 0,
    );
  }, 60_000);
});
