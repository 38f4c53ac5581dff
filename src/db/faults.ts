/**
 * Database blips: which errors mean "the connection broke" (a retry on a new
 * connection can succeed) or "a row lock was not granted in time" (answered
 * BUSY), and the one place where reads are retried for the first.
 */
import type { PrismaClient } from '../generated/prisma/client.js';

/** Admin/crash shutdown of the backend, broken sockets, connection failures (SQLSTATE class 08). */
const CONNECTION_CODES = /^(57P0[123]|08\d{3}|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|P1001|P1017)$/;
const CONNECTION_TEXT =
  /Connection terminated|terminating connection|server closed the connection|ECONNRESET|EPIPE|Client has encountered a connection error|Connection ended unexpectedly/i;

/** Walks an error, its `cause` chain and Prisma's driver-adapter metadata. */
function* layers(error: unknown): Generator<Record<string, unknown>> {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
    const layer = current as Record<string, unknown>;
    yield layer;
    const meta = layer.meta as Record<string, unknown> | undefined;
    const adapter = meta?.driverAdapterError as Record<string, unknown> | undefined;
    current = layer.cause ?? adapter?.cause ?? adapter ?? meta?.cause;
  }
}

function matches(error: unknown, codes: RegExp, text: RegExp): boolean {
  for (const layer of layers(error)) {
    for (const key of ['code', 'originalCode', 'kind']) {
      const value = layer[key];
      if (typeof value === 'string' && codes.test(value)) return true;
    }
    for (const key of ['message', 'originalMessage']) {
      const value = layer[key];
      if (typeof value === 'string' && text.test(value)) return true;
    }
  }
  return false;
}

export function isConnectionError(error: unknown): boolean {
  return matches(error, CONNECTION_CODES, CONNECTION_TEXT);
}

/** lock_timeout expired (55P03 lock_not_available). */
export function isLockTimeout(error: unknown): boolean {
  return matches(error, /^55P03$/, /canceling statement due to lock timeout|could not obtain lock/i);
}

/**
 * SQLSTATEs and client codes of failures that say nothing about the statement: the same work can succeed when tried
 * again (class 08 connection, 40001 serialization, 40P01 deadlock, 55P03 lock timeout, 57P0x shutdown, 53xxx
 * resources; Prisma's pool timeout P2024, transaction conflict P2034, its connection and timeout codes
 * P1001/P1002/P1008/P1017). Not a statement timeout (57014) nor a 58xxx system error: the same work can fail the same
 * way every time, so those count toward PENDING_MAX_ATTEMPTS and park the entry instead of retrying forever.
 */
const TRANSIENT_CODES =
  /^(08\w{3}|40001|40P01|55P03|57P0[1-4]|53\w{3}|P1001|P1002|P1008|P1017|P2024|P2034|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|TransactionWriteConflict|SocketTimeout)$/;
const TRANSIENT_TEXT =
  /could not serialize access|deadlock detected|lock timeout|Timed out fetching a new connection|Transaction already closed|expired transaction/i;

/**
 * A failure of the database, not of the work: a connection lost, a lock not granted in time, a serialization
 * failure or deadlock, a server shutting down or out of resources. A pending entry whose dispatch failed this way
 * is tried again without counting toward PENDING_MAX_ATTEMPTS.
 */
export function isTransientDbError(error: unknown): boolean {
  return isConnectionError(error) || isLockTimeout(error) || matches(error, TRANSIENT_CODES, TRANSIENT_TEXT);
}

const READS = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'count',
  'aggregate',
  'groupBy',
]);
/** Setting the same values twice leaves the same row: safe to repeat when unsure whether the first ran. */
const SET_WRITES = new Set(['update', 'updateMany', 'updateManyAndReturn']);
const NOT_IDEMPOTENT = new Set([
  'increment',
  'decrement',
  'multiply',
  'divide',
  'push',
  'create',
  'createMany',
  'connect',
  'connectOrCreate',
  'upsert',
  'delete',
  'deleteMany',
  'disconnect',
]);

/** Plain SELECTs (not data-modifying CTEs, which start with WITH). */
export function isReadOnlySql(sql: unknown): boolean {
  return (
    typeof sql === 'string' &&
    /^\s*SELECT\b/i.test(sql) &&
    !/\bFOR\s+(UPDATE|SHARE|NO KEY UPDATE|KEY SHARE)\b/i.test(sql)
  );
}

function retryable(operation: string, args: unknown): boolean {
  if (READS.has(operation)) return true;
  if (operation === '$queryRawUnsafe') return isReadOnlySql((args as unknown[])?.[0]);
  if (operation === '$queryRaw') {
    const sql = args as { strings?: readonly string[]; sql?: string } | undefined;
    return isReadOnlySql(sql?.sql ?? sql?.strings?.join('?'));
  }
  if (SET_WRITES.has(operation)) {
    const data = (args as { data?: Record<string, unknown> } | undefined)?.data ?? {};
    return Object.values(data).every(
      (value) =>
        value === null ||
        typeof value !== 'object' ||
        Array.isArray(value) ||
        value instanceof Date ||
        !Object.keys(value).some((k) => NOT_IDEMPOTENT.has(k)),
    );
  }
  return false;
}

/**
 * Pauses before each retry: while a server terminates connections one by one,
 * the next idle pooled connection may be dead too, its error not yet read.
 */
export const RETRY_DELAYS_MS = [10, 100, 500];

/**
 * A read (or a write that only sets values) that failed because its pooled
 * connection was terminated or reset runs again: the pool has dropped that
 * connection, the retry gets another. Inside an interactive
 * transaction the retry fails again and the transaction's error stands.
 */
export function retryOnConnectionError(
  prisma: PrismaClient,
  onRetry: (error: unknown, operation: string) => void = () => undefined,
): PrismaClient {
  return prisma.$extends({
    query: {
      async $allOperations({ operation, args, query }) {
        for (let attempt = 0; ; attempt++) {
          try {
            return await query(args);
          } catch (error) {
            if (attempt >= RETRY_DELAYS_MS.length || !isConnectionError(error) || !retryable(operation, args))
              throw error;
            onRetry(error, operation);
            await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
          }
        }
      },
    },
  }) as unknown as PrismaClient;
}
