/**
 * GraphQL multipart requests (jaydenseric's spec: `operations`, `map`, files)
 * parsed as a stream, replacing Yoga's own multipart parser.
 *
 * Why: Yoga calls `request.formData()`, and @whatwg-node/node-fetch's
 * formData() collects every file part into an in-memory array of chunks
 * before the resolver runs (its `formDataLimits.fileSize` only caps that
 * buffer). A 200 MB upload would cost 200 MB of heap per request. Here each
 * file part is streamed to a spool file on disk as it arrives (like
 * graphql-upload's fs-capacitor), counted against the per-file limit
 * (over → PAYLOAD_TOO_LARGE at once, spool deleted, nothing reaches the
 * session directory), and the resolver gets a File-like object whose
 * stream() reads the spool. Spool files are removed when the response is
 * sent. Memory stays flat whatever the file size (see docs/performance-share.md).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Busboy } from '@fastify/busboy';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { PayloadTooLargeError } from './errors.js';
import { ErrorCode } from '../domain/error-codes.js';

export interface StreamingUploadsOptions {
  /** directory for spool files (created 0700) */
  spoolDir: string;
  /** per-file limit in bytes */
  maxBytes: number;
  /**
   * Limit of the one file of an `importSessionFile` request (its `input.file`, up to MAX_IMPORT_CHARS): a large export
   * arrives as a spooled file the import's worker thread reads, never as a string on the event loop. Unset: maxBytes.
   */
  maxImportBytes?: number;
  /** files per request */
  maxFiles?: number;
  /** largest non-file field (the `operations` JSON) in bytes */
  maxFieldBytes?: number;
  /**
   * Body limit of every other request (JSON, GET-less POSTs). Yoga's own
   * `maxRequestBodySize` (25 MB by default) must be turned off for uploads
   * to reach `maxBytes`; this plugin enforces the limit instead.
   */
  maxOtherBodyBytes?: number;
}

/** Default body limit of non-multipart requests: an importSession of MAX_IMPORT_CHARS (64 MB) plus envelope. */
export const DEFAULT_MAX_OTHER_BODY_BYTES = 65 * 1024 * 1024;

const bodyTooLarge = () =>
  new GraphQLError('Request body too large', {
    extensions: { code: ErrorCode.PAYLOAD_TOO_LARGE, http: { status: 413 } },
  });

/** Yoga's limitRequestBodySize, for the requests this plugin does not parse itself. */
function limitBody(
  request: Request,
  limit: number,
  fetchAPI: { Request: typeof Request; TransformStream: typeof TransformStream },
): Request {
  const body = request.body;
  if (!body) return request;
  const Transform = body instanceof ReadableStream ? globalThis.TransformStream : fetchAPI.TransformStream;
  let read = 0;
  const limited = body.pipeThrough(
    new Transform<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > limit) return controller.error(bodyTooLarge());
        controller.enqueue(chunk);
      },
    }),
  );
  return new fetchAPI.Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    body: limited,
    duplex: 'half',
  } as RequestInit);
}

/** A spooled upload: what resolvers receive for a `File` argument. */
export class SpooledFile {
  readonly lastModified = Date.now();
  readonly webkitRelativePath = '';

  constructor(
    readonly name: string,
    readonly type: string,
    readonly size: number,
    readonly spoolPath: string,
  ) {}

  stream(): ReadableStream<Uint8Array> {
    return Readable.toWeb(createReadStream(this.spoolPath)) as unknown as ReadableStream<Uint8Array>;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const buf = await fs.readFile(this.spoolPath);
    return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.arrayBuffer());
  }

  async text(): Promise<string> {
    return fs.readFile(this.spoolPath, 'utf8');
  }
}

const badRequest = (message: string) =>
  new GraphQLError(message, { extensions: { code: ErrorCode.BAD_USER_INPUT, http: { status: 400 } } });

function tooLarge(maxBytes: number, filename: string) {
  const e = new PayloadTooLargeError(maxBytes, filename);
  return new GraphQLError(e.message, { extensions: { code: ErrorCode.PAYLOAD_TOO_LARGE, http: { status: 413 } } });
}

function setPath(target: unknown, keyPath: string, value: unknown): boolean {
  const keys = keyPath.split('.');
  let current = target as Record<string, unknown>;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return false;
    if (i === keys.length - 1) {
      current[key] = value;
      return true;
    }
    const next = current[key];
    if (typeof next !== 'object' || next === null) return false;
    current = next as Record<string, unknown>;
  }
  return false;
}

