/**
 * `/healthz` (liveness: 200 while the process answers, its body naming any condition) and `/readyz` (readiness:
 * 200 only when every check passes, else 503 with the failing checks):
 * - `database`: `SELECT 1` answers;
 * - `migrations`: every migration in prisma/migrations is applied;
 * - `storage:<SETTING>`: each storage directory (DATA_DIR for the embedded database, SESSION_FILES_DIR) takes a
 *   write and has at least STORAGE_MIN_FREE_MB free;
 * - `storage`: no write failed for lack of space (ENOSPC, EDQUOT, EROFS, SQLSTATE 53100) in the last 30 s;
 * - `redis`: answers a PING, when REDIS_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../app.js';
import { appliedMigrations, readMigrations } from '../db/migrate.js';
import type { StorageDir } from '../store/storage-full.js';

/** Longest a single check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 3_000;

export interface Check {
  name: string;
  ok: boolean;
  detail?: string;
}

async function within<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const reason = (error: unknown) =>
  (error as { code?: string } | null)?.code ?? (error instanceof Error ? error.message : String(error));

let expected: Promise<string[]> | null = null;
/** The migration names this build ships (read once). */
function shippedMigrations(): Promise<string[]> {
  expected ??= readMigrations().then((all) => all.map((m) => m.name));
  return expected;
}

async function databaseChecks(app: App): Promise<Check[]> {
  try {
    await within(app.store.ping(), 'the database');
  } catch (error) {
    return [
      { name: 'database', ok: false, detail: reason(error) },
      { name: 'migrations', ok: false, detail: 'database unreachable' },
    ];
  }
  try {
    const applied = new Set(await within(appliedMigrations(app.db), 'the database'));
    const missing = (await shippedMigrations()).filter((name) => !applied.has(name));
    return [
      { name: 'database', ok: true },
      missing.length
        ? { name: 'migrations', ok: false, detail: `not applied: ${missing.join(', ')}` }
        : { name: 'migrations', ok: true },
    ];
  } catch (error) {
    return [
      { name: 'database', ok: true },
      { name: 'migrations', ok: false, detail: reason(error) },
    ];
  }
}

/** The directory takes a small write (created, written, removed) and has `minFreeMb` free. */
export async function storageDirCheck(target: StorageDir, minFreeMb: number): Promise<Check> {
  const name = `storage:${target.setting}`;
  const probe = path.join(target.dir, `.readyz-${randomUUID()}`);
  try {
    await fs.mkdir(target.dir, { recursive: true });
    await fs.writeFile(probe, 'ok');
  } catch (error) {
    return { name, ok: false, detail: `${target.setting}=${target.dir} is not writable (${reason(error)})` };
  } finally {
    await fs.rm(probe, { force: true }).catch(() => undefined);
  }
  try {
    const stats = await fs.statfs(target.dir);
    const freeMb = Math.floor((stats.bavail * stats.bsize) / (1024 * 1024));
    if (freeMb < minFreeMb) {
      return {
        name,
        ok: false,
        detail: `${target.setting}=${target.dir} has ${freeMb} MB free, below STORAGE_MIN_FREE_MB=${minFreeMb}`,
      };
    }
    return { name, ok: true, detail: `${freeMb} MB free` };
  } catch (error) {
    return { name, ok: false, detail: `${target.setting}=${target.dir}: ${reason(error)}` };
  }
}

/**
 * At start: each directory the service will write to exists (created when missing) and takes a write. Returns one
 * line naming the setting for the first that does not, else null (src/main.ts prints it and exits with 2).
 */
export async function startupStorageProblem(
  config: Pick<App['config'], 'databaseUrl' | 'dataDir' | 'sessionFilesDir'>,
) {
  const dirs: StorageDir[] = [
    ...(config.databaseUrl || config.dataDir.startsWith('memory://')
      ? []
      : [{ setting: 'DATA_DIR', dir: config.dataDir }]),
    { setting: 'SESSION_FILES_DIR', dir: config.sessionFilesDir },
  ];
  for (const target of dirs) {
    const check = await storageDirCheck(target, 0);
    if (!check.ok) return `${check.detail}: set ${target.setting} to a directory this user can create and write`;
  }
  return null;
}

function storageConditionCheck(app: App): Check {
  const state = app.storage.current();
  return state
    ? { name: 'storage', ok: false, detail: `a write failed at ${state.lastSeen}: ${state.description}` }
    : { name: 'storage', ok: true };
}

async function redisCheck(app: App): Promise<Check | null> {
  if (!app.config.redisUrl || !app.bus.ping) return null;
  try {
    await within(app.bus.ping(), 'Redis');
    return { name: 'redis', ok: true };
  } catch (error) {
    return { name: 'redis', ok: false, detail: reason(error) };
  }
}

/** Every readiness check, run at once. */
export async function readinessChecks(app: App): Promise<Check[]> {
  const [database, dirs, redis] = await Promise.all([
    databaseChecks(app),
    Promise.all(app.storageDirs.map((d) => storageDirCheck(d, app.config.storageMinFreeMb))),
    redisCheck(app),
  ]);
  return [...database, ...dirs, storageConditionCheck(app), ...(redis ? [redis] : [])];
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?')[0];

/** Liveness: always 200 while the process answers; `conditions` names what is wrong (empty when nothing is). */
export async function healthRoute(req: IncomingMessage, res: ServerResponse, app: App): Promise<boolean> {
  if (pathOf(req) !== '/healthz') return false;
  const conditions: string[] = [];
  try {
    await within(app.store.ping(), 'the database');
  } catch (error) {
    conditions.push(`database unreachable (${reason(error)})`);
  }
  const storage = app.storage.current();
  if (storage) conditions.push(`storage: ${storage.description}`);
  json(res, 200, { status: 'ok', database: app.db.kind, conditions });
  return true;
}

/** Readiness: 200 when every check passes, else 503; the body lists the checks and `failing` names the failed ones. */
export async function readyRoute(req: IncomingMessage, res: ServerResponse, app: App): Promise<boolean> {
  if (pathOf(req) !== '/readyz') return false;
  const checks = await readinessChecks(app);
  const failing = checks.filter((c) => !c.ok);
  json(res, failing.length ? 503 : 200, {
    status: failing.length ? 'unavailable' : 'ready',
    failing: failing.map((c) => c.name),
    checks,
  });
  return true;
}
