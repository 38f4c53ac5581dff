/** The one-process-per-DATA_DIR lock (src/db/datadir-lock.ts), in process. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, dataDirOwner, LOCK_FILE } from '../../src/db/datadir-lock.js';
import { openDatabase } from '../../src/db/client.js';
import { migratedDataDir } from '../support/databases.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'chat-lock-'));
  dirs.push(d);
  return d;
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

async function livePid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
  children.push(child);
  await new Promise((r) => child.once('spawn', r));
  return child.pid!;
}

describe('data directory lock', () => {
  it('holds our pid, refuses a second opener, and release frees it', async () => {
    const d = dir();
    const lock = await acquireDataDirLock(d);
    expect(readFileSync(join(d, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    await expect(acquireDataDirLock(d)).rejects.toBeInstanceOf(DataDirLockedError);
    lock.release();
    expect(existsSync(join(d, LOCK_FILE))).toBe(false);
    (await acquireDataDirLock(d)).release();
  });

  it('refuses while another live process holds it, naming that pid', async () => {
    const d = dir();
    const pid = await livePid();
    writeFileSync(join(d, LOCK_FILE), `${pid}\n`);
    const error = await acquireDataDirLock(d).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as DataDirLockedError).ownerPid).toBe(pid);
    expect((error as Error).message).toContain(`is in use by another process (pid ${pid})`);
    expect(dataDirOwner(d)).toBe(pid);
    expect(readFileSync(join(d, LOCK_FILE), 'utf8').trim()).toBe(String(pid)); // untouched
  });

  it.each([
    ['a dead process', async () => String(await deadPid())],
    ['a previous process with our pid', async () => String(process.pid)],
    ['a process that died before writing its pid', async () => ''],
  ])('takes over a lock left by %s', async (_, content) => {
    const d = dir();
    writeFileSync(join(d, LOCK_FILE), await content());
    expect(dataDirOwner(d)).toBeNull();
    const lock = await acquireDataDirLock(d);
    expect(readFileSync(join(d, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it('release never deletes a lock someone else now holds', async () => {
    const d = dir();
    const lock = await acquireDataDirLock(d);
    const other = await livePid();
    writeFileSync(join(d, LOCK_FILE), `${other}\n`);
    lock.release();
    expect(readFileSync(join(d, LOCK_FILE), 'utf8').trim()).toBe(String(other));
  });

  it('openDatabase on a held DATA_DIR refuses before opening PGlite; close releases', async () => {
    // A migrated cluster written from a dump: opening it is the point, not initialising one.
    const d = await migratedDataDir(join(dir(), 'data'));
    const db = await openDatabase({ dataDir: d });
    await expect(openDatabase({ dataDir: d })).rejects.toBeInstanceOf(DataDirLockedError);
    await db.close();
    expect(existsSync(join(d, LOCK_FILE))).toBe(false);
  }, 120_000);
});
