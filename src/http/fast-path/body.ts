/** The JSON fast path's request body: when it may be read, reading it, and the plain parameters it takes. */
import type { IncomingMessage } from 'node:http';
import type { PersistedMode } from '../persisted.js';

/** Bodies above this go through Yoga (its limits and messages apply); a query document is far smaller. */
const MAX_FAST_BODY = 1 << 20;

export interface Params {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** The declared body length when this path may read the body (Content-Length, nothing chunked, not too large). */
export function declaredLength(req: IncomingMessage): number | null {
  const declared = req.headers['content-length'];
  if (declared === undefined || req.headers['transfer-encoding'] !== undefined || !/^\d+$/.test(declared)) return null;
  const length = Number(declared);
  return length > 0 && length <= MAX_FAST_BODY ? length : null;
}

/**
 * The body: at once when Node already holds all of it (the usual small request, read with its headers), else as it
 * arrives, with the idle rule of src/http/limits.ts (no byte for `idleMs` while waiting: 'timeout'). 'gone' when the
 * client went away before sending it all.
 */
export function readBody(
  req: IncomingMessage,
  length: number,
  idleMs: number,
): Buffer | Promise<Buffer | 'timeout' | 'gone'> {
  const chunks: Buffer[] = [];
  let size = 0;
  if (!req.readableFlowing && req.readableLength >= length) {
    for (let chunk = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) {
      chunks.push(chunk);
      size += chunk.length;
    }
    if (size === length) return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
  }
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const done = (answer: Buffer | 'timeout' | 'gone') => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onClose);
      resolve(answer);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => done('timeout'), idleMs);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      arm();
    };
    const onEnd = () => done(size === length ? Buffer.concat(chunks, size) : 'gone');
    const onGone = () => done('gone');
    const onClose = () => {
      if (!req.complete) done('gone');
    };
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onClose);
    arm();
  });
}

const PARAM_KEYS = new Set(['query', 'variables', 'operationName', 'extensions']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request's GraphQL parameters when they are the plain shape this path takes. */
export function plainParams(body: unknown, persisted: PersistedMode): Params | null {
  if (!isPlainObject(body)) return null;
  for (const key in body) if (!PARAM_KEYS.has(key)) return null;
  const { query, variables, operationName, extensions } = body;
  if (typeof query !== 'string') return null;
  if (variables !== undefined && variables !== null && !isPlainObject(variables)) return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  if (extensions !== undefined && (persisted !== 'off' || (extensions !== null && !isPlainObject(extensions))))
    return null;
  return body as unknown as Params;
}
