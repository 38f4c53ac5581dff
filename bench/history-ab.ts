/**
 * Issue 18: the server CPU one history page costs, for variants of the service side by side with PostGraphile, on
 * the bench database (`npm run bench:seed`). Each variant is its own process; ROUNDS rounds, each sending AMOUNT
 * newest-page requests at 16 connections to every variant in turn (the order reversed every other round), read the
 * process's CPU time from /proc per request. Prints each variant's median and every round: steadier than req/s on a
 * machine that also runs the client.
 *   npx tsx bench/history-ab.ts                      # fast path, Yoga path (HTTP_FAST_PATH=false), PostGraphile
 *   ROUNDS=8 AMOUNT=4000 npx tsx bench/history-ab.ts
 *   AB_NODE_FLAGS='--max-semi-space-size=64' npx tsx bench/history-ab.ts   # adds the fast path with these flags
 *   AB_BASE=/tmp/base npx tsx bench/history-ab.ts        # adds another build: a directory holding its package.json,
 *                                                        # dist/, bench/peer-service.mjs and node_modules (a link)
 *   AB_SKIP='Yoga path' npx tsx bench/history-ab.ts      # leaves variants out by name (comma-separated)
 *   AB_PAGE=list npx tsx bench/history-ab.ts             # the sessions list page instead (PostGraphile left out)
 * (bench/peer.ts builds dist/ when it is stale; run it, or `npm run build`, first.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { encodeGlobalID } from '@pothos/plugin-relay';
import autocannon from 'autocannon';
import { BENCH_URL, BIG_SESSION } from './seed.js';

const ROUNDS = Number(process.env.ROUNDS ?? 6);
const AMOUNT = Number(process.env.AMOUNT ?? 4000);

const SERVICE_BODY = JSON.stringify({
  query:
    'query($id: ID!, $last: Int, $before: String) { session(id: $id) { history(last: $last, before: $before) ' +
    '{ totalCount edges { cursor displayIndex node { id role content createdAt } } } } }',
  variables: { id: encodeGlobalID('Session', BIG_SESSION), last: 50 },
});
const PG_BODY = JSON.stringify({
  query:
    'query($id: UUID!, $before: Int, $n: Int!) { sessionById(id: $id) { displayCount } ' +
    'historyPage(sid: $id, beforeIndex: $before, n: $n) ' +
    '{ nodes { sessionId sequenceNumber displayIndex role content createdAt } } }',
  variables: { id: BIG_SESSION, n: 50 },
});

interface Variant {
  name: string;
  args: string[];
  env: Record<string, string>;
  body: string;
}

// AB_PAGE=list: the first page of the sessions list instead of the newest history page.
const LIST_BODY = JSON.stringify({
  query:
    '{ sessions(first: 50) { totalCount edges { cursor node ' +
    '{ id name pinned lastActive displayMessageCount preview } } } }',
});
const PAGE_IS_LIST = process.env.AB_PAGE === 'list';

const variants: Variant[] = [
  { name: 'fast path', args: ['bench/peer-service.mjs'], env: {}, body: SERVICE_BODY },
  { name: 'Yoga path', args: ['bench/peer-service.mjs'], env: { HTTP_FAST_PATH: 'false' }, body: SERVICE_BODY },
  { name: 'PostGraphile', args: ['bench/peer-postgraphile.mjs'], env: {}, body: PG_BODY },
  // bench/peer.ts's bare node:http + pg endpoint running the service's SQL (the floor)
  { name: 'bare', args: ['--import', 'tsx', 'bench/peer.ts', 'serve-bare'], env: {}, body: SERVICE_BODY },
];
if (process.env.AB_NODE_FLAGS) {
  const flags = process.env.AB_NODE_FLAGS.split(' ').filter(Boolean);
  variants.push({
    name: `fast ${flags.join(' ')}`,
    args: [...flags, 'bench/peer-service.mjs'],
    env: {},
    body: SERVICE_BODY,
  });
}

if (process.env.AB_BASE) {
  variants.push({
    name: `fast path, ${process.env.AB_BASE}`,
    args: [`${process.env.AB_BASE}/bench/peer-service.mjs`],
    env: {},
    body: SERVICE_BODY,
  });
}

if (PAGE_IS_LIST)
  for (const v of variants.splice(0)) if (v.name !== 'PostGraphile') variants.push({ ...v, body: LIST_BODY });

async function start(variant: Variant): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, variant.args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: BENCH_URL, ...variant.env },
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${variant.name} exited (${code}) before listening`)));
    child.stdout!.on('data', (d: Buffer) => {
      const m = /LISTENING (\S+)/.exec(String(d));
      if (m) resolve(m[1]!);
    });
  });
  return { child, url };
}

/** CPU time (user + system) of a process so far, ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time of each PostgreSQL process on this machine so far, ms, by pid (the database's share of a request). */
function postgresCpu(): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.split(') ')[1]!.split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // the process ended between the listing and the read
    }
  }
  return cpu;
}

/** PostgreSQL's CPU since `before` (a process that started since counts from zero; one that ended, not at all). */
function postgresCpuSince(before: Map<string, number>): number {
  let total = 0;
  for (const [pid, ms] of postgresCpu()) total += ms - (before.get(pid) ?? 0);
  return total;
}

const load = (url: string, body: string) =>
  autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: 16,
    amount: AMOUNT,
  });

// AB_SKIP='Yoga path' leaves that variant out.
const skipped = new Set((process.env.AB_SKIP ?? '').split(',').map((name) => name.trim()));
const running = [] as { variant: Variant; child: ChildProcess; url: string; cpu: number[]; db: number[] }[];
try {
  for (const variant of variants.filter((v) => !skipped.has(v.name)))
    running.push({ variant, ...(await start(variant)), cpu: [], db: [] });
  for (const r of running) await load(r.url, r.variant.body); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const r of round % 2 ? [...running].reverse() : running) {
      const before = cpuMs(r.child.pid!);
      const dbBefore = postgresCpu();
      const result = await load(r.url, r.variant.body);
      if (result.non2xx || result.errors)
        throw new Error(`${r.variant.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      r.cpu.push((cpuMs(r.child.pid!) - before) / AMOUNT);
      r.db.push(postgresCpuSince(dbBefore) / AMOUNT);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const page = PAGE_IS_LIST ? 'sessions list first page' : 'history newest page';
  const loads = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `${page}, ${ROUNDS} rounds × ${AMOUNT} requests at 16 connections: ` +
      `server (and PostgreSQL) CPU per request (load ${loads})`,
  );
  for (const r of running) {
    const rounds = r.cpu.map((c) => c.toFixed(2)).join(' ');
    console.log(`  ${r.variant.name.padEnd(34)} median ${median(r.cpu).toFixed(3)} ms   rounds ${rounds}`);
    console.log(`  ${'  PostgreSQL'.padEnd(34)} median ${median(r.db).toFixed(3)} ms`);
  }
  const bare = running.find((r) => r.variant.name === 'bare');
  for (const r of running.filter((x) => bare && x !== bare))
    console.log(`  ${r.variant.name} ÷ bare: ${(median(r.cpu) / median(bare!.cpu)).toFixed(2)}`);
  const pg = running.find((r) => r.variant.name === 'PostGraphile');
  for (const r of running.filter((x) => pg && x !== pg))
    console.log(`  ${r.variant.name} ÷ PostGraphile: ${(median(r.cpu) / median(pg!.cpu)).toFixed(2)}`);
} finally {
  for (const r of running) r.child.kill('SIGTERM');
}
