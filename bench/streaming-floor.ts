/**
 * The floor under issue 3's benchmark on this machine: the same load shape as
 * bench/streaming.ts (the same stamping provider worker, the same graphql-ws
 * subscriber worker, 100 turns × 10 subscribers × 40 chunks every 25 ms), but
 * the server is a bare `ws` server that does only what no implementation can
 * skip: read each provider stream (NDJSON over HTTP), and write one
 * graphql-ws `next` frame per chunk to each subscriber's socket. No GraphQL,
 * no database, no event log. Whatever latency this shows is the hardware's
 * share of the real server's figure. Run with
 *   npx tsx bench/streaming-floor.ts
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { createServer } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { percentile } from './lib.js';

const TURNS = Number(process.env.BENCH_TURNS ?? 100);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 10);
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 40);
const CHUNK_MS = Number(process.env.BENCH_CHUNK_MS ?? 25);

function worker(file: string, data: object) {
  const entry = new URL(file, import.meta.url).href;
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`,
    { eval: true, workerData: data },
  );
}

async function main() {
  const provider = worker('./streaming-provider.ts', { chunks: CHUNKS, chunkMs: CHUNK_MS });
  const providerUrl = new URL(
    await new Promise<string>((resolve) => provider.on('message', (m) => m.type === 'ready' && resolve(m.url))),
  );

  // session id → [socket, subscription id][]
  const subscribers = new Map<string, Array<[WebSocket, string]>>();
  const http = createServer();
  const wss = new WebSocketServer({
    server: http,
    path: '/graphql',
    handleProtocols: (p) => (p.has('graphql-transport-ws') ? 'graphql-transport-ws' : false),
  });
  wss.on('connection', (socket) => {
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.type === 'connection_init') socket.send('{"type":"connection_ack"}');
      else if (message.type === 'ping') socket.send('{"type":"pong"}');
      else if (message.type === 'subscribe') {
        const sessionId = message.payload.variables.id as string;
        const list = subscribers.get(sessionId) ?? [];
        list.push([socket, message.id]);
        subscribers.set(sessionId, list);
      }
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const wsUrl = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/graphql`;

  const sessions = Array.from({ length: TURNS }, (_, i) => `s${i}`);
  const clients = worker('./streaming-subscribers.ts', { wsUrl, sessions, subscribers: SUBSCRIBERS });
  await new Promise<void>((resolve) => clients.on('message', (m) => m.type === 'ready' && resolve()));
  while ([...subscribers.values()].reduce((n, l) => n + l.length, 0) < TURNS * SUBSCRIBERS)
    await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 500));

  const fanOut = (sessionId: string, event: object) => {
    const payload = JSON.stringify({ data: { sessionEvents: event } });
    for (const [socket, id] of subscribers.get(sessionId)!)
      socket.send(`{"id":${JSON.stringify(id)},"type":"next","payload":${payload}}`);
  };
  const done = new Promise<{ latencies: number[]; chunkIndex: number[] }>((resolve) =>
    clients.on('message', (m) => m.type === 'done' && resolve(m)),
  );
  const eluBefore = performance.eventLoopUtilization();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (const sessionId of sessions) {
    const req = request(
      providerUrl,
      { method: 'POST', path: '/api/chat', headers: { 'content-type': 'application/json' } },
      (res) => {
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (text: string) => {
          buffer += text;
          let newline: number;
          while ((newline = buffer.indexOf('\n')) >= 0) {
            const line = JSON.parse(buffer.slice(0, newline));
            buffer = buffer.slice(newline + 1);
            if (line.message.content) fanOut(sessionId, { __typename: 'TextDelta', text: line.message.content });
            if (line.done) fanOut(sessionId, { __typename: 'TurnEnded', turn: { status: 'COMPLETED' } });
          }
        });
      },
    );
    req.end('{}');
  }
  const { latencies, chunkIndex } = await done;
  const wall = performance.now() - started;
  const elu = performance.eventLoopUtilization(eluBefore);
  const cpu = process.cpuUsage(cpuBefore);
  const cores = (cpu.user + cpu.system) / 1000 / wall;
  const steady = latencies.filter((_, i) => chunkIndex[i]! >= 2).sort((a, b) => a - b);
  latencies.sort((a, b) => a - b);
  console.log(
    `FLOOR (bare ws server, no GraphQL/database): ${TURNS} turns × ${SUBSCRIBERS} subscribers,` +
      ` ${CHUNKS} chunks every ${CHUNK_MS} ms`,
  );
  console.log(
    `deltas received: ${latencies.length} (expected ${TURNS * SUBSCRIBERS * CHUNKS})` +
      ` in ${wall.toFixed(0)} ms (a turn alone takes ${CHUNKS * CHUNK_MS} ms)`,
  );
  console.log(
    `delta latency provider→subscriber: p50 ${percentile(latencies, 50).toFixed(2)} ms,` +
      ` p99 ${percentile(latencies, 99).toFixed(2)} ms` +
      `; chunks 3…${CHUNKS}: p50 ${percentile(steady, 50).toFixed(2)} ms,` +
      ` p99 ${percentile(steady, 99).toFixed(2)} ms`,
  );
  console.log(
    `server thread busy (event-loop utilization): ${(elu.utilization * 100).toFixed(0)}%` +
      `; this process (server, provider and subscriber threads)` +
      ` used ${(cores * 100).toFixed(0)}% of one core, on a machine of 2`,
  );
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const perDelta = (cpuMs * 1000) / Math.max(1, latencies.length);
  const perToken = (cpuMs * 1000) / (TURNS * CHUNKS);
  console.log(
    `process CPU ${cpuMs.toFixed(0)} ms: ${perDelta.toFixed(1)} µs per delivered delta,` +
      ` ${perToken.toFixed(1)} µs per streamed token (load ${loadavg()[0]!.toFixed(1)})`,
  );
  await clients.terminate();
  await provider.terminate();
  wss.close();
  http.close();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
