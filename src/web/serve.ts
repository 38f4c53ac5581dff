/**
 * Serves the built web client (web/dist) at `/`: the same process as the API,
 * no second server. Hashed files under /assets/ are immutable; index.html is
 * revalidated every time so a deploy shows at once. Every response carries
 * `Referrer-Policy: no-referrer` (share links hold a capability token in the
 * URL) and a CSP that allows nothing but this origin.
 *
 *   const web = createStaticHandler(fileURLToPath(new URL('../../web/dist', import.meta.url)));
 *   startServer(app, { routes: [web, ...] });   // returns false for what it does not own
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';

const gzip = promisify(gzipCallback);

/**
 * `blob:` sources are the page's own: content_publish cards fetch a file with
 * the page's credentials and show it from a blob URL (web/src/cards.ts):
 * images, video/audio, and frames (HTML and SVG in an empty sandbox, PDF).
 * `data:` for connect-src lets three.js read a glTF's embedded buffers.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "connect-src 'self' ws: wss: data:",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "frame-src 'self' blob:",
  "style-src 'self'",
  "script-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'referrer-policy': 'no-referrer',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt', '.webmanifest']);

/** Paths the API server owns: never answered here, whatever dist holds. */
const NOT_OURS = /^\/(graphql|healthz|readyz|sessions|shared)(\/|$)/;
/**
 * Vite's `[name]-[hash].ext` under assets/ (`.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+`),
 * checked by hand: as a regex the request path's `-` runs make it quadratic.
 */
export function isHashedAsset(path: string): boolean {
  if (!path.startsWith('/assets/')) return false;
  const rest = path.slice('/assets/'.length);
  const dot = rest.lastIndexOf('.');
  if (dot < 0 || !/^[a-z0-9]+$/.test(rest.slice(dot + 1))) return false;
  const stem = rest.slice(0, dot);
  let run = stem.length;
  while (run > 0 && /[A-Za-z0-9_-]/.test(stem[run - 1]!)) run--;
  // The first dash of the trailing run (with a name before it) starts the longest possible hash.
  for (let i = Math.max(run, 1); i < stem.length; i++) if (stem[i] === '-') return stem.length - i - 1 >= 8;
  return false;
}

interface Entry {
  mtimeMs: number;
  size: number;
  raw: Buffer;
  gzipped: Buffer | null;
  etag: string;
  /** for HTML with inline scripts: the CSP with each script's sha256 added to script-src */
  csp: string | null;
}

/** The non-empty inline `<script>` bodies of an HTML document, as written. */
export function inlineScripts(html: string): string[] {
  const lower = html.toLowerCase();
  const bodies: string[] = [];
  for (let at = lower.indexOf('<script'); at >= 0; at = lower.indexOf('<script', at + 1)) {
    const open = lower.indexOf('>', at);
    if (open < 0) break;
    const close = lower.indexOf('</script>', open);
    if (close < 0) break;
    if (/\bsrc=/.test(lower.slice(at + '<script'.length, open))) continue;
    bodies.push(html.slice(open + 1, close));
    at = close;
  }
  return bodies.filter((code) => code.trim().length > 0);
}

/**
 * The CSP for an HTML document: the base policy plus a `'sha256-…'` source
 * for each inline `<script>` it holds (the build's boot script), so exactly
 * those scripts run and no other inline code can.
 */
export function contentSecurityPolicyFor(html: string): string | null {
  const hashes = inlineScripts(html).map(
    (code) => `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`,
  );
  if (!hashes.length) return null;
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`);
}

export type StaticHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

export interface StaticOptions {
  /** `<meta name>` → content, added at the top of every HTML page's `<head>` (settings the client reads at boot) */
  meta?: Record<string, string>;
}

export function createStaticHandler(distDir: string, options: StaticOptions = {}): StaticHandler {
  const meta = Object.entries(options.meta ?? {})
    .map(([name, content]) => `<meta name="${escapeAttribute(name)}" content="${escapeAttribute(content)}">`)
    .join('');
  const root = resolve(distDir);
  const cache = new Map<string, Entry>();

  async function load(file: string, immutable: boolean): Promise<Entry | null> {
    // A hashed file never changes: once cached it is answered without touching
    // the disk, so it is not queued behind a database query in between.
    const hit = immutable ? cache.get(file) : undefined;
    if (hit) return hit;
    let info;
    try {
      info = await stat(file);
    } catch {
      return null;
    }
    if (!info.isFile()) return null;
    const cached = cache.get(file);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached;
    const read = await readFile(file);
    const raw =
      meta && extname(file) === '.html' ? Buffer.from(read.toString('utf8').replace(/<head>/i, `<head>${meta}`)) : read;
    // Compressed once per build, not per request.
    const gzipped = COMPRESSIBLE.has(extname(file)) && raw.length > 512 ? await gzip(raw, { level: 9 }) : null;
    const etag = `"${createHash('sha1').update(raw).digest('base64url').slice(0, 20)}"`;
    const csp = extname(file) === '.html' ? contentSecurityPolicyFor(raw.toString('utf8')) : null;
    const entry = { mtimeMs: info.mtimeMs, size: info.size, raw, gzipped, etag, csp };
    cache.set(file, entry);
    return entry;
  }

  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      return false;
    }
    if (NOT_OURS.test(pathname) || pathname.includes('\0')) return false;
    const relative = pathname === '/' ? '/index.html' : pathname;
    const file = resolve(root, `.${relative}`);
    if (file !== root && !file.startsWith(root + sep)) return false;
    if (relative.split('/').some((part) => part.startsWith('.') && part !== '')) return false;

    const entry = await load(file, isHashedAsset(relative));
    if (!entry) {
      if (relative !== '/index.html') return false;
      send(
        res,
        503,
        { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
        'The web client is not built: run `npm run build:web`.\n',
        req.method === 'HEAD',
      );
      return true;
    }

    const headers: Record<string, string> = {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': isHashedAsset(relative) ? 'public, max-age=31536000, immutable' : 'no-cache',
      etag: entry.etag,
      ...(entry.csp ? { 'content-security-policy': entry.csp } : {}),
    };
    if (entry.gzipped) headers.vary = 'Accept-Encoding';
    const inm = req.headers['if-none-match'];
    if (
      inm &&
      inm
        .split(',')
        .map((tag) => tag.trim())
        .some((tag) => tag === entry.etag || tag === `W/${entry.etag}`)
    ) {
      send(res, 304, headers, null, true);
      return true;
    }
    const useGzip = entry.gzipped !== null && acceptsGzip(req.headers['accept-encoding']);
    if (useGzip) headers['content-encoding'] = 'gzip';
    const body = useGzip ? entry.gzipped! : entry.raw;
    headers['content-length'] = String(body.length);
    send(res, 200, headers, body, req.method === 'HEAD');
    return true;
  };
}

function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Buffer | string | null,
  headOnly: boolean,
): void {
  res.writeHead(status, { ...SECURITY_HEADERS, ...headers });
  res.end(headOnly ? undefined : (body ?? undefined));
}

/** `gzip` listed with a non-zero q (or `*`), per RFC 9110. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  let star = false;
  for (const part of value.toLowerCase().split(',')) {
    const [coding, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (coding === 'gzip' || coding === 'x-gzip') return weight > 0;
    if (coding === '*') star = weight > 0;
  }
  return star;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
