/** Worker thread of bench/streaming.ts: idle graphql-ws subscriptions, on their own heap. */
import { parentPort, workerData } from 'node:worker_threads';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

const { wsUrl, sessionId, count } = workerData as { wsUrl: string; sessionId: string; count: number };
/** Opened BENCH_CONNECT_CONCURRENCY (32) at a time, as in streaming-subscribers.ts; a failed one counts too. */
const CONNECT_CONCURRENCY = Number(process.env.BENCH_CONNECT_CONCURRENCY ?? 32);
const clients: Client[] = [];
let connected = 0;
let settled = 0;
let started = 0;
function settle() {
  if (++settled === count) parentPort!.postMessage({ type: 'ready', connected });
  if (started < count) open();
}
function open() {
  started++;
  let done = false;
  const client = createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    on: {
      connected: () => {
        if (done) return;
        done = true;
        connected++;
        settle();
      },
      closed: () => {
        if (done) return;
        done = true;
        settle();
      },
    },
  });
  clients.push(client);
  client.subscribe(
    { query: `subscription($id: ID!) { sessionEvents(sessionId: $id) { __typename } }`, variables: { id: sessionId } },
    { next: () => undefined, error: () => undefined, complete: () => undefined },
  );
}
for (let i = 0; i < Math.min(CONNECT_CONCURRENCY, count); i++) open();
