/** Non-GraphQL HTTP routes of the service (file downloads, the web client). */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { decodeGlobalID } from '@pothos/plugin-relay';
import { fileURLToPath } from 'node:url';
import type { App } from './app.js';
import { isPlainName } from './files/names.js';
import type { OpenedFile } from './files/store.js';
import { createStaticHandler } from './web/serve.js';
import type { RouteHandler } from './server.js';
import { Unauthenticated } from './store/errors.js';
import { aiSdkChatRoute } from './protocols/ai-sdk/route.js';
import { mcpRoute } from './protocols/mcp/route.js';
import { agUiRoute } from './protocols/ag-ui/route.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DOWNLOAD = /^\/sessions\/([^/?#]+)\/files\/([^/?#]+)$/;
const SHARED_DOWNLOAD = /^\/shared\/files\/([^/?#]+)$/;
/** The share token travels in a header, like an API key: never in a request line, access log or Referer. */
export const SHARE_TOKEN_HEADER = 'x-share-token';

/** A session id from the path: the raw UUID, or a Session global id. */
function sessionIdFrom(segment: string): string | null {
  if (UUID.test(segment)) return segment.toLowerCase();
  try {
    const { typename, id } = decodeGlobalID(segment);
    return typename === 'Session' && UUID.test(id) ? id.toLowerCase() : null;
  } catch {
    return null;
  }
}

function send(
  res: import('node:http').ServerResponse,
  status: number,
  text: string,
  extra: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', ...extra });
  res.end(text);
}

/**
 * `GET /sessions/{id}/files/{filename}` with the caller's credentials
 * (Authorization header). Missing file, missing session and someone else's
 * session all answer the same 404.
 */
export const fileDownloadRoute: RouteHandler = async (req, res, app) => {
  const url = new URL(req.url ?? '/', 'http://local');
  const match = DOWNLOAD.exec(url.pathname);
  if (!match) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'Method not allowed', { allow: 'GET, HEAD' });
    return true;
  }
  let viewer;
  try {
    viewer = await app.auth.viewerFor(req.headers.authorization ?? null);
  } catch (error) {
    if (error instanceof Unauthenticated) {
      send(res, 401, 'Missing or invalid credentials', { 'www-authenticate': 'Bearer' });
      return true;
    }
    throw error;
  }
  if (!viewer) {
    send(res, 401, 'Missing or invalid credentials', { 'www-authenticate': 'Bearer' });
    return true;
  }
  let filename: string;
  let segment: string;
  try {
    filename = decodeURIComponent(match[2]!);
    segment = decodeURIComponent(match[1]!);
  } catch {
    send(res, 404, 'Not found');
    return true;
  }
  const sessionId = sessionIdFrom(segment);
  const session = sessionId ? await app.sessions.findReadable(viewer, sessionId) : null;
  const opened = session ? await app.files.open(session.id, filename) : null;
  if (!opened) {
    send(res, 404, 'Not found');
    return true;
  }
  await serveFile(req, res, opened);
  return true;
};

/**
 * Streams an opened session file. The type comes from the file's signature
 * and extension (a PNG named .txt is served as image/png), never sniffed by
 * the browser; HTML and SVG, which could script against this origin, are
 * served as attachments inside a CSP sandbox.
 */
async function serveFile(
  req: import('node:http').IncomingMessage,
  res: import('node:http').ServerResponse,
  opened: OpenedFile,
) {
  const active = opened.kind === 'html' || opened.kind === 'svg';
  const disposition = `${active ? 'attachment' : 'inline'}; filename*=UTF-8''${encodeURIComponent(opened.filename)}`;
  res.writeHead(200, {
    'content-type': opened.contentType,
    'content-length': String(opened.size),
    'content-disposition': disposition,
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
    'referrer-policy': 'no-referrer',
    // No cross-origin <img>/<script>/<video> embedding of a session's files (CORS fetches from CORS_ORIGINS are
    // unaffected).
    'cross-origin-resource-policy': 'same-origin',
    ...(active ? { 'content-security-policy': 'sandbox' } : {}),
  });
  if (req.method === 'HEAD') {
    await opened.stream.cancel().catch(() => undefined);
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(opened.stream as never), res).catch(() => undefined);
}

/**
 * `GET /shared/files/{filename}` with the share token in `X-Share-Token`:
 * the share-scoped URL that replaces `/sessions/{id}/files/{filename}` in
 * everything a link holder receives. Only files the shared conversation
 * published (a `content_publish` card in its display history) are served,
 * and only while the link resolves (revoking it, its expiry or deleting the
 * session ends it; a snapshot link serves only what was published before it
 * was taken); an unknown token, an unpublished or missing file all answer the same 404.
 */
export const sharedFileRoute: RouteHandler = async (req, res, app) => {
  const url = new URL(req.url ?? '/', 'http://local');
  const match = SHARED_DOWNLOAD.exec(url.pathname);
  if (!match) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'Method not allowed', { allow: 'GET, HEAD' });
    return true;
  }
  let filename: string;
  try {
    filename = decodeURIComponent(match[1]!);
  } catch {
    send(res, 404, 'Not found');
    return true;
  }
  // A name no stored file can have (NUL, separators, a leading dot) never reaches the database.
  if (!isPlainName(filename)) {
    send(res, 404, 'Not found');
    return true;
  }
  const header = req.headers[SHARE_TOKEN_HEADER];
  const token = typeof header === 'string' ? header : '';
  const shared = token ? await app.shares.resolve(token) : null;
  const published = shared ? await app.shares.isPublished(shared, filename) : false;
  const opened = published ? await app.files.open(shared!.session.id, filename) : null;
  if (!opened) {
    send(res, 404, 'Not found');
    return true;
  }
  await serveFile(req, res, opened);
  return true;
};
const WEB_DIST = fileURLToPath(new URL('../web/dist', import.meta.url));

/** `GET /metrics` with METRICS=true (Prometheus text format); with auth on, an admin's key. Else not found. */
export const metricsRoute: RouteHandler = async (req, res, app) => {
  if (!app.metrics || (req.url ?? '').split('?')[0] !== '/metrics') return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'Method not allowed', { allow: 'GET, HEAD' });
    return true;
  }
  if (app.config.authEnabled) {
    const viewer = await app.auth.viewerFor(req.headers.authorization ?? null).catch(() => null);
    if (!viewer) {
      send(res, 401, 'Missing or invalid credentials', { 'www-authenticate': 'Bearer' });
      return true;
    }
    if (!viewer.isAdmin) {
      send(res, 403, 'Metrics need an admin key');
      return true;
    }
  }
  const body = await app.metrics.registry.metrics();
  res.writeHead(200, {
    'content-type': app.metrics.registry.contentType,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
};

export function appRoutes(app: App): RouteHandler[] {
  // The client sends persisted ids (web/src/api.ts) only to a server that accepts them.
  const mode = app.config.persistedOperations;
  const web = createStaticHandler(WEB_DIST, mode === 'off' ? {} : { meta: { 'persisted-operations': mode } });
  // The web client is last: it claims only `/` and its own assets.
  return [
    metricsRoute,
    fileDownloadRoute,
    sharedFileRoute,
    aiSdkChatRoute,
    agUiRoute,
    mcpRoute,
    (req, res) => web(req, res),
  ];
}