function nodeBody(request: Request): Readable | null {
  const body = request.body as (ReadableStream<Uint8Array> & { readable?: unknown }) | null;
  if (!body) return null;
  if (body.readable instanceof Readable) return body.readable;
  return Readable.fromWeb(body as never);
}

/** Parse one multipart request, spooling files; `spooled` receives every spool path created. */
export async function parseMultipartOperations(
  request: Request,
  opts: StreamingUploadsOptions,
  spooled: string[],
): Promise<unknown> {
  const contentType = request.headers.get('content-type') ?? '';
  const body = nodeBody(request);
  if (!body) throw badRequest('Multipart request has no body');
  await fs.mkdir(opts.spoolDir, { recursive: true, mode: 0o700 });
  const maxFiles = opts.maxFiles ?? 20;
  const fields = new Map<string, string>();
  const files = new Map<string, SpooledFile>();
  const writes: Promise<void>[] = [];
  const open = new Set<import('node:fs').WriteStream>();
  // One file of a request whose operation is an importSessionFile may reach maxImportBytes (the spec sends `operations`
  // before the files); every other file keeps maxBytes, and the import checks its own limit again.
  const importBytes = Math.max(opts.maxBytes, opts.maxImportBytes ?? 0);
  let importSlot = importBytes > opts.maxBytes;
  const limitOf = () => {
    if (!importSlot || !/\bimportSessionFile\b/.test(fields.get('operations') ?? '')) return opts.maxBytes;
    importSlot = false;
    return importBytes;
  };

  await new Promise<void>((resolve, reject) => {
    let settled = false;
    let failed = false;
    let bb: InstanceType<typeof Busboy>;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      failed = error !== undefined;
      body.unpipe(bb);
      body.off('error', onBodyError);
      if (error) {
        for (const ws of open) ws.destroy();
        // Drain (not cancel) the rest of the body: closing a socket with unread
        // data resets the connection before the client can read the error.
        body.resume();
      }
      if (error) reject(error);
      else resolve();
    };
    try {
      bb = new Busboy({
        headers: { 'content-type': contentType },
        preservePath: true,
        limits: {
          fileSize: importBytes,
          files: maxFiles,
          fields: 16,
          parts: maxFiles + 16,
          fieldSize: opts.maxFieldBytes ?? 65 * 1024 * 1024,
        },
      });
    } catch (e) {
      reject(badRequest(`Malformed multipart request: ${(e as Error).message}`));
      return;
    }
    bb.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) return finish(badRequest(`Multipart field "${name}" is too large`));
      fields.set(name, value);
    });
    bb.on('file', (name, stream, filename, _enc, mimeType) => {
      // A part the parser still had buffered when the request failed: nothing is spooled any more.
      if (settled) return void stream.resume();
      const spool = path.join(opts.spoolDir, `${SPOOL_OWNER}.${randomUUID()}.part`);
      spooled.push(spool);
      let size = 0;
      const limit = limitOf();
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) finish(tooLarge(limit, filename || name));
      });
      const ws = createWriteStream(spool, { flags: 'wx', mode: 0o600 });
      open.add(ws);
      // The file is created by an open on the thread pool: a request that fails (a hang-up, a cut body) can be
      // cleaned up before the file exists, so a failed request removes it again once its stream has closed.
      ws.once('close', () => {
        if (failed) void fs.rm(spool, { force: true }).catch(() => undefined);
      });
      stream.on('limit', () => finish(tooLarge(limit, filename || name)));
      const write = pipeline(stream, ws).then(
        () => {
          open.delete(ws);
          if (!stream.truncated) files.set(name, new SpooledFile(filename || 'upload', mimeType, size, spool));
        },
        (e: unknown) => {
          open.delete(ws);
          finish(badRequest(`Upload of "${filename}" failed: ${(e as Error).message}`));
        },
      );
      writes.push(write);
    });
    bb.on('filesLimit', () => finish(badRequest(`At most ${maxFiles} files per request`)));
    bb.on('fieldsLimit', () => finish(badRequest('Too many multipart fields')));
    bb.on('partsLimit', () => finish(badRequest('Too many multipart parts')));
    bb.on('error', (e: Error) =>
      finish(badRequest(`The multipart body is malformed or was truncated before it completed: ${e.message}`)),
    );
    bb.on('finish', () => {
      void Promise.all(writes).then(() => finish());
    });
    // A GraphQLError is the body's own verdict (REQUEST_TIMEOUT from the idle guard): kept as it is.
    const onBodyError = (e: Error) =>
      finish(e instanceof GraphQLError ? e : badRequest(`The request body was interrupted: ${e.message}`));
    body.on('error', onBodyError);
    body.pipe(bb);
  });

  const operationsText = fields.get('operations');
  if (operationsText === undefined) throw badRequest('Missing multipart field "operations"');
  let operations: unknown;
  try {
    operations = JSON.parse(operationsText);
  } catch {
    throw badRequest('Multipart field "operations" must be valid JSON');
  }
  const mapText = fields.get('map');
  if (mapText !== undefined) {
    let map: unknown;
    try {
      map = JSON.parse(mapText);
    } catch {
      throw badRequest('Multipart field "map" must be valid JSON');
    }
    if (!map || typeof map !== 'object' || Array.isArray(map))
      throw badRequest('Multipart field "map" must be an object');
    for (const [key, paths] of Object.entries(map as Record<string, unknown>)) {
      const file = files.get(key);
      if (!file)
        throw badRequest(`Multipart file "${key}" named in "map" was not received (the body may be truncated)`);
      if (!Array.isArray(paths)) throw badRequest(`"map" entry "${key}" must be an array of paths`);
      for (const p of paths) {
        if (typeof p !== 'string' || !setPath(operations, p, file))
          throw badRequest(`"map" path ${JSON.stringify(p)} is invalid`);
      }
    }
  }
  return operations;
}

