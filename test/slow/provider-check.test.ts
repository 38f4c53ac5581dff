/**
 * The start-up provider check in the real server (src/main.ts in a child process): one line naming the missing model,
 * after the listening line, and the server still serves. The check itself, in process: test/provider-errors.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProviderErrorsProfileKeysOnlyDocument } from '../generated/graphql.js';
import { startChildServer } from '../support/child-server.js';
import { migratedDataDir } from '../support/databases.js';
import { startFakeProvider } from '../support/fake-provider.js';

describe('start-up provider check', () => {
  it('the real server logs the missing model after listening, and still serves', async () => {
    const fake = await startFakeProvider();
    const dir = mkdtempSync(join(tmpdir(), 'provider-check-'));
    // The machine may be loaded: tsx start-up alone can take a minute.
    const dataDir = await migratedDataDir(join(dir, 'data'));
    const server = await startChildServer(
      { DATA_DIR: dataDir, DATABASE_URL: '', OLLAMA_HOST: fake.url, SESSION_FILES_DIR: join(dir, 'files') },
      { timeoutMs: 240_000 },
    ).catch(async (e: unknown) => {
      await fake.stop();
      throw e;
    });
    try {
      const line = await server.waitForLine((l) => l.includes('provider.check:'), 120_000);
      expect(JSON.parse(line).msg).toBe(
        `provider.check: model qwen3:8b is not pulled in ollama at ${fake.url}: run ollama pull qwen3:8b`,
      );
      expect(server.lines.filter((l) => l.includes('provider.check:'))).toHaveLength(1);
      const r = await server.gql(ProviderErrorsProfileKeysOnlyDocument, {});
      expect(r.errors).toBeUndefined();
    } finally {
      server.kill('SIGKILL');
      await server.exited;
      await fake.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 400_000);
});
