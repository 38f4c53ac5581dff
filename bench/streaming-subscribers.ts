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
let connected = 0;
const total = sessions.length * subscribers;
/**
 * How each subscriber's wait ended: TurnEnded (by turn status), TurnFailed (by
 * code), a subscription error or completion, or the turn never started. Every
 * subscriber ends exactly once, so the run always finishes.
 */
const outcomes: Record<string, number> = {};
const pending = new Map<string, number>(sessions.map((s) => [s, subscribers]));
let ended = 0;
let reported = false;

function report(type: 'done' | 'partial') {
  if (reported) return;
  reported = true;
  const notEnded = [...pending].filter(([, n]) => n > 0).map(([sessionId, n]) => ({ sessionId, subscribers: n }));
  parentPort!.postMessage({ type, latencies, chunkIndex, outcomes, notEnded });
  void Promise.all(clients.map((c) => c.dispose())).then(() => process.exit(0));
}

function end(sessionId: string, outcome: string, once: { ended: boolean }) {
  if (once.ended) return;
  once.ended = true;
  outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  pending.set(sessionId, (pending.get(sessionId) ?? 1) - 1);
  if (++ended === total) report('done');
}

const waits = new Map<string, { ended: boolean }[]>();
parentPort!.on('message', (m: { type: string; sessions?: string[] }) => {
  // Sessions whose sendMessage failed: their subscribers have nothing to wait for.
  if (m.type === 'notStarted')
    for (const s of m.sessions ?? []) for (const w of waits.get(s) ?? []) end(s, 'not started', w);
  // The parent's deadline passed: report what arrived and what did not end.
  if (m.type === 'report') report('partial');
});

/**
 * Sockets are opened CONNECT_CONCURRENCY at a time (BENCH_CONNECT_CONCURRENCY, 32): a thousand simultaneous
 * upgrades on a loaded 2-core machine time out in the kernel's accept queue or the client's handshake, and a
 * socket that failed to connect used to leave the parent waiting for a `ready` that never came. Now a failed
 * connection counts (by close code) and `ready` reports how many connected.
 */
const CONNECT_CONCURRENCY = Number(process.env.BENCH_CONNECT_CONCURRENCY ?? 32);
const connectFailures: Record<string, number> = {};
let settled = 0;
let next = 0;
const jobs: (() => void)[] = [];
function settle() {
  if (++settled === total) parentPort!.postMessage({ type: 'ready', connected, connectFailures });
  jobs[next++]?.();
}

for (const sessionId of sessions) {
  for (let s = 0; s < subscribers; s++) {
    const once = { ended: false };
    waits.set(sessionId, [...(waits.get(sessionId) ?? []), once]);
    jobs.push(() => open(sessionId, once));
  }
}
for (let i = 0; i < Math.min(CONNECT_CONCURRENCY, jobs.length); i++) jobs[next++]!();

function open(sessionId: string, once: { ended: boolean }) {
  let isConnected = false;
  const client = createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    on: {
      connected: () => {
        isConnected = true;
        connected++;
        settle();
      },
      closed: (event) => {
        if (isConnected) return;
        isConnected = true; // settles once
        const code = String((event as { code?: number })?.code ?? 'error');
        connectFailures[code] = (connectFailures[code] ?? 0) + 1;
        settle();
      },
    },
  });
  clients.push(client);
  client.subscribe(
    {
      query:
        `subscription($id: ID!) { sessionEvents(sessionId: $id) { __typename` +
        ` ... on TextDelta { text } ... on TurnEnded { turn { status } }` +
        ` ... on TurnFailed { code } } }`,
      variables: { id: sessionId },
    },
    {
      next: (value) => {
        const event = (value.data as any).sessionEvents;
        if (event.__typename === 'TextDelta') {
          const [stamp, index] = event.text.slice(1, -1).split('|');
          latencies.push(now() - Number(stamp));
          chunkIndex.push(Number(index));
        } else if (event.__typename === 'TurnEnded') end(sessionId, `TurnEnded ${event.turn.status}`, once);
        else if (event.__typename === 'TurnFailed') end(sessionId, `TurnFailed ${event.code}`, once);
      },
      error: (e) => {
        const code = (e as { code?: number })?.code;
        end(sessionId, code === undefined ? 'subscription error' : `subscription closed ${code}`, once);
      },
      complete: () => end(sessionId, 'subscription closed', once),
    },
  );
}
