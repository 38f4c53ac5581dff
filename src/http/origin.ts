/**
 * Who may drive the server from a browser (see docs/security.md, "Cross-site
 * requests, CORS and origins"). Every HTTP request and WebSocket upgrade goes
 * through one policy before any route or GraphQL runs:
 *
 * - Host (auth off only): a page on a DNS-rebound name has Origin == Host ==
 *   that name, so "same origin" proves nothing there. With auth off the Host
 *   header must be an IP literal, `localhost`/`*.localhost`, the configured
 *   HOST, or the host of an origin in CORS_ORIGINS.
 * - Origin: absent (curl, Node, a same-origin GET) passes; the server's own
 *   (its host equals the Host header) passes; one listed in CORS_ORIGINS passes
 *   and gets CORS headers naming it exactly; anything else, `null` included,
 *   answers 403 FORBIDDEN before anything runs.
 * - No Origin but `Sec-Fetch-Site: cross-site|same-site` on a non-navigation
 *   (an <img>/<script> embed, a form from a browser that strips Origin):
 *   refused too; following a link (`navigate`) is not.
 *
 * `useCsrfHeader` is the GraphQL-level second line: an operation sent with a
 * body type a cross-site form can send (or none, as GET) needs a header such
 * a form cannot send.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ErrorCode } from '../domain/error-codes.js';

export const CSRF_HEADER = 'x-graphql-yoga-csrf';

export interface OriginPolicyConfig {
  authEnabled: boolean;
  host: string;
  /** normalized origins, or ['*'] (auth mode only) */
  corsOrigins: string[];
}

export interface Refusal {
  status: number;
  message: string;
}

const ALLOWED_METHODS = 'GET, HEAD, POST, OPTIONS';
// mcp-protocol-version: what an MCP client sends after initializing (/mcp, src/protocols/mcp/).
const ALLOWED_HEADERS = `authorization, content-type, accept, ${CSRF_HEADER}, mcp-protocol-version`;

/** The host part of a Host header (`[::1]:4000` → `::1`), lowercase. */
function hostnameOf(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']') > 0 ? host.indexOf(']') : undefined);
  const colon = host.lastIndexOf(':');
  return colon > 0 && host.indexOf(':') === colon ? host.slice(0, colon) : host;
}

/** Same origin: the Origin's host[:port] is the Host header (any scheme: a TLS proxy in front is fine). */
function isSameOrigin(origin: URL, hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  try {
    return new URL(`${origin.protocol}//${hostHeader}`).host === origin.host;
  } catch {
    return false;
  }
}

