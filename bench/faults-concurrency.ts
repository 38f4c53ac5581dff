/**
 * Database faults under load: N concurrent streaming turns (default 200) on
 * a PostgreSQL server with a pool of DATABASE_POOL_SIZE (default 10), once
 * plainly and once while every service connection is terminated
 * (pg_terminate_backend) every 500 ms (BENCH_MODES=0,500). Prints how many turns
 * ended FAILED (goal 0). Run with
 *   npx tsx bench/faults-concurrency.ts
 * (DATABASE_URL names the server; a scratch database is created and dropped).
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { startFakeProvider } from '../test/support/fake-provider.js';

export interface FaultsConcurrencyResult {
  turns: number;
  terminations: number;
  statuses: Record<string, number>;
  failed: number;
  sendErrors: number;
  seconds: number;
}

export async function runFaultsConcurrency(
  options: {
    url?: string;
    turns?: number;
    poolSize?: number;
    terminateEveryMs?: number;
    chunks?: number;
    chunkMs?: number;
  } = {},
): Promise<FaultsConcurrencyResult> {
  const serverUrl = options.url ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const turns = options.turns ?? 200;
  const name = `bench_faults_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const fake = await startFakeProvider();
  fake.responder = () => ({
    text: Array.from({ length: options.chunks ?? 20 }, (_, i) => `c${i} `),
    chunkDelayMs: options.chunkMs ?? 20,
  });
  const app = await createApp(
    loadConfig(
      {},
      {
        databaseUrl: url.toString(),
        databasePoolSize: options.poolSize ?? Number(process.env.DATABASE_POOL_SIZE ?? 10),
        logLevel: 'silent',
        port: 0,
        ollamaHost: fake.url,
        titleGenerationEnabled: false,
        contextCompressionEnabled: false,
      },
    ),
  );
  const server = await startServer(app);
  // Watches the turns from a connection the terminations spare.
  const observer = new pg.Client({ connectionString: url.toString() });
  await observer.connect();
  const [{ pid: observerPid }] = (await observer.query('SELECT pg_backend_pid() AS pid')).rows;
  const gql = async (query: string, variables: object = {}) => {
    const r = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return (await r.json()) as { data?: any; errors?: unknown[] };
  };
  let terminations = 0;
  let killer: NodeJS.Timeout | null = null;
  try {
    const sessions: string[] = [];
    for (let i = 0; i < turns; i++)
      sessions.push((await gql(`mutation { createSession(input: {}) { id } }`)).data.createSession.id);
    const started = Date.now();
    if (options.terminateEveryMs) {
      killer = setInterval(() => {
        void admin
          .query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 ` +
              `AND pid <> pg_backend_pid() AND pid <> $2` +
              ` AND backend_type = 'client backend'`,
            [name, observerPid],
          )
          .then((r) => (terminations += r.rowCount ?? 0));
      }, options.terminateEveryMs);
    }
    const sent = await Promise.all(
      sessions.map((sessionId) =>
        gql(`mutation($input: SendMessageInput!) { sendMessage(input: $input) { turn { id } } }`, {
          input: { sessionId, content: 'go' },
        }),
      ),
    );
    const sendErrors = sent.filter((r) => r.errors).length;
    const ids = sent
      .filter((r) => !r.errors)
      .map((r) => Buffer.from(r.data.sendMessage.turn.id, 'base64').toString().split(':')[1]!);
    // Bounded: a turn still active after 5 minutes counts as not finished.
    const deadline = Date.now() + 300_000;
    let rows: { status: string }[] = [];
    for (;;) {
      rows = (await observer.query('SELECT status FROM turns WHERE id = ANY($1::uuid[])', [ids])).rows;
      if (rows.every((r) => r.status !== 'RUNNING' && r.status !== 'WAITING_FOR_TOOL') || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const seconds = (Date.now() - started) / 1000;
    if (killer) clearInterval(killer);
    killer = null;
    const statuses: Record<string, number> = {};
    for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    return { turns, terminations, statuses, failed: statuses.FAILED ?? 0, sendErrors, seconds };
  } finally {
    if (killer) clearInterval(killer);
    await observer.end();
    await server.close();
    await app.close();
    await fake.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const turns = Number(process.env.BENCH_TURNS ?? 200);
  // BENCH_MODES: termination intervals in ms to run, 0 = no terminations
  for (const terminateEveryMs of (process.env.BENCH_MODES ?? '0,500').split(',').map(Number)) {
    const r = await runFaultsConcurrency({ turns, terminateEveryMs });
    const label = terminateEveryMs ? `with every connection terminated each ${terminateEveryMs} ms` : 'plain';
    console.log(
      `${turns} concurrent turns, pool ${process.env.DATABASE_POOL_SIZE ?? 10}` +
        `, ${label}: FAILED ${r.failed} (goal 0), ` +
        `sendMessage errors ${r.sendErrors}, statuses ${JSON.stringify(r.statuses)},` +
        ` backends terminated ${r.terminations}, ${r.seconds.toFixed(1)} s`,
    );
  }
  process.exit(0);
}
