/**
 * Shared execution of subscription events. Without it every subscriber runs
 * its own GraphQL execution of every event (10 subscribers of a session = 10
 * executions of each delta). Here an event is executed once per distinct
 * (document, operation, variables that shape the result, viewer) and every
 * subscriber sharing that key receives the same ExecutionResult object, which
 * also lets the WebSocket layer serialize it once (`sharedFrame`).
 *
 * Only the per-event execution is shared. Subscribing (the root field's
 * `subscribe` resolver: authorization, the replay cursor, the source stream)
 * stays per subscriber, and so does everything the envelop plugins do to a
 * subscriber's results (masked errors replace the result object, which then
 * simply is not shared any further).
 *
 * What makes sharing sound:
 * - the bus hands the same event object to every in-process subscriber, and
 *   results are cached by that object's identity (a bounded map, so events
 *   kept in the replay log do not keep their results alive);
 * - the root subscription field resolves to the event itself and ignores its
 *   arguments (true of every field named in `rootFields`), so variables used
 *   only in the root field's arguments (`sessionId`, the `after` cursor) pick
 *   the source stream but cannot change a result: they are left out of the
 *   key; every other variable is in it;
 * - `contextKey` names everything resolvers read from the context (the
 *   viewer): two subscribers share only when their keys are equal, and a
 *   context without a key (null) never shares.
 */
import {
  createSourceEventStream,
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ASTNode,
  visit,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

type MaybePromise<T> = T | Promise<T>;

export interface SharedSubscriptionOptions<C> {
  /** Root subscription fields whose resolve returns the event unchanged and ignores its arguments. */
  rootFields: readonly string[];
  /** Everything resolvers read from the context, as a string; null = never share this subscriber's results. */
  contextKey(context: C): string | null;
  /** Events whose results are kept for late subscribers (oldest dropped first). */
  maxEvents?: number;
  /** Whether an event may reach more than one subscriber (default: all do); others are executed and not kept. */
  shareable?(event: unknown): boolean;
}

export interface SharedSubscriptionStats {
  /** per-event executions run */
  executions: number;
  /** per-event results served from another subscriber's execution */
  shared: number;
}

/** Which variables can change a per-event result (sorted), or null when the operation is not shareable. */
function resultVariables(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  rootFields: ReadonlySet<string>,
): string[] | null {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const names = new Set<string>();
  let shareable = true;
  const seenFragments = new Set<string>();
  const collect = (node: ASTNode) => {
    visit(node, {
      Variable: (v) => void names.add(v.name.value),
      Directive: (d) => {
        if (d.name.value === 'defer' || d.name.value === 'stream') shareable = false;
      },
      FragmentSpread: (spread) => {
        const name = spread.name.value;
        const fragment = fragments.get(name);
        if (fragment && !seenFragments.has(name)) {
          seenFragments.add(name);
          collect(fragment);
        }
      },
    });
  };
  const root = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value !== '__typename' && !rootFields.has(selection.name.value)) shareable = false;
        // The root field's arguments only choose the source stream: left out on purpose.
        for (const directive of selection.directives ?? []) collect(directive);
        if (selection.selectionSet) collect(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        for (const directive of selection.directives ?? []) collect(directive);
        root(selection.selectionSet);
      } else {
        // A named fragment at the root: every variable in it counts, arguments included (conservative).
        collect(selection);
      }
    }
  };
  for (const directive of operation.directives ?? []) collect(directive);
  root(operation.selectionSet);
  return shareable ? [...names].sort() : null;
}

/** Share keys kept for interning; past this many the table starts over (live subscribers keep theirs). */
const MAX_INTERNED_KEYS = 10_000;

const done = (): IteratorResult<never> => ({ value: undefined, done: true });

/**
 * A subscriber's results: each event of `source` executed through `share`,
 * and return() passed to the source at once. A class with prototype methods
 * and no async function, because one exists per idle subscriber for as long
 * as it stays subscribed: waiting here costs one pending promise, not a
 * suspended async frame and a set of closures (docs/performance.md, memory
 * per idle subscription).
 */
class SharedResults implements AsyncIterableIterator<ExecutionResult> {
  constructor(
    private readonly source: AsyncIterator<unknown>,
    private readonly share: (args: ExecutionArgs, key: string, event: unknown) => MaybePromise<ExecutionResult>,
    private readonly args: ExecutionArgs,
    private readonly key: string,
    private readonly operation: OperationDefinitionNode,
  ) {}

  [Symbol.asyncIterator]() {
    return this;
  }

  next(): Promise<IteratorResult<ExecutionResult>> {
    return this.source.next().then(
      (step) =>
        step.done
          ? done()
          : Promise.resolve(this.share(this.args, this.key, step.value)).then((value) => ({ value, done: false })),
      (error: unknown) => {
        // As @graphql-tools/executor reports a failing source stream.
        const original = error instanceof Error ? error : new Error(String(error));
        throw new GraphQLError(original.message, { originalError: original, nodes: [this.operation] });
      },
    );
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    await this.source.return?.();
    return done();
  }

  async throw(error: unknown): Promise<IteratorResult<ExecutionResult>> {
    await this.return();
    throw error;
  }
}

