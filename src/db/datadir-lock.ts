/**
 * One process per embedded data directory. Two PGlite instances on the same
 * files each keep their own buffers and WAL position and overwrite each
 * other's pages: what one of them acknowledged is silently gone after a
 * restart. So whoever opens DATA_DIR first creates DATA_DIR/datadir.lock
 * (O_EXCL) holding its pid, and every later opener is refused while that
 * process is alive. A lock left by a dead process (kill -9, power loss) is
 * taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'datadir.lock';
/** The running server's admin socket (see src/admin/socket.ts); lives next to the lock. */
export const ADMIN_SOCKET = 'admin.sock';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another process (pid ${ownerPid}): ` +
        `one process at a time opens an embedded database; ` +
        `stop it first, or set DATABASE_URL to share a PostgreSQL server`,
    );
  }
}

export interface DataDirLock {
  path: string;
  release(): void;
}

/** Lock files this process holds (a second open in the same process is refused too). */
const held = new Set<string>();

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  // A pid equal to ours that we do not hold is a previous incarnation's (a restarted
  // container often gets the same pid back).
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function readPid(path: string): number | null {
  try {
    return Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Creates `path` holding our pid; false when it already exists. */
function createExclusive(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

function unlinkIfOurs(path: string) {
  try {
    if (readPid(path) === process.pid) unlinkSync(path);
  } catch {
    // already gone
  }
}

/**
 * Removes a lock whose owner is dead. Two processes may find the same stale lock:
 * the removal runs under a second exclusive file, so the later one re-reads the
 * lock (now the winner's, alive) instead of deleting it.
 */
function takeOverStale(path: string, stalePid: number): void {
  const guard = `${path}.takeover`;
  if (!createExclusive(guard)) {
    const guardPid = readPid(guard);
    if (guardPid === null || isAlive(guardPid)) return; // someone else is taking over: retry
    try {
      unlinkSync(guard); // a taker died mid-takeover
    } catch {
      // another taker removed it
    }
    return;
  }
  try {
    if (Object.is(readPid(path), stalePid)) unlinkSync(path);
  } finally {
    unlinkSync(guard);
  }
}

let exitHookInstalled = false;

export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  const path = resolve(join(dataDir, LOCK_FILE));
  if (held.has(path)) throw new DataDirLockedError(dataDir, process.pid);
  for (let attempt = 0; ; attempt++) {
    if (createExclusive(path)) break;
    const owner = readPid(path);
    if (owner === null) continue; // released between our create and read
    if (Number.isNaN(owner) && attempt < 20) {
      // created but its pid not written yet: give the creator a moment
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    if (isAlive(owner)) throw new DataDirLockedError(dataDir, owner);
    if (attempt > 100) throw new DataDirLockedError(dataDir, owner);
    takeOverStale(path, owner);
    if (attempt > 0) await new Promise((r) => setTimeout(r, 10));
  }
  held.add(path);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // process.exit() without close (a shutdown timeout, a fatal error) still releases.
    process.once('exit', () => {
      for (const p of held) unlinkIfOurs(p);
    });
  }
  return {
    path,
    release: () => {
      if (!held.delete(path)) return;
      unlinkIfOurs(path);
    },
  };
}

/** The pid of a live process holding dataDir, or null. */
export function dataDirOwner(dataDir: string): number | null {
  const pid = readPid(resolve(join(dataDir, LOCK_FILE)));
  return pid !== null && isAlive(pid) ? pid : null;
}
