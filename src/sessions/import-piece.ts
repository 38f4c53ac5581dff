/** What the import worker (src/sessions/import-worker.ts) hands back per request of src/sessions/import-parse.ts. */
export type ImportPiece =
  | { kind: 'item'; item: Record<string, unknown> }
  | { kind: 'messages' | 'branches'; values: unknown[] }
  | { kind: 'done' }
  | { kind: 'error'; code: string | undefined; message: string };
