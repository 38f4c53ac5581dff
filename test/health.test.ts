/**
 * `/healthz` is liveness (200 while the process answers, naming conditions in its body); `/readyz` is readiness
 * (503 with the failing checks: database, migrations, storage directories and their free space, a recent storage
 * failure, Redis when configured).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestServer, dbKind, type ServerContext } from './support/harness.js';

interface Ready {
  status: string;
  failing: string[];
  checks: { name: string; ok: boolean; detail?: string }[];
}

async function readyz(url: string): Promise<{ status: number; body: Ready }> {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: (await res.json()) as Ready };
}

async function healthz(url: string): Promise<{ status: number; body: { status: string; conditions: string[] } }> {
  const res = await fetch(`${url}/healthz`);
  return { status: res.status, body: (await res.json()) as { status: string; conditions: string[] } };
}

const scratch = path.join(tmpdir(), `health-test-${process.pid}`);

describe(`/healthz and /readyz (${dbKind})`, () => {
  let t: ServerContext;
  beforeAll(async () => {
    mkdirSync(scratch, { recursive: true });
    t = await createTestServer({ sessionFilesDir: path.join(scratch, 'files') });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  const setMinFree = (mb: number) => {
    (t.app.config as { storageMinFreeMb: number }).storageMinFreeMb = mb;
  };
  afterEach(() => {
    vi.restoreAllMocks();
    setMinFree(64);
  });

  it('is ready when the database answers, every migration is applied and the files directory is writable', async () => {
    const { status, body } = await readyz(t.url);
    expect(body.failing).toEqual([]);
    expect(status).toBe(200);
    const names = body.checks.map((c) => c.name);
    expect(names).toEqual(['database', 'migrations', 'storage:SESSION_FILES_DIR', 'storage']);
    const live = await healthz(t.url);
    expect(live).toEqual({ status: 200, body: { status: 'ok', database: t.app.db.kind, conditions: [] } });
  });

  it('answers 503 naming the directory when free space is below STORAGE_MIN_FREE_MB; /healthz stays 200', async () => {
    setMinFree(1024 * 1024 * 1024);
    const { status, body } = await readyz(t.url);
    expect(status).toBe(503);
    expect(body.failing).toEqual(['storage:SESSION_FILES_DIR']);
    expect(body.checks.find((c) => c.name === 'storage:SESSION_FILES_DIR')?.detail).toMatch(/STORAGE_MIN_FREE_MB/);
    expect((await healthz(t.url)).status).toBe(200);
  });

  it('answers 503 when the files directory cannot be written', async () => {
    const blocker = path.join(scratch, 'a-file');
    writeFileSync(blocker, 'x');
    const dirs = t.app.storageDirs;
    t.app.storageDirs = [{ setting: 'SESSION_FILES_DIR', dir: path.join(blocker, 'files') }];
    try {
      const { status, body } = await readyz(t.url);
      expect(status).toBe(503);
      expect(body.failing).toEqual(['storage:SESSION_FILES_DIR']);
      expect(body.checks.find((c) => !c.ok)?.detail).toMatch(/SESSION_FILES_DIR=.* is not writable \(ENOTDIR\)/);
    } finally {
      t.app.storageDirs = dirs;
    }
  });

  it('answers 503 while a recent write failed for lack of space, and names it in /healthz', async () => {
    const storage = t.app.storage;
    const { StorageCondition } = await import('../src/store/storage-full.js');
    let now = Date.now();
    t.app.storage = new StorageCondition(30_000, () => now);
    try {
      t.app.storage.observe(Object.assign(new Error('disk full'), { code: '53100' }));
      const { status, body } = await readyz(t.url);
      expect(status).toBe(503);
      expect(body.failing).toEqual(['storage']);
      expect(body.checks.find((c) => c.name === 'storage')?.detail).toMatch(/53100/);
      const live = await healthz(t.url);
      expect(live.status).toBe(200);
      expect(live.body.conditions.join(' ')).toMatch(/storage: .*disk is full/);
      now += 30_001;
      expect((await readyz(t.url)).status).toBe(200);
    } finally {
      t.app.storage = storage;
    }
  });

  it('answers 503 when the database does not answer; /healthz stays 200 and says so', async () => {
    vi.spyOn(t.app.store, 'ping').mockRejectedValue(Object.assign(new Error('gone'), { code: 'ECONNREFUSED' }));
    const { status, body } = await readyz(t.url);
    expect(status).toBe(503);
    expect(body.failing).toEqual(['database', 'migrations']);
    const live = await healthz(t.url);
    expect(live.status).toBe(200);
    expect(live.body.conditions).toEqual(['database unreachable (ECONNREFUSED)']);
  });

  it('answers 503 naming the migration that is not applied', async () => {
    const [last] = await t.app.db.raw.query<{ migration_name: string }>(
      'SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name DESC LIMIT 1',
    );
    const name = last!.migration_name;
    await t.app.db.raw.query('UPDATE "_prisma_migrations" SET finished_at = NULL WHERE migration_name = $1', [name]);
    try {
      const { status, body } = await readyz(t.url);
      expect(status).toBe(503);
      expect(body.failing).toEqual(['migrations']);
      expect(body.checks.find((c) => c.name === 'migrations')?.detail).toBe(`not applied: ${name}`);
    } finally {
      await t.app.db.raw.query('UPDATE "_prisma_migrations" SET finished_at = now() WHERE migration_name = $1', [name]);
    }
  });
});

describe(`/readyz with Redis (${dbKind})`, () => {
  it('checks Redis when REDIS_URL is set: ready while it answers, 503 naming redis when it does not', async () => {
    const up = await createTestServer({ redisUrl: 'redis://127.0.0.1:6379' });
    try {
      const { status, body } = await readyz(up.url);
      expect(body.checks.find((c) => c.name === 'redis')).toEqual({ name: 'redis', ok: true });
      expect(status).toBe(200);
    } finally {
      await up.close();
    }
    const down = await createTestServer({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      const { status, body } = await readyz(down.url);
      expect(status).toBe(503);
      expect(body.failing).toEqual(['redis']);
    } finally {
      await down.close();
    }
  });
});
