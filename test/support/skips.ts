/**
 * No silent skips: a test file that skips a suite says which and why, and `npm test` prints it just before its
 * closing line (count-reporter.ts), as `SKIPPED: <suite>: <reason>`.
 *
 *   describe.skipIf(skipping('browser tests', browserMissing))('web client in Chromium', () => { … });
 *
 * `reason` is null when the suite runs. The lines go to the file global-setup.ts named for the run.
 */
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The test file that called: the first stack frame under test/ that is not this module. */
function callerFile(): string {
  for (const line of new Error().stack?.split('\n') ?? []) {
    const m = /(?:file:\/\/)?(\/[^\s():]+\.test\.ts)/.exec(line);
    if (m) return relative(repoRoot, m[1]!);
  }
  return 'unknown file';
}

/** Records the skip (when `reason` is set) and answers whether to skip. */
export function skipping(suite: string, reason: string | null | undefined | false): boolean {
  if (!reason) return false;
  const file = process.env.TEST_SKIPS_FILE;
  if (file) appendFileSync(file, `${JSON.stringify({ suite, reason, file: callerFile() })}\n`);
  return true;
}

/** Why a suite that needs the PostgreSQL server cannot run (null when it can). */
export const needsServer = (what = 'needs PostgreSQL') =>
  process.env.TEST_DATABASE_URL ? null : `${what}: set TEST_DATABASE_URL (the PGlite run covers the rest)`;

/** Why a suite that needs the embedded database cannot run (null when it can). */
export const needsPglite = (what = 'runs on the embedded database only') =>
  process.env.TEST_DATABASE_URL ? `${what}: covered by the PGlite run` : null;

/** Why a suite that needs Redis cannot run (null when it can). */
export const needsRedis = () =>
  process.env.REDIS_URL ? null : 'needs Redis: set REDIS_URL (e.g. redis://127.0.0.1:6379)';
