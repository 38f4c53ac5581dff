import { mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * `npm run test:profile`: the slowest 30 files and the slowest 30 tests with their wall time, and the whole run's.
 * A file's wall time is what its worker spent on it: importing the file and what it imports (collect), and its tests
 * and hooks (run). The table is also written to test-artifacts/profile.json for a before/after comparison.
 */
export default class ProfileReporter implements Reporter {
  private started = 0;

  onTestRunStart() {
    this.started = performance.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const wall = (performance.now() - this.started) / 1000;
    const files = modules.map((mod) => {
      const d = mod.diagnostic();
      const collect = (d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration) / 1000;
      const run = d.duration / 1000;
      return { file: relative(process.cwd(), mod.moduleId), collect, run, total: collect + run };
    });
    const tests = modules.flatMap((mod) =>
      [...mod.children.allTests()].map((test) => ({
        file: relative(process.cwd(), mod.moduleId),
        name: test.fullName,
        seconds: (test.diagnostic()?.duration ?? 0) / 1000,
        state: test.result().state,
      })),
    );
    files.sort((a, b) => b.total - a.total);
    tests.sort((a, b) => b.seconds - a.seconds);
    const sum = files.reduce((s, f) => s + f.total, 0);
    const out: string[] = [];
    out.push('', `wall ${wall.toFixed(1)} s; ${files.length} files, worker time ${sum.toFixed(1)} s`, '');
    out.push('slowest files      total   import+collect   tests+hooks');
    for (const f of files.slice(0, 30)) {
      const [total, collect, run] = [f.total, f.collect, f.run].map((n) => `${n.toFixed(1).padStart(8)} s`);
      out.push(`${total} ${collect} ${run}  ${f.file}`);
    }
    out.push('', 'slowest tests');
    for (const t of tests.slice(0, 30)) {
      out.push(`${t.seconds.toFixed(1).padStart(8)} s  ${t.file} > ${t.name}`.slice(0, 200));
    }
    process.stdout.write(`${out.join('\n')}\n`);
    mkdirSync('test-artifacts', { recursive: true });
    writeFileSync('test-artifacts/profile.json', JSON.stringify({ wall, files, tests }, null, 1));
  }
}
