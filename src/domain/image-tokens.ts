/**
 * Per-image prompt cost from the image's own dimensions, measured against
 * qwen3.6: the model downsizes to fit 2048² and pays one token per 32×32
 * patch plus two framing tokens. A flat per-image price undercounted
 * screenshots 2×–8×, so sessions full of them never reached the trigger.
 */
import { createRequire } from 'node:module';

/** image-size, loaded on the first image rather than at start (idle memory, docs/performance.md). */
let loaded: typeof import('image-size').imageSize | undefined;
export function imageSize(bytes: Uint8Array): ReturnType<typeof import('image-size').imageSize> {
  loaded ??= (createRequire(import.meta.url)('image-size') as typeof import('image-size')).imageSize;
  return loaded(bytes);
}
import type { ChatMessage } from './types.js';

export const IMAGE_MAX_SIDE = 2048;
export const IMAGE_PATCH_PX = 32;
export const IMAGE_FRAMING_TOKENS = 2;
export const MIN_IMAGE_TOKENS = 256;
export const MAX_IMAGE_TOKENS = 4096;
/** `context_image_tokens`: price of an image whose header cannot be read. */
export const DEFAULT_IMAGE_TOKENS = 1024;

export function imageTokensFromDimensions(width: number, height: number): number {
  if (!(width > 0) || !(height > 0)) return MIN_IMAGE_TOKENS;
  const scale = Math.min(1, IMAGE_MAX_SIDE / width, IMAGE_MAX_SIDE / height);
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const tokens = Math.ceil(w / IMAGE_PATCH_PX) * Math.ceil(h / IMAGE_PATCH_PX) + IMAGE_FRAMING_TOKENS;
  return Math.min(MAX_IMAGE_TOKENS, Math.max(MIN_IMAGE_TOKENS, tokens));
}

/** Reads only the header; an unreadable or unknown format costs `fallback`. */
export function imageTokensFromBytes(bytes: Uint8Array, fallback: number = DEFAULT_IMAGE_TOKENS): number {
  try {
    const { width, height } = imageSize(bytes);
    if (!width || !height) return fallback;
    return imageTokensFromDimensions(width, height);
  } catch {
    return fallback;
  }
}

/** Same as imageTokensFromBytes for base64 payloads (tool-result images, data without a `data:` prefix). */
export function imageTokensFromBase64(b64: string, fallback: number = DEFAULT_IMAGE_TOKENS): number {
  const raw = b64.startsWith('data:') ? b64.slice(b64.indexOf(',') + 1) : b64;
  // Decoded whole: a JPEG's size marker can sit behind a large EXIF block.
  return imageTokensFromBytes(Buffer.from(raw, 'base64'), fallback);
}

/**
 * An image a message carries to the model: a stored attachment path (priced
 * by the caller from the file header) or an inline base64 payload from a tool
 * result (`metadata.base64`).
 */
export interface ImageRef {
  /** sequence number of the message that carried it */
  sequenceNumber: number;
  kind: 'path' | 'base64';
  value: string;
}

export function base64ImagesOf(msg: ChatMessage): string[] {
  const b64 = msg.metadata.base64;
  if (typeof b64 === 'string' && b64.length > 0) return [b64];
  if (Array.isArray(b64)) return b64.filter((v): v is string => typeof v === 'string' && v.length > 0);
  return [];
}

export function imageRefsOf(msg: ChatMessage): ImageRef[] {
  const seq = msg.sequenceNumber;
  return [
    ...msg.images.map((value) => ({ sequenceNumber: seq, kind: 'path' as const, value })),
    ...base64ImagesOf(msg).map((value) => ({ sequenceNumber: seq, kind: 'base64' as const, value })),
  ];
}
