/**
 * Runs parseImport (src/sessions/transfer.ts) in a worker thread (src/sessions/import-worker.ts) on the import's text
 * or on an uploaded file the worker reads itself (a 50 MB string handed over as workerData is copied on the main
 * thread, and so is the request body it came in: the file door avoids both), and collects its
 * result piece by piece, yielding to the event loop between pieces: a 50 MB import costs the server's other requests
 * no more than one small piece's deserialisation at a time. Errors come back as they were thrown (BAD_USER_INPUT
 * with the path to the bad node).
 */
import { Worker } from 'node:worker_threads';
import { ErrorCode } from '../domain/error-codes.js';
import { BadInput } from '../store/errors.js';
import type { ImportPiece } from './import-piece.js';

/**
 * The worker: the built .js; under tsx or vitest (source .ts) a small bootstrap that registers tsx's loader in the
 * worker first (Node 20 does not pass the parent's loader on).
 */
function startWorker(workerData: unknown): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./import-worker.js', import.meta.url), { workerData });
  const source = new URL('./import-worker.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/** The import's JSON: as text, or the path of a spooled upload the worker reads itself. */
export type ImportSource = { data: string } | { path: string };

export async function parseInWorker<T extends { messages: unknown[]; branches: unknown[] }>(
  source: ImportSource,
  maxMessageChars: number,
): Promise<T[]> {
  const worker = startWorker({ ...source, maxMessageChars });
  const items: T[] = [];
  try {
    const failed = new Promise<never>((_, reject) => {
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`The import parser stopped (exit ${code})`)));
    });
    failed.catch(() => undefined);
    for (;;) {
      const reply = new Promise<ImportPiece>((resolve) => worker.once('message', resolve));
      worker.postMessage('next');
      const piece = await Promise.race([reply, failed]);
      if (piece.kind === 'done') return items;
      if (piece.kind === 'error') {
        throw piece.code === ErrorCode.BAD_USER_INPUT ? new BadInput(piece.message) : new Error(piece.message);
      }
      if (piece.kind === 'item') items.push({ ...piece.item, messages: [], branches: [] } as unknown as T);
      else items[items.length - 1]![piece.kind].push(...piece.values);
      // one piece per turn of the event loop
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    await worker.terminate();
  }
}
