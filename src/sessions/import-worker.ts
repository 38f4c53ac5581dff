/**
 * The worker thread that parses an import (JSON.parse, schema checks, tree conversion, fingerprints, the intake's
 * MAX_MESSAGE_CHARS check): seconds of CPU for a 50 MB export, kept off the server's event loop. It hands the
 * parsed sessions back in small pieces, one per request of the main thread (src/sessions/import-parse.ts), so the
 * main thread never deserialises more than a bounded piece between two turns of its event loop.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { ImportPiece } from './import-piece.js';
import { parseImport } from './transfer.js';

/** Messages (or branches) per piece. */
const PIECE = 500;

function* pieces(data: string, maxMessageChars: number): Generator<ImportPiece> {
  const items = parseImport(data, { maxMessageChars });
  for (const { messages, branches, ...item } of items) {
    yield { kind: 'item', item };
    for (let i = 0; i < messages.length; i += PIECE) yield { kind: 'messages', values: messages.slice(i, i + PIECE) };
    for (let i = 0; i < branches.length; i += PIECE) yield { kind: 'branches', values: branches.slice(i, i + PIECE) };
  }
  yield { kind: 'done' };
}

if (parentPort) {
  const port = parentPort;
  const { data, path, maxMessageChars } = workerData as { data?: string; path?: string; maxMessageChars: number };
  let source: Generator<ImportPiece> | null = null;
  port.on('message', () => {
    try {
      // An uploaded file is read here, off the server's event loop (its spool file lives until the answer is sent).
      source ??= pieces(data ?? readFileSync(path!, 'utf8'), maxMessageChars);
      const next = source.next();
      port.postMessage(next.done ? { kind: 'done' } : next.value);
    } catch (error) {
      const e = error as { code?: string; message?: string };
      port.postMessage({ kind: 'error', code: e.code, message: String(e.message ?? error) } satisfies ImportPiece);
    }
  });
}