/**
 * The envelop plugin. One instance per server: its cache and statistics are
 * that server's. `stats` counts executions and reuses (tests, benchmarks).
 */
export function useSharedSubscriptionExecution<C>(
  options: SharedSubscriptionOptions<C>,
): Plugin & { stats: SharedSubscriptionStats } {
  const rootFields = new Set(options.rootFields);
  const maxEvents = options.maxEvents ?? 4096;
  const stats: SharedSubscriptionStats = { executions: 0, shared: 0 };
  const documentIds = new WeakMap<DocumentNode, number>();
  const variablesOf = new WeakMap<DocumentNode, Map<string, string[] | null>>();
  let nextDocumentId = 1;
  /** event object → share key → result; insertion-ordered, the oldest events dropped first */
  const results = new Map<object, Map<string, MaybePromise<ExecutionResult>>>();
  const keys = new Map<string, string>();

  function shareKey(args: ExecutionArgs, operation: OperationDefinitionNode): string | null {
    const contextKey = options.contextKey(args.contextValue as C);
    if (contextKey === null) return null;
    const { document } = args;
    const operationName = operation.name?.value ?? '';
    let perOperation = variablesOf.get(document);
    if (!perOperation) variablesOf.set(document, (perOperation = new Map()));
    let names = perOperation.get(operationName);
    if (names === undefined)
      perOperation.set(operationName, (names = resultVariables(document, operation, rootFields)));
    if (names === null) return null;
    let documentId = documentIds.get(document);
    if (documentId === undefined) documentIds.set(document, (documentId = nextDocumentId++));
    const raw = (args.variableValues ?? {}) as Record<string, unknown>;
    const values: Record<string, unknown> = {};
    for (const name of names) if (Object.hasOwn(raw, name)) values[name] = raw[name];
    return intern(`${documentId}\u0000${operationName}\u0000${JSON.stringify(values)}\u0000${contextKey}`);
  }

  /**
   * One copy of each key: subscribers that share results keep the same string (a key is built from several
   * parts, and each subscriber would otherwise keep its own copy and the pieces it was joined from).
   */
  function intern(key: string): string {
    const known = keys.get(key);
    if (known !== undefined) return known;
    if (keys.size >= MAX_INTERNED_KEYS) keys.clear();
    keys.set(key, key);
    return key;
  }

  function run(args: ExecutionArgs, event: unknown): MaybePromise<ExecutionResult> {
    stats.executions++;
    // No signal: one subscriber going away must not abort what the others receive.
    return execute({
      schema: args.schema,
      document: args.document,
      operationName: args.operationName,
      variableValues: args.variableValues,
      contextValue: args.contextValue,
      rootValue: event,
      fieldResolver: args.fieldResolver,
      typeResolver: args.typeResolver,
    });
  }

  function executeShared(args: ExecutionArgs, key: string, event: unknown): MaybePromise<ExecutionResult> {
    if (typeof event !== 'object' || event === null || options.shareable?.(event) === false) return run(args, event);
    let byKey = results.get(event);
    if (!byKey) {
      results.set(event, (byKey = new Map()));
      if (results.size > maxEvents) results.delete(results.keys().next().value!);
    }
    const cached = byKey.get(key);
    if (cached !== undefined) {
      stats.shared++;
      return cached;
    }
    const result = run(args, event);
    byKey.set(key, result);
    return result;
  }

  async function subscribeShared(args: ExecutionArgs, original: (args: ExecutionArgs) => unknown): Promise<unknown> {
    const operation = getOperationAST(args.document, args.operationName);
    if (!operation || operation.operation !== 'subscription' || (args as { signal?: unknown }).signal)
      return original(args);
    const key = shareKey(args, operation);
    if (key === null) return original(args);
    // Malformed variables: the original reports them in its own shape, without calling any resolver.
    if (
      getVariableValues(
        args.schema,
        operation.variableDefinitions ?? [],
        (args.variableValues ?? {}) as Record<string, unknown>,
      ).errors
    ) {
      return original(args);
    }
    const source = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in source)) return source; // { errors }: the subscribe resolver refused
    return new SharedResults(
      (source as AsyncIterable<unknown>)[Symbol.asyncIterator](),
      executeShared,
      args,
      key,
      operation,
    );
  }

  return {
    stats,
    onSubscribe({ subscribeFn, setSubscribeFn }) {
      const original = subscribeFn as unknown as (args: ExecutionArgs) => unknown;
      setSubscribeFn(((args: ExecutionArgs) => subscribeShared(args, original)) as never);
    },
  };
}

const frames = new WeakMap<object, string>();

/**
 * A graphql-transport-ws `next` frame for a result, byte for byte what
 * graphql-ws would send, with the payload serialized once per result object
 * however many sockets it goes to.
 */
export function nextFrame(id: string, result: ExecutionResult): string {
  let payload = frames.get(result);
  if (payload === undefined) {
    const { errors, ...rest } = result;
    payload = JSON.stringify({ ...rest, ...(errors ? { errors: errors.map((e) => e.toJSON()) } : {}) });
    frames.set(result, payload);
  }
  return `{"id":${JSON.stringify(id)},"type":"next","payload":${payload}}`;
}
