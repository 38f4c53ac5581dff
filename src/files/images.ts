/**
 * Structural checks for pasted images (pricing lives in src/domain/image-tokens.ts),
 * and the one reader of stored images into a prompt.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FileRejectedError, PayloadTooLargeError } from './errors.js';
import { imageSize, imageTokensFromBytes } from '../domain/image-tokens.js';
import type { PromptImage } from '../domain/prompt.js';

/** Image dimensions from the header, or null when unreadable. */
export function readImageSize(bytes: Uint8Array): { width: number; height: number } | null {
  try {
    const d = imageSize(bytes);
    if (!d.width || !d.height) return null;
    return { width: d.width, height: d.height };
  } catch {
    return null;
  }
}

/**
 * Cheap completeness check for formats with a well-defined end: PNG must
 * contain its IEND chunk, JPEG its EOI marker, WebP as many bytes as its RIFF
 * header declares. Other formats pass (their header was already parsed).
 */
export function imageLooksComplete(ext: string, b: Uint8Array): boolean {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  switch (ext) {
    case 'png':
      return buf.lastIndexOf('IEND') > 8;
    case 'jpg':
      return buf.lastIndexOf(Buffer.from([0xff, 0xd9])) > 2;
    case 'webp':
      return buf.length >= 12 && buf.readUInt32LE(4) + 8 <= buf.length;
    default:
      return true;
  }
}

/**
 * The checks a pasted image passes before anything is written: at most
 * `maxBytes`, a recognised image type (from the bytes), a readable header and
 * a complete body. Throws PayloadTooLargeError or FileRejectedError('not_image' |
 * 'corrupt_image'); returns the detected type.
 */
export async function vetPastedImage(bytes: Uint8Array, maxBytes: number): Promise<{ ext: string; mime: string }> {
  if (bytes.byteLength > maxBytes) throw new PayloadTooLargeError(maxBytes, 'pasted image');
  const ft =
    bytes.byteLength > 0
      ? await (await import('file-type')).fileTypeFromBuffer(bytes).catch(() => undefined)
      : undefined;
  if (!ft?.mime.startsWith('image/')) {
    throw new FileRejectedError('not_image', 'Pasted data is not a recognized image (PNG, JPEG, GIF, WebP, …)');
  }
  if (!readImageSize(bytes) || !imageLooksComplete(ft.ext, bytes)) {
    throw new FileRejectedError('corrupt_image', `Pasted ${ft.ext.toUpperCase()} image is corrupt or truncated`);
  }
  return { ext: ft.ext, mime: ft.mime };
}

/**
 * The one rule for reading a stored image into a prompt: a path inside this
 * session's own directory (`session_files/<sessionId>/…`, no `..`); anything
 * else, or a file that cannot be read, is not loaded (and so not sent).
 */
export function isOwnSessionFile(relPath: string, sessionId: string): boolean {
  return relPath.startsWith(`session_files/${sessionId}/`) && !relPath.includes('..');
}

export async function readSessionFile(root: string, sessionId: string, relPath: string): Promise<Buffer | null> {
  if (!isOwnSessionFile(relPath, sessionId)) return null;
  try {
    return await readFile(join(root, relPath));
  } catch {
    return null;
  }
}

/** Loads the named images of a session for `buildPrompt`, each priced from its own header. */
export async function loadPromptImages(
  root: string,
  sessionId: string,
  paths: Iterable<string>,
  fallbackTokens: number,
): Promise<Map<string, PromptImage>> {
  const out = new Map<string, PromptImage>();
  for (const path of paths) {
    if (out.has(path)) continue;
    const bytes = await readSessionFile(root, sessionId, path);
    if (bytes)
      out.set(path, {
        path,
        bytes: bytes.length,
        tokens: imageTokensFromBytes(bytes, fallbackTokens),
        b64: bytes.toString('base64'),
      });
  }
  return out;
}
