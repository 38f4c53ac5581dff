/**
 * Scheduled recalls: every SQL statement about the `recalls` table.
 *
 * A due row is fired in two steps. `claimDue` marks it CLAIMED by one
 * process (FOR UPDATE SKIP LOCKED: two processes never claim one row; a
 * claim is a lease that another process may take over once it is older than
 * the lease, or at once when the store is this process's alone). Then
 * `lockClaimed` + `markFired` run inside the transaction that appends the
 * recall message and creates its turn: the row is locked, still CLAIMED by
 * this process, and leaves the transaction FIRED, so a crash anywhere before
 * the commit leaves a claim to re-take, and after it nothing to fire again.
 */
import type { Database } from '../db/client.js';
import { recordFailureSql } from './pending-failures.js';
import { activeTurnSql } from './turns.js';
import type { Prisma, Recall as PrismaRecall } from '../generated/prisma/client.js';

type Tx = Prisma.TransactionClient;

/** A recalls row as the services see it. */
export type Recall = PrismaRecall;

export const RECALL_ACTIVE = ['PENDING', 'CLAIMED'];

/** A session with an active turn waits: its due recalls are claimed once the turn has ended. */
const NO_ACTIVE_TURN = `NOT EXISTS (SELECT 1 FROM turns t WHERE t.session_id = r.session_id AND ${activeTurnSql('t')})`;

interface RecallRow {
  id: string;
  session_id: string;
  owner: string | null;
  source: string;
  due_at: Date;
  text: string;
  status: string;
  claimed_by: string | null;
  claimed_at: Date | null;
  attempts: number;
  message_sequence: number | null;
  turn_id: string | null;
  fired_at: Date | null;
  cancelled_at: Date | null;
  failures: number;
  failure_reason: string | null;
  failed_at: Date | null;
  created_at: Date;
}

const COLUMNS = `id, session_id, owner, source, due_at, text, status, claimed_by, claimed_at, attempts,
  message_sequence, turn_id, fired_at, cancelled_at, failures, failure_reason, failed_at, created_at`;

function fromRow(r: RecallRow): Recall {
  const date = (v: Date | string | null) => (v === null ? null : new Date(v));
  return {
    id: r.id,
    sessionId: r.session_id,
    owner: r.owner,
    source: r.source,
    dueAt: date(r.due_at)!,
    text: r.text,
    status: r.status,
    claimedBy: r.claimed_by,
    claimedAt: date(r.claimed_at),
    attempts: r.attempts,
    messageSequence: r.message_sequence,
    turnId: r.turn_id,
    firedAt: date(r.fired_at),
    cancelledAt: date(r.cancelled_at),
    failures: r.failures,
    failureReason: r.failure_reason,
    failedAt: date(r.failed_at),
    createdAt: date(r.created_at)!,
  };
}

export class RecallStore {
  constructor(readonly db: Database) {}

  private get prisma() {
    return this.db.prisma;
  }

  create(input: { sessionId: string; owner: string | null; source: string; dueAt: Date; text: string }) {
    return this.prisma.recall.create({ data: input });
  }

  get(id: string) {
    return this.prisma.recall.findUnique({ where: { id } });
  }

  countActive(sessionId: string) {
    return this.prisma.recall.count({ where: { sessionId, status: { in: RECALL_ACTIVE } } });
  }

