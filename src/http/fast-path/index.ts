/**
 * The JSON fast path's one entry point (src/http/fast-path/: nothing outside
 * imports its other modules; its SQL, like all SQL, is in src/store).
 *
 * The hot path of the HTTP endpoint: a `POST /graphql` query sent as JSON,
 * answered as JSON, on node:http's request and response without the fetch
 * layer (no Request, Headers, URL or Response objects, no per-request hook
 * chain of Yoga's HTTP stage). Everything GraphQL still goes through Yoga's
 * envelop (`getEnveloped`): the parse and validation caches, graphql-armor's
 * limits, the introspection rule, the context (credentials → viewer),
 * execution with every onExecute plugin (masked errors, well-formed text),
 * so an operation gets the same answer on both paths.
 *
 * Only the ordinary case is taken here; anything else is handed to Yoga
 * unchanged, before anything has run (the body already read is handed with
 * it): another method, path, content type or encoding, a body not yet
 * received whole (the idle guard of src/http/limits.ts then applies), a body
 * that is not a plain `{ query, variables?, operationName?, extensions? }`,
 * persisted operations, an Accept header Yoga would not answer with JSON, a
 * parse or validation error, a context that throws (bad credentials), a
 * mutation or subscription, `@defer`/`@stream`, and an execution that throws.
 * A result with errors or extensions is answered by Yoga's own
 * `processRegularResult` (status codes, `extensions.http`, internals
 * stripped); a plain result is written directly, with the headers Yoga's
 * answer carries.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  getOperationAST,
  Kind,
  visit,
  BREAK,
} from 'graphql';
import { type Plugin, processRegularResult } from 'graphql-yoga';
import { documentTokens, requestTimeoutError } from '../limits.js';
import type { PersistedMode } from '../persisted.js';
import { RESPONSE_HEADERS } from '../response-headers.js';
import { declaredLength, type Params, plainParams, readBody } from './body.js';
import { type CompiledPlan, compilePlan, runPlan } from './compiled.js';
import { jsonMediaType } from './negotiate.js';

export { jsonMediaType };

/** Whether the fast path runs this query operation by a compiled plan (not the executor) on its success path. */
export function isCompiled(schema: GraphQLSchema, document: DocumentNode, operationName?: string): boolean {
  const operation = getOperationAST(document, operationName);
  return operation != null && compilePlan(schema, document, operation) !== null;
}

/** The plan the fast path compiled for an operation about to execute, by its context (read by useCompiledExecution). */
const plannedFor = new WeakMap<object, CompiledPlan>();

/**
 * Envelop plugin (last in the list): an operation the fast path compiled (src/http/fast-path/compiled.ts) runs its
 * plan in place of the executor, inside every other plugin's onExecute and onExecuteDone; a plan that is abandoned
 * hands the operation to the executor it replaced. Nothing else is touched.
 */
export function useCompiledExecution(): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const context = args.contextValue as object | undefined;
      const plan = context && plannedFor.get(context);
      if (!plan || !context) return;
      plannedFor.delete(context);
      setExecuteFn(async (a) => (await runPlan(a.schema, plan, a.contextValue, a.variableValues)) ?? executeFn(a));
    },
  };
}

/** What the fast path needs of a Yoga instance. */
export interface EnvelopedSource {
  graphqlEndpoint: string;
  fetchAPI: { Response: typeof Response };
  // biome-ignore lint/suspicious/noExplicitAny: Yoga's getEnveloped is typed over its own context generics.
  getEnveloped(initialContext: Record<string, unknown>): any;
}

type Answer = 'served' | 'fallback';

