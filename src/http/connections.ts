/**
 * A cap on the graphql-ws sockets one client address holds open at once, so a
 * client cannot pin the process's memory with sockets that never subscribe
 * (a socket costs memory whether or not it carries a subscription). The
 * upgrade is refused with 429 before the handshake when the address is at the
 * cap; a socket that still gets through a burst of simultaneous upgrades is
 * closed at once with 1013 (try again later).
 */
import type { IncomingMessage } from 'node:http';
import type { WebSocket, WebSocketServer } from 'ws';

/** IPv4 clients on a dual-stack socket appear as `::ffff:a.b.c.d`: one address, one count. */
export function clientAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export interface ConnectionCap {
  /** ws `verifyClient` (callback form): refuses an address already at the cap. */
  verify(req: IncomingMessage): { ok: true } | { ok: false; status: number; message: string };
  /** Counts the sockets of `wss` per address; closes one over the cap. */
  track(wss: WebSocketServer): void;
  openFrom(address: string): number;
}

export function connectionCap(maxPerAddress: number): ConnectionCap {
  const open = new Map<string, number>();
  const count = (address: string) => open.get(address) ?? 0;
  return {
    verify(req) {
      if (count(clientAddress(req)) < maxPerAddress) return { ok: true };
      return { ok: false, status: 429, message: 'Too many WebSocket connections from this address' };
    },
    track(wss) {
      wss.on('connection', (socket: WebSocket, req: IncomingMessage) => {
        const address = clientAddress(req);
        if (count(address) >= maxPerAddress) {
          socket.close(1013, 'Too many connections from this address');
          return;
        }
        open.set(address, count(address) + 1);
        socket.once('close', () => {
          const left = count(address) - 1;
          if (left > 0) open.set(address, left);
          else open.delete(address);
        });
      });
    },
    openFrom: count,
  };
}
