import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the one plain closing line CI reads, `N passed, N failed, N skipped`, and just before it one
 * `SKIPPED: <suite>: <reason>` line for everything that did not run: the suites test files skipped with a reason
 * (skips.ts), and any other skipped test by its file and name, so no skip is silent; and a `FAILED:` line per
 * failed test.
 */
export default class CountReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const skippedByFile = new Map<string, string[]>();
    const failures: string[] = [];
    for (const mod of modules) {
      const file = relative(process.cwd(), mod.moduleId);
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') {
          failed++;
          const error = test.result().errors?.[0]?.message?.split('\n')[0]?.slice(0, 300);
          failures.push(`FAILED: ${file} > ${test.fullName}${error ? `: ${error}` : ''}`);
        } else {
          skipped++;
          skippedByFile.set(file, [...(skippedByFile.get(file) ?? []), test.fullName]);
        }
      }
      // A file that failed outside its tests (an import, a beforeAll) counts once, whatever its tests say.
      if (mod.state() === 'failed' && ![...mod.children.allTests()].some((t) => t.result().state === 'failed'))
        failed++;
    }
    const lines: string[] = [...failures];
    // Suites skipped with a reason: one line per suite and reason, with the tests they hold.
    const reasons = new Map<string, { files: Set<string>; tests: number }>();
    const explained = new Set<string>();
    const file = process.env.TEST_SKIPS_FILE;
    if (file && existsSync(file)) {
      for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
        const { suite, reason, file: testFile } = JSON.parse(line) as { suite: string; reason: string; file: string };
        const key = `${suite}: ${reason}`;
        const entry = reasons.get(key) ?? { files: new Set(), tests: 0 };
        if (!entry.files.has(testFile)) entry.tests += skippedByFile.get(testFile)?.length ?? 0;
        entry.files.add(testFile);
        reasons.set(key, entry);
        explained.add(testFile);
      }
    }
    for (const [key, { files, tests }] of reasons) {
      lines.push(`SKIPPED: ${key} (${files.size} ${files.size === 1 ? 'file' : 'files'}, ${tests} tests)`);
    }
    for (const [testFile, names] of skippedByFile) {
      if (explained.has(testFile)) continue;
      for (const name of names) lines.push(`SKIPPED: ${testFile}: ${name}`);
    }
    process.stdout.write(
      `\n${lines.map((l) => `${l}\n`).join('')}${passed} passed, ${failed} failed, ${skipped} skipped\n`,
    );
  }
}
