/**
 * Transport over HTTP: JSON, or the GraphQL multipart request spec when the
 * variables hold files (socket.ts has the graphql-ws side). The API key
 * lives in localStorage and travels as `Authorization: Bearer` on HTTP and as
 * `connectionParams.authorization` on the socket.
 */
const KEY_STORAGE = 'chat.apiKey';

/** {operation name: persisted id}, baked in by the build (web/vite.config.ts); absent under Vite's dev server. */
declare const __PERSISTED_IDS__: Record<string, string> | undefined;
const PERSISTED_IDS: Record<string, string> = typeof __PERSISTED_IDS__ === 'object' ? __PERSISTED_IDS__ : {};

/** Whether the server accepts persisted ids (PERSISTED_OPERATIONS=allow|only: it says so in index.html). */
function serverPersists(): boolean {
  try {
    return !!document.querySelector('meta[name="persisted-operations"]');
  } catch {
    return false;
  }
}

/**
 * The operation part of a request: `{ query }`, or, when the server accepts
 * persisted operations and the build knows this one, only its id
 * (`extensions.persistedQuery`, the manifest's sha256): the document itself
 * never travels. `query` is then `''` (graphql-ws wants a string; HTTP reads
 * an empty one as absent).
 */
export function operationPayload(query: string): { query: string; extensions?: Record<string, unknown> } {
  const name = /^\s*(?:query|mutation|subscription)\s+(\w+)/.exec(query)?.[1];
  const id = name ? PERSISTED_IDS[name] : undefined;
  if (!id || !serverPersists()) return { query };
  return { query: '', extensions: { persistedQuery: { version: 1, sha256Hash: id } } };
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export function storedKey(): string | null {
  try {
    return localStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}

export function storeKey(key: string | null): void {
  try {
    if (key) localStorage.setItem(KEY_STORAGE, key);
    else localStorage.removeItem(KEY_STORAGE);
  } catch {
    /* storage disabled: the key lasts for this page only */
  }
  keyListeners.forEach((l) => l());
}

/** Called when the key changes (the socket reconnects with the new one). */
export const keyListeners = new Set<() => void>();

function authHeaders(): Record<string, string> {
  const key = storedKey();
  return key ? { authorization: `Bearer ${key}` } : {};
}

interface Upload {
  path: string;
  file: Blob;
}

/** Replaces every File/Blob in the variables by null, collecting its dotted path (multipart spec). */
function extractFiles(value: unknown, path: string, found: Upload[]): unknown {
  if (value instanceof Blob) {
    found.push({ path, file: value });
    return null;
  }
  if (Array.isArray(value)) return value.map((v, i) => extractFiles(v, `${path}.${i}`, found));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = extractFiles(v, `${path}.${k}`, found);
    return out;
  }
  return value;
}

/** The JSON POST for a query without files (also what boot.ts sends before the app's code has loaded). */
export function jsonRequest(query: string, variables: Record<string, unknown>): RequestInit {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...authHeaders(),
    },
    body: JSON.stringify({ ...operationPayload(query), variables }),
    credentials: 'omit',
    referrerPolicy: 'no-referrer',
  };
}

export async function gql<T>(query: string, variables: Record<string, unknown> = {}, signal?: AbortSignal): Promise<T> {
  const uploads: Upload[] = [];
  const vars = extractFiles(variables, 'variables', uploads) as Record<string, unknown>;
  let init: RequestInit;
  if (uploads.length === 0) {
    init = jsonRequest(query, vars);
  } else {
    const form = new FormData();
    form.append('operations', JSON.stringify({ ...operationPayload(query), variables: vars }));
    const map: Record<string, string[]> = {};
    uploads.forEach((u, i) => (map[String(i)] = [u.path]));
    form.append('map', JSON.stringify(map));
    uploads.forEach((u, i) => form.append(String(i), u.file, u.file instanceof File ? u.file.name : `file-${i}`));
    // Multipart is a "simple" content type: the CSRF guard wants a non-simple header.
    init = {
      method: 'POST',
      headers: { 'x-graphql-yoga-csrf': '1', ...authHeaders() },
      body: form,
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    };
  }
  return readResult<T>(await fetch('/graphql', { ...init, signal }));
}

/** The data of a GraphQL response, or an ApiError carrying the first error's code. */
export async function readResult<T>(response: Response): Promise<T> {
  let body: { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
  try {
    body = await response.json();
  } catch {
    throw new ApiError(`Server answered ${response.status}`, response.status === 413 ? 'PAYLOAD_TOO_LARGE' : undefined);
  }
  if (body.errors?.length) {
    const first = body.errors[0]!;
    throw new ApiError(first.message, first.extensions?.code);
  }
  if (!body.data) throw new ApiError('Empty answer', undefined);
  return body.data;
}
