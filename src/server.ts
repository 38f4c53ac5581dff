/**
 * HTTP and WebSocket: Yoga serves GraphQL over HTTP and SSE (+ GraphiQL);
 * graphql-ws on the same /graphql path shares Yoga's plugin chain through
 * getEnveloped. Also /healthz, /readyz (src/http/health.ts) and the session-file download route.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { createYoga, handleStreamOrSingleExecutionResult, type Plugin, type YogaInitialContext } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocket, WebSocketServer } from 'ws';
import type { ExecutionResult, GraphQLError } from 'graphql';
import type { App } from './app.js';
import type { Context } from './schema/builder.js';
import { maskError } from './schema/errors.js';
import { healthRoute, readyRoute } from './http/health.js';
import { logGraphQLError, yogaLogger } from './logging.js';
import { withRejectionCodes } from './schema/limits.js';
import { useWellFormedText } from './schema/input-guard.js';
import { useDirectiveArgumentGuard } from './schema/directive-args.js';
import { buildSchema } from './schema/index.js';
import { Unauthenticated } from './store/errors.js';
import { createOriginPolicy, isLoopbackHost, useCsrfHeader } from './http/origin.js';
import { useStreamingUploads } from './files/multipart.js';
import { nextFrame, useSharedSubscriptionExecution } from './shared-subscriptions.js';
import { isPrivateEvent } from './events/stream.js';
import { GRAPHIQL_TABS, renderLocalGraphiQL, serveGraphiQLAsset } from './web/graphiql.js';
import { applyRequestTimeouts, limitPlugins, parserCaches, wsSubscriptionLimits } from './http/limits.js';
import { drainServer, trackRequests } from './shutdown.js';
import { connectionCap } from './http/connections.js';
import { ErrorCode } from './domain/error-codes.js';
import { MAX_IMPORT_CHARS } from './sessions/transfer.js';
import { jsonFastPath, useCompiledExecution } from './http/fast-path/index.js';
import { RESPONSE_HEADERS } from './http/response-headers.js';
import { closeRevokedSockets } from './http/revoked-sockets.js';
import { loadPersistedDocuments, persistedOperationsPlugins, resolveSocketOperation } from './http/persisted.js';

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, app: App) => Promise<boolean>;

interface WsInitialContext {
  connectionParams?: Record<string, unknown>;
}

/** A header's value from a plain object of headers, whatever the case of its name. */
function headerIn(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  return undefined;
}

/**
 * The credentials of a request: the Authorization header over HTTP; over
 * graphql-ws, `connectionParams.authorization`, or the headers GraphiQL and
 * other clients put in `connection_init` (`payload.headers`,
 * `payload.extensions.headers`) or in each subscribe message
 * (`payload.extensions.headers`). Body-borne headers are read only on a
 * socket, never from an HTTP request's body.
 */
function authorizationFrom(initial: YogaInitialContext & WsInitialContext & { socket?: unknown }): string | null {
  const params = initial.connectionParams;
  if (params) {
    const fromParams =
      headerIn(params, 'authorization') ??
      headerIn(params.headers, 'authorization') ??
      headerIn((params.extensions as { headers?: unknown } | undefined)?.headers, 'authorization');
    if (fromParams) return fromParams;
  }
  if (initial.socket !== undefined || params) {
    const fromOperation = headerIn(
      (initial.params?.extensions as { headers?: unknown } | undefined)?.headers,
      'authorization',
    );
    if (fromOperation) return fromOperation;
  }
  return initial.request?.headers.get('authorization') ?? null;
}

type Mask = (error: unknown, message: string) => Error;

/**
 * Masks the errors of incremental payloads (`@defer`/`@stream`): Yoga's
 * masking sees only a result's top-level `errors`, and a deferred fragment's
 * or streamed item's errors travel in `incremental[].errors` (or
 * `completed[].errors`). Applies to HTTP, SSE and graphql-ws alike (an
 * envelop hook).
 */
