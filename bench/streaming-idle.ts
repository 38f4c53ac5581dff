/** Worker thread of bench/streaming.ts: idle graphql-ws subscriptions, on their own heap. */
import { parentPort, workerData } from 'node:worker_threads';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

const { wsUrl, sessionId, count } = workerData as { wsUrl: string; sessionId: string; count: number };
const clients: Client[] = [];
let connected = 0;
for (let i = 0; i < count; i++) {
  const client = createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    on: { connected: () => ++connected === count && parentPort!.postMessage({ type: 'ready' }) },
  });
  clients.push(client);
  client.subscribe(
    { query: `subscription($id: ID!) { sessionEvents(sessionId: $id) { __typename } }`, variables: { id: sessionId } },
    { next: () => undefined, error: () => undefined, complete: () => undefined },
  );
}
