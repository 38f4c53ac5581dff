/** The one place domain errors become GraphQL errors with the contract's codes; everything else is masked. */
import { GraphQLError } from 'graphql';
import { isLockTimeout } from '../db/faults.js';
import { contractErrorCodes, ErrorCode } from '../domain/error-codes.js';
import { DomainError } from '../store/errors.js';
import { StorageFull, storageCause } from '../store/storage-full.js';
import { wantedTypeOf } from './ids.js';

/**
 * Codes whose errors keep their message through masking: the contract's list (but
 * INTERNAL_SERVER_ERROR, which is what masking answers) and the additions below
 * (the guards' own codes pass as the GraphQL errors they are).
 */
const PASSED_CODES = new Set<string>([
  ...contractErrorCodes.filter((code) => code !== ErrorCode.INTERNAL_SERVER_ERROR),
  ErrorCode.BUSY,
  ErrorCode.SERVICE_UNAVAILABLE,
  ErrorCode.STORAGE_FULL,
  ErrorCode.GRAPHQL_VALIDATION_FAILED,
  ErrorCode.GRAPHQL_PARSE_FAILED,
  // Request limits (graphql-armor rules, see src/schema/limits.ts) and the CSRF header rule.
  ErrorCode.QUERY_TOO_COMPLEX,
  ErrorCode.QUERY_TOO_DEEP,
  ErrorCode.TOO_MANY_ALIASES,
  ErrorCode.TOO_MANY_DIRECTIVES,
  ErrorCode.TOO_MANY_TOKENS,
  ErrorCode.CSRF_HEADER_REQUIRED,
]);

const BUSY_MESSAGE = 'The session is locked by another write; nothing was saved, try again.';
/**
 * The HTTP status of an error that ends a request before any `data` exists
 * (GraphQL-over-HTTP: a response without `data` is 4xx/5xx). `spec: true`
 * keeps application/json responses at 200, as that media type asks.
 */
function requestStatus(code: string) {
  const status =
    code === ErrorCode.UNAUTHENTICATED
      ? 401
      : code === ErrorCode.FORBIDDEN
        ? 403
        : code === ErrorCode.INTERNAL_SERVER_ERROR
          ? 500
          : 400;
  return { spec: true, status };
}

/**
 * graphql-js's variable coercion errors ("Variable "$x" got invalid value …",
 * "… of required type … was not provided", "… must not be null") are the
 * caller's mistake. They are raised before any resolver, so they carry no path.
 */
function isVariableError(error: GraphQLError): boolean {
  return !error.path && error.message.startsWith('Variable "$');
}

function findDomainError(
  error: unknown,
): { code: string; message: string; extensions?: Readonly<Record<string, unknown>> } | null {
  // A row lock not granted within lock_timeout: the transaction rolled back whole.
  if (isLockTimeout(error)) return { code: ErrorCode.BUSY, message: BUSY_MESSAGE };
  // A full or read-only disk (ENOSPC, EDQUOT, EROFS) or the database server's disk full (53100), wherever it was hit.
  const storage = storageCause(error);
  if (storage) return new StorageFull(storage);
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof DomainError) return current;
    // `t.arg.globalID({ for })` refusing an id of another type (or none): the caller's input.
    const wanted = current instanceof Error ? wantedTypeOf(current) : null;
    if (wanted) return { code: ErrorCode.BAD_USER_INPUT, message: `Malformed ${wanted} id` };
    // Prisma's "required record not found" (Pothos' prismaNode loads with findUniqueOrThrow): a missing row.
    if (
      (current as { code?: unknown }).code === 'P2025' &&
      (current as Error).name === 'PrismaClientKnownRequestError'
    ) {
      return { code: ErrorCode.NOT_FOUND, message: 'Not found' };
    }
    const code = (current as { code?: unknown }).code ?? (current as GraphQLError).extensions?.code;
    if (typeof code === 'string' && PASSED_CODES.has(code) && current instanceof Error) {
      return { code, message: current.message };
    }
    current =
      (current as { originalError?: unknown; cause?: unknown }).originalError ?? (current as { cause?: unknown }).cause;
  }
  return null;
}

function wrapsOnlyGraphQLErrors(error: GraphQLError): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5; depth++) {
    if (!(current instanceof GraphQLError)) return false;
    if (!current.originalError) return true;
    current = current.originalError;
  }
  return false;
}

const GENERIC_PROVIDER = 'The model provider is unavailable or stopped answering; try again.';

/** Yoga's maskError: known errors keep their code and message; the rest become INTERNAL_SERVER_ERROR. */
export function maskError(error: unknown, message: string): Error {
  const found = findDomainError(error);
  // Provider errors carry hosts and upstream text: clients get the code and a generic message.
  const domain =
    found?.code === ErrorCode.PROVIDER_UNAVAILABLE ? { code: found.code, message: GENERIC_PROVIDER } : found;
  if (domain) {
    const path = error instanceof GraphQLError ? error.path : undefined;
    // An HTTP status set by a request-level error (413 for an oversized upload) survives masking;
    // a request-level error without one (no path: the request never reached a field) gets one.
    const http =
      (error instanceof GraphQLError ? error.extensions?.http : undefined) ??
      (path ? undefined : requestStatus(domain.code));
    // A domain error's own extensions (CONFLICT's currentMessageId) come first: code and http are the contract's.
    const extra = 'extensions' in domain ? domain.extensions : undefined;
    return new GraphQLError(domain.message, {
      path,
      extensions: { ...extra, code: domain.code, ...(http ? { http } : {}) },
    });
  }
  if (error instanceof GraphQLError) {
    const code = error.extensions?.code;
    if (typeof code === 'string' && PASSED_CODES.has(code)) return error;
    if (isVariableError(error)) {
      return new GraphQLError(error.message, {
        nodes: error.nodes,
        extensions: {
          code: ErrorCode.BAD_USER_INPUT,
          http: error.extensions?.http ?? requestStatus(ErrorCode.BAD_USER_INPUT),
        },
      });
    }
    if (!error.originalError && !error.path) {
      // validation / parse errors carry no internals; each still gets a code
      if (typeof code === 'string') return error;
      // Parse errors outside an HTTP request (graphql-ws) arrive without Yoga's code.
      const fallback = error.message.startsWith('Syntax Error:')
        ? ErrorCode.GRAPHQL_PARSE_FAILED
        : ErrorCode.GRAPHQL_VALIDATION_FAILED;
      return new GraphQLError(error.message, {
        nodes: error.nodes,
        extensions: { ...error.extensions, code: fallback, http: error.extensions?.http ?? requestStatus(fallback) },
      });
    }
    // A variable that does not coerce (unknown field, wrong type) wraps only GraphQL errors: the client's input, not a
    // fault.
    if (error.originalError && wrapsOnlyGraphQLErrors(error)) {
      return new GraphQLError(error.message, {
        nodes: error.nodes,
        path: error.path,
        extensions: { ...error.extensions, code: ErrorCode.BAD_USER_INPUT },
      });
    }
  }
  const path = error instanceof GraphQLError ? error.path : undefined;
  return new GraphQLError(message, {
    path,
    extensions: {
      code: ErrorCode.INTERNAL_SERVER_ERROR,
      ...(path ? {} : { http: requestStatus(ErrorCode.INTERNAL_SERVER_ERROR) }),
    },
  });
}
