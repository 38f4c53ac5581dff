import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, eventually, type ServerContext } from './support/harness.js';

type Connected = { socket: WebSocket; acked: true } | { status: number } | { closed: number };

/**
 * A graphql-ws socket that finished its handshake (connection_ack),
 * the HTTP status its upgrade got, or its early close code.
 */
async function connect(url: string): Promise<Connected> {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  // A refused upgrade is answered below; ws also reports it (and the terminate) as an error event.
  socket.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    let acked = false;
    socket.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      socket.terminate();
    });
    socket.once('close', (code) => {
      if (!acked) resolve({ closed: code });
    });
    socket.once('open', () => {
      socket.send(JSON.stringify({ type: 'connection_init' }));
      socket.once('message', (data) => {
        acked = JSON.parse(data.toString()).type === 'connection_ack';
        if (acked) resolve({ socket, acked: true });
        else reject(new Error(`unexpected first message ${data.toString()}`));
      });
    });
  });
}

const closeSocket = (socket: WebSocket) =>
  new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.close();
  });

describe('graphql-ws sockets per client address', () => {
  let t: ServerContext;
  beforeAll(async () => {
    t = await createTestServer({ wsMaxConnectionsPerAddress: 3, titleGenerationEnabled: false });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('refuses an upgrade beyond WS_MAX_CONNECTIONS_PER_ADDRESS with 429; a socket closed frees its slot', async () => {
    const open = await Promise.all([connect(t.wsUrl), connect(t.wsUrl), connect(t.wsUrl)]);
    const sockets = open.map((o) => ('socket' in o ? o.socket : null));
    expect(sockets.every((s) => s !== null)).toBe(true);

    expect(await connect(t.wsUrl)).toEqual({ status: 429 });
    // The sockets already open are untouched: each still answers a query.
    const first = sockets[0]!;
    const answer = new Promise<unknown>((resolve) =>
      first.once('message', (data) => resolve(JSON.parse(data.toString()))),
    );
    first.send(JSON.stringify({ id: 'q', type: 'subscribe', payload: { query: '{ __typename }' } }));
    expect(await answer).toMatchObject({ id: 'q', type: 'next', payload: { data: { __typename: 'Query' } } });

    await closeSocket(sockets[2]!);
    // The server sees the close a moment after the client does: retry until the slot is free.
    const again = await eventually(
      () => connect(t.wsUrl),
      (r) => 'socket' in r,
    );
    expect('socket' in again).toBe(true);
    expect(await connect(t.wsUrl)).toEqual({ status: 429 });
    await Promise.all([
      closeSocket(sockets[0]!),
      closeSocket(sockets[1]!),
      closeSocket((again as { socket: WebSocket }).socket),
    ]);
  });

  it('a burst of simultaneous upgrades never holds more than the cap open', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => connect(t.wsUrl)));
    const acked = results.filter((r): r is { socket: WebSocket; acked: true } => 'socket' in r);
    // Every socket past the cap was refused (429) or closed right after its handshake.
    const stillOpen = await Promise.all(
      acked.map(
        (r) =>
          new Promise<boolean>((resolve) => {
            if (r.socket.readyState !== WebSocket.OPEN) return resolve(false);
            r.socket.once('close', () => resolve(false));
            r.socket.once('pong', () => resolve(r.socket.readyState === WebSocket.OPEN));
            r.socket.ping();
          }),
      ),
    );
    expect(stillOpen.filter(Boolean).length).toBeLessThanOrEqual(3);
    // The rest were refused before the handshake (429) or closed at once (1013).
    for (const r of results) if (!('socket' in r)) expect('status' in r ? r.status : r.closed).toBeOneOf([429, 1013]);
    expect(results.length - stillOpen.filter(Boolean).length).toBeGreaterThanOrEqual(9);
    await Promise.all(acked.filter((r) => r.socket.readyState === WebSocket.OPEN).map((r) => closeSocket(r.socket)));
  });
});
