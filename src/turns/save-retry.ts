/**
 * Saves of a running turn that meet a row lock held past
 * DATABASE_LOCK_TIMEOUT_MS: each is tried again with backoff; one that still
 * cannot take the lock fails with LOCK_TIMEOUT, and the runner then ends the
 * turn INTERRUPTED and stores the streamed answer once the lock frees
 * (`saveWhenUnlocked`). The answer the user watched stream is never dropped.
 */
import type { Logger } from 'pino';
import { isLockTimeout } from '../db/faults.js';

export const LOCK_TIMEOUT_MESSAGE =
  'The database was busy when this answer was saved; it is stored as soon as the database frees it.';

/** The backoff between attempts of a save refused by a lock timeout (then it gives up). */
export const LOCK_RETRY_DELAYS_MS: readonly number[] = [100, 400, 1_600];
/** How long each attempt of the deferred save waits for the lock, and how many it makes. */
export const DEFERRED_LOCK_WAIT_MS = 30_000;
export const DEFERRED_ATTEMPTS = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `write`, again after each backoff delay while it fails with a lock timeout. */
export async function retryOnLockTimeout<T>(
  write: () => Promise<T>,
  log: Logger,
  context: Record<string, unknown>,
  delays: readonly number[] = LOCK_RETRY_DELAYS_MS,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isLockTimeout(error) || attempt >= delays.length) throw error;
      log.warn({ ...context, attempt: attempt + 1 }, 'turn.save_lock_timeout');
      await sleep(delays[attempt]!);
    }
  }
}

/**
 * The deferred save: `write` (which waits up to DEFERRED_LOCK_WAIT_MS for the
 * lock) is tried until it lands or DEFERRED_ATTEMPTS are spent; the result, or
 * null when it never could (the text stays in the turn's partial_text).
 */
export async function saveWhenUnlocked<T>(
  write: () => Promise<T>,
  log: Logger,
  context: Record<string, unknown>,
): Promise<T | null> {
  for (let attempt = 1; attempt <= DEFERRED_ATTEMPTS; attempt++) {
    try {
      return await write();
    } catch (error) {
      log.warn({ ...context, err: error, attempt }, 'turn.deferred_save_failed');
      await sleep(Math.min(5_000, 250 * 2 ** attempt));
    }
  }
  log.error(context, 'turn.deferred_save_gave_up');
  return null;
}