function useMaskedIncrementalErrors(mask: Mask): Plugin {
  type Errors = { errors?: readonly unknown[] };
  const masked = <T extends Errors>(items: readonly T[] | undefined) =>
    items?.map((item) =>
      item.errors ? { ...item, errors: item.errors.map((error) => mask(error, 'Unexpected error.')) } : item,
    );
  return {
    onExecute: () => ({
      onExecuteDone: (payload) =>
        handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
          const incremental = result as { incremental?: Errors[]; completed?: Errors[] };
          if (!incremental.incremental && !incremental.completed) return;
          setResult({
            ...result,
            ...(incremental.incremental ? { incremental: masked(incremental.incremental) } : {}),
            ...(incremental.completed ? { completed: masked(incremental.completed) } : {}),
          } as never);
        }),
    }),
  };
}

export function createGraphQLHandler(app: App, persistedDocuments = persistedDocumentsFor(app)) {
  const mask: Mask = (error, message) => {
    // A write that found storage full keeps /readyz at 503 for a while (src/http/health.ts).
    app.storage.observe(error);
    const masked = maskError(error, message) as GraphQLError;
    const code = masked.extensions?.code as string | undefined;
    logGraphQLError(app.log, error, code, masked.path);
    if (code === ErrorCode.INTERNAL_SERVER_ERROR && process.env.DEBUG_ERRORS)
      console.error((error as { originalError?: unknown }).originalError ?? error);
    return masked;
  };
  return createYoga<Record<string, unknown>, Context>({
    schema: buildSchema(),
    graphqlEndpoint: '/graphql',
    graphiql: app.config.graphiql
      ? { subscriptionsProtocol: 'WS', title: 'Chat session service', defaultTabs: GRAPHIQL_TABS }
      : false,
    renderGraphiQL: renderLocalGraphiQL,
    maskedErrors: { maskError: mask },
    batching: false,
    // Bounded by memory, not only by entries (WeightedCache in src/http/limits.ts).
    parserAndValidationCache: parserCaches(),
    // CORS is answered by the origin policy in startServer (Yoga's default reflects any Origin).
    cors: false,
    // Body limits are enforced by useStreamingUploads below (uploads up to SESSION_FILES_MAX_SIZE_MB, other bodies 65
    // MB).
    maxRequestBodySize: false,
    logging: yogaLogger(app.log),
    plugins: [
      ...(app.metrics ? [app.metrics.plugin] : []),
      useCsrfHeader(),
      // PERSISTED_OPERATIONS=allow|only: ids of the web client's manifest (graphql-ws: resolveSocketOperation below).
      ...persistedOperationsPlugins(app.config.persistedOperations, persistedDocuments),
      // @defer / @stream (graphql 16 has neither: Yoga's executor runs them, the plugin adds the directives and rules).
      useDeferStream(),
      useMaskedIncrementalErrors(mask),
      EnvelopArmorPlugin(
        withRejectionCodes({
          maxDepth: { n: 12 },
          maxAliases: { n: 15 },
          costLimit: { maxCost: 20000 },
          maxTokens: { n: 2000 },
          maxDirectives: { n: 20 },
          blockFieldSuggestion: { enabled: true },
        }),
      ),
      // NUL / lone surrogates in any string argument or variable → BAD_USER_INPUT before any resolver.
      useWellFormedText(),
      // @stream(initialCount:) negative or null → BAD_USER_INPUT before the executor sees it.
      useDirectiveArgumentGuard(),
      // Multipart uploads streamed to disk (never buffered whole); over the limit → PAYLOAD_TOO_LARGE.
      useStreamingUploads({
        spoolDir: `${app.files.baseDir}/.incoming`,
        maxBytes: app.files.maxBytes,
        maxImportBytes: MAX_IMPORT_CHARS,
      }),
      // Body idle timeout (after the uploads parser, whose body it guards), introspection, SSE subscription limits.
      ...limitPlugins(app),
      // Each subscription event is executed once per (document, variables, viewer), not once per subscriber.
      useSharedSubscriptionExecution<Context>({
        rootFields: ['sessionEvents', 'sessionListEvents'],
        contextKey: (ctx) => (ctx.viewer ? JSON.stringify(ctx.viewer) : null),
        shareable: (event) => !isPrivateEvent(event),
      }),
      // No Referer, no framing (RESPONSE_HEADERS says why); the JSON fast path sets the same.
      {
        onResponse: ({ response }) => {
          for (const [name, value] of Object.entries(RESPONSE_HEADERS)) response.headers.set(name, value);
        },
      },
      // Last: a plain query the JSON fast path compiled runs its plan in place of the executor (src/http/fast-path/).
      useCompiledExecution(),
    ],
    context: async (initial) => {
      const authorization = authorizationFrom(initial as YogaInitialContext & WsInitialContext);
      const viewer = await app.auth.viewerFor(authorization);
      return { app, viewer };
    },
  });
}

