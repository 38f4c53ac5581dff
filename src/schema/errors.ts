/** The one place domain errors become GraphQL errors with the contract's codes; everything else is masked. */
import { GraphQLError } from 'graphql';
import { isLockTimeout } from '../db/faults.js';
import { DomainError } from '../store/errors.js';

const CONTRACT_CODES = new Set([
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'BAD_USER_INPUT',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'NOTHING_TO_COMPACT',
  'CONTEXT_TOO_LARGE',
  'PROVIDER_UNAVAILABLE',
  'BUSY',
  'SERVICE_UNAVAILABLE',
  'GRAPHQL_VALIDATION_FAILED',
  'GRAPHQL_PARSE_FAILED',
]);

const BUSY_MESSAGE = 'The session is locked by another write; nothing was saved, try again.';

function findDomainError(error: unknown): { code: string; message: string } | null {
  // A row lock not granted within lock_timeout: the transaction rolled back whole.
  if (isLockTimeout(error)) return { code: 'BUSY', message: BUSY_MESSAGE };
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof DomainError) return current;
    const code = (current as { code?: unknown }).code ?? (current as GraphQLError).extensions?.code;
    if (typeof code === 'string' && CONTRACT_CODES.has(code) && current instanceof Error) {
      return { code, message: current.message };
    }
    current = (current as { originalError?: unknown; cause?: unknown }).originalError ?? (current as { cause?: unknown }).cause;
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
  const domain = found?.code === 'PROVIDER_UNAVAILABLE' ? { code: found.code, message: GENERIC_PROVIDER } : found;
  if (domain) {
    const path = error instanceof GraphQLError ? error.path : undefined;
    // An HTTP status set by a request-level error (413 for an oversized upload) survives masking.
    const http = error instanceof GraphQLError ? error.extensions?.http : undefined;
    return new GraphQLError(domain.message, { path, extensions: { code: domain.code, ...(http ? { http } : {}) } });
  }
  if (error instanceof GraphQLError) {
    const code = error.extensions?.code;
    if (typeof code === 'string' && CONTRACT_CODES.has(code)) return error;
    if (!error.originalError) return error; // validation / parse errors carry no internals
    // A variable that does not coerce (unknown field, wrong type) wraps only GraphQL errors: the client's input, not a fault.
    if (wrapsOnlyGraphQLErrors(error)) {
      return new GraphQLError(error.message, { nodes: error.nodes, path: error.path, extensions: { ...error.extensions, code: 'BAD_USER_INPUT' } });
    }
  }
  const path = error instanceof GraphQLError ? error.path : undefined;
  return new GraphQLError(message, { path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}