export function createOriginPolicy(config: OriginPolicyConfig) {
  const anyOrigin = config.corsOrigins.includes('*');
  if (anyOrigin && !config.authEnabled) {
    throw new Error(
      'CORS_ORIGINS=* needs AUTH_ENABLED=true: in local mode it would let every web page drive this server',
    );
  }
  const listed = new Set(config.corsOrigins.filter((o) => o !== '*'));
  const trustedHosts = new Set<string>([
    config.host.toLowerCase(),
    ...[...listed].map((o) => new URL(o).hostname.replace(/^\[|\]$/g, '')),
  ]);

  function hostAllowed(hostHeader: string | undefined): boolean {
    if (config.authEnabled || !hostHeader) return true;
    const name = hostnameOf(hostHeader);
    return isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost') || trustedHosts.has(name);
  }

  /** null = same origin or no Origin; a string = an allowed foreign origin (gets CORS headers); a Refusal otherwise. */
  function classify(req: IncomingMessage): { refusal: Refusal } | { corsOrigin: string | null } {
    if (!hostAllowed(req.headers.host)) {
      return {
        refusal: {
          status: 403,
          message:
            `Host "${clip(req.headers.host)}"` +
            ` is not accepted with auth disabled (DNS rebinding guard): ` +
            `use localhost or an IP address, or list the origin in CORS_ORIGINS`,
        },
      };
    }
    const origin = req.headers.origin;
    if (origin === undefined) {
      const site = req.headers['sec-fetch-site'];
      const mode = req.headers['sec-fetch-mode'];
      if ((site === 'cross-site' || site === 'same-site') && mode !== 'navigate' && mode !== 'websocket') {
        return { refusal: { status: 403, message: 'Cross-site request refused' } };
      }
      return { corsOrigin: null };
    }
    let url: URL | null = null;
    try {
      url = new URL(origin);
    } catch {
      // `null` and garbage: never trusted
    }
    if (url && (url.protocol === 'http:' || url.protocol === 'https:')) {
      if (isSameOrigin(url, req.headers.host)) return { corsOrigin: null };
      if (listed.has(url.origin)) return { corsOrigin: url.origin };
      if (anyOrigin) return { corsOrigin: '*' };
    }
    return {
      refusal: {
        status: 403,
        message: `Cross-origin request from ${clip(origin)} refused: list the origin in CORS_ORIGINS to allow it`,
      },
    };
  }

  function corsHeaders(origin: string): Record<string, string> {
    return origin === '*'
      ? { 'access-control-allow-origin': '*' }
      : { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' };
  }

  return {
    /**
     * For every HTTP request before routing: answers refusals (403) and CORS
     * preflights itself (returns true); otherwise sets the CORS headers an
     * allowed foreign origin needs and returns false.
     */
    handle(req: IncomingMessage, res: ServerResponse): boolean {
      if (pathOf(req) === '/healthz' || pathOf(req) === '/readyz') return false;
      const verdict = classify(req);
      if ('refusal' in verdict) {
        refuse(res, verdict.refusal);
        return true;
      }
      const { corsOrigin } = verdict;
      if (!corsOrigin) return false;
      const headers = corsHeaders(corsOrigin);
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
        res.writeHead(204, {
          ...headers,
          'access-control-allow-methods': ALLOWED_METHODS,
          'access-control-allow-headers': ALLOWED_HEADERS,
          'access-control-max-age': '600',
          'content-length': '0',
        });
        res.end();
        return true;
      }
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      return false;
    },
    /** The same rules for a WebSocket upgrade (ws `verifyClient`, callback form). */
    verifyClient(info: { req: IncomingMessage }, done: (ok: boolean, status?: number, message?: string) => void): void {
      const verdict = classify(info.req);
      if ('refusal' in verdict) done(false, verdict.refusal.status, verdict.refusal.message);
      else done(true);
    },
  };
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const end = url.search(/[?#]/);
  return end < 0 ? url : url.slice(0, end);
}

/** Header text echoed in an error, bounded. */
const clip = (value: string | undefined) => (value ?? '').slice(0, 100);

function refuse(res: ServerResponse, refusal: Refusal): void {
  const body = JSON.stringify({ errors: [{ message: refusal.message, extensions: { code: ErrorCode.FORBIDDEN } }] });
  res.writeHead(refusal.status, {
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

const SIMPLE_CONTENT_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

/**
 * The request is one a cross-site form cannot send: a non-simple Content-Type, the CSRF header or an Authorization
 * header. `header` reads a request header by its lowercase name (GraphQL's door and POST /api/chat share this).
 */
export function passesCsrfCheck(header: (name: string) => string | undefined): boolean {
  return csrfRefusal(header) === null;
}

/**
 * An operation needs a request a cross-site page cannot make without a
 * (failing) CORS preflight: a non-simple Content-Type (application/json), or,
 * for GET and multipart, the `x-graphql-yoga-csrf` header (any value) or an
 * Authorization header. Content-Type itself does not count: every POST has one.
 */
export function useCsrfHeader(): Plugin {
  return {
    onRequestParse({ request }) {
      const refusal = csrfRefusal((name) => request.headers.get(name));
      if (refusal) {
        throw new GraphQLError(refusal, {
          extensions: { code: ErrorCode.CSRF_HEADER_REQUIRED, http: { status: 403 } },
        });
      }
    },
  };
}

/**
 * The rule of `useCsrfHeader` for any door (GraphQL, /mcp): the refusal's message when a request lacks what a
 * cross-site form cannot send, else null. `header` reads a request header by its lowercase name.
 */
export function csrfRefusal(header: (name: string) => string | null | undefined): string | null {
  const essence = header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (essence && !SIMPLE_CONTENT_TYPES.has(essence)) return null;
  if (header(CSRF_HEADER) != null || header('authorization') != null) return null;
  return (
    `Missing CSRF header: send Content-Type: application/json, or the ${CSRF_HEADER} ` +
    `header (any value) with GET and multipart requests`
  );
}

type Lookup = (host: string, options: { all: true }) => Promise<{ address: string; family: number }[]>;

function isLoopbackAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.split('.')[0] === '127';
  return address === '::1' || address === '0:0:0:0:0:0:0:1';
}

/**
 * Whether listening on `host` reaches only this machine: every address it
 * resolves to is loopback (127.0.0.0/8, ::1). `0.0.0.0`, `::` and a name with
 * any non-loopback address are not. A name that does not resolve throws.
 */
export async function isLoopbackHost(host: string, lookup: Lookup = dnsLookup as Lookup): Promise<boolean> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true });
  return addresses.length > 0 && addresses.every(({ address }) => isLoopbackAddress(address));
}
