/**
 * Graceful shutdown of the HTTP/WebSocket server: stop accepting, let the
 * requests in flight finish within the grace period, end the running turns
 * (their subscribers get the ending), then end every subscription
 * (graphql-ws `complete` then close 1001; SSE `event: complete` then the
 * end of the response) so clients resume on the next process.
 */
import type { Server } from 'node:http';
import type { WebSocket, WebSocketServer } from 'ws';
import { endSessionStreams, type EventBus } from './events/bus.js';

/** Counts the requests being answered (an SSE stream is one until it ends). */
export function trackRequests(server: Server): { inFlight(): number } {
  let active = 0;
  server.on('request', (_req, res) => {
    active++;
    res.once('close', () => active--);
  });
  return { inFlight: () => active };
}

export interface DrainOptions {
  server: Server;
  wss: WebSocketServer;
  requests: { inFlight(): number };
  /** graphql-ws contexts by socket: their `subscriptions` tell when every `complete` was sent */
  wsContexts: WeakMap<WebSocket, { subscriptions: Record<string, unknown> }>;
  bus: EventBus;
  graceMs: number;
  /** runs after the listener is closed, before the subscriptions end (the turns' endings go out first) */
  beforeEnd?: () => Promise<unknown>;
}

const WS_GOING_AWAY = 1001;

/**
 * Resolves with the server's own `close` (all connections gone), which the caller awaits after closing what is left.
 */
export async function drainServer(options: DrainOptions): Promise<{ closed: Promise<void> }> {
  const { server, wss, requests, wsContexts, bus } = options;
  const deadline = Date.now() + options.graceMs;
  const until = async (done: () => boolean) => {
    while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  };
  // No new connections; idle keep-alive ones close now, busy ones once answered.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  if (options.beforeEnd) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      options.beforeEnd(),
      new Promise((r) => (timer = setTimeout(r, Math.max(0, deadline - Date.now())))),
    ]).finally(() => clearTimeout(timer));
  }
  endSessionStreams(bus);
  await Promise.all(
    [...wss.clients].map(async (socket) => {
      const ctx = wsContexts.get(socket);
      await until(() => !ctx || Object.keys(ctx.subscriptions).length === 0);
      socket.close(WS_GOING_AWAY, 'server shutting down');
    }),
  );
  await until(() => requests.inFlight() === 0);
  return { closed };
}
