/**
 * The fault benchmark, in one run (docs/reliability.md):
 *   1. losses / duplicates over 20 random kill -9 runs per database (bench/faults-kill.ts)
 *   2. events after 500 disconnect/resume cycles spanning a restart; time from the new
 *      process listening to the interrupted turn's end and to the first accepted
 *      sendMessage (bench/faults-resume.ts)
 *   3. 200 concurrent turns on PostgreSQL, goal 0 FAILED (bench/faults-concurrency.ts)
 *
 *   npx tsx bench/faults.ts            # all three
 *   FAULTS=kill,resume npx tsx bench/faults.ts
 *
 * Each part can also run alone. Exits 1 when a goal is missed.
 */
import { faultsKill } from './faults-kill.js';
import { runFaultsConcurrency } from './faults-concurrency.js';
import { runFaultsResumeBench } from './faults-resume.js';

const parts = new Set((process.env.FAULTS ?? 'kill,resume,concurrency').split(','));
const goals: string[] = [];
const missed: string[] = [];
const goal = (ok: boolean, text: string) => (ok ? goals : missed).push(text);

if (parts.has('kill')) {
  console.log('\n== kill -9 at random points (lost / duplicated acknowledged writes)');
  const results = await faultsKill({ runs: Number(process.env.RUNS ?? 20) });
  for (const r of results)
    goal(
      r.lost === 0 && r.duplicates === 0,
      `${r.database}: lost ${r.lost}, duplicated ${r.duplicates} over ${r.runs} runs (goal 0 / 0)`,
    );
}

if (parts.has('resume')) {
  console.log('\n== resume across a restart');
  const r = await runFaultsResumeBench();
  goal(
    r.duplicates === 0 && r.gaps === 0 && r.orphanFragments === 0,
    `resume: ${r.duplicates} duplicates, ${r.gaps} gaps, ${r.orphanFragments} orphan fragments (goal 0)`,
  );
  goal(r.recoveryMs <= 1000, `listening → interrupted turn ended ${r.recoveryMs} ms (goal ≤ 1000 ms)`);
  goal(Number.isFinite(r.firstSendMs), `listening → first accepted sendMessage ${r.firstSendMs} ms`);
}

if (parts.has('concurrency')) {
  console.log('\n== 200 concurrent turns on PostgreSQL');
  const r = await runFaultsConcurrency({ turns: Number(process.env.BENCH_TURNS ?? 200) });
  console.log(
    `  statuses ${JSON.stringify(r.statuses)}, sendMessage errors ${r.sendErrors}, ${r.seconds.toFixed(1)} s`,
  );
  goal(
    r.failed === 0 && r.sendErrors === 0,
    `${r.turns} concurrent turns: FAILED ${r.failed}, sendMessage errors ${r.sendErrors} (goal 0)`,
  );
}

console.log('\n== goals');
for (const line of goals) console.log(`  met     ${line}`);
for (const line of missed) console.log(`  MISSED  ${line}`);
process.exit(missed.length ? 1 : 0);
