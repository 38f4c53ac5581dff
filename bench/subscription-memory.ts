/**
 * Server memory (RSS) with MAX_SUBSCRIPTIONS_PER_SOCKET (100) subscriptions on
 * one graphql-ws socket, and what the 101st gets. The server runs in a child
 * process exactly as `npm start` (embedded PGlite in a temporary DATA_DIR);
 * its RSS is read from /proc/<pid>/status, each figure the median of 5 reads.
 *
 *   npx tsx bench/subscription-memory.ts
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startChildServer } from '../test/support/child-server.js';

const PER_SOCKET = 100;
const EVENTS = `subscription($id: ID!) { sessionEvents(sessionId: $id, after: "0") { __typename } }`;

async function rssMiB(pid: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    samples.push(Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return samples.sort((a, b) => a - b)[2]!;
}

const dataDir = await mkdtemp(join(tmpdir(), 'bench-submem-'));
const server = await startChildServer({ DATA_DIR: dataDir, SESSION_FILES_DIR: dataDir });
try {
  const created = await server.gql<{ createSession: { id: string } }>(
    `mutation { createSession(input: { name: "bench" }) { id } }`,
  );
  const id = created.data!.createSession.id;
  const rename = (name: string) =>
    server.gql(`mutation($id: ID!, $name: String!) { renameSession(id: $id, name: $name) { id } }`, { id, name });
  await rename('start');

  const client = createClient({
    url: `${server.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  const counts: number[] = [];
  const waiters = new Set<() => void>();
  const subscribe = (i: number) =>
    new Promise<void>((live, refused) => {
      counts[i] = 0;
      client.subscribe(
        { query: EVENTS, variables: { id } },
        {
          next: () => {
            if (counts[i]!++ === 0) live();
            waiters.forEach((w) => w());
          },
          error: (e) => refused(e),
          complete: () => undefined,
        },
      );
    });
  const allReach = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => counts.every((c) => c >= n) && (waiters.delete(check), resolve());
      waiters.add(check);
      check();
    });

  // One subscription first, so the code paths are warm before the baseline.
  await subscribe(0);
  const baseline = await rssMiB(server.pid);
  await Promise.all(Array.from({ length: PER_SOCKET - 1 }, (_, i) => subscribe(i + 1)));
  const withAll = await rssMiB(server.pid);
  const start = performance.now();
  await rename('fan-out');
  await allReach(2);
  const fanOutMs = performance.now() - start;
  const afterEvent = await rssMiB(server.pid);
  const extra = await subscribe(PER_SOCKET).then(
    () => 'accepted (limit not enforced!)',
    (e) => `refused: ${JSON.stringify(e[0]?.extensions ?? e)}`,
  );

  console.log(`server RSS, 1 subscription on the socket:    ${baseline.toFixed(1)} MiB`);
  console.log(
    `server RSS, ${PER_SOCKET} subscriptions on one socket: ${withAll.toFixed(1)}` +
      ` MiB (+${(withAll - baseline).toFixed(1)} MiB` +
      `, ${(((withAll - baseline) * 1024) / (PER_SOCKET - 1)).toFixed(0)} KiB each)`,
  );
  console.log(
    `after one rename reached all ${PER_SOCKET}:         ${afterEvent.toFixed(1)}` +
      ` MiB (fan-out ${fanOutMs.toFixed(0)} ms)`,
  );
  console.log(`subscription ${PER_SOCKET + 1} on the same socket: ${extra}`);
  await client.dispose();
} finally {
  server.kill('SIGTERM');
  await server.exited;
  await rm(dataDir, { recursive: true, force: true });
}
