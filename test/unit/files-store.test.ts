import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileRejectedError, PayloadTooLargeError } from '../../src/files/errors.js';
import { SessionFiles, type UploadLike } from '../../src/files/store.js';
import {
  ELF_HEAD,
  GIF_1x1,
  JPEG_1x1,
  MACHO_HEADS,
  PE_HEAD,
  PNG_1x1,
  PNG_2x2,
  SHEBANG,
} from '../fixtures/files/images.js';

const SID = 'sess-abc';
let root: string;
let store: SessionFiles;
let logs: Record<string, unknown>[];

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'files-store-'));
  logs = [];
  store = new SessionFiles({
    root,
    maxBytes: 64 * 1024,
    logger: { warn: (o) => logs.push(o), info: (o) => logs.push(o) },
  });
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const sessionDir = () => path.join(root, 'session_files', SID);
const dirEntries = async () => fs.readdir(sessionDir()).catch(() => [] as string[]);

function upload(name: string, bytes: Uint8Array | string, opts: { size?: number } = {}): UploadLike {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  return {
    name,
    size: opts.size,
    stream: () =>
      new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(data);
          c.close();
        },
      }),
  };
}

/** A stream of `total` bytes in 8 KiB chunks, produced lazily; records how much was pulled. */
function generated(name: string, total: number, opts: { failAfter?: number; size?: number } = {}) {
  const stats = { pulled: 0, cancelled: false };
  const file: UploadLike = {
    name,
    size: opts.size,
    stream: () =>
      new ReadableStream<Uint8Array>({
        pull(c) {
          if (opts.failAfter !== undefined && stats.pulled >= opts.failAfter) {
            c.error(new Error('connection reset'));
            return;
          }
          if (stats.pulled >= total) {
            c.close();
            return;
          }
          const n = Math.min(8192, total - stats.pulled);
          stats.pulled += n;
          c.enqueue(new Uint8Array(n).fill(0x61));
        },
        cancel() {
          stats.cancelled = true;
        },
      }),
  };
  return { file, stats };
}

async function expectRejected(p: Promise<unknown>, reason: string) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FileRejectedError);
  expect((err as FileRejectedError).code).toBe('BAD_USER_INPUT');
  expect((err as FileRejectedError).reason).toBe(reason);
}

