/**
 * `/mcp`: the route in front of the MCP server (src/protocols/mcp/server.ts).
 * It applies what every door applies before the SDK is reached: the origin
 * policy has already run for every request (src/http/origin.ts); here the
 * CSRF rule GraphQL applies, and the credentials, resolved by the same
 * `Auth.viewerFor` the GraphQL context uses. Stateless mode: POST only; GET
 * (the server-to-client stream) and DELETE (ending a session) answer 405.
 * The SDK is imported on the first POST only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../../app.js';
import type { Viewer } from '../../domain/policy.js';
import { csrfRefusal } from '../../http/origin.js';
import type { RouteHandler } from '../../server.js';
import { Unauthenticated } from '../../store/errors.js';

export const MCP_PATH = '/mcp';

type McpModule = typeof import('./server.js');
let loading: Promise<McpModule> | null = null;

/** Whether the MCP server module (and with it the SDK) has been loaded in this process. */
export function mcpLoaded(): boolean {
  return loading !== null;
}

/** A JSON-RPC error answer outside the SDK (before it is loaded, or for what it never sees). */
function rpcError(res: ServerResponse, status: number, code: number, message: string, headers = {}) {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const end = url.search(/[?#]/);
  return end < 0 ? url : url.slice(0, end);
}

export const mcpRoute: RouteHandler = async (req, res, app: App) => {
  if (pathOf(req) !== MCP_PATH) return false;
  if (req.method !== 'POST') {
    rpcError(res, 405, -32000, 'Method not allowed: this server is stateless (POST only)', { allow: 'POST' });
    return true;
  }
  const refusal = csrfRefusal((name) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  });
  if (refusal) {
    rpcError(res, 403, -32000, `CSRF_HEADER_REQUIRED: ${refusal}`);
    return true;
  }
  const authorization = req.headers.authorization ?? null;
  let viewer: Viewer | null;
  try {
    viewer = await app.auth.viewerFor(authorization);
  } catch (error) {
    if (!(error instanceof Unauthenticated)) throw error;
    rpcError(res, 401, -32001, `UNAUTHENTICATED: ${error.message}`, { 'www-authenticate': 'Bearer' });
    return true;
  }
  if (!viewer) {
    rpcError(res, 401, -32001, 'UNAUTHENTICATED: Missing or invalid credentials', { 'www-authenticate': 'Bearer' });
    return true;
  }
  // The body is read here, under the limits every body has (REQUEST_BODY_TIMEOUT_MS idle, a size cap).
  const body = await readJson(req, app.config.requestBodyTimeoutMs);
  if ('refusal' in body) {
    const [status, code, message] = body.refusal;
    rpcError(res, status, code, message, status === 408 ? { connection: 'close' } : {});
    return true;
  }
  loading ??= import('./server.js');
  const mcp = await loading;
  const token = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? '';
  await mcp.handleMcpRequest(app, mcp.authInfoFor(viewer, token), req, res, body.json);
  return true;
};

/** The MCP SDK's own cap on a request body (4 MB). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

type Refusal = [status: number, code: number, message: string];

/** The request's JSON body; a body that stalls for `idleMs`, is too large or is not JSON is refused. */
function readJson(req: IncomingMessage, idleMs: number): Promise<{ json: unknown } | { refusal: Refusal }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = (answer: { json: unknown } | { refusal: Refusal }) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onGone);
      resolve(answer);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => done({ refusal: [408, -32000, 'REQUEST_TIMEOUT: the request body stopped arriving'] }),
        idleMs,
      );
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        done({ refusal: [413, -32000, `PAYLOAD_TOO_LARGE: the body is over ${MAX_BODY_BYTES} bytes`] });
        return;
      }
      chunks.push(chunk);
      arm();
    };
    const onEnd = () => {
      try {
        done({ json: JSON.parse(Buffer.concat(chunks, size).toString('utf8')) as unknown });
      } catch {
        done({ refusal: [400, -32700, 'Parse error: Invalid JSON'] });
      }
    };
    const onGone = () => done({ refusal: [400, -32000, 'The request body was cut short'] });
    req.on('data', onData).on('end', onEnd).on('error', onGone);
    arm();
  });
}
