/**
 * Session file storage: `{root}/session_files/{sessionId}/`.
 *
 * Uploads are streamed to a hidden temp file in the session directory while
 * bytes are counted (over `maxBytes` → stream cancelled, temp deleted,
 * PayloadTooLargeError) and the head is checked for executable signatures;
 * only a complete, accepted upload is hard-linked to its final, unique name
 * (atomic and never clobbering; `copyFile(COPYFILE_EXCL)` fallback on
 * filesystems without hard links). Paths reported to the model and user are
 * relative: `session_files/{id}/{name}`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { constants as fsc, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { detectContentType, HEAD_BYTES, isExecutableSignature, type FileKind } from './detect.js';
import { NotFound } from '../store/errors.js';
import { FileRejectedError, PayloadTooLargeError } from './errors.js';
import { vetPastedImage } from './images.js';
import { isExecutableName, isPlainName, sanitizeFilename, uniqueName } from './names.js';

export const SESSION_FILES_DIRNAME = 'session_files';

/** Session ids accepted as directory names (UUIDs, cuids, nanoids…). */
const SESSION_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const TMP_PREFIX = '.upload-';
/** Head bytes needed before the executable check can run mid-stream. */
const EXEC_CHECK_BYTES = 64;
const IMAGE_NAME_RE = /^image_(\d{1,9})\.[A-Za-z0-9]+$/;
const CLEANUP_BATCH = 500;

/** pino-compatible subset. */
export interface FilesLogger {
  warn(obj: Record<string, unknown>, msg?: string): void;
  info?(obj: Record<string, unknown>, msg?: string): void;
}

/** A WHATWG `File` (graphql-yoga multipart) or anything shaped like one. */
export interface UploadLike {
  readonly name: string;
  readonly size?: number;
  stream(): ReadableStream<Uint8Array>;
}

export interface SessionFileEntry {
  filename: string;
  size: number;
  contentType: string;
  kind: FileKind;
  /** `session_files/{id}/{filename}` */
  relPath: string;
  createdAt: Date;
}

export type SavedUpload = SessionFileEntry;

export interface OpenedFile {
  filename: string;
  stream: ReadableStream<Uint8Array>;
  size: number;
  contentType: string;
  kind: FileKind;
}

export interface SavedImage {
  filename: string;
  relPath: string;
  /** true when identical bytes were already stored and that file is returned */
  reused: boolean;
  contentType: string;
  size: number;
}

export interface PublishedFile {
  filename: string;
  /** `/sessions/{id}/files/{filename}` (URI-encoded segments) */
  url: string;
  relPath: string;
  contentType: string;
  kind: FileKind;
  size: number;
}

export type SessionsExist = (ids: string[]) => Promise<Set<string>>;

export interface SessionFilesOptions {
  /** Directory that contains (or will contain) `session_files/`. */
  root: string;
  /** Per-file limit in bytes (`sessionFilesMaxSizeMb × 1024 × 1024`). */
  maxBytes: number;
  logger?: FilesLogger;
}

function errCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
}

async function rmQuiet(p: string): Promise<void> {
  await fs.rm(p, { force: true }).catch(() => undefined);
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}