describe('SessionFiles.saveUpload', () => {
  it('stores under session_files/{id}/ and reports a relative path', async () => {
    const saved = await store.saveUpload(SID, upload('report.pdf', '%PDF-1.7\nhello'));
    expect(saved).toMatchObject({
      filename: 'report.pdf',
      size: 14,
      contentType: 'application/pdf',
      relPath: `session_files/${SID}/report.pdf`,
    });
    expect(saved.createdAt).toBeInstanceOf(Date);
    expect(await fs.readFile(path.join(sessionDir(), 'report.pdf'), 'utf8')).toBe('%PDF-1.7\nhello');
    expect(await dirEntries()).toEqual(['report.pdf']);
  });

  it('accepts a real WHATWG File', async () => {
    const f = new File([new TextEncoder().encode('a,b\n1,2\n')], 'data.csv', { type: 'text/csv' });
    const saved = await store.saveUpload(SID, f);
    expect(saved).toMatchObject({ filename: 'data.csv', size: 8, kind: 'text' });
  });

  it.each([
    ['../../etc/passwd', 'passwd'],
    ['a/../../b', 'b'],
    ['\\..\\x', 'x'],
    ['ev\u0000il\u001b.txt', 'evil.txt'],
  ])('traversal/control name %j is stored as %j inside the session dir', async (raw, expected) => {
    const saved = await store.saveUpload(SID, upload(raw, 'x'));
    expect(saved.filename).toBe(expected);
    expect(await dirEntries()).toEqual([expected]);
    expect(await fs.readdir(root)).toEqual(['session_files']);
  });

  it('rejects names that sanitize to nothing; nothing written', async () => {
    await expectRejected(store.saveUpload(SID, upload('../..', 'x')), 'invalid_name');
    await expectRejected(store.saveUpload(SID, upload('\u0000', 'x')), 'invalid_name');
    expect(await dirEntries()).toEqual([]);
  });

  it('rejects malformed session ids', async () => {
    await expectRejected(store.saveUpload('../other', upload('a.txt', 'x')), 'invalid_session');
    await expectRejected(store.saveUpload('', upload('a.txt', 'x')), 'invalid_session');
  });

  it('duplicate names get a numeric suffix', async () => {
    const a = await store.saveUpload(SID, upload('report.pdf', 'one'));
    const b = await store.saveUpload(SID, upload('report.pdf', 'two'));
    const c = await store.saveUpload(SID, upload('report.pdf', 'three'));
    expect([a.filename, b.filename, c.filename]).toEqual(['report.pdf', 'report (1).pdf', 'report (2).pdf']);
    expect(await fs.readFile(path.join(sessionDir(), 'report (1).pdf'), 'utf8')).toBe('two');
  });

  it('concurrent duplicates never overwrite each other', async () => {
    const saved = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.saveUpload(SID, upload('same.txt', `v${i}`))),
    );
    expect(new Set(saved.map((s) => s.filename)).size).toBe(8);
    const contents = await Promise.all(saved.map((s) => fs.readFile(path.join(sessionDir(), s.filename), 'utf8')));
    expect(contents.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `v${i}`).sort());
  });

  it.each(['run.sh', 'tool.py', 'setup.exe', 'x.BAT', 'lib.so'])('rejects executable extension %s', async (name) => {
    await expectRejected(store.saveUpload(SID, upload(name, 'harmless')), 'executable');
    expect(await dirEntries()).toEqual([]);
  });

  it.each([['ELF', ELF_HEAD], ['PE', PE_HEAD], ['shebang', SHEBANG], ...Object.entries(MACHO_HEADS)] as [
    string,
    Buffer,
  ][])('rejects %s bytes in a .txt; nothing written', async (_label, head) => {
    await expectRejected(store.saveUpload(SID, upload('innocent.txt', head)), 'executable');
    expect(await dirEntries()).toEqual([]);
  });

  it('oversized stream is aborted and leaves no file', async () => {
    const { file, stats } = generated('big.txt', 10 * 1024 * 1024);
    const err = await store.saveUpload(SID, file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PayloadTooLargeError);
    expect((err as PayloadTooLargeError).code).toBe('PAYLOAD_TOO_LARGE');
    expect(stats.cancelled).toBe(true);
    expect(stats.pulled).toBeLessThan(256 * 1024); // did not read the whole body
    expect(await dirEntries()).toEqual([]);
  });

  it('declared oversize is rejected before reading anything', async () => {
    const { file, stats } = generated('big.dat', 1024, { size: 10 * 1024 * 1024 });
    await expect(store.saveUpload(SID, file)).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(stats.pulled).toBe(0);
    expect(await dirEntries()).toEqual([]);
  });

  it('exactly maxBytes is accepted', async () => {
    const { file } = generated('edge.txt', 64 * 1024);
    expect((await store.saveUpload(SID, file)).size).toBe(64 * 1024);
  });

  it('erroring stream leaves no file', async () => {
    const { file } = generated('partial.txt', 50_000, { failAfter: 16_384 });
    await expectRejected(store.saveUpload(SID, file), 'truncated');
    expect(await dirEntries()).toEqual([]);
  });

  it('body shorter than the declared size leaves no file', async () => {
    await expectRejected(store.saveUpload(SID, upload('short.txt', 'abc', { size: 10 })), 'truncated');
    expect(await dirEntries()).toEqual([]);
  });

  it('a PNG named .txt is reported and served as image/png', async () => {
    const saved = await store.saveUpload(SID, upload('notes.txt', PNG_1x1));
    expect(saved.contentType).toBe('image/png');
    const opened = await store.open(SID, 'notes.txt');
    expect(opened).not.toBeNull();
    expect(opened!.contentType).toBe('image/png');
    expect(opened!.kind).toBe('image');
    expect(opened!.size).toBe(PNG_1x1.length);
    const body = new Uint8Array(await new Response(opened!.stream).arrayBuffer());
    expect(Buffer.from(body).equals(PNG_1x1)).toBe(true);
  });
});

