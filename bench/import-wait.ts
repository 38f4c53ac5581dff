/**
 * How long other requests wait behind a large import (issue 32 item 5): a 50 MB ChatGPT export
 * (200 conversations × 100 messages, generated) is imported over HTTP while one client polls a small GraphQL
 * query (`sessions { totalCount }`) back to back; prints the poll's p50/p99/max latency during the import and the
 * import's own time, and writes bench/results/import-wait-<db>.json. Goal: p99 ≤ 100 ms on PostgreSQL; PGlite is
 * reported (one connection: each poll waits for the import's statement in flight).
 *
 * The export goes as an uploaded file (`input.file`, a GraphQL multipart request: the server spools it and the
 * import's worker reads it); BENCH_IMPORT_DOOR=data sends it as the `data` string instead (the request body is then
 * parsed on the event loop).
 *
 *   npm run bench:import                                   (PGlite in memory)
 *   DATABASE_URL=postgresql://… npm run bench:import       (PostgreSQL)
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { largeChatGptExport } from '../test/support/large-chatgpt.js';
import { percentile } from './lib.js';

const MB = Number(process.env.BENCH_IMPORT_MB ?? 50);
const DOOR = process.env.BENCH_IMPORT_DOOR === 'data' ? 'data' : 'file';

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
  const IMPORT_DATA = 'mutation($d: String) { importSession(input: { data: $d }) { id } }';
  // The import is sent by curl, another process: building a 50 MB request body here would block this process's
  // event loop, which is the server's, and count the client's cost as the server's.
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-import-'));
  const send = (data: string): Promise<{ data?: unknown; errors?: unknown }> => {
    const body = path.join(dir, 'body');
    const args = ['-s', '-H', 'x-graphql-yoga-csrf: 1'];
    if (DOOR === 'data') {
      writeFileSync(body, JSON.stringify({ query: IMPORT_DATA, variables: { d: data } }));
      args.push('-H', 'content-type: application/json', '--data-binary', `@${body}`);
    } else {
      writeFileSync(body, data);
      const operations = {
        query: 'mutation($f: File!) { importSessionFile(input: { file: $f }) { id } }',
        variables: {},
      };
      args.push('-F', `operations=${JSON.stringify(operations)}`, '-F', 'map={"0":["variables.f"]}');
      args.push('-F', `0=@${body};type=application/json`);
    }
    return new Promise((resolve, reject) =>
      execFile('curl', [...args, `${server.url}/graphql`], { maxBuffer: 1 << 20 }, (error, stdout) =>
        error ? reject(error) : resolve(JSON.parse(stdout) as { data?: unknown; errors?: unknown }),
      ),
    );
  };
  for (let i = 0; i < 20; i++) await post(SMALL); // warm up

  const data = largeChatGptExport(MB * 1024 * 1024);
  let done = false;
  const started = performance.now();
  const imported = send(data).then((r) => {
    done = true;
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    return performance.now() - started;
  });
  const waits: number[] = [];
  const failures: string[] = [];
  while (!done) {
    const t0 = performance.now();
    const failed = await post(SMALL).then(
      () => null,
      (e: Error) => String((e.cause as Error | undefined)?.message ?? e.message),
    );
    if (failed) failures.push(`${failed} after ${Math.round(performance.now() - t0)} ms`);
    else if (!done) waits.push(performance.now() - t0);
  }
  const importMs = await imported;
  waits.sort((a, b) => a - b);
  const result = {
    db,
    importMb: MB,
    door: DOOR,
    importMs: Math.round(importMs),
    polls: waits.length,
    p50Ms: +percentile(waits, 50).toFixed(1),
    p99Ms: +percentile(waits, 99).toFixed(1),
    maxMs: +(waits[waits.length - 1] ?? 0).toFixed(1),
    failedPolls: failures,
    goal: db === 'postgresql' ? 'p99 ≤ 100 ms' : 'report only (one connection)',
    at: new Date().toISOString(),
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL(`./results/import-wait-${db}${DOOR === 'data' ? '-data' : ''}.json`, import.meta.url),
    `${JSON.stringify(result, null, 2)}\n`,
  );
  rmSync(dir, { recursive: true, force: true });
  await server.close();
  await app.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
