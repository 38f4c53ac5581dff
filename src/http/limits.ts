/**
 * Resource bounds of the HTTP and WebSocket edge: subscriptions per socket
 * and per user (graphql-ws and SSE counted together), SSE streams per user,
 * an idle timeout on request bodies, the introspection switch and the depth
 * limit of introspection selections. Every limit but that depth is a setting
 * (see docs/security.md, "Resource limits"); server.ts calls in from a few lines.
 */
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import {
  getNamedType,
  getOperationAST,
  GraphQLError,
  isIntrospectionType,
  type ASTVisitor,
  type DocumentNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { IncomingMessage, Server } from 'node:http';
import { Readable } from 'node:stream';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config.js';
import { ErrorCode } from '../domain/error-codes.js';

export interface SubscriptionLimitOptions {
  perSocket: number;
  perUser: number;
  ssePerUser: number;
}

type Release = () => void;

const tooMany = (message: string, status?: number) =>
  new GraphQLError(message, {
    extensions: { code: ErrorCode.TOO_MANY_SUBSCRIPTIONS, ...(status ? { http: { status } } : {}) },
  });

/** Whom a subscription is counted against: the viewer's user, or one shared bucket for callers without one. */
function userKey(context: unknown): string {
  const viewer = (context as { viewer?: { userId?: string | null } | null } | null)?.viewer;
  return viewer?.userId ?? '(no user)';
}

/** Live subscriptions of this process, per user (graphql-ws and SSE) and SSE streams per user. */
export class SubscriptionCounter {
  private readonly users = new Map<string, number>();
  private readonly sse = new Map<string, number>();

  constructor(readonly options: SubscriptionLimitOptions) {}

  /** Subscriptions open now, every user's (the metrics' gauge). */
  get live(): number {
    let n = 0;
    for (const count of this.users.values()) n += count;
    return n;
  }

  /** Subscriptions `user` holds now (both transports). */
  held(user: string): number {
    return this.users.get(user) ?? 0;
  }

  /** A slot for `user`, or the error to answer; `release` is idempotent. */
  acquire(user: string, transport: 'ws' | 'sse'): Release | GraphQLError {
    const { perUser, ssePerUser } = this.options;
    if (this.held(user) >= perUser) {
      return tooMany(
        `At most ${perUser} subscriptions per user are open at once`,
        transport === 'sse' ? 429 : undefined,
      );
    }
    if (transport === 'sse' && (this.sse.get(user) ?? 0) >= ssePerUser) {
      return tooMany(`At most ${ssePerUser} SSE subscription streams per user are open at once`, 429);
    }
    bump(this.users, user, 1);
    if (transport === 'sse') bump(this.sse, user, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      bump(this.users, user, -1);
      if (transport === 'sse') bump(this.sse, user, -1);
    };
  }
}

function bump(map: Map<string, number>, key: string, by: number) {
  const next = (map.get(key) ?? 0) + by;
  if (next > 0) map.set(key, next);
  else map.delete(key);
}

/** Marks a context whose subscription graphql-ws already counted (the SSE plugin skips it). */
const COUNTED = Symbol('subscription counted');

/**
 * graphql-ws side. A slot is taken in onSubscribe (so a refusal is an `error`
 * message for that id and nothing else on the socket changes) and given back
 * when that operation's result stream ends or is closed. The slot follows the
 * operation's execution arguments, not its id: a client may reuse an id as
 * soon as it sent `complete`, before the old stream has finished closing.
 */
export function wsSubscriptionLimits(counter: SubscriptionCounter) {
  const bySocket = new WeakMap<object, Set<Release>>();
  const byArgs = new WeakMap<object, Release>();
  return {
    /** Errors to answer instead of running the operation, or undefined to go on. */
    admit(
      socketCtx: object,
      args: { document: DocumentNode; operationName?: string | null; contextValue: unknown },
    ): GraphQLError[] | undefined {
      if (getOperationAST(args.document, args.operationName)?.operation !== 'subscription') return undefined;
      const held = bySocket.get(socketCtx) ?? new Set<Release>();
      bySocket.set(socketCtx, held);
      const { perSocket } = counter.options;
      if (held.size >= perSocket)
        return [tooMany(`At most ${perSocket} subscriptions per connection are open at once`)];
      const slot = counter.acquire(userKey(args.contextValue), 'ws');
      if (slot instanceof GraphQLError) return [slot];
      const release = () => {
        held.delete(release);
        slot();
      };
      held.add(release);
      byArgs.set(args, release);
      (args.contextValue as Record<symbol, unknown>)[COUNTED] = true;
      return undefined;
    },
    /**
     * The operation's slot, to give back when its result stream ends, fails or is closed (the caller's stream calls
     * it); given back now when the result is no stream. Undefined when the operation holds none.
     */
    take(args: object, result: unknown): Release | undefined {
      const release = byArgs.get(args);
      if (!release) return undefined;
      byArgs.delete(args);
      if (isAsyncIterable(result)) return release;
      release();
      return undefined;
    },
    /** The socket closed: every slot it still holds (streams closing right now included). */
    closed(socketCtx: object) {
      for (const release of [...(bySocket.get(socketCtx) ?? [])]) release();
    },
  };
}

/** SSE side (every subscription that did not come through graphql-ws): refused with HTTP 429 before a stream opens. */
export function useSseSubscriptionLimits(counter: SubscriptionCounter): Plugin {
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const context = args.contextValue as unknown as Record<symbol, unknown>;
      if (context?.[COUNTED]) return undefined;
      const slot = counter.acquire(userKey(context), 'sse');
      if (slot instanceof GraphQLError) {
        // Thrown, not returned as a result: Yoga then answers with the error's HTTP status instead of a stream.
        setResultAndStopExecution(undefined as never);
        throw slot;
      }
      // Given back the moment the client goes away (the Node response closes), not when the stream's iterator is
      // next returned: that waits for the next event, and a reconnecting client meanwhile finds its slots taken.
      closeOf(context)?.once('close', slot);
      return {
        onSubscribeResult({ result, setResult }) {
          if (isAsyncIterable(result)) setResult(releasing(result, slot) as never);
          else slot();
        },
      };
    },
  };
}

