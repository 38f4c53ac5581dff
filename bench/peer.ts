/**
 * Issue 18: this service against a peer and a floor, on the bench database
 * (`npm run bench:seed`), each server in its own process:
 * - PostGraphile 4 (devDependency) over the same tables: in its own schema
 *   `peer_pg`, a view of sessions, a view over both message tables, a
 *   computed `preview` column and a `history_page` function; created at
 *   start, dropped at the end.
 * - a bare node:http + `pg` endpoint running the service's own SQL
 *   (SessionStore.listPage, the history's session read and displayRange) and
 *   answering byte-identical JSON: the least any implementation can cost.
 * - the stack floor: graphql-yoga and its executor over a plain schema of the
 *   same shape returning the pages read once at start (no database, no
 *   Pothos, no auth): what this stack costs per request before any work.
 * - the service as `npm start` runs it: compiled dist/ on plain Node with the
 *   start command's flags (bench/peer-service.mjs; dist/ is rebuilt first when
 *   src/ is newer), local mode.
 * For the sessions list (first 50), the newest and a deep history page (50 of
 * the 100,000-message session): p50/p95/p99 measured sequentially and
 * interleaved (one request to each server in turn), then throughput at 16
 * connections (autocannon; one-second slices interleaved across the servers,
 * PEER_SECONDS per server), PEER_REPEATS times (3); the goals beside each
 * figure, and each server's CPU per request (its process and the PostgreSQL
 * backends, from /proc, during the throughput run: steadier than req/s on a
 * shared machine). Before measuring it checks that all four return the same
 * rows (and the bare endpoint and the stack floor the same bytes as the
 * service).
 *   npx tsx bench/peer.ts     PEER_ITERATIONS=150 PEER_SECONDS=4 PEER_REPEATS=3
 *   PEER_PROFILE=dir          writes a CPU profile of the service process (node --cpu-prof) into dir
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import autocannon from 'autocannon';
import pg from 'pg';
import { encodeIndexCursor, encodeJsonCursor } from '../src/sessions/cursors.js';
import { startCommand } from '../test/support/child-server.js';
import { percentile } from './lib.js';
import { BENCH_URL, BIG_SESSION } from './seed.js';

const ITERATIONS = Number(process.env.PEER_ITERATIONS ?? 150);
const SECONDS = Number(process.env.PEER_SECONDS ?? 4);
const REPEATS = Number(process.env.PEER_REPEATS ?? 3);
const CONNECTIONS = 16;
const PAGE = 50;
const DEEP_BEFORE = 1000;

const SERVICE_LIST =
  '{ sessions(first: 50) { totalCount edges { cursor node ' +
  '{ id name pinned lastActive displayMessageCount preview } } } }';
const SERVICE_HISTORY =
  'query($id: ID!, $last: Int, $before: String) { session(id: $id) { history(last: $last, before: $before) ' +
  '{ totalCount edges { cursor displayIndex node { id role content createdAt } } } } }';
const PG_LIST =
  '{ allSessions(first: 50, orderBy: [PINNED_DESC, LAST_ACTIVE_DESC, ID_DESC], condition: { userId: "anonymous" }) ' +
  '{ totalCount edges { cursor node { id name pinned lastActive displayCount preview } } } }';
const PG_HISTORY =
  'query($id: UUID!, $before: Int, $n: Int!) { sessionById(id: $id) { displayCount } ' +
  'historyPage(sid: $id, beforeIndex: $before, n: $n) ' +
  '{ nodes { sessionId sequenceNumber displayIndex role content createdAt } } }';

/** PostGraphile's own schema (bench/peer-postgraphile.mjs creates it, and drops it on SIGTERM). */
const PEER_SCHEMA = 'peer_pg';

// ---------------------------------------------------------------------------------------------------------------
// The servers (each run as `tsx bench/peer.ts serve-<kind>`, printing `LISTENING <url>`)

