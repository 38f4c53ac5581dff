/** The session file store's upkeep: removing the directories of sessions that no longer exist, now and on a timer. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { errCode } from './fs-util.js';
import type { FilesLogger, SessionsExist } from './types.js';

/** Session ids accepted as directory names (UUIDs, cuids, nanoids…). */
export const SESSION_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const CLEANUP_BATCH = 500;

/**
 * Remove directories under `session_files/` whose session no longer exists.
 * `exists(ids)` returns the subset of ids that still exist (called in
 * batches of 500). Only directories named like a session id are
 * considered. Returns the removed ids.
 */
export async function cleanupOrphans(baseDir: string, exists: SessionsExist, logger?: FilesLogger): Promise<string[]> {
  let entries;
  try {
    entries = await fs.readdir(baseDir, { withFileTypes: true });
  } catch (e) {
    if (errCode(e) === 'ENOENT') return [];
    throw e;
  }
  const ids = entries.filter((e) => e.isDirectory() && SESSION_ID_RE.test(e.name)).map((e) => e.name);
  const removed: string[] = [];
  for (let i = 0; i < ids.length; i += CLEANUP_BATCH) {
    const batch = ids.slice(i, i + CLEANUP_BATCH);
    const alive = await exists(batch);
    for (const id of batch) {
      if (alive.has(id)) continue;
      await fs.rm(path.join(baseDir, id), { recursive: true, force: true });
      removed.push(id);
    }
  }
  if (removed.length > 0) {
    logger?.info?.({ event: 'session_files.orphans_removed', count: removed.length, sessionIds: removed });
  }
  return removed;
}

/**
 * Run `run` (a cleanupOrphans) now and every `intervalMs` (timer unref'd, runs never
 * overlap, failures logged as `session_files.cleanup_failed`). Returns a
 * stop function that resolves once any in-flight run has finished.
 */
export function startCleanupLoop(
  run: () => Promise<unknown>,
  intervalMs: number,
  logger?: FilesLogger,
): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> | null = null;
  const tick = () => {
    if (stopped || running) return;
    running = run()
      .then(
        () => undefined,
        (e: unknown) => {
          logger?.warn({
            event: 'session_files.cleanup_failed',
            err: e instanceof Error ? e.message : String(e),
          });
        },
      )
      .finally(() => {
        running = null;
      });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref?.();
  return async () => {
    stopped = true;
    clearInterval(timer);
    if (running) await running;
  };
}
