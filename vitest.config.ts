import { defineConfig } from 'vitest/config';

/**
 * The fast suite (`npm test`): everything under test/ but test/slow/ (`npm run test:slow`, vitest.slow.config.ts).
 * docs/testing.md says why each setting is what it is; in short, for a 2-core machine:
 * - two workers (one per core), each running its files one after another in one process (`isolate: false`): the
 *   service's modules, Prisma and Pothos' schema are loaded once per worker, not once per file, and the worker keeps
 *   its databases between files (test/support/databases.ts);
 * - global-setup.ts names the run, makes the PostgreSQL template database once, and collects the skip reasons.
 */
/** Shared with vitest.slow.config.ts, which runs test/slow/ instead. */
export const base = {
  // One graphql module for src, tests and Pothos (its CJS build), so schema objects are from the same realm.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    // TEST_ALL=1 runs the slow suite too (npm run test:coverage: the coverage of both together).
    exclude: process.env.TEST_ALL ? ['node_modules/**'] : ['test/slow/**', 'node_modules/**'],
    globalSetup: ['./test/support/global-setup.ts'],
    // Generous: a timeout only bounds a hang (the suite must pass on a loaded machine, never race a clock).
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 2,
    isolate: false,
    reporters: ['default', './test/support/count-reporter.ts'],
    coverage: {
      provider: 'v8' as const,
      include: ['src/**'],
      exclude: ['src/generated/**'],
      reporter: ['text-summary', 'json-summary'],
    },
  },
};

export default defineConfig(base);
