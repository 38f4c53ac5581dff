/**
 * Idle memory of the serving process, and what each idle graphql-ws
 * subscription adds (issue 18, item 3: idle RSS ≤ 150 MB; ≤ 20 KB RSS per
 * idle subscription at 1,000).
 *
 * The server runs exactly as `npm start` runs it (package.json's start
 * command: compiled dist/ on plain Node with its V8 flags) against a
 * PostgreSQL server, in a child process; RSS is read from
 * /proc/<pid>/status once the process has settled (read every second for at
 * least SETTLE_MS = 60 s, until 15 reads in a row lie within 1 MiB and no
 * lower than the 15 before them: V8's memory reducer collects some 30-45 s
 * after allocation stops). Then
 * SOCKETS graphql-ws sockets open one `sessionEvents` subscription each; a
 * socket counts once its subscription has delivered its first event (the
 * session's rename, replayed from `after: "0"`), so every subscription is
 * live in the server when the second figure is read.
 *
 *   npx tsx bench/memory.ts            # BENCH_DATABASE_URL, else a scratch database on 127.0.0.1
 *   SOCKETS=2000 npx tsx bench/memory.ts
 *   EMBEDDED=1 npx tsx bench/memory.ts # the embedded PGlite default instead (idle figure only, for reference)
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startChildServer } from '../test/support/child-server.js';

const SOCKETS = Number(process.env.SOCKETS ?? 1000);
const EMBEDDED = process.env.EMBEDDED === '1';
/** IDLE_ONLY=1: the idle figure only (the 7-start runs of docs/performance.md) */
const IDLE_ONLY = process.env.IDLE_ONLY === '1';
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 60_000);
const ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const SCRATCH = process.env.MEMORY_BENCH_DB ?? 'chat_memory_bench';

async function rssNow(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/**
 * RSS once the process is idle: V8's memory reducer runs its collections some 30-45 s after allocation stops, so
 * read every second for at least SETTLE_MS, until the last WINDOW reads lie within 1 MiB and are no lower than the
 * WINDOW before them (a slow decline, a collection still giving memory back, is not settled); their median. A run
 * that never settles says so.
 */
const WINDOW = 15;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function settledRss(pid: number): Promise<number> {
  const reads: number[] = [];
  const started = Date.now();
  for (;;) {
    reads.push(await rssNow(pid));
    const last = reads.slice(-WINDOW);
    const before = reads.slice(-2 * WINDOW, -WINDOW);
    const flat = last.length === WINDOW && Math.max(...last) - Math.min(...last) <= 1;
    const falling = before.length === WINDOW && median(last) < median(before) - 0.5;
    const settled = flat && before.length === WINDOW && !falling;
    const waited = Date.now() - started;
    if ((settled && waited >= SETTLE_MS) || waited > 4 * SETTLE_MS) {
      if (!settled)
        console.log(`(RSS had not settled after ${Math.round(waited / 1000)} s: the figure is the last reads')`);
      return median(last);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, drop: async () => undefined };
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${SCRATCH} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${SCRATCH}`);
  await admin.end();
  return {
    url: ADMIN_URL.replace(/\/postgres$/, `/${SCRATCH}`),
    drop: async () => {
      const again = new pg.Client({ connectionString: ADMIN_URL });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${SCRATCH} WITH (FORCE)`);
      await again.end();
    },
  };
}

const dir = await mkdtemp(join(tmpdir(), 'bench-memory-'));
const database = EMBEDDED ? null : await scratchDatabase();
const server = await startChildServer(
  {
    ...(database ? { DATABASE_URL: database.url } : { DATA_DIR: join(dir, 'data') }),
    SESSION_FILES_DIR: join(dir, 'files'),
    OLLAMA_HOST: 'http://127.0.0.1:9',
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    WS_MAX_CONNECTIONS_PER_ADDRESS: String(SOCKETS + 10),
    MAX_SUBSCRIPTIONS_PER_USER: String(SOCKETS + 10),
  },
  { asNpmStart: true, timeoutMs: 600_000 },
);
const clients: Client[] = [];
try {
  const created = await server.gql<{ createSession: { id: string } }>(
    `mutation { createSession(input: { name: "bench" }) { id } }`,
  );
  const id = created.data!.createSession.id;
  await server.gql(`mutation($id: ID!) { renameSession(id: $id, name: "idle") { id } }`, { id });
  await server.gql(`{ sessions(first: 20) { totalCount edges { node { id name preview } } } }`);
  const soon = await rssNow(server.pid);
  const idle = await settledRss(server.pid);
  console.log(`database: ${EMBEDDED ? 'embedded PGlite' : 'PostgreSQL'}; node ${process.version}`);
  console.log(`RSS right after the first requests: ${soon.toFixed(1)} MiB`);
  console.log(
    `idle RSS (settled): ${idle.toFixed(1)} MiB (goal ≤ 150 MB); load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  if (!EMBEDDED && !IDLE_ONLY) await subscriptions(id);
} finally {
  await Promise.all(clients.map((client) => client.dispose()));
  server.kill('SIGTERM');
  await server.exited;
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
}

async function subscriptions(id: string) {
  const wsUrl = `${server.url.replace('http', 'ws')}/graphql`;
  const open = () =>
    new Promise<void>((live, refused) => {
      const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
      clients.push(client);
      let first = true;
      client.subscribe(
        {
          query: `subscription($id: ID!) { sessionEvents(sessionId: $id, after: "0") { __typename } }`,
          variables: { id },
        },
        {
          next: () => {
            if (first) live();
            first = false;
          },
          error: (error) => refused(error),
          complete: () => undefined,
        },
      );
    });
  // One socket first, so every code path is warm before the baseline.
  await open();
  const before = await settledRss(server.pid);
  for (let opened = 1; opened < SOCKETS; opened += 50) {
    await Promise.all(Array.from({ length: Math.min(50, SOCKETS - opened) }, open));
  }
  const after = await settledRss(server.pid);
  const eachKiB = ((after - before) * 1024) / (SOCKETS - 1);
  console.log(`RSS with 1 idle subscription: ${before.toFixed(1)} MiB`);
  console.log(`RSS with ${SOCKETS} idle subscriptions (one socket each): ${after.toFixed(1)} MiB`);
  console.log(`per idle subscription: +${eachKiB.toFixed(1)} KiB RSS (goal ≤ 20 KB)`);
}
