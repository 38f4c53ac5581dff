/**
 * kill -9 at a random moment of a write load, 20 times per database: the
 * server (a child process, as `npm start`) answers writes from two concurrent
 * writers (create session, send + turn end, rename, upload, share), dies by
 * SIGKILL a uniformly random 0–4 s after the run's first answered write, restarts on the same data, and
 * every write it had answered — in this run and all earlier ones — is read back.
 * Prints the lost and duplicated acknowledged writes per database.
 *
 *   npx tsx bench/faults-kill.ts            # PGlite (temp DATA_DIR); PostgreSQL too when TEST_DATABASE_URL reaches one
 *   RUNS=5 DATABASES=pglite npx tsx bench/faults-kill.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { startChildServer } from '../test/support/child-server.js';
import {
  createServerDatabase,
  newLedger,
  prepareTemplateDataDir,
  replyResponder,
  verifyLedger,
  writeRound,
} from '../test/support/durability.js';
import { startFakeProvider } from '../test/support/fake-provider.js';

export interface KillResult {
  database: 'pglite' | 'postgres';
  runs: number;
  acknowledged: number;
  lost: number;
  duplicates: number;
  /** writes answered per run (min / median / max) */
  perRun: { min: number; median: number; max: number };
  examples: string[];
}

async function reachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

async function killRuns(
  database: 'pglite' | 'postgres',
  runs: number,
  ollamaHost: string,
  log: (line: string) => void,
): Promise<KillResult> {
  const dir = mkdtempSync(join(tmpdir(), 'chat-faults-kill-'));
  let drop: (() => Promise<void>) | undefined;
  const env: Record<string, string> = {
    DATA_DIR: join(dir, 'data'),
    SESSION_FILES_DIR: join(dir, 'files'),
    OLLAMA_HOST: ollamaHost,
    DATABASE_URL: '',
  };
  // initdb in WebAssembly is slow on a loaded machine and not what is measured: start from a migrated directory.
  if (database === 'pglite') await prepareTemplateDataDir(env.DATA_DIR!);
  if (database === 'postgres') {
    const db = await createServerDatabase(process.env.TEST_DATABASE_URL!);
    drop = db.drop;
    env.DATABASE_URL = db.url;
  }
  const ledger = newLedger();
  const lost = new Set<string>();
  const duplicates = new Set<string>();
  const perRun: number[] = [];
  try {
    for (let run = 0; run <= runs; run++) {
      const server = await startChildServer(env, { timeoutMs: 600_000 });
      // Everything answered before the previous kill must be here.
      const verdict = await verifyLedger(server.url, ledger);
      verdict.lost.forEach((l) => lost.add(l));
      verdict.duplicates.forEach((d) => duplicates.add(d));
      if (run > 0)
        log(
          `${database} after restart ${run}: ${ledger.acknowledged}` +
            ` acknowledged so far, lost ${lost.size}, duplicates ${duplicates.size}`,
        );
      if (run === runs) {
        server.kill('SIGKILL');
        await server.exited;
        break;
      }
      const before = ledger.acknowledged;
      let stop = false;
      const writer = async (w: number) => {
        for (let round = 0; !stop; round++) {
          try {
            await writeRound(server.url, ledger, `${run}.${w}.${round}`);
          } catch {
            return; // the server died under this write: it was not acknowledged
          }
        }
      };
      const writers = [writer(0), writer(1)];
      // The clock starts at the run's first answered write, so every run dies with writes in flight
      // however slow the machine is.
      while (ledger.acknowledged === before) await new Promise((r) => setTimeout(r, 10));
      const delay = Math.random() * 4000;
      await new Promise((r) => setTimeout(r, delay));
      server.kill('SIGKILL');
      await server.exited;
      stop = true;
      await Promise.all(writers);
      perRun.push(ledger.acknowledged - before);
      log(
        `${database} run ${run + 1}/${runs}: killed ${delay.toFixed(0)}` +
          ` ms after the first answer, ${ledger.acknowledged - before} writes answered`,
      );
    }
  } finally {
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  }
  const sorted = [...perRun].sort((a, b) => a - b);
  return {
    database,
    runs,
    acknowledged: ledger.acknowledged,
    lost: lost.size,
    duplicates: duplicates.size,
    perRun: { min: sorted[0] ?? 0, median: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted.at(-1) ?? 0 },
    examples: [...lost, ...duplicates].slice(0, 5),
  };
}

export async function faultsKill(options: { runs?: number; log?: (line: string) => void } = {}): Promise<KillResult[]> {
  const runs = options.runs ?? 20;
  const log = options.log ?? ((line: string) => console.log(line));
  const fake = await startFakeProvider();
  fake.responder = replyResponder;
  const results: KillResult[] = [];
  try {
    const only = process.env.DATABASES?.split(',');
    if (!only || only.includes('pglite')) results.push(await killRuns('pglite', runs, fake.url, log));
    const url = process.env.TEST_DATABASE_URL;
    if (only && !only.includes('postgres')) log('PostgreSQL: not in DATABASES, skipped');
    else if (url && (await reachable(url))) results.push(await killRuns('postgres', runs, fake.url, log));
    else log('PostgreSQL: TEST_DATABASE_URL unset or unreachable, skipped');
  } finally {
    await fake.stop();
  }
  for (const r of results) {
    console.log(
      `${r.database.padEnd(9)} ${r.runs} kill -9 runs, ${r.acknowledged}` +
        ` acknowledged writes (per run ${r.perRun.min}/${r.perRun.median}/${r.perRun.max}` +
        ` min/median/max): lost ${r.lost}` +
        `, duplicates ${r.duplicates}${r.examples.length ? `  e.g. ${r.examples.join('; ')}` : ''}`,
    );
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = process.env.RUNS ? Number(process.env.RUNS) : 20;
  faultsKill({ runs }).then(
    (results) => process.exit(results.some((r) => r.lost > 0 || r.duplicates > 0) ? 1 : 0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
