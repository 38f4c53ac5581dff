import { describe, expect, it } from 'vitest';
import {
  DEFAULT_IMAGE_TOKENS,
  imageTokensFromBase64,
  imageTokensFromBytes,
  imageTokensFromDimensions,
} from '../../src/domain/image-tokens.js';

/** Minimal PNG: signature + IHDR carrying the dimensions (all image-size reads). */
function pngHeader(width: number, height: number): Uint8Array {
  const buf = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(buf, 0);
  buf.writeUInt32BE(13, 8);
  buf.write('IHDR', 12, 'ascii');
  buf.writeUInt32BE(width, 16);
  buf.writeUInt32BE(height, 20);
  buf.writeUInt8(8, 24);
  buf.writeUInt8(6, 25);
  return new Uint8Array(buf);
}

function gifHeader(width: number, height: number): Uint8Array {
  const buf = Buffer.alloc(13);
  buf.write('GIF89a', 0, 'ascii');
  buf.writeUInt16LE(width, 6);
  buf.writeUInt16LE(height, 8);
  return new Uint8Array(buf);
}

describe('imageTokensFromDimensions', () => {
  it('prices 32px patches plus 2', () => {
    expect(imageTokensFromDimensions(1024, 1024)).toBe(1026);
    expect(imageTokensFromDimensions(1000, 500)).toBe(32 * 16 + 2);
  });

  it('clamps to 4096 at the top (2048² would be 4098)', () => {
    expect(imageTokensFromDimensions(2048, 2048)).toBe(4096);
  });

  it('downscales to fit 2048×2048 preserving aspect ratio', () => {
    expect(imageTokensFromDimensions(4096, 1024)).toBe(64 * 16 + 2);
    expect(imageTokensFromDimensions(1024, 4096)).toBe(64 * 16 + 2);
    expect(imageTokensFromDimensions(8000, 8000)).toBe(4096);
  });

  it('clamps to 256 at the bottom', () => {
    expect(imageTokensFromDimensions(100, 100)).toBe(256);
    expect(imageTokensFromDimensions(0, 0)).toBe(256);
  });
});

describe('imageTokensFromBytes', () => {
  it('reads the header', () => {
    expect(imageTokensFromBytes(pngHeader(1024, 1024))).toBe(1026);
    expect(imageTokensFromBytes(gifHeader(512, 512))).toBe(16 * 16 + 2);
  });

  it('falls back when the header is unreadable', () => {
    expect(imageTokensFromBytes(new Uint8Array([1, 2, 3, 4]))).toBe(DEFAULT_IMAGE_TOKENS);
    expect(DEFAULT_IMAGE_TOKENS).toBe(1024);
    expect(imageTokensFromBytes(new Uint8Array(0), 700)).toBe(700);
  });

  it('reads base64 payloads, with or without a data: prefix', () => {
    const b64 = Buffer.from(pngHeader(2048, 1024)).toString('base64');
    expect(imageTokensFromBase64(b64)).toBe(64 * 32 + 2);
    expect(imageTokensFromBase64(`data:image/png;base64,${b64}`)).toBe(64 * 32 + 2);
    expect(imageTokensFromBase64('not an image', 333)).toBe(333);
  });
});