/** The Node response a Yoga context carries (its server context), when served by node:http. */
function closeOf(context: unknown): { once(event: 'close', listener: () => void): unknown } | undefined {
  const res = (context as { res?: { once?: unknown } } | null)?.res;
  return typeof res?.once === 'function' ? (res as never) : undefined;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof Object(value)[Symbol.asyncIterator] === 'function';
}

/** `source`, calling `release` once when it ends, fails or is closed. */
function releasing<T>(source: AsyncIterable<T>, release: Release): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      try {
        const step = await iterator.next();
        if (step.done) release();
        return step;
      } catch (error) {
        release();
        throw error;
      }
    },
    async return(value?: unknown) {
      release();
      return (await iterator.return?.(value)) ?? { value: undefined, done: true };
    },
    async throw(error?: unknown) {
      release();
      if (iterator.throw) return iterator.throw(error);
      throw error;
    },
  };
}

export const requestTimeoutError = () =>
  new GraphQLError('The request body stopped arriving before it was complete', {
    extensions: { code: ErrorCode.REQUEST_TIMEOUT, http: { status: 408, headers: { connection: 'close' } } },
  });

/**
 * Yoga plugin: a request body that delivers nothing for `idleMs` while the
 * server is waiting for it fails with REQUEST_TIMEOUT (408, connection
 * closed). The clock runs only while a read is pending, so a slow consumer
 * (a spool write, a busy event loop) never counts against the client, and a
 * large upload that keeps arriving is never cut. Listed after
 * useStreamingUploads, it wraps the body that the multipart and JSON parsers
 * read, so a cut multipart upload loses its spool files before the answer.
 * A body already received whole when parsing starts is read as it is.
 */
export function useRequestBodyTimeout(idleMs: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI, serverContext }) {
      if (!requestParser || !request.body) return;
      // A body Node already holds whole (the usual small JSON request, read with its headers) cannot stall: it is
      // parsed as it is, with no stream around it.
      if (receivedWhole((serverContext as { req?: IncomingMessage }).req)) return;
      const parse = requestParser;
      setRequestParser((req) => parse(withIdleTimeout(req, idleMs, fetchAPI as never)));
    },
  };
}