/** Yoga plugin: streaming multipart parsing with spool cleanup after the response. */
export function useStreamingUploads(opts: StreamingUploadsOptions): Plugin {
  const spools = new WeakMap<Request, string[]>();
  const cleanup = async (paths: string[] | undefined) => {
    if (!paths) return;
    await Promise.all(paths.map((p) => fs.rm(p, { force: true }).catch(() => undefined)));
  };
  // Left-overs of a crashed process.
  void sweepSpool(opts.spoolDir, 3_600_000);
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      const length = request.headers.get('content-length');
      if (length !== null && !/^\d+$/.test(length)) throw badRequest('Content-Length header is invalid');
      const multipart =
        request.method === 'POST' && /^multipart\/form-data/i.test(request.headers.get('content-type') ?? '');
      if (!multipart) {
        const limit = opts.maxOtherBodyBytes ?? DEFAULT_MAX_OTHER_BODY_BYTES;
        if (length !== null && Number(length) > limit) throw bodyTooLarge();
        // With a Content-Length (checked above) Node's HTTP parser delivers exactly that many bytes, so the body
        // needs no counting stream: only a chunked body (no length) is wrapped. JSON requests, the hot path, keep
        // their body as it is (no TransformStream, no second Request).
        if (length === null && requestParser && request.body) {
          const original = requestParser;
          setRequestParser((req) => original(limitBody(req, limit, fetchAPI as never)));
        }
        return;
      }
      const maxTotal =
        (opts.maxFiles ?? 20) * opts.maxBytes +
        (opts.maxImportBytes ?? 0) +
        (opts.maxFieldBytes ?? 65 * 1024 * 1024) +
        1024 * 1024;
      if (length !== null && Number(length) > maxTotal) throw bodyTooLarge();
      setRequestParser(async (req) => {
        const spooled: string[] = [];
        spools.set(request, spooled);
        if (req !== request) spools.set(req, spooled);
        try {
          return (await parseMultipartOperations(req, opts, spooled)) as never;
        } catch (error) {
          await cleanup(spooled);
          throw error;
        }
      });
    },
    onResponse({ request }) {
      const paths = spools.get(request);
      spools.delete(request);
      return cleanup(paths);
    },
  };
}

/**
 * Spool files are named `<host>-<pid>.<uuid>.part`: at start a process removes the spool files its host's dead
 * processes left (a killed upload or import: kill -9 skips the removal after the answer), whatever their age, and
 * every spool file older than `olderThanMs` (another host's, sharing the directory).
 */
const SPOOL_HOST = hostname().replace(/[^A-Za-z0-9_]/g, '_');
const SPOOL_OWNER = `${SPOOL_HOST}-${process.pid}`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/** Removes the spool files of dead processes of this host and every one older than `olderThanMs`; returns them. */
export async function sweepSpool(dir: string, olderThanMs: number): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return removed; // no spool dir yet
  }
  const now = Date.now();
  for (const name of names) {
    const p = path.join(dir, name);
    const owner = /^(.+)-(\d+)\.[0-9a-f-]{36}\.part$/.exec(name);
    const pid = owner?.[1] === SPOOL_HOST ? Number(owner[2]) : null;
    const dead = pid !== null && pid !== process.pid && !alive(pid);
    const st = dead ? null : await fs.stat(p).catch(() => null);
    if (dead || (st && now - st.mtimeMs > olderThanMs)) {
      await fs.rm(p, { force: true }).catch(() => undefined);
      removed.push(name);
    }
  }
  return removed;
}
