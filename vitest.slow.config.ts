import { defineConfig } from 'vitest/config';
import { base } from './vitest.config.js';

/**
 * `npm run test:slow`: the long fault, soak and scale tests (kill -9 loops, storms, several processes, recovery
 * timing). Each keeps a fast sibling in the fast suite that checks the same behaviour once (docs/testing.md).
 */
export default defineConfig({ ...base, test: { ...base.test, include: ['test/slow/**/*.test.ts'], exclude: [] } });
