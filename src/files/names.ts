/**
 * Filename hygiene for session files: sanitizing client-supplied names,
 * resolving duplicates, and refusing executables by extension.
 */
import { FileRejectedError } from './errors.js';
import { trimEndChars, trimStartChars } from '../domain/text.js';

/** Max length of a sanitized name, in code points (also capped in UTF-8 bytes, see below). */
export const MAX_NAME_CHARS = 200;
/** Byte cap keeps `name (NNN).ext` under the usual 255-byte filesystem limit. */
const MAX_NAME_BYTES = 230;
/** An extension longer than this is treated as part of the stem when truncating. */
const MAX_EXT_CHARS = 20;

// C0/C1 control characters, DEL, and bidi override/isolate characters (RTL tricks like "gpj.exe").
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
// Characters that are illegal or meaningful on common filesystems/shells.
const RESERVED_CHARS = /[<>:"|?*]/g;

const COMPOUND_EXTS = ['.tar.gz', '.tar.bz2', '.tar.xz', '.tar.zst'];

function utf8Len(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Split `name` into [stem, ext] where ext includes the dot ('' when none). */
export function splitExt(name: string): [string, string] {
  const lower = name.toLowerCase();
  for (const c of COMPOUND_EXTS) {
    if (lower.endsWith(c) && name.length > c.length) return [name.slice(0, -c.length), name.slice(-c.length)];
  }
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

function truncate(name: string): string {
  const fits = (s: string) => [...s].length <= MAX_NAME_CHARS && utf8Len(s) <= MAX_NAME_BYTES;
  if (fits(name)) return name;
  let [stem, ext] = splitExt(name);
  if ([...ext].length > MAX_EXT_CHARS) {
    stem = name;
    ext = '';
  }
  const cps = [...stem];
  while (cps.length > 0 && !fits(cps.join('') + ext)) cps.pop();
  const out = (trimEndChars(cps.join(''), ' .') + ext).trim();
  return out;
}

/**
 * Reduce a client-supplied name to a safe basename:
 * - NFC-normalized; control chars, NUL and bidi overrides removed;
 * - backslashes treated as separators, only the last path segment kept
 *   (`../../etc/passwd` → `passwd`, `a/../../b` → `b`, `\..\x` → `x`);
 * - `<>:"|?*` replaced by `_`; runs of dots collapsed (no `..` survives);
 * - leading dots/spaces and trailing dots/spaces stripped (no hidden files,
 *   no Windows `evil.exe.` tricks);
 * - capped at 200 code points (and 230 UTF-8 bytes), keeping the extension.
 * Throws FileRejectedError('invalid_name') when nothing usable remains.
 */
export function sanitizeFilename(name: string): string {
  if (typeof name !== 'string') throw new FileRejectedError('invalid_name', 'File name is missing');
  let s = name.normalize('NFC').replace(UNSAFE_CHARS, '');
  s = s.replace(/\\/g, '/');
  const segments = s.split('/');
  s = segments[segments.length - 1] ?? '';
  s = s.replace(RESERVED_CHARS, '_');
  s = s.replace(/\.{2,}/g, '.');
  s = trimEndChars(trimStartChars(s, '.', { whitespace: true }), '.', { whitespace: true });
  s = truncate(s);
  if (!s || s === '.' || s === '..') {
    throw new FileRejectedError('invalid_name', `Invalid file name: "${name.slice(0, 100)}"`);
  }
  return s;
}

/**
 * First free name given the names already present, browser style:
 * `report.pdf` → `report (1).pdf` → `report (2).pdf`. Compound archive
 * extensions stay whole (`a.tar.gz` → `a (1).tar.gz`). An already-suffixed
 * name is suffixed again (`report (1).pdf` → `report (1) (1).pdf`).
 */
export function uniqueName(existingNames: ReadonlySet<string>, name: string): string {
  if (!existingNames.has(name)) return name;
  const [stem, ext] = splitExt(name);
  for (let i = 1; ; i++) {
    const candidate = `${stem} (${i})${ext}`;
    if (!existingNames.has(candidate)) return candidate;
  }
}

/** Extensions refused on upload (lower-case, no dot). */
export const EXECUTABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  // Unix shells / scripts
  'sh',
  'bash',
  'zsh',
  'ksh',
  'csh',
  'tcsh',
  'fish',
  'command',
  'run',
  'py',
  'pyw',
  'pyc',
  'pyo',
  'pyz',
  'pl',
  'rb',
  'php',
  // Windows
  'exe',
  'bat',
  'cmd',
  'com',
  'ps1',
  'psm1',
  'psd1',
  'msi',
  'msp',
  'mst',
  'dll',
  'scr',
  'cpl',
  'pif',
  'vbs',
  'vbe',
  'wsf',
  'wsh',
  'hta',
  'gadget',
  'lnk',
  'reg',
  // Native binaries / libraries / bundles
  'so',
  'dylib',
  'bin',
  'elf',
  'app',
  'jar',
  'class',
  'apk',
  'appimage',
  'deb',
  'rpm',
  'dmg',
  'ko',
]);

/**
 * True when the name's extension marks an executable, script, native library
 * or installer (case-insensitive; also versioned shared objects `libx.so.1.2`).
 */
export function isExecutableName(name: string): boolean {
  const lower = trimEndChars(name.toLowerCase(), '.', { whitespace: true });
  if (/\.so(\.\d+)+$/.test(lower)) return true;
  const dot = lower.lastIndexOf('.');
  if (dot < 0) return false;
  return EXECUTABLE_EXTENSIONS.has(lower.slice(dot + 1));
}

/**
 * True when `name` is a single, visible path segment that can be looked up
 * as-is inside a session directory: no separators, no control characters, not
 * `.`/`..`, no leading dot (hides temp files), at most 255 UTF-8 bytes. Used
 * for lookups (download/publish) where the name must match a file exactly
 * rather than be rewritten.
 */
export function isPlainName(name: string): boolean {
  if (typeof name !== 'string' || name.length === 0) return false;
  if (name.startsWith('.')) return false;
  if (/[/\\]/.test(name)) return false;
  if (name.replace(UNSAFE_CHARS, '') !== name) return false;
  return utf8Len(name) <= 255;
}
