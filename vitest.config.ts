import { defineConfig } from 'vitest/config';

export default defineConfig({
  // One graphql module for src, tests and Pothos (its CJS build), so schema objects are from the same realm.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: the suite runs on a shared 2-core machine at load 10-20; a timeout only bounds a hang.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/support/count-reporter.ts'],
  },
});