/** The bare endpoint's answers: the service's own SQL, the service's JSON shape (also the stack floor's data). */
async function barePages() {
  const { openDatabase } = await import('../src/db/client.js');
  const { SessionStore } = await import('../src/store/sessions.js');
  const { anonymousViewer: viewer } = await import('../src/auth/auth.js');
  const db = await openDatabase({ url: BENCH_URL, poolSize: 10 });
  const store = new SessionStore(db);
  const list = async () => {
    const page = await store.listPage({ viewer, orderBy: 'LAST_ACTIVE', direction: 'DESC', first: PAGE });
    const edges = page.rows.map((s) => ({
      cursor: encodeJsonCursor({ pinned: s.pinned, value: s.lastActive.toISOString(), id: s.id }),
      node: {
        id: encodeGlobalID('Session', s.id),
        name: s.name,
        pinned: s.pinned,
        lastActive: s.lastActive.toISOString(),
        displayMessageCount: s.displayCount,
        preview: s.preview,
      },
    }));
    return { data: { sessions: { totalCount: page.totalCount, edges } } };
  };
  const history = async (variables: { id: string; last: number; before?: string }) => {
    const id = decodeGlobalID(variables.id).id;
    // The service's one statement (SessionStore.readableWithPage): the row with the access rule, and the page.
    const before = variables.before ? Number(Buffer.from(variables.before, 'base64url').toString().slice(2)) : null;
    const bounds = { lower: 0, before, first: null, size: variables.last };
    const found = await store.readableWithPage(viewer, id, bounds, new Set(['role', 'content', 'createdAt'] as const));
    if (!found) return { data: { session: null } };
    const total = found.session.displayCount;
    const edges = found.rows.map((m) => {
      return {
        cursor: encodeIndexCursor(m.displayIndex!),
        displayIndex: m.displayIndex,
        node: {
          id: encodeGlobalID('Message', `${m.sessionId}:${m.sequenceNumber}`),
          role: m.role.toUpperCase(),
          content: m.content,
          createdAt: m.createdAt instanceof Date ? m.createdAt.toISOString() : m.createdAt,
        },
      };
    });
    return { data: { session: { history: { totalCount: total, edges } } } };
  };
  return { list, history, close: () => db.close() };
}

async function serveBare() {
  const { list, history, close } = await barePages();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const { query, variables } = JSON.parse(Buffer.concat(chunks).toString());
        const body = JSON.stringify(query.includes('sessions(') ? await list() : await history(variables));
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as import('node:net').AddressInfo;
    console.log(`LISTENING http://127.0.0.1:${port}/graphql`);
  });
  process.on('SIGTERM', async () => {
    server.close();
    await close();
    process.exit(0);
  });
}

/**
 * The stack's own floor: graphql-yoga (production mode, no plugins) and the
 * executor Yoga uses, over a plain graphql-js schema of the same shape whose
 * resolvers return the pages read once at start (no database per request,
 * no Pothos, no auth). What any GraphQL service built on this stack pays per
 * request before it does any work of its own.
 */
