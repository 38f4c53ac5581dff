/**
 * Every error code the service answers with, in one place: the error classes,
 * the mapper in src/schema/errors.ts, the request guards and the TurnFailed
 * event take their code from here, and test/unit/error-codes.test.ts checks
 * docs/api.md and the contract against it.
 */

/** Codes of GraphQL errors (`extensions.code`), listed in docs/api.md "Error codes". */
const GRAPHQL_ERROR_CODES = {
  // The contract's list (test/contract/api.graphql).
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  NOTHING_TO_COMPACT: 'NOTHING_TO_COMPACT',
  CONTEXT_TOO_LARGE: 'CONTEXT_TOO_LARGE',
  PROVIDER_UNAVAILABLE: 'PROVIDER_UNAVAILABLE',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
  // Additions.
  BUSY: 'BUSY',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  STORAGE_FULL: 'STORAGE_FULL',
  GRAPHQL_PARSE_FAILED: 'GRAPHQL_PARSE_FAILED',
  GRAPHQL_VALIDATION_FAILED: 'GRAPHQL_VALIDATION_FAILED',
  QUERY_TOO_COMPLEX: 'QUERY_TOO_COMPLEX',
  QUERY_TOO_DEEP: 'QUERY_TOO_DEEP',
  TOO_MANY_ALIASES: 'TOO_MANY_ALIASES',
  TOO_MANY_DIRECTIVES: 'TOO_MANY_DIRECTIVES',
  TOO_MANY_TOKENS: 'TOO_MANY_TOKENS',
  CSRF_HEADER_REQUIRED: 'CSRF_HEADER_REQUIRED',
  TOO_MANY_SUBSCRIPTIONS: 'TOO_MANY_SUBSCRIPTIONS',
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  INTROSPECTION_DISABLED: 'INTROSPECTION_DISABLED',
  PERSISTED_QUERY_ONLY: 'PERSISTED_QUERY_ONLY',
  PERSISTED_QUERY_NOT_FOUND: 'PERSISTED_QUERY_NOT_FOUND',
  // Yoga's own, for a request that is not GraphQL at all.
  BAD_REQUEST: 'BAD_REQUEST',
} as const;

/** Causes of a failed model call (TurnFailed.code), listed in docs/api.md "Provider errors". */
const PROVIDER_ERROR_CODES = {
  MODEL_NOT_FOUND: 'MODEL_NOT_FOUND',
  PROVIDER_UNAVAILABLE: 'PROVIDER_UNAVAILABLE',
  PROVIDER_RATE_LIMITED: 'PROVIDER_RATE_LIMITED',
  PROVIDER_REJECTED: 'PROVIDER_REJECTED',
} as const;

/** How a turn left running by a process ends (TurnFailed.code). */
const TURN_END_CODES = {
  INTERRUPTED: 'INTERRUPTED',
  SHUTDOWN: 'SHUTDOWN',
  /** a row lock held past DATABASE_LOCK_TIMEOUT_MS at the final save: INTERRUPTED, the answer stored once it frees */
  LOCK_TIMEOUT: 'LOCK_TIMEOUT',
} as const;

export const ErrorCode = { ...GRAPHQL_ERROR_CODES, ...PROVIDER_ERROR_CODES, ...TURN_END_CODES } as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export type GraphQLErrorCode = (typeof GRAPHQL_ERROR_CODES)[keyof typeof GRAPHQL_ERROR_CODES];
export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[keyof typeof PROVIDER_ERROR_CODES];
export type TurnEndCode = (typeof TURN_END_CODES)[keyof typeof TURN_END_CODES];

export const graphqlErrorCodes: readonly GraphQLErrorCode[] = Object.values(GRAPHQL_ERROR_CODES);
export const providerErrorCodes: readonly ProviderErrorCode[] = Object.values(PROVIDER_ERROR_CODES);

/** The contract's list: what test/contract/api.graphql promises `extensions.code` is one of. */
export const contractErrorCodes: readonly GraphQLErrorCode[] = [
  ErrorCode.UNAUTHENTICATED,
  ErrorCode.FORBIDDEN,
  ErrorCode.NOT_FOUND,
  ErrorCode.BAD_USER_INPUT,
  ErrorCode.CONFLICT,
  ErrorCode.PAYLOAD_TOO_LARGE,
  ErrorCode.NOTHING_TO_COMPACT,
  ErrorCode.CONTEXT_TOO_LARGE,
  ErrorCode.PROVIDER_UNAVAILABLE,
  ErrorCode.INTERNAL_SERVER_ERROR,
];
