/**
 * Issue 3's benchmark: 100 concurrent turns streaming from a wire-level fake
 * Ollama, 10 graphql-ws subscribers each. Measures delta latency from the
 * provider writing a chunk to a subscriber receiving it (p50/p99), server CPU,
 * and memory per idle subscription with 1,000 sockets. Run with
 *   node --expose-gc --import tsx bench/streaming.ts
 * (DATABASE_URL for the server database; default embedded PGlite in memory).
 * Every turn's end counts, TurnEnded or TurnFailed; the run is bounded by
 * BENCH_DEADLINE_MS and then reports the turns that did not end (exit code 1).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { percentile } from './lib.js';

const TURNS = Number(process.env.BENCH_TURNS ?? 100);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 10);
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 40);
const CHUNK_MS = Number(process.env.BENCH_CHUNK_MS ?? 25);
const IDLE_SOCKETS = Number(process.env.BENCH_IDLE ?? 1000);
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_MS ?? Math.max(300_000, CHUNKS * CHUNK_MS * 20));
const now = () => performance.timeOrigin + performance.now();

/** The stamping Ollama, in its own worker thread (bench/streaming-provider.ts). */
async function stampingOllama() {
  const entry = new URL('./streaming-provider.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`,
    {
      eval: true,
      workerData: { chunks: CHUNKS, chunkMs: CHUNK_MS, failEvery: Number(process.env.BENCH_FAIL_EVERY ?? 0) },
    },
  );
  const url = await new Promise<string>((resolve) => worker.on('message', (m) => m.type === 'ready' && resolve(m.url)));
  return { url, close: () => worker.terminate() };
}

/** `promise`, or `fallback()` once `ms` passed: no phase of the run waits forever. */
function bounded<T>(promise: Promise<T>, ms: number, fallback: () => T | Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback()), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

interface StreamOutcome {
  latencies: number[];
  chunkIndex: number[];
  /** subscribers by how their wait ended (TurnEnded COMPLETED, TurnFailed PROVIDER_UNAVAILABLE, …) */
  outcomes: Record<string, number>;
  notEnded: { sessionId: string; subscribers: number }[];
}

