/**
 * Content-type detection for session files (the `navi/content_types.py`
 * counterpart): the file's signature first, then its extension, then a text
 * sniff. Also the executable-signature check used on upload.
 */

export type FileKind = 'image' | 'video' | 'audio' | 'pdf' | 'html' | 'svg' | 'model' | 'text' | 'binary';

export interface DetectedType {
  contentType: string;
  kind: FileKind;
}

/** How many leading bytes detection wants (file-type's own sample size). */
export const HEAD_BYTES = 4100;

const TEXT_PLAIN = 'text/plain; charset=utf-8';
const OCTET = 'application/octet-stream';

function startsWith(b: Uint8Array, sig: readonly number[], offset = 0): boolean {
  if (b.length < offset + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[offset + i] !== sig[i]) return false;
  return true;
}

const MACHO_MAGICS: readonly (readonly number[])[] = [
  [0xfe, 0xed, 0xfa, 0xce], // MH_MAGIC (32-bit, big-endian)
  [0xce, 0xfa, 0xed, 0xfe], // MH_CIGAM (32-bit, little-endian)
  [0xfe, 0xed, 0xfa, 0xcf], // MH_MAGIC_64
  [0xcf, 0xfa, 0xed, 0xfe], // MH_CIGAM_64
  [0xca, 0xfe, 0xba, 0xbe], // FAT_MAGIC (universal; also Java .class — refused as well)
  [0xbe, 0xba, 0xfe, 0xca], // FAT_CIGAM
  [0xca, 0xfe, 0xba, 0xbf], // FAT_MAGIC_64
  [0xbf, 0xba, 0xfe, 0xca], // FAT_CIGAM_64
];

/**
 * True when the leading bytes are a native executable or a script:
 * ELF (`\x7fELF`), Mach-O (32/64-bit and fat/universal, both byte orders),
 * shebang (`#!`, also behind a UTF-8 BOM), or PE/DOS (`MZ`). `MZ` alone is
 * only treated as an executable when the bytes are not plain text, so a text
 * file that happens to begin with the letters "MZ" is not refused; a real PE
 * header always has binary bytes right after the magic.
 */
export function isExecutableSignature(head: Uint8Array): boolean {
  if (startsWith(head, [0x7f, 0x45, 0x4c, 0x46])) return true;
  if (MACHO_MAGICS.some((m) => startsWith(head, m))) return true;
  if (startsWith(head, [0x23, 0x21]) || startsWith(head, [0xef, 0xbb, 0xbf, 0x23, 0x21])) return true;
  if (startsWith(head, [0x4d, 0x5a])) {
    if (head.length >= 0x40) {
      const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
      const peOffset = view.getUint32(0x3c, true);
      if (startsWith(head, [0x50, 0x45, 0x00, 0x00], peOffset)) return true;
    }
    return !looksLikeText(head);
  }
  return false;
}

/**
 * Heuristic text check: no NUL, valid UTF-8 (a multi-byte sequence cut at the
 * end of the sample is tolerated), and few control characters.
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return true;
  if (bytes.includes(0)) return false;
  let decoded: string | null = null;
  for (let cut = 0; cut <= 3 && cut < bytes.length; cut++) {
    try {
      decoded = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, bytes.length - cut));
      break;
    } catch {
      /* try trimming a possibly truncated trailing sequence */
    }
  }
  if (decoded === null) return false;
  let control = 0;
  for (let i = 0; i < decoded.length; i++) {
    const c = decoded.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x1b) || c === 0x7f) control++;
  }
  return control / decoded.length < 0.02;
}

