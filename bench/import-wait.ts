/**
 * How long other requests wait behind a large import (issue 32 item 5): a 50 MB ChatGPT export
 * (200 conversations × 100 messages, generated) is imported over HTTP while one client polls a small GraphQL
 * query (`sessions { totalCount }`) back to back; prints the poll's p50/p99/max latency during the import and the
 * import's own time, and writes bench/results/import-wait-<db>.json. Goal: p99 ≤ 100 ms on PostgreSQL; PGlite is
 * reported (one connection: each poll waits for the import's statement in flight).
 *
 *   npm run bench:import                                   (PGlite in memory)
 *   DATABASE_URL=postgresql://… npm run bench:import       (PostgreSQL)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { largeChatGptExport } from '../test/support/large-chatgpt.js';
import { percentile } from './lib.js';

const MB = Number(process.env.BENCH_IMPORT_MB ?? 50);

async function main() {
  const db = process.env.DATABASE_URL ? 'postgresql' : 'pglite';
  const config = loadConfig(
    {},
    {
      databaseUrl: process.env.DATABASE_URL,
      dataDir: 'memory://',
      logLevel: 'silent',
      port: 0,
      titleGenerationEnabled: false,
    },
  );
  const app = await createApp(config);
  const server = await startServer(app);
  const post = (query: string, variables: object = {}) =>
    fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    }).then(async (r) => (await r.json()) as { data?: unknown; errors?: unknown });
  const SMALL = 'query { sessions(first: 1) { totalCount } }';
  for (let i = 0; i < 20; i++) await post(SMALL); // warm up

  const data = largeChatGptExport(MB * 1024 * 1024);
  let done = false;
  const started = performance.now();
  const imported = post('mutation($d: String!) { importSession(input: { data: $d }) { id } }', { d: data }).then(
    (r) => {
      done = true;
      if (r.errors) throw new Error(JSON.stringify(r.errors));
      return performance.now() - started;
    },
  );
  const waits: number[] = [];
  while (!done) {
    const t0 = performance.now();
    await post(SMALL);
    if (!done) waits.push(performance.now() - t0);
  }
  const importMs = await imported;
  waits.sort((a, b) => a - b);
  const result = {
    db,
    importMb: MB,
    importMs: Math.round(importMs),
    polls: waits.length,
    p50Ms: +percentile(waits, 50).toFixed(1),
    p99Ms: +percentile(waits, 99).toFixed(1),
    maxMs: +(waits[waits.length - 1] ?? 0).toFixed(1),
    goal: db === 'postgresql' ? 'p99 ≤ 100 ms' : 'report only (one connection)',
    at: new Date().toISOString(),
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`./results/import-wait-${db}.json`, import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
  await server.close();
  await app.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
