/**
 * Issue 6's benchmark: upload throughput of a 100 MB file through the real
 * server (GraphQL multipart over HTTP → streaming parser → spool → session
 * directory), with the server's peak RSS sampled during each upload, for a 20
 * MB and a 100 MB file (memory must not grow with the file size); then share
 * page latency (sharedSession newest and a deep page, p50/p95) beside the
 * owner's own history query.
 *
 *   npx tsx bench/uploads.ts              # embedded PGlite
 *   BENCH_DATABASE_URL=postgresql://… npx tsx bench/uploads.ts
 *
 * The client streams the request body from a file on disk, so the process's
 * RSS is the server's (plus a constant client overhead).
 */
import { createReadStream, promises as fs } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { appRoutes } from '../src/routes.js';
import { encodeIndexCursor } from '../src/sessions/cursors.js';
import { startServer } from '../src/server.js';
import { measure } from './lib.js';

const MB = 1024 * 1024;
const N = Number(process.env.BENCH_ITERATIONS ?? 200);

async function makeFile(dir: string, sizeMb: number): Promise<string> {
  const file = path.join(dir, `payload-${sizeMb}.bin`);
  const fh = await fs.open(file, 'w');
  const chunk = Buffer.alloc(MB);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31 + 7) & 0x7f; // text-ish, no executable signature
  for (let i = 0; i < sizeMb; i++) await fh.write(chunk);
  await fh.close();
  return file;
}

/** One multipart uploadSessionFiles request, body streamed from disk. */
function uploadFile(
  url: string,
  sessionGid: string,
  file: string,
  size: number,
): Promise<{ status: number; body: string }> {
  const boundary = `----bench${Date.now()}`;
  const operations = JSON.stringify({
    query: 'mutation($s: ID!, $f: [File!]!) { uploadSessionFiles(sessionId: $s, files: $f) { filename size } }',
    variables: { s: sessionGid, f: [null] },
  });
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${operations}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.f.0"]}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="${path.basename(file)}.txt"` +
      `\r\nContent-Type: text/plain\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(`${url}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
        'x-graphql-yoga-csrf': '1',
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.write(head);
    const rs = createReadStream(file, { highWaterMark: 256 * 1024 });
    rs.on('end', () => req.end(tail));
    rs.pipe(req, { end: false });
  });
}

async function timedUpload(url: string, sessionGid: string, file: string, sizeMb: number) {
  if (global.gc) global.gc();
  await new Promise((r) => setTimeout(r, 200));
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const start = performance.now();
  const r = await uploadFile(url, sessionGid, file, sizeMb * MB);
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  if (r.status !== 200 || r.body.includes('"errors"'))
    throw new Error(`upload failed: ${r.status} ${r.body.slice(0, 300)}`);
  const mbps = sizeMb / seconds;
  const delta = (peak - base) / MB;
  console.log(
    `upload ${String(sizeMb).padStart(3)} MB: ${seconds.toFixed(2)} s, ${mbps.toFixed(1)} MB/s,` +
      ` RSS before ${(base / MB).toFixed(0)} MB,` +
      ` peak ${(peak / MB).toFixed(0)} MB (+${delta.toFixed(1)} MB)`,
  );
  return { sizeMb, seconds, mbps, baseMb: base / MB, peakMb: peak / MB, deltaMb: delta };
}

async function main() {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-uploads-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const config = loadConfig(
    {},
    {
      ...(databaseUrl ? { databaseUrl } : { dataDir: 'memory://' }),
      logLevel: 'silent',
      port: 0,
      titleGenerationEnabled: false,
      sessionFilesDir: path.join(work, 'files'),
      sessionFilesMaxSizeMb: 200,
    },
  );
  const app = await createApp(config);
  const server = await startServer(app, { routes: appRoutes(app) });
  console.log(`database: ${app.db.kind}; node ${process.version}; ${os.cpus().length} CPUs\n`);
  try {
    const profile = await app.profiles.default();
    const session = await app.store.create({ profileId: profile.id, userId: 'anonymous' });
    const gid = encodeGlobalID('Session', session.id);
    const f20 = await makeFile(work, 20);
    const f100 = await makeFile(work, 100);
    await timedUpload(server.url, gid, f20, 20); // warm-up
    const runs: Awaited<ReturnType<typeof timedUpload>>[] = [];
    for (let i = 0; i < 3; i++) {
      runs.push(await timedUpload(server.url, gid, f20, 20));
      runs.push(await timedUpload(server.url, gid, f100, 100));
    }
    const best = (mb: number) => runs.filter((r) => r.sizeMb === mb);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(
      `\nmedian of 3: 20 MB ${median(best(20).map((r) => r.mbps)).toFixed(1)}` +
        ` MB/s (+${median(best(20).map((r) => r.deltaMb)).toFixed(1)} MB RSS), ` +
        `100 MB ${median(best(100).map((r) => r.mbps)).toFixed(1)}` +
        ` MB/s (+${median(best(100).map((r) => r.deltaMb)).toFixed(1)} MB RSS)\n`,
    );

    // ---- share page latency
    const shared = await app.store.create({ profileId: profile.id, userId: 'anonymous', name: 'Shared bench' });
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
      content: `message ${i} `.repeat(20),
    }));
    for (let i = 0; i < rows.length; i += 200) await app.store.append(shared.id, rows.slice(i, i + 200));
    const gql = async (query: string, variables: object) => {
      const res = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { errors?: unknown };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body;
    };
    const sgid = encodeGlobalID('Session', shared.id);
    const share = (await gql('mutation($id: ID!) { shareSession(id: $id) { token } }', { id: sgid })) as any;
    const token = share.data.shareSession.token as string;
    const SHARED =
      `query($t: String!, $before: String) ` +
      `{ sharedSession(token: $t) { name profileName createdAt lastActive
      history(last: 50, before: $before)` +
      ` { edges { cursor displayIndex node { role content isPlan name createdAt toolCalls { id } } }` +
      ` pageInfo { hasPreviousPage startCursor } } } }`;
    const OWNER =
      `query($id: ID!, $before: String) { session(id: $id) { name createdAt lastActive
      history(last: 50, before: $before)` +
      ` { edges { cursor displayIndex node { role content isPlan name createdAt toolCalls { id } } }` +
      ` pageInfo { hasPreviousPage startCursor } } } }`;
    const deep = encodeIndexCursor(100);
    await measure('sharedSession newest page (50 of 1000)', N, () => gql(SHARED, { t: token }));
    await measure('sharedSession deep page (before #100)', N, () => gql(SHARED, { t: token, before: deep }));
    await measure('owner session.history newest page', N, () => gql(OWNER, { id: sgid }));
    await measure('sharedSession unknown token', N, () => gql(SHARED, { t: 'A'.repeat(43) }));
  } finally {
    await server.close();
    await app.close();
    await fs.rm(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