describe('SessionFiles.saveUploads', () => {
  it('is all-or-nothing', async () => {
    await store.saveUpload(SID, upload('keep.txt', 'pre-existing'));
    const { file: bad } = generated('c.txt', 1_000_000);
    await expect(store.saveUploads(SID, [upload('a.txt', 'a'), upload('b.txt', 'b'), bad])).rejects.toBeInstanceOf(
      PayloadTooLargeError,
    );
    expect(await dirEntries()).toEqual(['keep.txt']);
  });

  it('rejects the whole batch up front for a bad name, writing nothing', async () => {
    await expectRejected(store.saveUploads(SID, [upload('a.txt', 'a'), upload('b.exe', 'b')]), 'executable');
    expect(await dirEntries()).toEqual([]);
  });

  it('suffixes duplicates within one batch', async () => {
    const saved = await store.saveUploads(SID, [upload('x.md', '1'), upload('x.md', '2')]);
    expect(saved.map((s) => s.relPath)).toEqual([`session_files/${SID}/x.md`, `session_files/${SID}/x (1).md`]);
  });
});

describe('SessionFiles.list / open', () => {
  it('lists visible files with type, size, date; empty for unknown session', async () => {
    expect(await store.list(SID)).toEqual([]);
    await store.saveUpload(SID, upload('a.md', '# hi'));
    await store.saveUpload(SID, upload('pic.txt', PNG_1x1));
    await fs.writeFile(path.join(sessionDir(), '.upload-stale.part'), 'x');
    const list = await store.list(SID);
    expect(list.map((f) => [f.filename, f.size, f.contentType]).sort()).toEqual([
      ['a.md', 4, 'text/plain; charset=utf-8'],
      ['pic.txt', PNG_1x1.length, 'image/png'],
    ]);
    expect(list[0].createdAt).toBeInstanceOf(Date);
  });

  it('open refuses traversal, hidden files and symlinks out of the dir', async () => {
    await store.saveUpload(SID, upload('a.txt', 'x'));
    const secret = path.join(root, 'secret.txt');
    await fs.writeFile(secret, 'top secret');
    await fs.symlink(secret, path.join(sessionDir(), 'link.txt'));
    await fs.writeFile(path.join(sessionDir(), '.hidden'), 'h');
    for (const name of [
      '../secret.txt',
      '../../secret.txt',
      '..',
      '.',
      '',
      'a/../a.txt',
      '..\\secret.txt',
      'link.txt',
      '.hidden',
      'missing.txt',
    ]) {
      expect(await store.open(SID, name)).toBeNull();
    }
    expect(await store.open('../session_files', 'a.txt')).toBeNull();
    expect((await store.list(SID)).map((f) => f.filename)).toEqual(['a.txt']);
    const ok = await store.open(SID, 'a.txt');
    expect(ok).not.toBeNull();
    expect(await new Response(ok!.stream).text()).toBe('x');
  });
});

describe('SessionFiles.publish', () => {
  it('registers an existing file with a download url and detected kind', async () => {
    await fs.mkdir(sessionDir(), { recursive: true });
    await fs.writeFile(path.join(sessionDir(), 'render.txt'), PNG_1x1);
    await fs.writeFile(path.join(sessionDir(), 'model.stl'), 'solid x\nendsolid x\n');
    await fs.writeFile(path.join(sessionDir(), 'my page.html'), '<!doctype html><h1>hi</h1>');
    expect(await store.publish(SID, 'render.txt')).toMatchObject({
      filename: 'render.txt',
      url: `/sessions/${SID}/files/render.txt`,
      contentType: 'image/png',
      kind: 'image',
    });
    expect((await store.publish(SID, 'model.stl')).kind).toBe('model');
    expect(await store.publish(SID, 'my page.html')).toMatchObject({
      kind: 'html',
      url: `/sessions/${SID}/files/my%20page.html`,
    });
    // no copy was made
    expect((await dirEntries()).sort()).toEqual(['model.stl', 'my page.html', 'render.txt']);
  });

  it('refuses missing files and traversal', async () => {
    await expectRejected(store.publish(SID, 'nope.pdf'), 'not_found');
    await expectRejected(store.publish(SID, '../../etc/passwd'), 'not_found');
  });
});

