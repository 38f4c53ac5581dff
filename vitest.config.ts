import { defineConfig } from 'vitest/config';

export default defineConfig({
  // One graphql module for src, tests and Pothos (its CJS build), so schema objects are from the same realm.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/support/count-reporter.ts'],
  },
});