async function serveStack() {
  const { createYoga, createSchema } = await import('graphql-yoga');
  const { list, history, close } = await barePages();
  const listed = (await list()).data.sessions;
  const pagesBefore = new Map<string | undefined, unknown>();
  for (const before of [undefined, encodeIndexCursor(DEEP_BEFORE)]) {
    const page = await history({ id: encodeGlobalID('Session', BIG_SESSION), last: PAGE, before });
    pagesBefore.set(before, page.data.session?.history);
  }
  await close();
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: `
        type Query { sessions(first: Int): SessionConnection  session(id: ID!): Session }
        type SessionConnection { totalCount: Int  edges: [SessionEdge!]! }
        type SessionEdge { cursor: String!  node: SessionNode! }
        type SessionNode {
          id: ID!  name: String  pinned: Boolean!  lastActive: String!  displayMessageCount: Int!  preview: String
        }
        type Session { history(last: Int, before: String): MessageConnection }
        type MessageConnection { totalCount: Int!  edges: [MessageEdge!]! }
        type MessageEdge { cursor: String!  displayIndex: Int!  node: Message! }
        type Message { id: ID!  role: String!  content: String!  createdAt: String! }`,
      resolvers: {
        Query: { sessions: () => listed, session: (_: unknown, args: { id: string }) => ({ id: args.id }) },
        Session: { history: (_: unknown, args: { before?: string }) => pagesBefore.get(args.before ?? undefined) },
      },
    }),
    graphiql: false,
    logging: false,
  });
  const server = createServer(yoga);
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as import('node:net').AddressInfo;
    console.log(`LISTENING http://127.0.0.1:${port}/graphql`);
  });
  process.on('SIGTERM', () => {
    server.close();
    process.exit(0);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The driver

type Kind = 'service' | 'postgraphile' | 'bare' | 'stack';
interface Target {
  kind: Kind;
  url: string;
  child: ChildProcess;
}

function start(kind: Kind): Promise<Target> {
  const profile =
    kind === 'service' && process.env.PEER_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PEER_PROFILE}`] : [];
  // PostGraphile runs on plain Node: under tsx with the app's modules loaded, graphql's CommonJS and ESM copies
  // would meet in one process.
  // The service runs as `npm start` runs it: compiled dist/ on plain Node with the start command's node flags.
  const args =
    kind === 'postgraphile'
      ? ['bench/peer-postgraphile.mjs']
      : kind === 'service'
        ? [...profile, ...startCommand().nodeArgs, 'bench/peer-service.mjs']
        : ['--import', 'tsx', 'bench/peer.ts', `serve-${kind}`];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    // All three in production mode, as `npm start` serves (graphql-js's development checks off for each).
    env: { ...process.env, DATABASE_URL: BENCH_URL, NODE_ENV: 'production' },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /LISTENING (\S+)/.exec(out);
      if (m) resolve({ kind, url: m[1]!, child });
    });
    child.on('exit', (code) => reject(new Error(`${kind} server exited (${code}) before listening: ${out}`)));
  });
}

interface Page {
  name: string;
  body: Record<Kind, string>;
}

function pages(): Page[] {
  const id = encodeGlobalID('Session', BIG_SESSION);
  const json = (query: string, variables: object = {}) => JSON.stringify({ query, variables });
  return [
    {
      name: 'sessions list (first 50)',
      body: {
        service: json(SERVICE_LIST),
        postgraphile: json(PG_LIST),
        bare: json(SERVICE_LIST),
        stack: json(SERVICE_LIST),
      },
    },
    {
      name: 'history newest page (last 50)',
      body: {
        service: json(SERVICE_HISTORY, { id, last: PAGE }),
        postgraphile: json(PG_HISTORY, { id: BIG_SESSION, n: PAGE }),
        bare: json(SERVICE_HISTORY, { id, last: PAGE }),
        stack: json(SERVICE_HISTORY, { id, last: PAGE }),
      },
    },
    {
      name: 'history deep page (50 before @1000)',
      body: {
        service: json(SERVICE_HISTORY, { id, last: PAGE, before: encodeIndexCursor(DEEP_BEFORE) }),
        postgraphile: json(PG_HISTORY, { id: BIG_SESSION, before: DEEP_BEFORE, n: PAGE }),
        bare: json(SERVICE_HISTORY, { id, last: PAGE, before: encodeIndexCursor(DEEP_BEFORE) }),
        stack: json(SERVICE_HISTORY, { id, last: PAGE, before: encodeIndexCursor(DEEP_BEFORE) }),
      },
    },
  ];
}

const HEADERS = { 'content-type': 'application/json' };

async function post(url: string, body: string): Promise<string> {
  const r = await fetch(url, { method: 'POST', headers: HEADERS, body });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`${url}: ${r.status} ${text.slice(0, 300)}`);
  return text;
}

/** The rows of an answer, in one shape whatever the server, for the same-rows check. */
function rowsOf(kind: Kind, text: string): unknown {
  const parsed = JSON.parse(text);
  if (parsed.errors) throw new Error(`${kind}: ${JSON.stringify(parsed.errors).slice(0, 500)}`);
  const data = parsed.data;
  const iso = (v: string) => new Date(v).toISOString();
  if (data.sessions || data.allSessions) {
    const c = kind === 'postgraphile' ? data.allSessions : data.sessions;
    return {
      totalCount: c.totalCount,
      rows: c.edges.map(({ node: n }: any) => [
        kind === 'postgraphile' ? n.id : decodeGlobalID(n.id).id,
        n.name,
        n.pinned,
        iso(n.lastActive),
        kind === 'postgraphile' ? n.displayCount : n.displayMessageCount,
        n.preview,
      ]),
    };
  }
  if (kind === 'postgraphile')
    return {
      totalCount: data.sessionById.displayCount,
      rows: data.historyPage.nodes.map((n: any) => [
        `${n.sessionId}:${n.sequenceNumber}`,
        n.displayIndex,
        n.role.toUpperCase(),
        n.content,
        iso(n.createdAt),
      ]),
    };
  const h = data.session.history;
  return {
    totalCount: h.totalCount,
    rows: h.edges.map((e: any) => [
      decodeGlobalID(e.node.id).id,
      e.displayIndex,
      e.node.role,
      e.node.content,
      iso(e.node.createdAt),
    ]),
  };
}

async function sameRows(targets: Target[], page: Page): Promise<void> {
  const answers = await Promise.all(targets.map((t) => post(t.url, page.body[t.kind])));
  const byKind = Object.fromEntries(targets.map((t, i) => [t.kind, answers[i]!])) as Record<Kind, string>;
  const rows = Object.fromEntries(targets.map((t) => [t.kind, JSON.stringify(rowsOf(t.kind, byKind[t.kind]))]));
  const count = (JSON.parse(rows.service!) as { rows: unknown[] }).rows.length;
  if (count !== PAGE) throw new Error(`${page.name}: the service answered ${count} rows, not ${PAGE}`);
  if (rows.service !== rows.postgraphile)
    throw new Error(
      `${page.name}: PostGraphile's rows differ from the service's:\n${rows.postgraphile!.slice(0, 300)}\n` +
        rows.service!.slice(0, 300),
    );
  if (byKind.service !== byKind.bare)
    throw new Error(`${page.name}: the bare endpoint's JSON differs from the service's`);
  if (byKind.service !== byKind.stack)
    throw new Error(`${page.name}: the stack floor's JSON differs from the service's`);
  console.log(`${page.name}: same ${count} rows from all four, bare and stack JSON byte-identical to the service's`);
}

interface Latency {
  p50: number;
  p95: number;
  p99: number;
}

async function latencies(targets: Target[], page: Page): Promise<Record<Kind, Latency>> {
  const times = Object.fromEntries(targets.map((t) => [t.kind, [] as number[]])) as Record<Kind, number[]>;
  for (let i = 0; i < 10; i++) for (const t of targets) await post(t.url, page.body[t.kind]);
  for (let i = 0; i < ITERATIONS; i++) {
    // Interleaved, in a rotating order, so that no server always follows the same one.
    for (let j = 0; j < targets.length; j++) {
      const t = targets[(i + j) % targets.length]!;
      const started = performance.now();
      await post(t.url, page.body[t.kind]);
      times[t.kind].push(performance.now() - started);
    }
  }
  const out = {} as Record<Kind, Latency>;
  for (const t of targets) {
    const sorted = times[t.kind].sort((a, b) => a - b);
    out[t.kind] = { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
  }
  return out;
}

/** CPU time (ms) a process has used, from /proc (Linux); null elsewhere. */
function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / CLOCK_TICKS);
  } catch {
    return null;
  }
}

