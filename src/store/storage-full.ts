/**
 * Storage that cannot take a write: a full disk (ENOSPC), a spent quota (EDQUOT), a read-only filesystem (EROFS),
 * or the PostgreSQL server's own disk full (SQLSTATE 53100). Such a failure answers STORAGE_FULL naming the cause
 * (src/schema/errors.ts), and the process remembers it for a while so `/readyz` says so (src/http/health.ts). Nothing
 * has to be reset when space returns: the next write simply succeeds, and the remembered condition runs out.
 */
import { ErrorCode } from '../domain/error-codes.js';
import { DomainError } from './errors.js';

/** errno codes of a filesystem that cannot take a write. */
const FILESYSTEM_CAUSES = new Set(['ENOSPC', 'EDQUOT', 'EROFS']);
/** PostgreSQL's disk_full. */
export const PG_DISK_FULL = '53100';
/** How long a storage failure keeps `/readyz` at 503 after it was last seen. */
export const STORAGE_CONDITION_HOLD_MS = 30_000;

const DESCRIPTIONS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exhausted',
  EROFS: 'the filesystem is read-only',
  [PG_DISK_FULL]: "the database server's disk is full (SQLSTATE 53100)",
};

/** What a storage cause means, in words. */
export function describeStorageCause(cause: string): string {
  return DESCRIPTIONS[cause] ?? cause;
}

function codeOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as { code?: unknown; sqlState?: unknown; meta?: { code?: unknown } };
  for (const c of [v.code, v.sqlState, v.meta?.code]) if (typeof c === 'string') return c;
  return undefined;
}

/**
 * The storage cause in an error or anything it wraps (`cause`, `originalError`, a driver adapter's `meta`), else
 * null. Prisma's driver adapters keep the database's SQLSTATE as `cause.originalCode` or in the message text.
 */
export function storageCause(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    if (current instanceof StorageFull) return current.storage;
    const code = codeOf(current);
    if (code && FILESYSTEM_CAUSES.has(code)) return code;
    if (code === PG_DISK_FULL) return PG_DISK_FULL;
    const c = current as { originalCode?: unknown; kind?: unknown; message?: unknown };
    if (c.originalCode === PG_DISK_FULL) return PG_DISK_FULL;
    if (typeof c.message === 'string' && /\b(ENOSPC|EDQUOT|EROFS)\b/.exec(c.message)) {
      return /\b(ENOSPC|EDQUOT|EROFS)\b/.exec(c.message)![1]!;
    }
    const next = current as { originalError?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    current = next.originalError ?? next.cause ?? next.meta?.driverAdapterError;
  }
  return null;
}

/** A write refused because storage is full or read-only; nothing of it was kept. */
export class StorageFull extends DomainError {
  /** ENOSPC, EDQUOT, EROFS or 53100 */
  readonly storage: string;
  constructor(cause: string, where?: string) {
    super(
      ErrorCode.STORAGE_FULL,
      `Storage is full or read-only${where ? ` (${where})` : ''}: ${describeStorageCause(cause)}. ` +
        'Nothing was saved; try again once space is freed.',
    );
    this.storage = cause;
  }
}

export interface StorageState {
  cause: string;
  description: string;
  /** ISO time of the last failure seen */
  lastSeen: string;
}

/** The last storage failure this process saw, remembered for {@link STORAGE_CONDITION_HOLD_MS}. */
export class StorageCondition {
  private last: { cause: string; at: number } | null = null;
  constructor(
    private readonly holdMs = STORAGE_CONDITION_HOLD_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records the error's storage cause when it has one; returns the cause (or null). */
  observe(error: unknown): string | null {
    const cause = storageCause(error);
    if (cause) this.last = { cause, at: this.now() };
    return cause;
  }

  /** The condition while it lasts, else null. */
  current(): StorageState | null {
    if (!this.last || this.now() - this.last.at > this.holdMs) return null;
    return {
      cause: this.last.cause,
      description: describeStorageCause(this.last.cause),
      lastSeen: new Date(this.last.at).toISOString(),
    };
  }
}

/** A directory the service writes to, and the setting that names it (`/readyz` checks each). */
export interface StorageDir {
  setting: string;
  dir: string;
}
