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
import { randomUUID } from 'node:crypto';
import { constants as fsc, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { detectContentType } from './detect.js';
import { NotFound } from '../store/errors.js';
import { FileRejectedError, PayloadTooLargeError } from './errors.js';
import { errCode, exists, readHead, rmQuiet, sha256, sha256File } from './fs-util.js';
import { cleanupOrphans, SESSION_ID_RE, startCleanupLoop } from './orphans.js';
import { linkUnique, streamToFile } from './upload-stream.js';
import { vetPastedImage } from './images.js';
import type {
  FilesLogger,
  OpenedFile,
  PublishedFile,
  SavedImage,
  SavedUpload,
  SessionFileEntry,
  SessionFilesOptions,
  SessionsExist,
  UploadLike,
} from './types.js';
import { isExecutableName, isPlainName, sanitizeFilename } from './names.js';

export type {
  FilesLogger,
  OpenedFile,
  PublishedFile,
  SavedImage,
  SavedUpload,
  SessionFileEntry,
  SessionFilesOptions,
  SessionsExist,
  UploadLike,
} from './types.js';

export const SESSION_FILES_DIRNAME = 'session_files';

const TMP_PREFIX = '.upload-';
const IMAGE_NAME_RE = /^image_(\d{1,9})\.[A-Za-z0-9]+$/;

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
      const { size, head } = await streamToFile(file, tmp, name, this.maxBytes);
      const type = await detectContentType(name, head);
      const filename = await linkUnique(dir, tmp, name);
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
   * Remove directories under `session_files/` whose session no longer exists (./orphans.ts). Returns the removed
   * ids.
   */
  cleanupOrphans(exists: SessionsExist): Promise<string[]> {
    return cleanupOrphans(this.baseDir, exists, this.logger);
  }

  /** Run `cleanupOrphans` now and every `intervalMs`; returns a stop function (./orphans.ts). */
  startCleanupLoop(intervalMs: number, exists: SessionsExist): () => Promise<void> {
    return startCleanupLoop(() => this.cleanupOrphans(exists), intervalMs, this.logger);
  }
}
