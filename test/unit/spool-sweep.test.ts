/**
 * A killed upload or import leaves its spool file (`SESSION_FILES_DIR/session_files/.incoming`): the process that
 * starts next removes the files of its host's dead processes at once, whatever their age, keeps a live process's
 * file (an upload in flight), and removes any file older than the hour (another host's). (The import also removes
 * its upload's spool file as soon as its worker has read it, src/sessions/transfer.ts.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, promises as fs, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepSpool } from '../../src/files/multipart.js';

const dir = mkdtempSync(path.join(tmpdir(), 'spool-sweep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const host = hostname().replace(/[^A-Za-z0-9_]/g, '_');
const spoolName = (pid: number, h = host) => `${h}-${pid}.${randomUUID()}.part`;

/** A pid that was a process and no longer is: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('spool files left by killed processes', () => {
  it('removes a dead process’s file at once, keeps a live one’s and a fresh foreign one; old ones go', async () => {
    const live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      const dead = spoolName(await deadPid());
      const mine = spoolName(process.pid);
      const running = spoolName(live.pid!);
      const foreign = spoolName(12345, 'another_host');
      const oldForeign = spoolName(12346, 'another_host');
      for (const name of [dead, mine, running, foreign, oldForeign]) writeFileSync(path.join(dir, name), 'x');
      const hourAgo = new Date(Date.now() - 2 * 3_600_000);
      utimesSync(path.join(dir, oldForeign), hourAgo, hourAgo);

      const removed = await sweepSpool(dir, 3_600_000);
      expect(removed.sort()).toEqual([dead, oldForeign].sort());
      expect((await fs.readdir(dir)).sort()).toEqual([mine, running, foreign].sort());
    } finally {
      live.kill();
    }
  });
});
