/**
 * Retention and bulk delete: the SQL that picks sessions to delete.
 *
 * A retention pass is one transaction: `pg_try_advisory_xact_lock` makes it
 * the only pass running on the database (another process's attempt answers
 * "busy" at once and does nothing), then one `DELETE … WHERE id IN (SELECT …
 * LIMIT n FOR UPDATE OF s SKIP LOCKED)` removes at most `n` expired sessions.
 * Row locks are the second guard: a row another transaction holds (a message
 * being appended) is skipped, never waited for or deleted twice. Every table
 * of a session cascades from `sessions` (messages, archive, memory chunks,
 * shares, turns, recalls, branches), exactly what `deleteSession` removes.
 */
import type { Database } from '../db/client.js';
import { STAGING_PREFIX } from '../domain/policy.js';
import { activeTurnSql } from './turns.js';

/** The advisory lock key of the retention sweep ('retentio' as a bigint; the migrations use Prisma's own key). */
export const RETENTION_LOCK_KEY = 0x726574656e74696fn;

export interface DeletedSession {
  id: string;
  userId: string | null;
}

export interface OwnSessionFilter {
  ids?: string[];
  inactiveBefore?: Date;
  profileId?: string;
  includePinned?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class RetentionStore {
  constructor(private readonly db: Database) {}

  /**
   * Deletes at most `limit` sessions inactive for longer than their retention
   * (the profile's `retention_days`, else `globalDays`; 0 = forever), never a
   * pinned one or one with an active turn, oldest first. Null when another
   * pass holds the sweep lock.
   */
  async deleteExpired(globalDays: number, limit: number): Promise<DeletedSession[] | null> {
    return this.db.prisma.$transaction(async (tx) => {
      const [lock] = await tx.$queryRawUnsafe<{ ok: boolean }[]>(
        'SELECT pg_try_advisory_xact_lock($1::bigint) AS ok',
        RETENTION_LOCK_KEY.toString(),
      );
      if (!lock?.ok) return null;
      if (globalDays === 0) {
        const [any] = await tx.$queryRawUnsafe<{ some: boolean }[]>(
          'SELECT EXISTS (SELECT 1 FROM profiles WHERE retention_days > 0) AS some',
        );
        if (!any?.some) return [];
      }
      return tx.$queryRawUnsafe<DeletedSession[]>(
        `DELETE FROM sessions WHERE id IN (
           SELECT s.id FROM sessions s JOIN profiles p ON p.id = s.profile_id
            WHERE NOT s.pinned
              -- a session an import is still writing is the import's (it hands it over or removes it)
              AND (s.user_id IS NULL OR s.user_id NOT LIKE '${STAGING_PREFIX}%')
              AND COALESCE(p.retention_days, $1::int) > 0
              AND s.last_active < now() - COALESCE(p.retention_days, $1::int) * interval '1 day'
              AND NOT EXISTS (SELECT 1 FROM turns t WHERE t.session_id = s.id AND ${activeTurnSql('t')})
              -- a recall or a queued message still to come is activity the session has been promised
              AND NOT EXISTS (SELECT 1 FROM pending_turns q
                               WHERE q.session_id = s.id AND q.status IN ('PENDING', 'CLAIMED'))
            ORDER BY s.last_active, s.id
            LIMIT $2
            FOR UPDATE OF s SKIP LOCKED)
         RETURNING id, user_id AS "userId"`,
        globalDays,
        limit,
      );
    });
  }

  /** Ids of `userId`'s own sessions matching every given criterion, oldest activity first, at most `limit`. */
  async ownMatching(userId: string, filter: OwnSessionFilter, limit: number): Promise<string[]> {
    const ids = filter.ids?.filter((id) => UUID.test(id));
    if (ids && ids.length === 0) return [];
    const rows = await this.db.prisma.session.findMany({
      where: {
        userId,
        ...(ids && { id: { in: ids } }),
        ...(filter.inactiveBefore && { lastActive: { lt: filter.inactiveBefore } }),
        ...(filter.profileId && { profileId: filter.profileId }),
        ...(!filter.includePinned && { pinned: false }),
      },
      select: { id: true },
      orderBy: [{ lastActive: 'asc' }, { id: 'asc' }],
      take: limit,
    });
    return rows.map((r) => r.id);
  }
}