const EXT_TYPES: Record<string, DetectedType> = {};
function reg(exts: string, contentType: string, kind: FileKind): void {
  for (const e of exts.split(/\s+/).filter(Boolean)) EXT_TYPES[e] = { contentType, kind };
}
reg('png', 'image/png', 'image');
reg('jpg jpeg jpe jfif', 'image/jpeg', 'image');
reg('gif', 'image/gif', 'image');
reg('webp', 'image/webp', 'image');
reg('bmp', 'image/bmp', 'image');
reg('ico', 'image/x-icon', 'image');
reg('avif', 'image/avif', 'image');
reg('heic heif', 'image/heic', 'image');
reg('tif tiff', 'image/tiff', 'image');
reg('svg', 'image/svg+xml', 'svg');
reg('mp4 m4v', 'video/mp4', 'video');
reg('webm', 'video/webm', 'video');
reg('mov', 'video/quicktime', 'video');
reg('mkv', 'video/x-matroska', 'video');
reg('avi', 'video/x-msvideo', 'video');
reg('ogv', 'video/ogg', 'video');
reg('mp3', 'audio/mpeg', 'audio');
reg('wav', 'audio/wav', 'audio');
reg('ogg oga', 'audio/ogg', 'audio');
reg('opus', 'audio/opus', 'audio');
reg('flac', 'audio/flac', 'audio');
reg('m4a', 'audio/mp4', 'audio');
reg('aac', 'audio/aac', 'audio');
reg('pdf', 'application/pdf', 'pdf');
reg('html htm xhtml', 'text/html; charset=utf-8', 'html');
reg('stl', 'model/stl', 'model');
reg('gltf', 'model/gltf+json', 'model');
reg('glb', 'model/gltf-binary', 'model');
reg('obj', 'model/obj', 'model');
reg('ply', 'model/ply', 'model');
reg('3mf', 'model/3mf', 'model');
// Text, data and source files: all served as text/plain (never executed or rendered by the browser).
reg(
  'txt text md markdown rst adoc org log csv tsv json jsonl ndjson yaml yml toml ini cfg conf env properties xml ' +
    'ts tsx mts cts js jsx mjs cjs py pyi rb go rs java kt kts scala groovy c h cc cpp cxx hpp hh cs fs swift m mm ' +
    'php pl pm lua r jl dart zig nim ex exs erl hrl hs ml mli clj cljs elm sql graphql gql proto ' +
    'css scss sass less vue svelte astro sh bash zsh fish ps1 bat cmd mk cmake gradle dockerfile ' +
    'tex bib diff patch tf hcl nix lock gitignore editorconfig',
  TEXT_PLAIN,
  'text',
);

/** Map a MIME type (from a signature) to the viewer kind. */
export function kindFromMime(mime: string): FileKind {
  const m = mime.toLowerCase();
  if (m.startsWith('image/svg')) return 'svg';
  if (m.startsWith('image/')) return 'image';
  if (m.startsWith('video/')) return 'video';
  if (m.startsWith('audio/')) return 'audio';
  if (m === 'application/pdf') return 'pdf';
  if (m.startsWith('model/')) return 'model';
  if (m.startsWith('text/html')) return 'html';
  if (m.startsWith('text/')) return 'text';
  return 'binary';
}

function extensionOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** Extension-only lookup (no bytes). Undefined when the extension is unknown. */
export function typeFromExtension(filename: string): DetectedType | undefined {
  return EXT_TYPES[extensionOf(filename)];
}

/**
 * Detect what a file is. Order:
 * 1. signature via file-type (wins over the name: a PNG named `.txt` is `image/png`,
 *    a `.ts` with MPEG-TS sync bytes is `video/mp2t`); generic XML falls through so
 *    `.svg`/`.html` keep their specific type;
 * 2. extension map (STL/glTF/glb, HTML, SVG, media, PDF, text and source files → text/plain);
 *    a text extension whose bytes are clearly binary is served as octet-stream;
 * 3. text sniff → `text/plain`, otherwise `application/octet-stream`.
 */
export async function detectContentType(filename: string, head: Uint8Array): Promise<DetectedType> {
  if (head.length > 0) {
    const ft = await (await import('file-type')).fileTypeFromBuffer(head).catch(() => undefined);
    if (ft && ft.mime !== 'application/xml') {
      return { contentType: ft.mime, kind: kindFromMime(ft.mime) };
    }
  }
  const byExt = typeFromExtension(filename);
  if (byExt) {
    if ((byExt.kind === 'text' || byExt.kind === 'html' || byExt.kind === 'svg') && !looksLikeText(head)) {
      return { contentType: OCTET, kind: 'binary' };
    }
    return byExt;
  }
  return looksLikeText(head) ? { contentType: TEXT_PLAIN, kind: 'text' } : { contentType: OCTET, kind: 'binary' };
}
