/**
 * Structural checks for pasted images (pricing lives in src/domain/image-tokens.ts).
 */
import { imageSize } from 'image-size';

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
