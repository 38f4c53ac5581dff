/**
 * The arguments of `@stream` that its type admits but the executor cannot run: `initialCount` is a nullable `Int`
 * (as @graphql-yoga/plugin-defer-stream declares it), and a negative or null count made Yoga's executor throw, an
 * INTERNAL_SERVER_ERROR. Checked once per operation before it executes, for literals and variables alike:
 * BAD_USER_INPUT instead, nothing run.
 */
import { GraphQLError, Kind, type DirectiveNode, type DocumentNode, type ValueNode, visit } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ErrorCode } from '../domain/error-codes.js';

/** An argument value as the operation gives it: a literal, or a variable's value (or its declared default). */
type Resolved = { given: false } | { given: true; value: unknown };

function literal(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.NULL:
      return null;
    case Kind.INT:
      return Number(node.value);
    default:
      return undefined;
  }
}

function resolve(
  node: ValueNode,
  variables: Record<string, unknown>,
  defaults: Map<string, ValueNode | undefined>,
): Resolved {
  if (node.kind !== Kind.VARIABLE) return { given: true, value: literal(node) };
  const name = node.name.value;
  if (Object.hasOwn(variables, name)) return { given: true, value: variables[name] };
  const fallback = defaults.get(name);
  return fallback ? { given: true, value: literal(fallback) } : { given: false };
}

function streamError(directive: DirectiveNode, value: unknown): GraphQLError | null {
  if (value === null)
    return reject(directive, '@stream(initialCount:) may not be null: omit it for 0, or give a count of 0 or more');
  if (typeof value === 'number' && value < 0)
    return reject(directive, `@stream(initialCount: ${value}) must be 0 or more`);
  return null;
}

function reject(directive: DirectiveNode, message: string): GraphQLError {
  return new GraphQLError(message, {
    nodes: directive,
    extensions: { code: ErrorCode.BAD_USER_INPUT, http: { spec: true, status: 400 } },
  });
}

interface StreamCounts {
  /** each `@stream` directive's `initialCount` argument, in document order */
  counts: { directive: DirectiveNode; value: ValueNode }[];
  /** the declared default of each variable */
  defaults: Map<string, ValueNode | undefined>;
}

/** What a document holds of the check, found once per document (parsed documents are cached and reused). */
const streamCountsOf = new WeakMap<DocumentNode, StreamCounts | null>();

function streamCounts(document: DocumentNode): StreamCounts | null {
  let found = streamCountsOf.get(document);
  if (found !== undefined) return found;
  const counts: StreamCounts['counts'] = [];
  visit(document, {
    Directive(directive) {
      if (directive.name.value !== 'stream') return;
      const count = directive.arguments?.find((a) => a.name.value === 'initialCount');
      if (count) counts.push({ directive, value: count.value });
    },
  });
  const defaults = new Map<string, ValueNode | undefined>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.OPERATION_DEFINITION)
      for (const v of definition.variableDefinitions ?? []) defaults.set(v.variable.name.value, v.defaultValue);
  found = counts.length > 0 ? { counts, defaults } : null;
  streamCountsOf.set(document, found);
  return found;
}

/** The first `@stream` argument of `document` the executor cannot run with these variables, or null. */
export function findBadDirectiveArgument(document: DocumentNode, variableValues: unknown): GraphQLError | null {
  const found = streamCounts(document);
  if (!found) return null;
  const variables = (variableValues ?? {}) as Record<string, unknown>;
  for (const { directive, value } of found.counts) {
    const resolved = resolve(value, variables, found.defaults);
    const error = resolved.given ? streamError(directive, resolved.value) : null;
    if (error) return error;
  }
  return null;
}

/** Envelop plugin: an operation with such an argument answers BAD_USER_INPUT and never executes. */
export function useDirectiveArgumentGuard(): Plugin {
  const check = ({
    args,
    setResultAndStopExecution,
  }: {
    args: { document: DocumentNode; variableValues?: unknown };
    setResultAndStopExecution: (r: never) => void;
  }) => {
    const error = findBadDirectiveArgument(args.document, args.variableValues);
    if (error) setResultAndStopExecution({ errors: [error] } as never);
  };
  return { onExecute: check, onSubscribe: check } as Plugin;
}