/**
 * CPU time (ms) of each PostgreSQL process on this machine, by pid. A delta
 * is taken per pid: a backend that exits between two reads (an idle pool
 * connection closed) takes its CPU with it and must not count as negative.
 */
function postgresCpuMs(): Map<number, number> | null {
  const byPid = new Map<number, number>();
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat = '';
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue;
      }
      if (stat.includes(' (postgres) ')) byPid.set(Number(pid), cpuMs(Number(pid)) ?? 0);
    }
  } catch {
    return null;
  }
  return byPid;
}

function postgresCpuSince(before: Map<number, number> | null): number | null {
  const after = postgresCpuMs();
  if (!before || !after) return null;
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** USER_HZ: the unit of /proc/<pid>/stat's utime and stime (100 on Linux's usual builds). */
const CLOCK_TICKS = 100;

interface Throughput {
  rps: number;
  /** the server process's CPU per request, ms */
  cpu: number | null;
  /** the PostgreSQL backends' CPU per request, ms */
  database: number | null;
}

/**
 * Throughput at CONNECTIONS connections, SECONDS seconds per server, taken as one-second slices interleaved across
 * the servers in a rotating order (as the latencies are): on a machine whose spare capacity drifts from second to
 * second (a shared host), consecutive multi-second runs measured the drift as much as the servers.
 */
