/**
 * Captures the raw SQL a database handle sends: Prisma's `$queryRawUnsafe`
 * (a `$extends` hook), the raw driver's `boundedQuery` (search) and, unless `prismaOnly`, its `query`. A
 * test builds its app on `db` and reads `statements` around the request it
 * checks (`capture()` starts a fresh list, `stop()` ends it).
 */
import type { Database } from '../../src/db/client.js';

export interface StatementCapture {
  /** the wrapped handle to build the app on */
  db: Database;
  /** each statement sent since capture(): [sql, ...params]; undefined when not capturing */
  statements: unknown[][] | undefined;
  capture(): unknown[][];
  stop(): unknown[][];
}

export function captureStatements(opened: Database, options: { prismaOnly?: boolean } = {}): StatementCapture {
  const capture: StatementCapture = {
    db: opened,
    statements: undefined,
    capture: () => {
      capture.statements = [];
      return capture.statements;
    },
    stop: () => {
      const seen = capture.statements ?? [];
      capture.statements = undefined;
      return seen;
    },
  };
  const prisma = opened.prisma.$extends({
    query: {
      $allOperations: ({ operation, args, query }) => {
        if (capture.statements && operation === '$queryRawUnsafe') capture.statements.push([...(args as unknown[])]);
        return query(args);
      },
    },
  });
  const rawQuery = opened.raw.query.bind(opened.raw);
  const boundedQuery = opened.raw.boundedQuery.bind(opened.raw);
  // The search's statements (RawDriver.boundedQuery) are captured either way.
  const bounded = {
    boundedQuery: <T>(sql: string, params: unknown[], timeoutMs: number) => {
      capture.statements?.push([sql, ...params]);
      return boundedQuery<T>(sql, params, timeoutMs);
    },
  };
  const raw = options.prismaOnly
    ? { ...opened.raw, ...bounded }
    : {
        ...opened.raw,
        ...bounded,
        query: (sql: string, params: unknown[] = []) => {
          capture.statements?.push([sql, ...params]);
          return rawQuery(sql, params);
        },
      };
  capture.db = { ...opened, prisma, raw } as unknown as Database;
  return capture;
}