/** Whether every byte of the request's declared body is already buffered in the Node request (or it has ended). */
function receivedWhole(req: IncomingMessage | undefined): boolean {
  if (!req) return false;
  if (req.complete) return true;
  const declared = req.headers['content-length'];
  if (declared === undefined || req.headers['transfer-encoding'] !== undefined) return false;
  const length = Number(declared);
  return Number.isSafeInteger(length) && req.readableLength >= length && !req.readableFlowing;
}

function withIdleTimeout(
  request: Request,
  idleMs: number,
  fetchAPI: { Request: typeof Request; ReadableStream: typeof ReadableStream },
): Request {
  const body = request.body;
  if (!body) return request;
  const reader = body.getReader();
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  // A Node stream, not the fetch ponyfill's ReadableStream: the ponyfill's controller.error() is swallowed (its
  // destroy hook answers callback(null)), so a parser reading it would wait forever.
  const guarded = new Readable({
    read() {
      timer = setTimeout(() => {
        timedOut = true;
        this.destroy(requestTimeoutError());
      }, idleMs);
      reader.read().then(
        (step) => {
          clearTimeout(timer);
          if (!this.destroyed) this.push(step.done ? null : step.value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          this.destroy(error as Error);
        },
      );
    },
    destroy(error, callback) {
      clearTimeout(timer);
      // After a timeout the source is left alone: cancelling it destroys the socket before the 408 is written.
      if (error && !timedOut) reader.cancel(error).catch(() => undefined);
      callback(error);
    },
  });
  const native = fetchAPI.ReadableStream === globalThis.ReadableStream;
  return new fetchAPI.Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    body: native ? Readable.toWeb(guarded) : new fetchAPI.ReadableStream(guarded as never),
    duplex: 'half',
  } as RequestInit);
}

/** Whether introspection is served: INTROSPECTION when set, otherwise on in local mode only. */
export function introspectionEnabled(config: Pick<Config, 'introspection' | 'authEnabled'>): boolean {
  return config.introspection ?? !config.authEnabled;
}

/** INTROSPECTION=false: `__schema` and `__type` are refused at validation, before anything runs. */
export const noIntrospectionRule: ValidationRule = (context: ValidationContext): ASTVisitor => ({
  Field(node) {
    const type = context.getType();
    if (type && isIntrospectionType(getNamedType(type))) {
      context.reportError(
        new GraphQLError(`Introspection is disabled on this server (field "${node.name.value}")`, {
          nodes: node,
          extensions: { code: ErrorCode.INTROSPECTION_DISABLED },
        }),
      );
    }
  },
});

/**
 * Depth of introspection (`__schema`) selections, by graphql-armor's count.
 * The main armor instance (depth 12) skips `__schema`: counting it there
 * would refuse the standard introspection query (GraphiQL's, codegen's),
 * which is 21 deep by armor's count, 7 of it the single-valued `ofType`
 * chain. Fan-out (`types { interfaces { possibleTypes { … } } }`) is refused
 * at 3 nested lists by graphql-js's own MaxIntrospectionDepthRule.
 */
export const MAX_INTROSPECTION_DEPTH = 24;

/** A second armor instance with only its depth limit, counting introspection. */
function introspectionDepthLimit(): Plugin {
  const off = { enabled: false };
  return EnvelopArmorPlugin({
    maxDepth: {
      n: MAX_INTROSPECTION_DEPTH,
      ignoreIntrospection: false,
      // Reported with a code instead of armor's bare thrown error.
      propagateOnRejection: false,
      onReject: [
        (context, error) =>
          (context as ValidationContext | null)?.reportError(
            new GraphQLError(error.message.replace(/^Syntax Error: /, ''), {
              extensions: { code: ErrorCode.GRAPHQL_VALIDATION_FAILED },
            }),
          ),
      ],
    },
    costLimit: off,
    maxAliases: off,
    maxTokens: off,
    maxDirectives: off,
    blockFieldSuggestion: off,
  }) as Plugin;
}

/**
 * The counter of a process's limits; the composition root builds one, shared by the SSE plugin and the graphql-ws
 * server.
 */
