import { describe, expect, it } from 'vitest';
import { detectContentType, isExecutableSignature, looksLikeText } from '../../src/files/detect.js';
import { imageLooksComplete, readImageSize } from '../../src/files/images.js';
import { ELF_HEAD, GIF_1x1, JPEG_1x1, MACHO_HEADS, PE_HEAD, PNG_1x1, SHEBANG } from '../fixtures/files/images.js';

const text = (s: string) => new TextEncoder().encode(s);

describe('isExecutableSignature', () => {
  it('detects ELF, PE, shebang and every Mach-O magic', () => {
    expect(isExecutableSignature(ELF_HEAD)).toBe(true);
    expect(isExecutableSignature(PE_HEAD)).toBe(true);
    expect(isExecutableSignature(SHEBANG)).toBe(true);
    expect(isExecutableSignature(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), SHEBANG]))).toBe(true);
    for (const [, head] of Object.entries(MACHO_HEADS)) expect(isExecutableSignature(head)).toBe(true);
  });

  it('detects a bare DOS MZ binary without PE header', () => {
    expect(isExecutableSignature(Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]))).toBe(true);
  });

  it('does not flag ordinary text or images', () => {
    expect(isExecutableSignature(text('MZ is the name of my band\n'))).toBe(false);
    expect(isExecutableSignature(text('# heading\n'))).toBe(false);
    expect(isExecutableSignature(PNG_1x1)).toBe(false);
    expect(isExecutableSignature(new Uint8Array())).toBe(false);
  });
});

describe('detectContentType', () => {
  it('signature wins: a PNG named .txt is image/png', async () => {
    expect(await detectContentType('notes.txt', PNG_1x1)).toEqual({ contentType: 'image/png', kind: 'image' });
    expect(await detectContentType('x.bin', JPEG_1x1)).toEqual({ contentType: 'image/jpeg', kind: 'image' });
    expect((await detectContentType('noext', GIF_1x1)).kind).toBe('image');
  });

  it('.ts is text unless it really is an MPEG transport stream', async () => {
    expect(await detectContentType('main.ts', text('export const x: number = 1;\n'))).toEqual({
      contentType: 'text/plain; charset=utf-8',
      kind: 'text',
    });
    const mpegts = new Uint8Array(188 * 3);
    for (let i = 0; i < 3; i++) mpegts[i * 188] = 0x47;
    expect(await detectContentType('clip.ts', mpegts)).toEqual({ contentType: 'video/mp2t', kind: 'video' });
  });

  it('uses the extension map for signature-less formats', async () => {
    expect(await detectContentType('part.stl', text('solid cube\nendsolid cube\n'))).toEqual({
      contentType: 'model/stl',
      kind: 'model',
    });
    expect((await detectContentType('scene.gltf', text('{"asset":{"version":"2.0"}}'))).kind).toBe('model');
    expect((await detectContentType('page.html', text('<!doctype html><p>hi'))).kind).toBe('html');
    expect(
      await detectContentType('logo.svg', text('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')),
    ).toEqual({
      contentType: 'image/svg+xml',
      kind: 'svg',
    });
    expect((await detectContentType('README.md', text('# Title'))).contentType).toBe('text/plain; charset=utf-8');
    expect((await detectContentType('main.py', text('print(1)'))).kind).toBe('text');
    expect((await detectContentType('doc.pdf', text('%PDF-1.7\n'))).kind).toBe('pdf');
  });

  it('falls back to a text sniff, then octet-stream', async () => {
    expect((await detectContentType('LICENSE', text('MIT License\n'))).kind).toBe('text');
    expect(await detectContentType('blob', new Uint8Array([1, 0, 2, 0, 255, 254]))).toEqual({
      contentType: 'application/octet-stream',
      kind: 'binary',
    });
    expect((await detectContentType('fake.txt', new Uint8Array([1, 0, 2, 0, 255, 254]))).kind).toBe('binary');
  });

  it('text sniff tolerates a UTF-8 sequence cut at the sample edge', () => {
    const bytes = text('привет');
    expect(looksLikeText(bytes.subarray(0, bytes.length - 1))).toBe(true);
  });
});

describe('image checks', () => {
  it('reads header dimensions and spots truncation', () => {
    expect(readImageSize(PNG_1x1)).toEqual({ width: 1, height: 1 });
    expect(readImageSize(text('not an image'))).toBeNull();
    expect(imageLooksComplete('png', PNG_1x1)).toBe(true);
    expect(imageLooksComplete('png', PNG_1x1.subarray(0, PNG_1x1.length - 12))).toBe(false);
    expect(imageLooksComplete('jpg', JPEG_1x1)).toBe(true);
    expect(imageLooksComplete('jpg', JPEG_1x1.subarray(0, JPEG_1x1.length - 2))).toBe(false);
    expect(imageLooksComplete('gif', GIF_1x1)).toBe(true);
  });
});
