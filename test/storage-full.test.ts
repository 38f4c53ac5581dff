/**
 * Disk full (issue 32 item 4): a write that finds its storage full answers STORAGE_FULL naming the cause, leaves
 * nothing half written, and works again by itself once space returns; /readyz says so meanwhile. The files case runs
 * on a real 1 MB tmpfs (root can mount one here); the database case injects SQLSTATE 53100 with a trigger that
 * raises it (never filling the shared server's disk). A DATA_DIR that cannot be written stops start-up with one
 * line and exit code 2.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, promises as fs, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadsCreateSessionDocument } from './generated/graphql.js';
import { startChildServer } from './support/child-server.js';
import { codeOf, createTestServer, dbKind, type ServerContext } from './support/harness.js';
import { skipping } from './support/skips.js';
import { rawId, upload } from './support/uploads.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'storage-full-'));
const mountPoint = path.join(scratch, 'tmpfs');

function mountTmpfs(): string | null {
  mkdirSync(mountPoint, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    return null;
  } catch {
    return 'cannot mount a tmpfs here (needs root)';
  }
}

async function readyz(url: string) {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: (await res.json()) as { failing: string[] } };
}

/** Fills the filesystem: writes until ENOSPC; returns the filler's path. */
async function fill(dir: string): Promise<string> {
  const filler = path.join(dir, 'filler');
  const fh = await fs.open(filler, 'w');
  const chunk = Buffer.alloc(16 * 1024, 1);
  try {
    for (;;) await fh.write(chunk);
  } catch (error) {
    expect((error as { code?: string }).code).toBe('ENOSPC');
  } finally {
    await fh.close();
  }
  // What a partial block left: fill it byte by byte.
  await fs.appendFile(filler, Buffer.alloc(1)).catch(() => undefined);
  return filler;
}

const noMount = mountTmpfs();

afterAll(() => {
  if (!noMount) execFileSync('umount', [mountPoint], { stdio: 'ignore' });
  rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(skipping('uploads on a full tmpfs', noMount))(`uploads on a full disk (${dbKind})`, () => {
  let t: ServerContext;
  beforeAll(async () => {
    t = await createTestServer({ sessionFilesDir: mountPoint, storageMinFreeMb: 0 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers STORAGE_FULL naming ENOSPC, keeps no partial file, and works again once space is freed', async () => {
    const session = await t.http(UploadsCreateSessionDocument, {});
    const id = session.data!.createSession.id;
    const dir = path.join(mountPoint, 'session_files', rawId(id));
    mkdirSync(dir, { recursive: true });
    const filler = await fill(mountPoint);
    const bytes = 'x'.repeat(200 * 1024);
    const refused = await upload(t, id, [{ name: 'notes.txt', bytes }]);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('STORAGE_FULL');
    expect(refused.body.errors?.[0]?.message).toMatch(/no space left/);
    expect(await fs.readdir(dir)).toEqual([]);
    const during = await readyz(t.url);
    expect(during.status).toBe(503);
    expect(during.body.failing).toEqual(['storage:SESSION_FILES_DIR', 'storage']);
    expect(((await (await fetch(`${t.url}/healthz`)).json()) as { conditions: string[] }).conditions).toEqual([
      'storage: no space left on the device',
    ]);

    await fs.rm(filler);
    const accepted = await upload(t, id, [{ name: 'notes.txt', bytes }]);
    expect(accepted.body.errors).toBeUndefined();
    expect(await fs.readdir(dir)).toEqual(['notes.txt']);
    expect((await fs.stat(path.join(dir, 'notes.txt'))).size).toBe(bytes.length);
  });
});

describe(`the database server's disk full, SQLSTATE 53100 (${dbKind})`, () => {
  let t: ServerContext;
  beforeAll(async () => {
    t = await createTestServer({ sessionFilesDir: path.join(scratch, 'files') });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers STORAGE_FULL naming 53100, writes nothing, marks /readyz, and works again by itself', async () => {
    const before = await t.app.db.prisma.session.count();
    await t.app.db.raw.exec(`
      CREATE FUNCTION storage_full_test() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100'; END $$;
      CREATE TRIGGER storage_full_test BEFORE INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION storage_full_test();
    `);
    try {
      const refused = await t.http(UploadsCreateSessionDocument, {});
      expect(codeOf(refused)).toBe('STORAGE_FULL');
      expect(refused.errors?.[0]?.message).toMatch(/53100/);
      expect(await t.app.db.prisma.session.count()).toBe(before);
      const ready = await readyz(t.url);
      expect(ready.status).toBe(503);
      expect(ready.body.failing).toEqual(['storage']);
    } finally {
      await t.app.db.raw.exec(
        'DROP TRIGGER IF EXISTS storage_full_test ON sessions; DROP FUNCTION IF EXISTS storage_full_test();',
      );
    }
    const accepted = await t.http(UploadsCreateSessionDocument, {});
    expect(accepted.errors).toBeUndefined();
    expect(await t.app.db.prisma.session.count()).toBe(before + 1);
  });
});

describe('a DATA_DIR that cannot be written at start', () => {
  it('prints one line naming DATA_DIR and exits with code 2', async () => {
    const blocker = path.join(scratch, 'not-a-directory');
    writeFileSync(blocker, 'x');
    const child = await startChildServer(
      { DATA_DIR: path.join(blocker, 'data'), SESSION_FILES_DIR: path.join(scratch, 'files') },
      { expectExit: true },
    );
    const { code } = await child.exited;
    expect(code).toBe(2);
    const said = child.lines.filter((l) => l.trim());
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^DATA_DIR=.*not-a-directory\/data is not writable \(ENOTDIR\): set DATA_DIR to /);
  });
});