export function subscriptionCounter(
  config: Pick<
    Config,
    | 'maxSubscriptionsPerSocket'
    | 'maxSubscriptionsPerUser'
    | 'maxSseStreamsPerUser'
    | 'localMaxSseStreams'
    | 'authEnabled'
  >,
): SubscriptionCounter {
  const { maxSubscriptionsPerSocket, maxSubscriptionsPerUser, maxSseStreamsPerUser } = config;
  // Local mode: every client is `anonymous` (and 127.0.0.1), so a per-user limit would be one bucket shared by every
  // tab and script, and one client's streams would lock the others out: SSE counts against the process-wide
  // LOCAL_MAX_SSE_STREAMS, graphql-ws against its socket (MAX_SUBSCRIPTIONS_PER_SOCKET; sockets per address are
  // bounded too), and MAX_SUBSCRIPTIONS_PER_USER does not apply.
  const local = !config.authEnabled;
  return new SubscriptionCounter({
    perSocket: maxSubscriptionsPerSocket,
    perUser: local ? Number.POSITIVE_INFINITY : maxSubscriptionsPerUser,
    ssePerUser: local ? config.localMaxSseStreams : maxSseStreamsPerUser,
  });
}

/** Yoga plugins of this module, listed right after useStreamingUploads. */
export function limitPlugins(app: { config: Config; subscriptions: SubscriptionCounter }): Plugin[] {
  return [
    useRequestBodyTimeout(app.config.requestBodyTimeoutMs),
    introspectionEnabled(app.config)
      ? introspectionDepthLimit()
      : { onValidate: ({ addValidationRule }) => addValidationRule(noIntrospectionRule) },
    useSseSubscriptionLimits(app.subscriptions),
  ];
}

/**
 * Node's own header timeout, checked often enough for a short setting to mean what it says (Node checks every 30 s by
 * default), and the keep-alive idle timeout (KEEP_ALIVE_TIMEOUT_MS, 65 s: longer than client pools keep an idle
 * socket, so the client, not the server, closes it and never writes a request onto a socket the server is closing).
 * Node (18+) starts the headers clock at a request's first byte, not when the connection goes idle, so the 20 s
 * slow-header guard and a longer keep-alive hold together (docs/security.md).
 */
export function applyRequestTimeouts(
  server: Server,
  config: Pick<Config, 'requestHeadersTimeoutMs' | 'keepAliveTimeoutMs'>,
): void {
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.headersTimeout = config.requestHeadersTimeoutMs;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(
    30_000,
    Math.max(50, Math.floor(config.requestHeadersTimeoutMs / 4)),
  );
}

/** The tokens a parsed document keeps alive (its whole token chain, comments included: armor's limit skips those). */
export function documentTokens(document: unknown): number {
  let count = 0;
  const loc = (document as { loc?: { startToken?: { next: unknown } | null } } | null)?.loc;
  for (let token = loc?.startToken ?? null; token; token = (token as { next: typeof token | null }).next) count++;
  return count;
}

/** Bytes counted per token a cached document holds (a token and its share of the AST: measured ~90). */
const BYTES_PER_TOKEN = 96;

/**
 * A least-recently-used cache of Yoga's parser (documents, parse errors by query text) bounded by what it holds, not
 * only by entries: Yoga's default keeps 1,024 of each whatever their size, and a document keeps its whole token
 * chain, comment tokens included, so 20 comment-padded 1 MB queries held ~860 MB. Each entry weighs its key (the
 * text, 2 bytes a character) plus its tokens; an entry heavier than the whole budget is not kept.
 */
export class WeightedCache<T> {
  private readonly entries = new Map<string, { value: T; weight: number }>();
  private held = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number,
    private readonly weigh: (value: T) => number,
  ) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: T): void {
    const weight = key.length * 2 + this.weigh(value);
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.held -= old.weight;
    }
    if (weight > this.maxWeight) return;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size < this.maxEntries && this.held + weight <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.held -= entry.weight;
    }
    this.entries.set(key, { value, weight });
    this.held += weight;
  }

  /** Entries and their weight now. */
  size(): { entries: number; weight: number } {
    return { entries: this.entries.size, weight: this.held };
  }
}

/** Yoga's parser caches under a memory budget (32 MiB each for documents and for parse errors). */
export function parserCaches(maxWeight = 32 * 1024 * 1024) {
  return {
    documentCache: new WeightedCache<DocumentNode>(1024, maxWeight, (d) => documentTokens(d) * BYTES_PER_TOKEN),
    // A parse error keeps its source (the text again) and a little more.
    errorCache: new WeightedCache<unknown>(1024, maxWeight, () => 1024),
  };
}
