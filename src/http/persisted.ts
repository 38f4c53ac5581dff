/**
 * Persisted operations (trusted documents), PERSISTED_OPERATIONS:
 *
 * - `off` (default): no manifest; any document, as GraphiQL sends it.
 * - `allow`: a known id in `extensions.persistedQuery` runs its document;
 *   arbitrary documents still run.
 * - `only`: nothing but the manifest's documents runs: a request carrying a
 *   document answers PERSISTED_QUERY_ONLY, an unknown id
 *   PERSISTED_QUERY_NOT_FOUND — over HTTP, SSE and graphql-ws alike.
 *
 * The manifest is web/dist/persisted-documents.json, {sha256 hex of the
 * document: document}, written by `npm run build:web` (GraphQL Code
 * Generator's client preset, scripts/codegen-web.ts) from the web client's
 * operations. HTTP and SSE go through Yoga's persisted-operations plugin;
 * graphql-ws does not pass Yoga's `onParams`, so server.ts resolves its
 * subscribe payloads with `resolveSocketOperation`, the same rules.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ErrorCode } from '../domain/error-codes.js';

export type PersistedMode = 'off' | 'allow' | 'only';

export const MANIFEST_PATH = fileURLToPath(new URL('../../web/dist/persisted-documents.json', import.meta.url));

/** {id: document}; a missing or malformed manifest stops start-up (when the mode needs one). */
export function loadPersistedDocuments(path = MANIFEST_PATH): Map<string, string> {
  if (!existsSync(path)) throw new Error(`PERSISTED_OPERATIONS needs the manifest ${path}: run \`npm run build:web\``);
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error(`${path}: not a {id: document} object`);
  const documents = new Map<string, string>();
  for (const [id, document] of Object.entries(parsed)) {
    if (typeof document !== 'string') throw new Error(`${path}: the document of ${id} is not a string`);
    documents.set(id, document);
  }
  return documents;
}

const onlyPersisted = () =>
  new GraphQLError(
    'This server runs only persisted operations: send extensions.persistedQuery { version: 1, sha256Hash } ' +
      'of a document in its manifest instead of a document',
    { extensions: { code: ErrorCode.PERSISTED_QUERY_ONLY, http: { status: 400 } } },
  );
const notFound = () =>
  new GraphQLError('No persisted operation has this id (extensions.persistedQuery.sha256Hash)', {
    extensions: { code: ErrorCode.PERSISTED_QUERY_NOT_FOUND, http: { status: 400 } },
  });

/** `extensions.persistedQuery.sha256Hash` (version 1), or null. */
export function persistedId(extensions: unknown): string | null {
  const persisted = (extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } } | null)
    ?.persistedQuery;
  return persisted && persisted.version === 1 && typeof persisted.sha256Hash === 'string' ? persisted.sha256Hash : null;
}

/** Yoga's plugin for HTTP and SSE; none with `off`. */
export function persistedOperationsPlugins(mode: PersistedMode, documents: Map<string, string> | null): Plugin[] {
  if (mode === 'off' || !documents) return [];
  return [
    usePersistedOperations({
      allowArbitraryOperations: mode === 'allow',
      getPersistedOperation: (id) => documents.get(id) ?? null,
      customErrors: { notFound, persistedQueryOnly: onlyPersisted, keyNotFound: onlyPersisted },
    }) as Plugin,
  ];
}

/**
 * The document a graphql-ws subscribe payload runs (graphql-ws requires a
 * string `query`: a persisted one sends `''`), or the error it is refused with.
 */
export function resolveSocketOperation(
  mode: PersistedMode,
  documents: Map<string, string> | null,
  payload: { query: string; extensions?: unknown },
): string | GraphQLError {
  if (mode === 'off' || !documents) return payload.query;
  if (payload.query) return mode === 'allow' ? payload.query : onlyPersisted();
  const id = persistedId(payload.extensions);
  if (id === null) return onlyPersisted();
  return documents.get(id) ?? notFound();
}
