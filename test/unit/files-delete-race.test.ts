import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionFiles, type UploadLike } from '../../src/files/store.js';
import { NotFound } from '../../src/store/errors.js';
import { eventually } from '../support/harness.js';

const SID = '4f7d3c2a-9b1e-4c5d-8e6f-0a1b2c3d4e5f';
let root: string;
let store: SessionFiles;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'files-race-'));
  store = new SessionFiles({ root, maxBytes: 64 * 1024, logger: { warn: () => undefined, info: () => undefined } });
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** An upload whose second half waits for `release()`: the test deletes the session in between. */
function heldUpload(name: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let pulls = 0;
  const file: UploadLike = {
    name,
    stream: () =>
      new ReadableStream<Uint8Array>({
        async pull(c) {
          pulls++;
          if (pulls === 1) c.enqueue(new TextEncoder().encode('first half '));
          else {
            await released;
            c.enqueue(new TextEncoder().encode('second half'));
            c.close();
          }
        },
      }),
  };
  return { file, release };
}

describe('a session deleted while its upload streams', () => {
  it('answers NOT_FOUND, not an internal error, and leaves no directory behind', async () => {
    const dir = path.join(root, 'session_files', SID);
    const { file, release } = heldUpload('notes.txt');
    const saving = store.saveUploads(SID, [file]);
    const outcome = saving.then(
      () => 'saved',
      (e: unknown) => e,
    );
    await eventually(
      () => fs.readdir(dir).catch(() => [] as string[]),
      (names) => names.some((n) => n.endsWith('.part')),
    );
    await store.removeSession(SID);
    release();
    const error = await outcome;
    expect(error).toBeInstanceOf(NotFound);
    expect((error as NotFound).code).toBe('NOT_FOUND');
    expect(await fs.readdir(dir).catch(() => 'absent')).toBe('absent');
  });
});