describe('SessionFiles.savePastedImage', () => {
  it('numbers across formats, extension from the bytes, bytes kept exactly', async () => {
    const a = await store.savePastedImage(SID, PNG_1x1);
    const b = await store.savePastedImage(SID, JPEG_1x1);
    const c = await store.savePastedImage(SID, GIF_1x1);
    expect([a.filename, b.filename, c.filename]).toEqual(['image_1.png', 'image_2.jpg', 'image_3.gif']);
    expect(a).toMatchObject({ relPath: `session_files/${SID}/image_1.png`, reused: false, contentType: 'image/png' });
    expect((await fs.readFile(path.join(sessionDir(), 'image_1.png'))).equals(PNG_1x1)).toBe(true);
    expect((await fs.readFile(path.join(sessionDir(), 'image_2.jpg'))).equals(JPEG_1x1)).toBe(true);
  });

  it('continues after the highest image_N of any extension', async () => {
    await fs.mkdir(sessionDir(), { recursive: true });
    await fs.writeFile(path.join(sessionDir(), 'image_7.webp'), 'old');
    await fs.writeFile(path.join(sessionDir(), 'image_x.png'), 'not numbered');
    expect((await store.savePastedImage(SID, PNG_1x1)).filename).toBe('image_8.png');
  });

  it('identical bytes reuse the existing file', async () => {
    const a = await store.savePastedImage(SID, PNG_1x1);
    await store.savePastedImage(SID, PNG_2x2);
    const again = await store.savePastedImage(SID, Buffer.from(PNG_1x1));
    expect(again).toMatchObject({ filename: a.filename, reused: true });
    expect((await dirEntries()).sort()).toEqual(['image_1.png', 'image_2.png']);
  });

  it('concurrent identical pastes are stored once', async () => {
    const results = await Promise.all([1, 2, 3].map(() => store.savePastedImage(SID, PNG_2x2)));
    expect(new Set(results.map((r) => r.filename))).toEqual(new Set(['image_1.png']));
    expect(await dirEntries()).toEqual(['image_1.png']);
  });

  it('rejects non-image and corrupt bytes; nothing written', async () => {
    await expectRejected(store.savePastedImage(SID, new TextEncoder().encode('hello, not an image')), 'not_image');
    await expectRejected(store.savePastedImage(SID, new Uint8Array()), 'not_image');
    await expectRejected(store.savePastedImage(SID, new Uint8Array(ELF_HEAD)), 'not_image');
    await expectRejected(store.savePastedImage(SID, PNG_1x1.subarray(0, 40)), 'corrupt_image');
    await expectRejected(store.savePastedImage(SID, JPEG_1x1.subarray(0, 60)), 'corrupt_image');
    expect(await dirEntries()).toEqual([]);
  });
});

describe('SessionFiles cleanup', () => {
  it('removes directories of sessions that no longer exist', async () => {
    for (const id of ['alive-1', 'dead-1', 'dead-2']) await store.saveUpload(id, upload('f.txt', id));
    await fs.writeFile(path.join(root, 'session_files', 'stray-file'), 'x');
    let asked: string[] = [];
    const removed = await store.cleanupOrphans(async (ids) => {
      asked = ids;
      return new Set(ids.filter((i) => i.startsWith('alive')));
    });
    expect(removed.sort()).toEqual(['dead-1', 'dead-2']);
    expect(asked.sort()).toEqual(['alive-1', 'dead-1', 'dead-2']);
    expect((await fs.readdir(path.join(root, 'session_files'))).sort()).toEqual(['alive-1', 'stray-file']);
  });

  it('is a no-op when session_files does not exist yet', async () => {
    expect(await store.cleanupOrphans(async () => new Set())).toEqual([]);
  });

  it('startCleanupLoop runs immediately and stops cleanly; errors are logged', async () => {
    await store.saveUpload('gone', upload('f.txt', 'x'));
    await store.saveUpload('alive', upload('f.txt', 'x'));
    let calls = 0;
    let thirdRun: () => void = () => undefined;
    const third = new Promise<void>((r) => (thirdRun = r));
    const stop = store.startCleanupLoop(10, async () => {
      calls++;
      if (calls === 2) throw new Error('db down');
      if (calls === 3) thirdRun();
      return new Set(['alive']);
    });
    // it went on after the failing second run
    await third;
    await stop();
    const after = calls;
    // A negative check (no run after stop): a second loop on the same interval runs three times, and a run of the
    // stopped loop, had it gone on, would have come with them.
    let probes = 0;
    let probed: () => void = () => undefined;
    const threeProbes = new Promise<void>((r) => (probed = r));
    const stopProbe = store.startCleanupLoop(10, async () => {
      if (++probes === 3) probed();
      return new Set(['alive']);
    });
    await threeProbes;
    await stopProbe();
    expect(calls).toBe(after);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(await fs.readdir(path.join(root, 'session_files'))).toEqual(['alive']);
    expect(logs.some((l) => l.event === 'session_files.cleanup_failed')).toBe(true);
  });
});