async function main(): Promise<number> {
  const deadline = Date.now() + DEADLINE_MS;
  const left = () => Math.max(0, deadline - Date.now());
  const llm = await stampingOllama();
  const config = loadConfig(
    {},
    {
      databaseUrl: process.env.DATABASE_URL,
      dataDir: 'memory://',
      logLevel: 'silent',
      port: 0,
      ollamaHost: llm.url,
      titleGenerationEnabled: false,
      contextCompressionEnabled: false,
      // Every client of the bench is one anonymous user at 127.0.0.1: the per-address socket cap and the per-user
      // subscription cap (256 and 1,000 by default) would refuse the load itself.
      wsMaxConnectionsPerAddress: 100_000,
      maxSubscriptionsPerUser: 100_000,
    },
  );
  const app = await createApp(config);
  const server = await startServer(app);
  const wsUrl = `${server.url.replace('http', 'ws')}/graphql`;
  const gql = async (query: string, variables: object = {}) => {
    const r = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return ((await r.json()) as { data: any }).data;
  };
  const sessions: string[] = [];
  for (let i = 0; i < TURNS; i++)
    sessions.push((await gql(`mutation { createSession(input: {}) { id } }`)).createSession.id);

  // 10 subscribers per session, each on its own socket, in a worker thread (its own event loop),
  // so the server's figures are not the subscribers' parsing.
  const entry = new URL('./streaming-subscribers.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`,
    { eval: true, workerData: { wsUrl, sessions, subscribers: SUBSCRIBERS } },
  );
  const connectStart = now();
  const ready = await bounded(
    new Promise<{ connected: number; connectFailures: Record<string, number> } | null>((resolve) =>
      worker.on('message', (m) => m.type === 'ready' && resolve(m)),
    ),
    left(),
    () => null,
  );
  if (!ready) {
    console.log(`the ${TURNS * SUBSCRIBERS} subscribers did not all connect or fail within ${DEADLINE_MS} ms`);
    return 1;
  }
  const failures = Object.entries(ready.connectFailures);
  console.log(
    `subscribers connected: ${ready.connected} of ${TURNS * SUBSCRIBERS} in ${(now() - connectStart).toFixed(0)} ms` +
      (failures.length
        ? `; failed to connect (close code × n): ${failures.map(([c, n]) => `${c} × ${n}`).join(', ')}`
        : ''),
  );
  if (ready.connected < TURNS * SUBSCRIBERS) return 1;
  await new Promise((r) => setTimeout(r, 500));
  // BENCH_PROFILE=file.cpuprofile: a CPU profile of the server thread during the streaming phase only.
  const profiler = process.env.BENCH_PROFILE ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const cpuBefore = process.cpuUsage();
  const eluBefore = performance.eventLoopUtilization();
  const wallBefore = now();
  const done = new Promise<StreamOutcome>((resolve) =>
    worker.on('message', (m) => (m.type === 'done' || m.type === 'partial') && resolve(m)),
  );
  void Promise.all(
    sessions.map((id) =>
      gql(`mutation($id: ID!) { sendMessage(input: { sessionId: $id, content: "go" }) { turn { id } } }`, { id })
        .then((data) => Boolean(data?.sendMessage?.turn?.id))
        .catch(() => false),
    ),
  ).then((started) => worker.postMessage({ type: 'notStarted', sessions: sessions.filter((_, i) => !started[i]) }));
  // At the deadline the worker reports what it has; should it not answer either, nothing arrived.
  const { latencies, chunkIndex, outcomes, notEnded } = await bounded(done, left(), () => {
    worker.postMessage({ type: 'report' });
    return bounded(done, 10_000, () => ({
      latencies: [],
      chunkIndex: [],
      outcomes: {},
      notEnded: sessions.map((sessionId) => ({ sessionId, subscribers: SUBSCRIBERS })),
    }));
  });
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
    profiler.disconnect();
  }
  if (process.env.BENCH_BY_INDEX) {
    const by = new Map<number, number[]>();
    latencies.forEach((l, i) => {
      const k = chunkIndex[i]!;
      by.set(k, [...(by.get(k) ?? []), l]);
    });
    console.log(
      [...by]
        .sort((a, b) => a[0] - b[0])
        .map(([k, v]) => `${k}:${Math.max(...v).toFixed(0)}`)
        .join(' '),
    );
  }
  const steady = latencies.filter((_, i) => chunkIndex[i]! >= 2).sort((a, b) => a - b);
  const starting = latencies.filter((_, i) => chunkIndex[i]! < 2).sort((a, b) => a - b);
  const wall = now() - wallBefore;
  const cpu = process.cpuUsage(cpuBefore);
  const elu = performance.eventLoopUtilization(eluBefore);
  latencies.sort((a, b) => a - b);
  console.log(
    `${TURNS} concurrent turns × ${SUBSCRIBERS} subscribers,` +
      ` ${CHUNKS} chunks every ${CHUNK_MS} ms (database: ${app.db.kind})`,
  );
  console.log(`deltas received: ${latencies.length} (expected ${TURNS * SUBSCRIBERS * CHUNKS})`);
  console.log(
    `delta latency provider→subscriber: p50 ${percentile(latencies, 50).toFixed(2)} ms,` +
      ` p99 ${percentile(latencies, 99).toFixed(2)} ms (goal p99 ≤ 20 ms)`,
  );
  console.log(
    `  first two chunks of each turn (the turns start together): p50 ${percentile(starting, 50).toFixed(2)} ms,` +
      ` p99 ${percentile(starting, 99).toFixed(2)} ms`,
  );
  console.log(
    `  chunks 3…${CHUNKS} (streaming): p50 ${percentile(steady, 50).toFixed(2)} ms,` +
      ` p99 ${percentile(steady, 99).toFixed(2)} ms`,
  );
  console.log(`server thread busy (event-loop utilization) during the run: ${(elu.utilization * 100).toFixed(0)}%`);
  console.log(
    `process CPU during the run: ${((cpu.user + cpu.system) / 1000).toFixed(0)}` +
      ` ms over ${wall.toFixed(0)} ms` +
      ` wall = ${(((cpu.user + cpu.system) / 1000 / wall) * 100).toFixed(0)}` +
      `% of one core (server + the fake provider's and the subscribers' worker threads)`,
  );
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const perDelta = (cpuMs * 1000) / Math.max(1, latencies.length);
  const perToken = (cpuMs * 1000) / (TURNS * CHUNKS);
  console.log(
    `process CPU ${cpuMs.toFixed(0)} ms: ${perDelta.toFixed(1)} µs per delivered delta,` +
      ` ${perToken.toFixed(1)} µs per streamed token (load ${loadavg()[0]!.toFixed(1)})`,
  );
  console.log(
    `turn endings seen by subscribers: ${
      Object.entries(outcomes)
        .map(([k, n]) => `${k} × ${n}`)
        .join(', ') || 'none'
    }`,
  );
  if (notEnded.length > 0) {
    const waiting = notEnded.reduce((n, s) => n + s.subscribers, 0);
    console.log(
      `did not end within ${DEADLINE_MS} ms: ${notEnded.length} turns (${waiting} subscribers), sessions ${notEnded
        .slice(0, 10)
        .map((s) => s.sessionId)
        .join(', ')}${notEnded.length > 10 ? ', …' : ''}`,
    );
    // A turn still running would hold app.close(): the process exits instead.
    return 1;
  }

  if (IDLE_SOCKETS <= 0) {
    await server.close();
    await app.close();
    await llm.close();
    return 0;
  }
  // Memory per idle subscription.
  const gc = (globalThis as { gc?: () => void }).gc;
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc?.();
      await new Promise((r) => setTimeout(r, 300));
    }
    return process.memoryUsage();
  };
  // The idle clients live in a worker thread (its own heap), so the main thread's heap growth is the server's.
  const idleSession = sessions[0]!;
  const before = await settle();
  const idleWorker = new Worker(
    `import('tsx/esm/api').then(({ register }) => { register();` +
      ` return import(${JSON.stringify(new URL('./streaming-idle.ts', import.meta.url).href)}); })`,
    { eval: true, workerData: { wsUrl, sessionId: idleSession, count: IDLE_SOCKETS } },
  );
  const idleConnected = await bounded(
    new Promise<number>((resolve) => idleWorker.on('message', (m) => m.type === 'ready' && resolve(m.connected))),
    Math.max(left(), 60_000),
    () => 0,
  );
  if (idleConnected < IDLE_SOCKETS)
    console.log(
      `${idleConnected} of the ${IDLE_SOCKETS} idle subscriptions connected; the figure below divides by all`,
    );
  await new Promise((r) => setTimeout(r, 1500));
  const after = await settle();
  const perHeap = (after.heapUsed - before.heapUsed) / IDLE_SOCKETS;
  const perRss = (after.rss - before.rss) / IDLE_SOCKETS;
  console.log(
    `${IDLE_SOCKETS} idle subscriptions: server heap +${(perHeap / 1024).toFixed(1)} KB per subscription` +
      ` (goal ≤ 20 KB)` +
      `; process RSS +${(perRss / 1024).toFixed(1)} KB` +
      ` incl. the clients' worker${gc ? '' : ' — run with --expose-gc for a settled figure'}`,
  );
  await idleWorker.terminate();
  await server.close();
  await app.close();
  await llm.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
