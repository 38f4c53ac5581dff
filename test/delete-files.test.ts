/**
 * Issue 16 item 10: delete means gone. deleteSession removes the session's
 * files directory (uploads and pasted images) once the delete has committed;
 * a failure to remove it does not fail the delete, and the orphan cleanup
 * loop removes the directory later.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DeleteFilesDeleteDocument, DeleteFilesSessionDocument } from './generated/graphql.js';
import { PNG_1x1 } from './fixtures/files/images.js';
import { createTestServer, dbKind, eventually, type ServerContext } from './support/harness.js';
import { newSession, rawId, sendWithAttachments, upload } from './support/uploads.js';

const DELETE = DeleteFilesDeleteDocument;
const exists = (p: string) =>
  fs.stat(p).then(
    () => true,
    () => false,
  );

let hourly: ServerContext;
let fast: ServerContext;
const dirs: string[] = [];

async function server(cleanupIntervalMs: number) {
  const filesDir = `/tmp/chat-test-delete-files-${process.pid}-${Date.now()}-${dirs.length}`;
  dirs.push(filesDir);
  const t = await createTestServer({
    titleGenerationEnabled: false,
    sessionFilesDir: filesDir,
    sessionFilesCleanupIntervalMs: cleanupIntervalMs,
  });
  return { t, dirOf: (id: string) => path.join(filesDir, 'session_files', rawId(id)) };
}

/** A session whose directory holds an upload and a pasted image. */
async function sessionWithFiles(t: ServerContext, dirOf: (id: string) => string) {
  const id = await newSession(t);
  expect((await upload(t, id, [{ name: 'report.txt', bytes: 'quarterly numbers' }])).body.errors).toBeUndefined();
  const sent = await sendWithAttachments(
    t,
    { sessionId: id, content: 'look' },
    { images: [{ name: 'p.png', bytes: PNG_1x1, type: 'image/png' }] },
  );
  expect(sent.events.at(-1)?.__typename).toBe('TurnEnded');
  expect((await fs.readdir(dirOf(id))).sort()).toEqual(['image_1.png', 'report.txt']);
  return id;
}

let hourlyDirOf: (id: string) => string;
let fastDirOf: (id: string) => string;

beforeAll(async () => {
  // The default hourly loop cannot be what removes the directory in the first test.
  ({ t: hourly, dirOf: hourlyDirOf } = await server(3_600_000));
  ({ t: fast, dirOf: fastDirOf } = await server(1_000));
}, 120_000);
afterAll(async () => {
  await hourly?.close();
  await fast?.close();
  await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

describe(`deleteSession removes the session's files (${dbKind})`, () => {
  it('the directory is gone when the mutation returns', async () => {
    const id = await sessionWithFiles(hourly, hourlyDirOf);
    const deleted = await hourly.http(DELETE, { id });
    expect(deleted.errors).toBeUndefined();
    expect(await exists(hourlyDirOf(id))).toBe(false);
    // Another session's files are untouched.
    const other = await sessionWithFiles(hourly, hourlyDirOf);
    expect(await exists(hourlyDirOf(other))).toBe(true);
  }, 60_000);

  it('a directory that cannot be removed does not fail the delete; the cleanup loop removes it later', async () => {
    const id = await sessionWithFiles(fast, fastDirOf);
    const remove = vi
      .spyOn(fast.app.files, 'removeSession')
      .mockRejectedValueOnce(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }));
    try {
      const deleted = await fast.http(DELETE, { id });
      expect(deleted.errors).toBeUndefined();
      expect(deleted.data!.deleteSession.deletedSessionId).toBe(id);
      expect(remove).toHaveBeenCalledWith(rawId(id));
    } finally {
      remove.mockRestore();
    }
    expect((await fast.http(DeleteFilesSessionDocument, { id })).data!.session).toBeNull();
    await eventually(
      () => exists(fastDirOf(id)),
      (present) => !present,
      30_000,
    );
  }, 60_000);
});