async function readHead(fh: FileHandle): Promise<Uint8Array> {
  const buf = new Uint8Array(HEAD_BYTES);
  const { bytesRead } = await fh.read(buf, 0, HEAD_BYTES, 0);
  return buf.subarray(0, bytesRead);
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function sha256File(p: string): Promise<string> {
  const h = createHash('sha256');
  const fh = await fs.open(p, 'r');
  try {
    for await (const chunk of fh.createReadStream({ autoClose: false })) h.update(chunk as Buffer);
  } finally {
    await fh.close();
  }
  return h.digest('hex');
}

export class SessionFiles {
  readonly root: string;
  /** `{root}/session_files` */
  readonly baseDir: string;
  readonly maxBytes: number;
  private readonly logger?: FilesLogger;
  private readonly locks = new Map<string, Promise<void>>();

  constructor(opts: SessionFilesOptions) {
    if (!Number.isFinite(opts.maxBytes) || opts.maxBytes <= 0) throw new Error('SessionFiles: maxBytes must be > 0');
    this.root = path.resolve(opts.root);
    this.baseDir = path.join(this.root, SESSION_FILES_DIRNAME);
    this.maxBytes = opts.maxBytes;
    this.logger = opts.logger;
  }

  /** Absolute directory of a session. Throws FileRejectedError('invalid_session') for a malformed id. */
  /** Copies one session's directory to another (fork); nothing to copy is fine. */
  async copySession(fromSessionId: string, toSessionId: string): Promise<void> {
    const from = this.dir(fromSessionId);
    const to = this.dir(toSessionId);
    await fs
      .cp(from, to, { recursive: true, errorOnExist: false, force: false })
      .catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
  }

  dir(sessionId: string): string {
    if (typeof sessionId !== 'string' || !SESSION_ID_RE.test(sessionId)) {
      throw new FileRejectedError('invalid_session', 'Invalid session id');
    }
    return path.join(this.baseDir, sessionId);
  }

  /** `session_files/{id}/{filename}` — the path shown to the model and the user. */
  relPath(sessionId: string, filename: string): string {
    return `${SESSION_FILES_DIRNAME}/${sessionId}/${filename}`;
  }

  // ---------------------------------------------------------------- uploads

  /** Sanitize and vet a client name; throws before anything is written. */
  private acceptName(rawName: string): string {
    const name = sanitizeFilename(rawName);
    if (isExecutableName(name)) {
      throw new FileRejectedError('executable', `Executable files are not accepted: "${name}"`);
    }
    return name;
  }

  private checkKnownSize(file: UploadLike, name: string): void {
    if (typeof file.size === 'number' && file.size > this.maxBytes) throw new PayloadTooLargeError(this.maxBytes, name);
  }

  /**
   * Store one upload. Rejections (nothing left on disk): bad name, executable
   * extension or signature (ELF/PE/Mach-O/shebang), over `maxBytes`
   * (declared size or counted bytes), stream error or fewer bytes than the
   * declared size.
   */
  async saveUpload(sessionId: string, file: UploadLike): Promise<SavedUpload> {
    const dir = this.dir(sessionId);
    const name = this.acceptName(file.name);
    this.checkKnownSize(file, name);
    await fs.mkdir(dir, { recursive: true });
    const tmp = path.join(dir, `${TMP_PREFIX}${randomUUID()}.part`);
    try {
      const { size, head } = await this.streamToFile(file, tmp, name);
      const type = await detectContentType(name, head);
      const filename = await this.linkUnique(dir, tmp, name);
      const st = await fs.stat(path.join(dir, filename)).catch(() => null);
      return {
        filename,
        size,
        contentType: type.contentType,
        kind: type.kind,
        relPath: this.relPath(sessionId, filename),
        createdAt: st ? (st.birthtimeMs > 0 ? st.birthtime : st.mtime) : new Date(),
      };
    } catch (e) {
      // The directory went while the body streamed: the session was deleted under the upload. (Any other
      // missing file, e.g. a spool file something else removed, stays a server fault.)
      if (errCode(e) === 'ENOENT' && !(await exists(dir))) throw new NotFound('Session');
      throw e;
    } finally {
      await rmQuiet(tmp);
    }
  }

  private async streamToFile(file: UploadLike, tmp: string, name: string): Promise<{ size: number; head: Uint8Array }> {
    const fh = await fs.open(tmp, 'wx');
    const reader = file.stream().getReader();
    const headChunks: Uint8Array[] = [];
    let headLen = 0;
    let size = 0;
    let checked = false;
    let finished = false;
    const rejectExecutable = () =>
      new FileRejectedError('executable', `Executable files are not accepted: "${name}" has an executable signature`);
    try {
      for (;;) {
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await reader.read();
        } catch {
          finished = true; // the stream is errored; nothing to cancel
          throw new FileRejectedError(
            'truncated',
            `Upload of "${name}" was interrupted before it completed; nothing was saved`,
          );
        }
        if (r.done) {
          finished = true;
          break;
        }
        const chunk = r.value;
        size += chunk.byteLength;
        if (size > this.maxBytes) throw new PayloadTooLargeError(this.maxBytes, name);
        if (headLen < HEAD_BYTES) {
          const part = chunk.slice(0, HEAD_BYTES - headLen);
          headChunks.push(part);
          headLen += part.byteLength;
        }
        if (!checked && headLen >= EXEC_CHECK_BYTES) {
          checked = true;
          if (isExecutableSignature(concat(headChunks, headLen))) throw rejectExecutable();
        }
        let off = 0;
        while (off < chunk.byteLength) {
          const { bytesWritten } = await fh.write(chunk, off, chunk.byteLength - off);
          off += bytesWritten;
        }
      }
      const head = concat(headChunks, headLen);
      if (!checked && isExecutableSignature(head)) throw rejectExecutable();
      if (typeof file.size === 'number' && size !== file.size) {
        throw new FileRejectedError(
          'truncated',
          `Upload of "${name}" was interrupted before it completed (${size} of ${file.size} bytes); nothing was saved`,
        );
      }
      return { size, head };
    } catch (e) {
      if (!finished) await reader.cancel(e instanceof Error ? e.message : 'aborted').catch(() => undefined);
      throw e;
    } finally {
      try {
        reader.releaseLock();
      } catch {
        /* already released */
      }
      await fh.close();
    }
  }

  /** Give `tmp` its final name without ever replacing an existing file. */
  private async linkUnique(dir: string, tmp: string, name: string): Promise<string> {
    const existing = new Set(await fs.readdir(dir));
    for (let attempt = 0; attempt < 10_000; attempt++) {
      const candidate = uniqueName(existing, name);
      const target = path.join(dir, candidate);
      try {
        await fs.link(tmp, target);
        return candidate;
      } catch (e) {
        const code = errCode(e);
        if (code === 'EEXIST') {
          existing.add(candidate);
          continue;
        }
        if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS' || code === 'EXDEV') {
          try {
            await fs.copyFile(tmp, target, fsc.COPYFILE_EXCL);
            return candidate;
          } catch (e2) {
            if (errCode(e2) === 'EEXIST') {
              existing.add(candidate);
              continue;
            }
            throw e2;
          }
        }
        throw e;
      }
    }
    throw new Error(`Could not find a free name for "${name}"`);
  }

  /** The checks an upload passes before anything is written: its name, and its declared size. Throws. */
  vetUploads(files: readonly UploadLike[]): void {
    for (const f of files) this.checkKnownSize(f, this.acceptName(f.name));
  }

  /**
   * Store several uploads, all or nothing: names and declared sizes are
   * checked for every file first; if any file then fails, the files written
   * by this call are removed and the error is rethrown.
   */
  async saveUploads(sessionId: string, files: readonly UploadLike[]): Promise<SavedUpload[]> {
    const dir = this.dir(sessionId);
    this.vetUploads(files);
    const saved: SavedUpload[] = [];
    try {
      for (const f of files) saved.push(await this.saveUpload(sessionId, f));
      return saved;
    } catch (e) {
      await Promise.all(saved.map((s) => rmQuiet(path.join(dir, s.filename))));
      throw e;
    }
  }

  // ---------------------------------------------------------------- reading

  /** Visible regular files of a session (no temp/dot files, no symlinks), oldest first. */
  async list(sessionId: string): Promise<SessionFileEntry[]> {
    const dir = this.dir(sessionId);
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (e) {
      if (errCode(e) === 'ENOENT' || errCode(e) === 'ENOTDIR') return [];
      throw e;
    }
    const out: SessionFileEntry[] = [];
    for (const ent of entries) {
      if (!ent.isFile() || !isPlainName(ent.name)) continue;
      const h = await this.openHandle(sessionId, ent.name);
      if (!h) continue;
      try {
        const type = await detectContentType(ent.name, h.head);
        out.push({
          filename: ent.name,
          size: h.size,
          contentType: type.contentType,
          kind: type.kind,
          relPath: this.relPath(sessionId, ent.name),
          createdAt: h.createdAt,
        });
      } finally {
        await h.fh.close();
      }
    }
    out.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.filename < b.filename ? -1 : 1));
    return out;
  }

  /**
   * Open an existing session file by exact name. The name must be a plain
   * segment (no separators, `..`, control chars or leading dot) and the
   * entry must be a regular file, not a symlink (opened with O_NOFOLLOW), so
   * nothing outside the session directory can be reached. Null otherwise.
   */
  private async openHandle(
    sessionId: string,
    filename: string,
  ): Promise<{ fh: FileHandle; size: number; head: Uint8Array; createdAt: Date } | null> {
    let dir: string;
    try {
      dir = this.dir(sessionId);
    } catch {
      return null;
    }
    if (!isPlainName(filename)) return null;
    const full = path.join(dir, filename);
    if (path.dirname(full) !== dir) return null;
    try {
      const dst = await fs.lstat(dir);
      if (!dst.isDirectory()) return null;
    } catch {
      return null;
    }
    let fh: FileHandle;
    try {
      fh = await fs.open(full, fsc.O_RDONLY | fsc.O_NOFOLLOW);
    } catch {
      return null;
    }
    try {
      const st = await fh.stat();
      if (!st.isFile()) {
        await fh.close();
        return null;
      }
      const head = await readHead(fh);
      const createdAt = st.birthtimeMs > 0 ? st.birthtime : st.mtime;
      return { fh, size: st.size, head, createdAt };
    } catch (e) {
      await fh.close().catch(() => undefined);
      throw e;
    }
  }

  /** Download: stream + detected type (signature beats extension), or null when absent/refused. */
  async open(sessionId: string, filename: string): Promise<OpenedFile | null> {
    const h = await this.openHandle(sessionId, filename);
    if (!h) return null;
    try {
      const type = await detectContentType(filename, h.head);
      const nodeStream = h.fh.createReadStream({ start: 0, autoClose: true });
      const stream = Readable.toWeb(nodeStream) as unknown as ReadableStream<Uint8Array>;
      return { filename, stream, size: h.size, contentType: type.contentType, kind: type.kind };
    } catch (e) {
      await h.fh.close().catch(() => undefined);
      throw e;
    }
  }

  /**
   * `content_publish`: register a file that already exists in the session
   * directory as a viewer card. Does not copy. FileRejectedError('not_found')
   * when the file is not there.
   */
  async publish(sessionId: string, filename: string): Promise<PublishedFile> {
    this.dir(sessionId);
    const h = await this.openHandle(sessionId, filename);
    if (!h) {
      throw new FileRejectedError(
        'not_found',
        `No file "${filename}" in ${SESSION_FILES_DIRNAME}/${sessionId}/ — write or copy it there first`,
      );
    }
    try {
      const type = await detectContentType(filename, h.head);
      return {
        filename,
        url: `/sessions/${encodeURIComponent(sessionId)}/files/${encodeURIComponent(filename)}`,
        relPath: this.relPath(sessionId, filename),
        contentType: type.contentType,
        kind: type.kind,
        size: h.size,
      };
    } finally {
      await h.fh.close();
    }
  }

  // ---------------------------------------------------------------- pasted images

  private async withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(key) ?? Promise.resolve();
    const run = prev.then(fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.locks.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.locks.get(key) === tail) this.locks.delete(key);
    }
  }

  /**
   * Store a pasted image as `image_N.<ext>`: the extension comes from the
   * bytes (file-type), N = 1 + the highest `image_N.*` already in the session
   * directory (any extension), the bytes are written unchanged. Identical
   * bytes (sha256) already stored under an `image_N.*` name are reused.
   * Throws FileRejectedError('not_image' | 'corrupt_image') or
   * PayloadTooLargeError; nothing is written then.
   */
  async savePastedImage(sessionId: string, bytes: Uint8Array): Promise<SavedImage> {
    const dir = this.dir(sessionId);
    const ft = await vetPastedImage(bytes, this.maxBytes);
    const hash = sha256(bytes);
    return this.withLock(sessionId, async () => {
      await fs.mkdir(dir, { recursive: true });
      const names = await fs.readdir(dir);
      let maxN = 0;
      const images: string[] = [];
      for (const n of names) {
        const m = IMAGE_NAME_RE.exec(n);
        if (!m) continue;
        maxN = Math.max(maxN, Number(m[1]));
        images.push(n);
      }
      images.sort((a, b) => Number(IMAGE_NAME_RE.exec(a)![1]) - Number(IMAGE_NAME_RE.exec(b)![1]));
      for (const n of images) {
        const p = path.join(dir, n);
        const st = await fs.lstat(p).catch(() => null);
        if (!st || !st.isFile() || st.size !== bytes.byteLength) continue;
        if ((await sha256File(p).catch(() => '')) === hash) {
          return {
            filename: n,
            relPath: this.relPath(sessionId, n),
            reused: true,
            contentType: ft.mime,
            size: st.size,
          };
        }
      }
      const tmp = path.join(dir, `${TMP_PREFIX}${randomUUID()}.part`);
      try {
        await fs.writeFile(tmp, bytes, { flag: 'wx' });
        for (let n = maxN + 1; ; n++) {
          const filename = `image_${n}.${ft.ext}`;
          try {
            await fs.link(tmp, path.join(dir, filename));
          } catch (e) {
            const code = errCode(e);
            if (code === 'EEXIST') continue;
            if (
              code === 'EPERM' ||
              code === 'ENOTSUP' ||
              code === 'EOPNOTSUPP' ||
              code === 'ENOSYS' ||
              code === 'EXDEV'
            ) {
              try {
                await fs.copyFile(tmp, path.join(dir, filename), fsc.COPYFILE_EXCL);
              } catch (e2) {
                if (errCode(e2) === 'EEXIST') continue;
                throw e2;
              }
            } else {
              throw e;
            }
          }
          return {
            filename,
            relPath: this.relPath(sessionId, filename),
            reused: false,
            contentType: ft.mime,
            size: bytes.byteLength,
          };
        }
      } finally {
        await rmQuiet(tmp);
      }
    });
  }

  // ---------------------------------------------------------------- lifecycle

  /** Delete a session's whole directory (e.g. when the session is deleted). */
  async removeSession(sessionId: string): Promise<void> {
    await fs.rm(this.dir(sessionId), { recursive: true, force: true });
  }

  /**
   * Remove directories under `session_files/` whose session no longer exists.
   * `exists(ids)` returns the subset of ids that still exist (called in
   * batches of 500). Only directories named like a session id are
   * considered. Returns the removed ids.
   */
  async cleanupOrphans(exists: SessionsExist): Promise<string[]> {
    let entries;
    try {
      entries = await fs.readdir(this.baseDir, { withFileTypes: true });
    } catch (e) {
      if (errCode(e) === 'ENOENT') return [];
      throw e;
    }
    const ids = entries.filter((e) => e.isDirectory() && SESSION_ID_RE.test(e.name)).map((e) => e.name);
    const removed: string[] = [];
    for (let i = 0; i < ids.length; i += CLEANUP_BATCH) {
      const batch = ids.slice(i, i + CLEANUP_BATCH);
      const alive = await exists(batch);
      for (const id of batch) {
        if (alive.has(id)) continue;
        await fs.rm(path.join(this.baseDir, id), { recursive: true, force: true });
        removed.push(id);
      }
    }
    if (removed.length > 0) {
      this.logger?.info?.({ event: 'session_files.orphans_removed', count: removed.length, sessionIds: removed });
    }
    return removed;
  }

  /**
   * Run `cleanupOrphans` now and every `intervalMs` (timer unref'd, runs never
   * overlap, failures logged as `session_files.cleanup_failed`). Returns a
   * stop function that resolves once any in-flight run has finished.
   */
  startCleanupLoop(intervalMs: number, exists: SessionsExist): () => Promise<void> {
    let stopped = false;
    let running: Promise<void> | null = null;
    const tick = () => {
      if (stopped || running) return;
      running = this.cleanupOrphans(exists)
        .then(
          () => undefined,
          (e: unknown) => {
            this.logger?.warn({
              event: 'session_files.cleanup_failed',
              err: e instanceof Error ? e.message : String(e),
            });
          },
        )
        .finally(() => {
          running = null;
        });
    };
    tick();
    const timer = setInterval(tick, intervalMs);
    timer.unref?.();
    return async () => {
      stopped = true;
      clearInterval(timer);
      if (running) await running;
    };
  }
}

async function exists(target: string): Promise<boolean> {
  return fs.stat(target).then(
    () => true,
    () => false,
  );
}
