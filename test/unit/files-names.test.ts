import { describe, expect, it } from 'vitest';
import { FileRejectedError } from '../../src/files/errors.js';
import { isExecutableName, isPlainName, sanitizeFilename, uniqueName } from '../../src/files/names.js';

describe('sanitizeFilename', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['a/../../b', 'b'],
    ['\\..\\x', 'x'],
    ['..\\..\\windows\\system32\\cmd.txt', 'cmd.txt'],
    ['/abs/path/report.pdf', 'report.pdf'],
    ['C:\\Users\\me\\notes.md', 'notes.md'],
    ['rep\u0000ort\u0007.pdf', 'report.pdf'],
    ['line\nbreak\r.txt', 'linebreak.txt'],
    ['.hidden', 'hidden'],
    ['...env', 'env'],
    ['  spaced name.txt  ', 'spaced name.txt'],
    ['evil.exe.', 'evil.exe'],
    ['a..b.txt', 'a.b.txt'],
    ['what?<>:"|*.txt', 'what_______.txt'],
    ['photo\u202egnp.txt', 'photognp.txt'],
    ['Übersicht.pdf', 'Übersicht.pdf'],
  ])('%j → %j', (input, expected) => {
    const out = sanitizeFilename(input);
    expect(out).toBe(expected);
    expect(out).not.toMatch(/[\/\\\u0000-\u001f]/);
    expect(out.includes('..')).toBe(false);
  });

  it.each(['', '..', '../', '/', '\\', '....', '\u0000\u0001', ' . ', 'a/..'])('rejects %j', (input) => {
    expect(() => sanitizeFilename(input)).toThrow(FileRejectedError);
    try {
      sanitizeFilename(input);
    } catch (e) {
      expect((e as FileRejectedError).code).toBe('BAD_USER_INPUT');
      expect((e as FileRejectedError).reason).toBe('invalid_name');
    }
  });

  it('caps length at 200 chars keeping the extension', () => {
    const out = sanitizeFilename('x'.repeat(500) + '.pdf');
    expect([...out].length).toBeLessThanOrEqual(200);
    expect(out.endsWith('.pdf')).toBe(true);
    expect(out.startsWith('xxx')).toBe(true);
  });

  it('caps multi-byte names under the filesystem byte limit', () => {
    const out = sanitizeFilename('я'.repeat(190) + '.txt');
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(230);
    expect(out.endsWith('.txt')).toBe(true);
  });
});

describe('uniqueName', () => {
  it('adds a numeric suffix " (n)" before the extension', () => {
    const existing = new Set<string>();
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      const n = uniqueName(existing, 'report.pdf');
      existing.add(n);
      names.push(n);
    }
    expect(names).toEqual(['report.pdf', 'report (1).pdf', 'report (2).pdf']);
  });

  it('handles no extension and compound archive extensions', () => {
    expect(uniqueName(new Set(['README']), 'README')).toBe('README (1)');
    expect(uniqueName(new Set(['data.tar.gz']), 'data.tar.gz')).toBe('data (1).tar.gz');
    expect(uniqueName(new Set(['a.pdf', 'a (1).pdf']), 'a.pdf')).toBe('a (2).pdf');
  });
});

describe('isExecutableName', () => {
  it.each([
    'run.sh',
    'x.BASH',
    'tool.py',
    'setup.exe',
    'a.bat',
    'a.cmd',
    'a.com',
    'a.ps1',
    'a.msi',
    'a.dll',
    'libx.so',
    'libx.so.1.2',
    'a.dylib',
    'a.bin',
    'a.app',
    'a.jar',
    'a.vbs',
    'a.scr',
    'a.elf',
    'a.run',
    'x.AppImage',
  ])('%s is executable', (n) => expect(isExecutableName(n)).toBe(true));
  it.each([
    'report.pdf',
    'notes.txt',
    'main.ts',
    'index.js',
    'photo.png',
    'script.sh.txt',
    'Makefile',
    'shell',
    'soap.json',
  ])('%s is not executable', (n) => expect(isExecutableName(n)).toBe(false));
});

describe('isPlainName', () => {
  it('accepts plain names and refuses traversal', () => {
    expect(isPlainName('report (1).pdf')).toBe(true);
    for (const bad of ['', '.', '..', '../x', 'a/b', 'a\\b', '.upload-x.part', 'a\u0000b'])
      expect(isPlainName(bad)).toBe(false);
  });
});
