/** Worker thread of bench/streaming.ts: the subscribers, on their own event loop (the other core). */
import { parentPort, workerData } from 'node:worker_threads';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

const { wsUrl, sessions, subscribers } = workerData as { wsUrl: string; sessions: string[]; subscribers: number };
const now = () => performance.timeOrigin + performance.now();
const latencies: number[] = [];
/** the provider's chunk number of each latency (0 = the first chunk of its turn) */
const chunkIndex: number[] = [];
const clients: Client[] = [];
let ended = 0;
let connected = 0;
const total = sessions.length * subscribers;

for (const sessionId of sessions) {
  for (let s = 0; s < subscribers; s++) {
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      on: { connected: () => ++connected === total && parentPort!.postMessage({ type: 'ready' }) },
    });
    clients.push(client);
    client.subscribe(
      { query: `subscription($id: ID!) { sessionEvents(sessionId: $id) { __typename ... on TextDelta { text } } }`, variables: { id: sessionId } },
      {
        next: (value) => {
          const event = (value.data as any).sessionEvents;
          if (event.__typename === 'TextDelta') {
            const [stamp, index] = event.text.slice(1, -1).split('|');
            latencies.push(now() - Number(stamp));
            chunkIndex.push(Number(index));
          }
          else if (event.__typename === 'TurnEnded' && ++ended === total) {
            parentPort!.postMessage({ type: 'done', latencies, chunkIndex });
            void Promise.all(clients.map((c) => c.dispose())).then(() => process.exit(0));
          }
        },
        error: (e) => console.error('subscription error', e),
        complete: () => undefined,
      },
    );
  }
}
