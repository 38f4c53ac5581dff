/**
 * History edits at 1,000 and 10,000 messages: fork, branch switch, undo/redo.
 * For each edit: wall time (median of several runs) and the rows its
 * transaction wrote (pg_stat_xact_user_tables read just before commit:
 * inserted + updated + deleted tuples over every table). Same changed suffix
 * at both sizes, so an O(changed rows) edit shows a ~1× ratio, an O(history)
 * one ~10×.
 *   npx tsx bench/editing.ts                      (embedded PGlite, in memory)
 *   BENCH_EDIT_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/editing.ts
 *                                                  (a fresh database on that server)
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import type { NewMessage } from '../src/domain/types.js';
import type { Viewer } from '../src/domain/policy.js';

const SIZES = [1_000, 10_000];
const SUFFIX = 20; // rows each side of the branch point
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const viewer: Viewer = { userId: 'anonymous', userName: null, isAdmin: true, permissions: [], authEnabled: false };

async function database(): Promise<{ db: Database; kind: string; drop(): Promise<void> }> {
  const url = process.env.BENCH_EDIT_URL;
  if (!url) {
    const db = await openDatabase({ dataDir: 'memory://' });
    return { db, kind: 'pglite', drop: () => db.close() };
  }
  const name = `edit_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = await openDatabase({ url: target.toString(), poolSize: 4 });
  return {
    db,
    kind: 'postgres',
    drop: async () => {
      await db.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function turns(n: number, tag: string): NewMessage[] {
  const rows: NewMessage[] = [];
  for (let i = 0; i < n / 2; i++) {
    rows.push({ role: 'user', content: `${tag} question ${i} about the deployment pipeline and its caches` });
    rows.push({ role: 'assistant', content: `${tag} answer ${i}: `.padEnd(400, 'lorem ipsum ') });
  }
  return rows;
}

async function main() {
  const { db, kind, drop } = await database();
  const app = await createApp(loadConfig({}, { logLevel: 'silent', port: 0 }), { db });
  // Count what each edit's transaction writes, just before it commits.
  let written = 0;
  const transaction = app.store.transaction.bind(app.store);
  app.store.transaction = (fn) =>
    transaction(async (tx) => {
      // The xact counters also hold this backend's not-yet-flushed earlier transactions: take the delta.
      const count = async () =>
        (
          await tx.$queryRawUnsafe<{ n: number }[]>(
            'SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::int AS n FROM pg_stat_xact_user_tables',
          )
        )[0]?.n ?? 0;
      const before = await count();
      const result = await fn(tx);
      written = (await count()) - before;
      return result;
    });
  const measure = async (fn: () => Promise<unknown>) => {
    const times: number[] = [];
    const rows: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await fn();
      times.push(performance.now() - t0);
      rows.push(written);
    }
    return { ms: median(times), rows: median(rows) };
  };

  const results: Record<string, Record<number, { ms: number; rows: number }>> = {};
  const record = (name: string, size: number, r: { ms: number; rows: number }) => {
    if (SIZES.includes(size)) (results[name] ??= {})[size] = r;
  };
  // A small warm-up pass first (JIT, caches, prepared plans), not recorded.
  for (const size of [200, ...SIZES]) {
    const session = await app.sessions.create(viewer, { name: `bench ${size}` });
    const id = session.id;
    const base = turns(size - SUFFIX, 'base');
    for (let i = 0; i < base.length; i += 1000) await app.store.append(id, base.slice(i, i + 1000));
    await app.store.archiveOldMessages(id, Math.floor(size / 3)); // a third archived, as in production
    await app.editing.markBranch(viewer, id, 'alt');
    await app.store.append(id, turns(SUFFIX, 'one'));
    await app.editing.switchBranch(viewer, id, 'alt'); // 'one' path kept as a branch
    await app.store.append(id, turns(SUFFIX, 'two'));

    // switch back and forth: each switch deletes SUFFIX rows and inserts SUFFIX rows
    record(
      'switchBranch',
      size,
      await measure(async () => {
        const [other] = await app.db.prisma.sessionBranch.findMany({
          where: { sessionId: id },
          select: { name: true },
        });
        await app.editing.switchBranch(viewer, id, other!.name);
      }),
    );
    const { displayCount } = (await app.store.get(id))!;
    record(
      'history: last 50 after switches (read)',
      size,
      await measure(async () => {
        written = 0;
        await app.store.displayRange(id, displayCount - 50, displayCount);
      }),
    );
    record(
      'undoLastTurn + redo',
      size,
      await measure(async () => {
        await app.editing.undoLastTurn(viewer, id);
        const undoRows = written;
        await app.editing.redo(viewer, id);
        written += undoRows;
      }),
    );
    record(
      'markBranch',
      size,
      await measure(async () => {
        const b = await app.editing.markBranch(viewer, id);
        await app.store.transaction((tx) => tx.sessionBranch.deleteMany({ where: { sessionId: id, name: b.name } }));
      }),
    );
    const forks: string[] = [];
    record('forkSession', size, await measure(async () => forks.push((await app.editing.fork(viewer, id)).id)));
    record(
      'revert to message 0 (whole history)',
      size,
      await measure(async () => {
        const target = forks.pop()!;
        await app.editing.revert(viewer, target, 0);
      }),
    );
  }

  console.log(
    `\nHistory edits (${kind}), median of ${RUNS} runs` +
      `; rows = tuples inserted+updated+deleted by the edit's transaction\n`,
  );
  console.log('| edit | 1,000 msgs: ms | rows | 10,000 msgs: ms | rows | time ratio | rows ratio |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [name, by] of Object.entries(results)) {
    const a = by[SIZES[0]!]!;
    const b = by[SIZES[1]!]!;
    const ratio = (x: number, y: number) => (x === 0 ? '–' : `${(y / x).toFixed(2)}×`);
    console.log(
      `| ${name} | ${a.ms.toFixed(1)} | ${a.rows}` +
        ` | ${b.ms.toFixed(1)} | ${b.rows} | ${ratio(a.ms, b.ms)} | ${ratio(a.rows, b.rows)} |`,
    );
  }
  await app.close();
  await drop();
}

await main();