async function throughputs(targets: Target[], page: Page, rotation: number): Promise<Record<Kind, Throughput>> {
  const sums = new Map(
    targets.map((t) => [t.kind, { requests: 0, seconds: 0, cpu: 0 as number | null, db: 0 as number | null }]),
  );
  for (let slice = 0; slice < SECONDS; slice++) {
    for (let j = 0; j < targets.length; j++) {
      const t = targets[(j + slice + rotation) % targets.length]!;
      const sum = sums.get(t.kind)!;
      const cpuBefore = cpuMs(t.child.pid);
      const dbBefore = postgresCpuMs();
      const started = performance.now();
      const result = await autocannon({
        url: t.url,
        method: 'POST',
        headers: HEADERS,
        body: page.body[t.kind],
        connections: CONNECTIONS,
        duration: 1,
      });
      const seconds = (performance.now() - started) / 1000;
      if (result.non2xx || result.errors)
        throw new Error(`${t.kind}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      const cpuAfter = cpuMs(t.child.pid);
      const db = postgresCpuSince(dbBefore);
      sum.requests += result.requests.total;
      sum.seconds += seconds;
      sum.cpu = sum.cpu !== null && cpuBefore !== null && cpuAfter !== null ? sum.cpu + cpuAfter - cpuBefore : null;
      sum.db = sum.db !== null && db !== null ? sum.db + db : null;
    }
  }
  const out = {} as Record<Kind, Throughput>;
  for (const [kind, sum] of sums) {
    const n = sum.requests;
    out[kind] = {
      rps: sum.seconds > 0 ? n / sum.seconds : 0,
      cpu: sum.cpu !== null && n > 0 ? sum.cpu / n : null,
      database: sum.db !== null && n > 0 ? sum.db / n : null,
    };
  }
  return out;
}

const perRequest = (ms: number | null) => (ms === null ? '   n/a' : ms.toFixed(2).padStart(6));

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

async function main() {
  const mode = process.argv[2];
  if (mode === 'serve-bare') return serveBare();
  if (mode === 'serve-stack') return serveStack();

  // The service serves dist/: build it first if src/ is newer (as `npm start` does).
  const launcher = (await import(new URL('../scripts/start.mjs', import.meta.url).href)) as {
    buildIsStale(): boolean;
    build(): void;
  };
  if (launcher.buildIsStale()) launcher.build();
  // PostGraphile first: it creates its schema before the others read.
  const postgraphile = await start('postgraphile');
  const [service, bare, stack] = await Promise.all([start('service'), start('bare'), start('stack')]);
  const targets = [service, postgraphile, bare, stack];
  const stop = async () => {
    await Promise.all(
      targets.map(
        (t) =>
          new Promise<void>((resolve) => {
            if (t.child.exitCode !== null) return resolve();
            t.child.once('exit', () => resolve());
            t.child.kill('SIGTERM');
          }),
      ),
    );
    // PostGraphile's process drops its schema on SIGTERM; again here in case it could not.
    const c = new pg.Client({ connectionString: BENCH_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${PEER_SCHEMA} CASCADE`);
    await c.end();
  };
  try {
    console.log(
      `bench database ${new URL(BENCH_URL).pathname.slice(1)}; ${ITERATIONS} interleaved requests per server ` +
        `and page, ${CONNECTIONS} connections × ${SECONDS} s for throughput, ${REPEATS} repeats; load ${load()}\n`,
    );
    const all = pages();
    for (const page of all) await sameRows(targets, page);
    let rotation = 0;
    for (let repeat = 1; repeat <= REPEATS; repeat++) {
      console.log(`\nrepeat ${repeat} (load average at start ${load()})`);
      for (const page of all) {
        const lat = await latencies(targets, page);
        const cpu = await throughputs(targets, page, rotation++);
        const rps = Object.fromEntries(targets.map((t) => [t.kind, cpu[t.kind].rps])) as Record<Kind, number>;
        console.log(`${page.name}`);
        for (const t of targets) {
          const l = lat[t.kind];
          console.log(
            `  ${t.kind.padEnd(13)} p50 ${l.p50.toFixed(2).padStart(7)} ms  p95 ${l.p95.toFixed(2).padStart(7)} ms  ` +
              `p99 ${l.p99.toFixed(2).padStart(7)} ms  ${rps[t.kind].toFixed(0).padStart(5)} req/s  ` +
              `CPU/request: server ${perRequest(cpu[t.kind].cpu)} ms, ` +
              `PostgreSQL ${perRequest(cpu[t.kind].database)} ms`,
          );
        }
        const s = lat.service.p50;
        const toPg = s / lat.postgraphile.p50;
        const toBare = s / lat.bare.p50;
        const tpPg = rps.service / rps.postgraphile;
        const tpBare = rps.service / rps.bare;
        console.log(
          `  p50 here÷PostGraphile ${toPg.toFixed(2)} (goal ≤ 1: ${verdict(toPg <= 1)}), ` +
            `here÷bare ${toBare.toFixed(2)} (goal ≤ 1.5: ${verdict(toBare <= 1.5)})`,
        );
        console.log(
          `  throughput here÷PostGraphile ${tpPg.toFixed(2)} (goal ≥ 1: ${verdict(tpPg >= 1)}), ` +
            `here÷bare ${tpBare.toFixed(2)} (goal ≥ 0.5: ${verdict(tpBare >= 0.5)})   load ${load()}`,
        );
        const pgOverStack = lat.postgraphile.p50 / lat.stack.p50;
        console.log(
          `  stack floor (Yoga + executor, static page, no database): p50 here÷stack ` +
            `${(s / lat.stack.p50).toFixed(2)}, PostGraphile÷stack ${pgOverStack.toFixed(2)}; ` +
            `throughput here÷stack ${(rps.service / rps.stack).toFixed(2)}, ` +
            `PostGraphile÷stack ${(rps.postgraphile / rps.stack).toFixed(2)}`,
        );
      }
    }
  } finally {
    await stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