/** Whether a document uses `@defer` or `@stream` (Yoga's executor answers those incrementally). */
function usesIncremental(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.DIRECTIVE]: (node) => {
      if (node.name.value !== 'defer' && node.name.value !== 'stream') return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

/**
 * What this path knows of a query text: its document, or null when it is not for this path (a validation error,
 * `@defer`/`@stream`: Yoga answers those). Parsing and validation run through the envelop hooks (armor's limits, the
 * introspection rule, Yoga's caches) and depend on the text alone, so they run once per text. A parse that throws
 * is not remembered: Yoga's hooks also refuse there what depends on the request (an operationName that picks no
 * operation), and one such request must not decide for the next.
 */
interface KnownDocument {
  document: DocumentNode | null;
  /** its operation compiled (compiled.ts), null when it is not plain; undefined until first run */
  plan?: CompiledPlan | null;
  /** the document's tokens (comments included): what keeping it costs, a few hundred bytes each */
  tokens: number;
}

/**
 * The texts remembered, first in first out: at most this many, of at most this length, holding at most this many
 * tokens in all (a document keeps its whole token chain, comments too, which armor's token limit does not count: a
 * 16 KiB text of comment lines holds ~8,000 tokens). A longer text is Yoga's to answer; a document over the budget
 * alone is used once and not kept.
 */
const MAX_KNOWN_DOCUMENTS = 1000;
const MAX_KNOWN_TEXT = 16 * 1024;
const MAX_KNOWN_TOKENS = 200_000;

function isAsyncIterable(value: unknown): boolean {
  return typeof Object(value)[Symbol.asyncIterator] === 'function';
}

/** Headers of the incoming request through the one method resolvers' context building reads. */
function headersOf(req: IncomingMessage) {
  return {
    get(name: string): string | null {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    has(name: string): boolean {
      return req.headers[name.toLowerCase()] !== undefined;
    },
  };
}

export interface JsonFastPath {
  /**
   * Serves the request and answers true, or answers false for Yoga to serve it (with the body, if it was read, left
   * on `req.body`, where Yoga's Node adapter takes it from).
   */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** What the path remembers now: query texts and their documents' tokens (bounded, see MAX_KNOWN_TOKENS). */
  remembered(): { texts: number; tokens: number };
}

export interface JsonFastPathOptions {
  persisted: PersistedMode;
  /** REQUEST_BODY_TIMEOUT_MS: a body that sends nothing for this long is answered 408, as Yoga's guard answers */
  bodyIdleMs: number;
}

export function jsonFastPath(yoga: EnvelopedSource, options: JsonFastPathOptions): JsonFastPath {
  const endpoint = yoga.graphqlEndpoint;

  const known = new Map<string, KnownDocument>();
  let knownTokens = 0;

  function remember(query: string, entry: KnownDocument) {
    if (entry.tokens > MAX_KNOWN_TOKENS) return;
    for (const [oldest, old] of known) {
      if (known.size < MAX_KNOWN_DOCUMENTS && knownTokens + entry.tokens <= MAX_KNOWN_TOKENS) break;
      known.delete(oldest);
      knownTokens -= old.tokens;
    }
    known.set(query, entry);
    knownTokens += entry.tokens;
  }

  /** The query text's document, parsed and validated on first sight (by the envelop of this request). */
  // biome-ignore lint/suspicious/noExplicitAny: see EnvelopedSource.
  function knownDocument(query: string, enveloped: any): KnownDocument | null {
    const entry = known.get(query);
    if (entry) return entry;
    let parsed: DocumentNode;
    try {
      parsed = enveloped.parse(query);
    } catch {
      return null;
    }
    const document =
      !usesIncremental(parsed) && enveloped.validate(enveloped.schema, parsed).length === 0 ? parsed : null;
    const fresh: KnownDocument = { document, tokens: document ? documentTokens(document) : 0 };
    remember(query, fresh);
    return fresh;
  }

  async function run(req: IncomingMessage, res: ServerResponse, params: Params, mediaType: string): Promise<Answer> {
    const request = { method: 'POST', headers: headersOf(req) };
    const enveloped = yoga.getEnveloped({ req, res, request, params });
    if (params.query.length > MAX_KNOWN_TEXT) return 'fallback';
    const entry = knownDocument(params.query, enveloped);
    const document = entry?.document;
    const operationName = params.operationName ?? null;
    const operation = document && getOperationAST(document, operationName);
    if (!entry || !document || operation?.operation !== 'query') return 'fallback';
    // A document of one operation is compiled on its first run (the plan depends on the text alone).
    if (entry.plan === undefined) entry.plan = compilePlan(enveloped.schema, document, operation);
    let contextValue: unknown;
    try {
      contextValue = await enveloped.contextFactory();
    } catch {
      return 'fallback';
    }
    let result: ExecutionResult;
    if (entry.plan && typeof contextValue === 'object' && contextValue) plannedFor.set(contextValue, entry.plan);
    try {
      result = await enveloped.execute({
        schema: enveloped.schema,
        document,
        contextValue,
        variableValues: params.variables ?? undefined,
        operationName: operationName ?? undefined,
      });
    } catch {
      // A query that threw (not a field error: those are in the result) is run again by Yoga for its error answer.
      return 'fallback';
    }
    if (isAsyncIterable(result)) {
      await (result as unknown as AsyncIterator<unknown>).return?.();
      return 'fallback';
    }
    if (result.errors?.length || result.extensions) {
      await sendResponse(res, processRegularResult(result, yoga.fetchAPI as never, mediaType));
      return 'served';
    }
    const body = (result as { stringify?: (r: unknown) => string }).stringify?.(result) ?? JSON.stringify(result);
    res.writeHead(200, {
      'content-type': `${mediaType}; charset=utf-8`,
      'content-length': Buffer.byteLength(body),
      ...RESPONSE_HEADERS,
    });
    res.end(body);
    return 'served';
  }

  return {
    remembered: () => ({ texts: known.size, tokens: knownTokens }),
    async handle(req, res) {
      if (req.method !== 'POST' || req.url !== endpoint || options.persisted === 'only') return false;
      // Yoga's JSON parser's rule, as written (case and spaces count): `application/json`, or it and parameters.
      const type = req.headers['content-type']?.split(',')[0];
      if (type !== 'application/json' && !type?.startsWith('application/json;')) return false;
      if (req.headers['content-encoding'] !== undefined) return false;
      const mediaType = jsonMediaType(req.headers.accept);
      if (mediaType === null) return false;
      const length = declaredLength(req);
      if (length === null) return false;
      const raw = await readBody(req, length, options.bodyIdleMs);
      if (raw === 'gone') {
        res.destroy();
        return true;
      }
      if (raw === 'timeout') {
        // As Yoga's body guard answers (408, the connection closed), in the media type the client asked for.
        await sendResponse(
          res,
          processRegularResult({ errors: [requestTimeoutError()] }, yoga.fetchAPI as never, mediaType),
        );
        return true;
      }
      let params: Params | null = null;
      try {
        params = plainParams(JSON.parse(raw.toString('utf8')), options.persisted);
      } catch {
        params = null;
      }
      if (params && (await run(req, res, params, mediaType)) === 'served') return true;
      (req as IncomingMessage & { body?: Buffer }).body = raw;
      return false;
    },
  };
}

/** Writes a fetch Response (Yoga's answer for a result with errors) to the Node response. */
async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = await response.text();
  const headers: Record<string, string> = { ...RESPONSE_HEADERS };
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(response.status, headers);
  res.end(body);
}