/** The manifest when PERSISTED_OPERATIONS needs one (a missing one stops start-up), else null. */
function persistedDocumentsFor(app: App): Map<string, string> | null {
  return app.config.persistedOperations === 'off' ? null : loadPersistedDocuments();
}

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  /**
   * Without options: closes everything at once (tests). With `graceMs`: stops
   * accepting, runs `beforeEnd`, ends the subscriptions and waits for the
   * requests in flight up to `graceMs`, then closes what is left.
   */
  close(options?: { graceMs?: number; beforeEnd?: () => Promise<unknown> }): Promise<void>;
}

export async function startServer(app: App, options: { routes?: RouteHandler[] } = {}): Promise<RunningServer> {
  const { host, port, authEnabled, allowUnauthenticatedRemote } = app.config;
  if (!authEnabled && !allowUnauthenticatedRemote && !(await isLoopbackHost(host))) {
    throw new Error(
      `Refusing to listen on ${host} with auth disabled: ` +
        `set AUTH_ENABLED=true, or ALLOW_UNAUTHENTICATED_REMOTE=true to accept the risk`,
    );
  }
  const origins = createOriginPolicy(app.config);
  const persistedDocuments = persistedDocumentsFor(app);
  const yoga = createGraphQLHandler(app, persistedDocuments);
  // Plain JSON queries skip Yoga's fetch layer (src/http/fast-path/); everything else is Yoga's.
  const fast = app.config.httpFastPath
    ? jsonFastPath(yoga, { persisted: app.config.persistedOperations, bodyIdleMs: app.config.requestBodyTimeoutMs })
    : null;
  const routes = [
    healthRoute,
    readyRoute,
    ...(app.config.graphiql ? [serveGraphiQLAsset] : []),
    ...(options.routes ?? []),
  ];
  const hosts = hostCheck();
  const server = createServer(async (req, res) => {
    // Only origin-form targets (`/path`): an absolute-form URL would reach the URL parser of the fetch layer.
    if (!req.url?.startsWith('/')) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Bad request target');
      return;
    }
    // A Host the URL parser refuses would fail the fetch layer's request URL (an internal error); the JSON fast path
    // builds no URL. Both answer 400 instead.
    if (!hosts.valid(req.headers.host)) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Bad Host header');
      return;
    }
    try {
      if (origins.handle(req, res)) return;
      for (const route of routes) if (await route(req, res, app)) return;
      if (fast && (await fast.handle(req, res))) return;
      await yoga.handle(req, res);
    } catch (error) {
      app.log.error({ err: error }, 'request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error');
    }
  });
  applyRequestTimeouts(server, app.config);
  const requests = trackRequests(server);
  const wsContexts = new WeakMap<
    WebSocket,
    { subscriptions: Record<string, unknown>; connectionParams?: Record<string, unknown> }
  >();
  const connections = connectionCap(app.config.wsMaxConnectionsPerAddress);
  const wss = new WebSocketServer({
    server,
    path: yoga.graphqlEndpoint,
    verifyClient: (info: { req: IncomingMessage }, done: (ok: boolean, status?: number, message?: string) => void) => {
      const capped = connections.verify(info.req);
      if (!capped.ok) done(false, capped.status, capped.message);
      else origins.verifyClient(info, done);
    },
    maxPayload: app.config.wsMaxPayloadBytes,
  });
  // Before graphql-ws's own listener, so a socket over the cap is closed before it is served.
  connections.track(wss);
  const wsLimits = wsSubscriptionLimits(app.subscriptions);
  useServer(
    {
      // graphql-ws' default is 3 s: a client on a busy machine (or a slow link) can take longer to send its
      // connection_init. A socket that never sends one is closed (4408) after this; the per-address cap bounds them.
      connectionInitWaitTimeout: 10_000,
      execute: (args: any) => args.rootValue.execute(args),
      subscribe: (args: any) => args.rootValue.subscribe(args),
      onSubscribe: async (ctx, _id, payload) => {
        // Yoga's onParams (the persisted-operations plugin) does not run here: the same rules, applied to the payload.
        const query = resolveSocketOperation(app.config.persistedOperations, persistedDocuments, payload);
        if (typeof query !== 'string') return [query as never];
        // Only what the context is built from (the credentials: connectionParams, the operation's extensions): the
        // context lives as long as the subscription, so it keeps no copy of the socket's state or the document text.
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          connectionParams: ctx.connectionParams,
          socket: ctx.extra.socket,
          params: { extensions: payload.extensions },
        });
        let contextValue: unknown;
        try {
          contextValue = await contextFactory();
        } catch (error) {
          return [maskError(error, 'Unexpected error.') as never];
        }
        // A bad operation (syntax, a limit, anything thrown) fails that id alone, never the socket.
        try {
          const args = {
            schema,
            operationName: payload.operationName,
            document: parse(query),
            variableValues: payload.variables,
            contextValue,
            rootValue: { execute, subscribe },
          };
          const errors = validate(args.schema, args.document);
          if (errors.length) return errors.map((error: unknown) => maskError(error, 'Unexpected error.') as never);
          return wsLimits.admit(ctx, args) ?? args;
        } catch (error) {
          return [maskError(error, 'Unexpected error.') as never];
        }
      },
      // Subscription results go out as prebuilt frames (serialized once per shared result).
      onOperation: (ctx, id, _payload, args, operationResult) => {
        const release = wsLimits.take(args, operationResult);
        return isAsyncIterable(operationResult)
          ? new FrameSender(
              (operationResult as AsyncIterable<ExecutionResult>)[Symbol.asyncIterator](),
              id,
              (ctx.extra as { socket: WebSocket }).socket,
              ctx.subscriptions,
              release,
            )
          : undefined;
      },
      onClose: (ctx) => wsLimits.closed(ctx),
      onConnect: async (ctx) => {
        wsContexts.set((ctx.extra as { socket: WebSocket }).socket, ctx as never);
        delete (ctx.extra as { request?: IncomingMessage }).request;
        // Reject bad credentials at connection time; missing ones are checked per operation.
        const authorization = authorizationFrom({ connectionParams: ctx.connectionParams } as never);
        if (!authorization) return true;
        try {
          await app.auth.viewerFor(authorization);
          return true;
        } catch (error) {
          if (error instanceof Unauthenticated) return false;
          throw error;
        }
      },
    },
    wss,
  );
  const stopRevocations = closeRevokedSockets({
    wss,
    auth: app.auth,
    authorizationOf: (socket) =>
      authorizationFrom({ connectionParams: wsContexts.get(socket)?.connectionParams } as never),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  return {
    server,
    url,
    port: address.port,
    close: async (options = {}) => {
      stopRevocations();
      const drained =
        options.graceMs !== undefined
          ? await drainServer({
              server,
              wss,
              requests,
              wsContexts,
              bus: app.bus,
              graceMs: options.graceMs,
              beforeEnd: options.beforeEnd,
            })
          : null;
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await (drained?.closed ?? new Promise<void>((resolve) => server.close(() => resolve())));
    },
  };
}

/** Whether a Host header makes a URL (`http://<host>/`); absent is fine (HTTP/1.0). Valid hosts are remembered. */
function hostCheck(): { valid(host: string | undefined): boolean } {
  const seen = new Set<string>();
  return {
    valid(host) {
      if (host === undefined || seen.has(host)) return true;
      try {
        new URL(`http://${host}/`);
      } catch {
        return false;
      }
      if (seen.size >= 64) seen.clear();
      seen.add(host);
      return true;
    },
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof Object(value)[Symbol.asyncIterator] === 'function';
}

/** Frames queued in a socket beyond which the sender waits for them to be written. */
const SOCKET_HIGH_WATER = 1 << 20;

/**
 * What graphql-ws would do for each result of a subscription (a `next`
 * frame, in order, the end or an error left to graphql-ws), but with the
 * frame built by `nextFrame` so a result shared by many subscribers is
 * serialized once. graphql-ws sees a stream that yields nothing and ends when
 * the results end; its return() (client `complete`, socket closed) is passed
 * to the results at once. `release` (the subscription's slot) is called once,
 * when the results end, fail or are closed.
 *
 * A class, without an async function or a promise chain per event: one of
 * these exists per idle subscription, and while idle it holds a single
 * pending `source.next()` (docs/performance.md, memory per idle subscription).
 * The one promise graphql-ws awaits is settled by `finish`.
 */
class FrameSender implements AsyncIterableIterator<never> {
  private waiting: { resolve(result: IteratorResult<never>): void; reject(error: unknown): void } | null = null;
  private ended = false;
  private readonly onStep = (step: IteratorResult<ExecutionResult>) => this.step(step);
  private readonly onError = (error: unknown) => this.finish(error);

  constructor(
    private readonly source: AsyncIterator<ExecutionResult>,
    private readonly id: string,
    private readonly socket: WebSocket,
    /** graphql-ws' open operations of the socket: a `complete` from the client removes `id` */
    private readonly open: Record<string, unknown>,
    private release: (() => void) | undefined,
  ) {}

  [Symbol.asyncIterator]() {
    return this;
  }

  next(): Promise<IteratorResult<never>> {
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.pull();
    });
  }

  async return(): Promise<IteratorResult<never>> {
    this.free();
    await this.source.return?.();
    this.finish();
    return { value: undefined, done: true };
  }

  async throw(error: unknown): Promise<IteratorResult<never>> {
    await this.return();
    throw error;
  }

  private pull() {
    if (this.ended) return;
    try {
      this.source.next().then(this.onStep, this.onError);
    } catch (error) {
      this.finish(error);
    }
  }

  private step(step: IteratorResult<ExecutionResult>) {
    if (this.ended) return;
    if (step.done) return this.finish();
    if (this.socket.readyState !== WebSocket.OPEN || !(this.id in this.open)) return this.pull();
    const frame = nextFrame(this.id, step.value);
    if (this.socket.bufferedAmount < SOCKET_HIGH_WATER) {
      this.socket.send(frame);
      return this.pull();
    }
    this.socket.send(frame, (error) => (error ? this.finish(error) : this.pull()));
  }

  private free() {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  private finish(error?: unknown) {
    this.free();
    this.ended = true;
    const waiting = this.waiting;
    this.waiting = null;
    if (!waiting) return;
    if (error === undefined) waiting.resolve({ value: undefined, done: true });
    else waiting.reject(error);
  }
}
