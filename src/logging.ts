/**
 * Logs people can read and nobody can mine. Client mistakes (any GraphQL
 * error that is not INTERNAL_SERVER_ERROR) are one short line at info
 * (authentication and access) or debug (the rest), with the code and the
 * path, never the message: messages quote variable values and query text.
 * Server faults are one line at error with the error's type, a scrubbed,
 * capped message and the stack frames. No request parameters reach a log
 * line: yoga's own debug/info chatter is dropped, and a redact list blanks
 * header-, token- and content-like fields as a backstop.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { ErrorCode } from './domain/error-codes.js';

/** Longest error message kept in a log line, after scrubbing. */
const MESSAGE_MAX = 200;
const STACK_FRAMES = 15;

/** Fields that never reach a log line, whatever logs them. */
export const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.authorization',
  '*.Authorization',
  '*.cookie',
  'headers["x-share-token"]',
  '*.headers["x-share-token"]',
  '*["x-share-token"]',
  'headers["x-api-key"]',
  '*.headers["x-api-key"]',
  '*["x-api-key"]',
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'key',
  '*.key',
  'password',
  '*.password',
  'secret',
  '*.secret',
  'jwt',
  '*.jwt',
  'variables',
  '*.variables',
  'query',
  '*.query',
  'params',
  '*.params',
  'content',
  '*.content',
  'search',
  '*.search',
];

/**
 * An error message fit for a log: quoted text and long token-like runs (keys,
 * share tokens, JWTs, ids of other people's data) replaced, cut to
 * {@link MESSAGE_MAX}. Every pattern is linear (test/regex-safety.test.ts).
 */
export function scrubMessage(message: string): string {
  const head = message.length > 4 * MESSAGE_MAX ? message.slice(0, 4 * MESSAGE_MAX) : message;
  const scrubbed = head
    .replace(/"[^"\n]*"/g, '"…"')
    .replace(/'[^'\n]*'/g, "'…'")
    .replace(/`[^`\n]*`/g, '`…`')
    .replace(/[A-Za-z0-9_\-.+/=]{20,}/g, '[redacted]')
    .replace(/\s+/g, ' ');
  return scrubbed.length > MESSAGE_MAX ? `${scrubbed.slice(0, MESSAGE_MAX)}…` : scrubbed;
}

/** Only the `at …` frames of a stack: its first line repeats the (unscrubbed) message. */
function framesOf(stack: unknown): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const frames = stack
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at '))
    .slice(0, STACK_FRAMES);
  return frames.length ? frames.join('\n') : undefined;
}

export interface SafeError {
  type: string;
  code?: string;
  message: string;
  stack?: string;
  cause?: SafeError;
}

/**
 * pino serializer for `err`: type, code, scrubbed message, frames; none of an error's other fields (they hold
 * arguments).
 */
export function safeError(error: unknown, depth = 0): SafeError {
  if (!(error instanceof Error)) return { type: typeof error, message: scrubMessage(String(error)) };
  const code = (error as { code?: unknown }).code ?? (error as { extensions?: { code?: unknown } }).extensions?.code;
  const out: SafeError = {
    type: error.constructor?.name || error.name || 'Error',
    message: scrubMessage(error.message ?? ''),
  };
  if (typeof code === 'string' || typeof code === 'number') out.code = String(code).slice(0, 40);
  const stack = framesOf(error.stack);
  if (stack) out.stack = stack;
  const inner = (error as { originalError?: unknown }).originalError ?? error.cause;
  if (inner && depth < 2) out.cause = safeError(inner, depth + 1);
  return out;
}

/** pino options every logger of the service uses: the redact list and the safe error serializer. */
export function loggerOptions(level: string) {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: safeError, error: safeError },
  };
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = loggerOptions(level);
  return destination ? pino(options, destination) : pino(options);
}

/** Codes whose log line is kept at info: who failed to get in, or was kept out. */
const ACCESS_CODES = new Set<string>([ErrorCode.UNAUTHENTICATED, ErrorCode.FORBIDDEN]);

/**
 * One line per GraphQL error that reached the client: a server fault at error
 * with its (safe) stack, a client mistake at info/debug with its code only.
 */
export function logGraphQLError(
  log: Logger,
  error: unknown,
  code: string | undefined,
  path?: readonly (string | number)[],
): void {
  const where = path?.length ? path.join('.').slice(0, 200) : undefined;
  if (code === ErrorCode.INTERNAL_SERVER_ERROR) {
    const original = (error as { originalError?: unknown }).originalError ?? error;
    log.error({ err: original, path: where }, 'graphql.unexpected_error');
    return;
  }
  // No code: a GraphQL error with no internals (a validation rule of a plugin).
  const fields = { code: code ?? 'NO_CODE', path: where };
  if (code && ACCESS_CODES.has(code)) log.info(fields, 'graphql.client_error');
  else log.debug(fields, 'graphql.client_error');
}

/**
 * Yoga's logger. Its debug/info lines are dropped (they narrate request
 * handling; newer versions print the request parameters). Its errors are the
 * ones our maskError callback has already logged, so they go to debug with the
 * type only; a warning keeps a fixed text.
 */
export function yogaLogger(log: Logger) {
  const typeOf = (args: unknown[]) => (args[0] instanceof Error ? args[0].constructor?.name : typeof args[0]);
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: (...args: unknown[]) => log.warn({ type: typeOf(args) }, 'graphql.yoga_warning'),
    error: (...args: unknown[]) => log.debug({ type: typeOf(args) }, 'graphql.yoga_error'),
  };
}
