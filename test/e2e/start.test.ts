/**
 * `npm start` serves the compiled JavaScript on plain Node: no TypeScript
 * loader in the serving process (it costs ~90 MB of RSS, docs/performance.md).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StartCreateSessionDocument } from '../generated/graphql.js';
import { repoRoot, startChildServer, type ChildServer } from '../support/child-server.js';

const dirs: string[] = [];
let server: ChildServer | undefined;
afterAll(async () => {
  server?.kill('SIGTERM');
  await server?.exited;
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('runs dist/main.js on plain Node and serves the API', async () => {
    const { scripts } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // Young generation capped at 2 × 4 MiB: idle RSS under 150 MiB in every start (docs/performance.md).
    expect(scripts.start).toBe('node --max-semi-space-size=4 scripts/start.mjs');
    // Built at install: npm install runs the build after generating the Prisma client.
    expect(scripts.postinstall).toContain('npm run -s build');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'npm-start-'));
    dirs.push(dir);
    server = await startChildServer(
      {
        DATA_DIR: path.join(dir, 'data'),
        SESSION_FILES_DIR: path.join(dir, 'files'),
        OLLAMA_HOST: 'http://127.0.0.1:9',
        // As a user runs it: no NODE_ENV, so the launcher serves in production mode.
        NODE_ENV: undefined,
      },
      { asNpmStart: true, timeoutMs: 600_000 },
    );
    const listening = JSON.parse(await server.waitForLine((line) => line.includes('"listening"'))) as {
      nodeEnv?: string;
    };
    expect(listening.nodeEnv).toBe('production');
    const created = await server.gql(StartCreateSessionDocument, {});
    expect(created.errors).toBeUndefined();
    // The serving process is node with no loader flags, running the launcher that imports dist/main.js.
    const argv = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    expect(argv.slice(1)).toEqual(['--max-semi-space-size=4', 'scripts/start.mjs']);
    const loaded = readFileSync(`/proc/${server.pid}/environ`, 'utf8');
    expect(loaded).not.toContain('--import tsx');
  }, 660_000);
});