  /** Pending (and claimed) first, soonest first; then, when asked, fired and cancelled ones, newest first. */
  async list(sessionId: string, options: { includeFinished: boolean; first: number }): Promise<Recall[]> {
    const active = await this.prisma.recall.findMany({
      where: { sessionId, status: { in: RECALL_ACTIVE } },
      orderBy: [{ dueAt: 'asc' }, { id: 'asc' }],
      take: options.first,
    });
    if (!options.includeFinished || active.length >= options.first) return active;
    const finished = await this.prisma.recall.findMany({
      where: { sessionId, status: { notIn: RECALL_ACTIVE } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: options.first - active.length,
    });
    return [...active, ...finished];
  }

  /**
   * PENDING or CLAIMED → CANCELLED; null when the row is in neither (fired, cancelled, gone). A firing transaction
   * holds the row: this waits for it.
   */
  async cancel(id: string): Promise<Recall | null> {
    const rows = await this.prisma.$queryRawUnsafe<RecallRow[]>(
      `UPDATE recalls SET status = 'CANCELLED', cancelled_at = now(), claimed_by = NULL, claimed_at = NULL
       WHERE id = $1::uuid AND status IN ('PENDING', 'CLAIMED') RETURNING ${COLUMNS}`,
      id,
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /**
   * A firing of a recall `claimant` holds failed: counted, and the claim given back; the `maxFailures`-th failure
   * parks it FAILED with `reason`. Null when the claim was no longer ours.
   */
  async recordFailure(id: string, claimant: string, reason: string, maxFailures: number): Promise<Recall | null> {
    const rows = await this.prisma.$queryRawUnsafe<RecallRow[]>(
      recordFailureSql('recalls', COLUMNS),
      id,
      claimant,
      reason,
      maxFailures,
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /**
   * Claims up to `limit` due recalls for `claimant`: PENDING ones due now,
   * and CLAIMED ones whose lease expired (their claimant died between claim
   * and commit). With `exclusive`, every other claimant's claim is a previous
   * run of this process's: taken over at once.
   */
  async claimDue(claimant: string, leaseMs: number, limit: number, exclusive: boolean): Promise<Recall[]> {
    const rows = await this.prisma.$queryRawUnsafe<RecallRow[]>(
      `UPDATE recalls SET status = 'CLAIMED', claimed_by = $1, claimed_at = now(), attempts = attempts + 1
       WHERE id IN (
         SELECT r.id FROM recalls r
         WHERE r.due_at <= now()
           AND (r.status = 'PENDING'
                OR (r.status = 'CLAIMED' AND (r.claimed_at < now() - $2::int * interval '1 millisecond'
                                              OR ($4::boolean AND r.claimed_by IS DISTINCT FROM $1))))
           AND ${NO_ACTIVE_TURN}
         ORDER BY r.due_at, r.id
         LIMIT $3
         FOR UPDATE OF r SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      claimant,
      leaseMs,
      limit,
      exclusive,
    );
    return rows.map(fromRow).sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime());
  }

  /**
   * Milliseconds until the next recall this process could claim (negative:
   * overdue), or null when none is waiting. Sessions with a running turn are
   * left out: they are woken when the turn ends (or by the poll).
   */
  async nextDueInMs(leaseMs: number): Promise<number | null> {
    const rows = await this.prisma.$queryRawUnsafe<{ ms: number | null }[]>(
      `SELECT (extract(epoch FROM (min(CASE WHEN r.status = 'PENDING' THEN r.due_at
                                        ELSE greatest(r.due_at, r.claimed_at + $1::int * interval '1 millisecond') ` +
        `END) - now())) * 1000)::float8 AS ms
       FROM recalls r WHERE r.status IN ('PENDING', 'CLAIMED') AND ${NO_ACTIVE_TURN}`,
      leaseMs,
    );
    const ms = rows[0]?.ms;
    return ms === null || ms === undefined ? null : Number(ms);
  }

  /** Inside the firing transaction: the row, locked, if it is still CLAIMED by `claimant`. */
  async lockClaimed(tx: Tx, id: string, claimant: string): Promise<Recall | null> {
    const rows = await tx.$queryRawUnsafe<RecallRow[]>(
      `SELECT ${COLUMNS} FROM recalls WHERE id = $1::uuid AND status = 'CLAIMED' AND claimed_by = $2 FOR UPDATE`,
      id,
      claimant,
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async markFired(tx: Tx, id: string, messageSequence: number, turnId: string): Promise<Recall> {
    return tx.recall.update({ where: { id }, data: { status: 'FIRED', firedAt: new Date(), messageSequence, turnId } });
  }

  /** A claim given back (the session started a turn meanwhile): PENDING again, claimed at the next wake-up. */
  async release(id: string, claimant: string): Promise<void> {
    await this.prisma.recall.updateMany({
      where: { id, status: 'CLAIMED', claimedBy: claimant },
      data: { status: 'PENDING', claimedBy: null, claimedAt: null },
    });
  }
}
