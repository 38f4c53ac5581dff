/**
 * Compression at scale: a turn of 200 tool iterations. The same over 40 iterations: test/compression-triggers.test.ts.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { midTurnLoop } from '../support/compression.js';
import { createTestServer, dbKind, type ServerContext } from '../support/harness.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false, maxToolIterations: 400 });
});
afterAll(() => t.close());

describe(`compression at scale (${dbKind})`, () => {
  it('mid-turn: one user message and 200 tool iterations stay within the window end to end', async () => {
    await midTurnLoop(t, { steps: 200, minCompressions: 4 });
  }, 240_000);
});
