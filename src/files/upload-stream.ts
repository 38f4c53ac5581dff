/**
 * Writing one upload to disk: streamed to a temp file while bytes are counted
 * and the head is checked for executable signatures, then hard-linked to a
 * unique final name (copy fallback), never replacing an existing file.
 */
import { constants as fsc, promises as fs } from 'node:fs';
import path from 'node:path';
import { HEAD_BYTES, isExecutableSignature } from './detect.js';
import { FileRejectedError, PayloadTooLargeError } from './errors.js';
import { concat, errCode } from './fs-util.js';
import { uniqueName } from './names.js';
import type { UploadLike } from './types.js';

/** Head bytes needed before the executable check can run mid-stream. */
const EXEC_CHECK_BYTES = 64;

export async function streamToFile(
  file: UploadLike,
  tmp: string,
  name: string,
  maxBytes: number,
): Promise<{ size: number; head: Uint8Array }> {
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
      if (size > maxBytes) throw new PayloadTooLargeError(maxBytes, name);
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
export async function linkUnique(dir: string, tmp: string, name: string): Promise<string> {
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
