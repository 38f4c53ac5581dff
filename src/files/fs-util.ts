/** Small filesystem helpers shared by the session file store and its upload path. */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { HEAD_BYTES } from './detect.js';

export function errCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
}

export async function rmQuiet(p: string): Promise<void> {
  await fs.rm(p, { force: true }).catch(() => undefined);
}

export function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}

export async function readHead(fh: FileHandle): Promise<Uint8Array> {
  const buf = new Uint8Array(HEAD_BYTES);
  const { bytesRead } = await fh.read(buf, 0, HEAD_BYTES, 0);
  return buf.subarray(0, bytesRead);
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function sha256File(p: string): Promise<string> {
  const h = createHash('sha256');
  const fh = await fs.open(p, 'r');
  try {
    for await (const chunk of fh.createReadStream({ autoClose: false })) h.update(chunk as Buffer);
  } finally {
    await fh.close();
  }
  return h.digest('hex');
}

export async function exists(target: string): Promise<boolean> {
  return fs.stat(target).then(
    () => true,
    () => false,
  );
}
