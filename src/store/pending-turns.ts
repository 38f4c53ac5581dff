/**
 * The one pending-turn table, `pending_turns` (migration 20261207000100): queued messages and steers (kind QUEUE,
 * STEER; src/store/queued.ts) and scheduled recalls (kind RECALL; src/store/recalls.ts) wait here, and one
 * dispatcher (src/turns/dispatcher.ts) claims them under one lease.
 *
 * A row leaves PENDING exactly once, inside the transaction that appends its user message (a STEER row taken by the
 * running turn, src/store/queued.ts `lockSteers`; every other row through `claimHeads` here, then `lockClaimed` in
 * the transaction that appends the message and starts the turn). A claim is a lease: another process takes it over
 * once it is older than PENDING_LEASE_MS (at once on the embedded store, which is this process's alone), so a crash
 * between claim and commit leaves a claim to re-take, and a crash after the commit nothing to dispatch again.
 */
import type { Database } from '../db/client.js';
import type { Prisma, PendingTurn } from '../generated/prisma/client.js';
import { activeTurnSql } from './turns.js';

type Tx = Prisma.TransactionClient;

export type { PendingTurn };
/** Statuses of a row that still waits. */
export const PENDING_ACTIVE = ['PENDING', 'CLAIMED'];

export interface PendingRow {
  id: string;
  session_id: string;
  seq: bigint | number | string;
  kind: string;
  content: string;
  message: unknown;
  client_tools: unknown;
  idempotency_key: string | null;
  owner: string | null;
  source: string | null;
  due_at: Date | string | null;
  status: string;
  claimed_by: string | null;
  claimed_at: Date | string | null;
  attempts: number;
  turn_id: string | null;
  message_sequence: number | null;
  dispatched_at: Date | string | null;
  cancelled_at: Date | string | null;
  failures: number;
  failure_reason: string | null;
  failed_at: Date | string | null;
  created_at: Date | string;
}

export const PENDING_COLUMNS = `id, session_id, seq, kind, content, message, client_tools, idempotency_key, owner,
  source, due_at, status, claimed_by, claimed_at, attempts, turn_id, message_sequence, dispatched_at, cancelled_at,
  failures, failure_reason, failed_at, created_at`;

/**
 * A json column as the driver hands it over: parsed already (node-postgres), or its text (PGlite's raw queries).
 * A column holding a JSON string is parsed by the driver into a plain string that is not JSON text: kept as it is
 * (a malformed entry is parked by its dispatcher, it must not make every claim throw).
 */
function jsonColumn(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

export function pendingFromRow(r: PendingRow): PendingTurn {
  const date = (v: Date | string | null) => (v === null ? null : new Date(v));
  return {
    id: r.id,
    sessionId: r.session_id,
    seq: BigInt(r.seq),
    kind: r.kind,
    content: r.content,
    message: jsonColumn(r.message) as PendingTurn['message'],
    clientTools: jsonColumn(r.client_tools) as PendingTurn['clientTools'],
    idempotencyKey: r.idempotency_key,
    owner: r.owner,
    source: r.source,
    dueAt: date(r.due_at),
    status: r.status,
    claimedBy: r.claimed_by,
    claimedAt: date(r.claimed_at),
    attempts: r.attempts,
    turnId: r.turn_id,
    messageSequence: r.message_sequence,
    dispatchedAt: date(r.dispatched_at),
    cancelledAt: date(r.cancelled_at),
    failures: r.failures,
    failureReason: r.failure_reason,
    failedAt: date(r.failed_at),
    createdAt: date(r.created_at)!,
  };
}

/** When a waiting row is ready to run, and its place among its session's ready rows. */
const ORDER_KEY = (a: string) => `(coalesce(${a}.due_at, ${a}.created_at), ${a}.seq)`;
const READY = (a: string) => `(${a}.due_at IS NULL OR ${a}.due_at <= now())`;
/** The head of its session: no other ready row of the session waits ahead of it. */
const IS_HEAD = `NOT EXISTS (SELECT 1 FROM pending_turns e WHERE e.session_id = p.session_id
  AND e.status IN ('PENDING', 'CLAIMED') AND ${READY('e')} AND ${ORDER_KEY('e')} < ${ORDER_KEY('p')})`;
const NO_ACTIVE_TURN = `NOT EXISTS (SELECT 1 FROM turns t WHERE t.session_id = p.session_id AND ${activeTurnSql('t')})`;

export class PendingStore {
  constructor(readonly db: Database) {}

  /**
   * Claims, for `claimant`, the head of up to `limit` sessions that have no active turn, whatever its kind: PENDING
   * heads that are ready (a recall once due), and CLAIMED ones whose lease expired (or, with `exclusive`, any other
   * claimant's: a previous run of this process). A head another transaction holds is skipped; the rows behind it
   * wait (they are not heads).
   */
  async claimHeads(claimant: string, leaseMs: number, limit: number, exclusive: boolean): Promise<PendingTurn[]> {
    const rows = await this.db.prisma.$queryRawUnsafe<PendingRow[]>(
      `UPDATE pending_turns SET status = 'CLAIMED', claimed_by = $1, claimed_at = now(), attempts = attempts + 1
       WHERE id IN (
         SELECT p.id FROM pending_turns p
         WHERE (p.status = 'PENDING'
                OR (p.status = 'CLAIMED' AND (p.claimed_at < now() - $2::int * interval '1 millisecond'
                                              OR ($4::boolean AND p.claimed_by IS DISTINCT FROM $1))))
           AND ${READY('p')}
           AND ${IS_HEAD}
           AND ${NO_ACTIVE_TURN}
         ORDER BY ${ORDER_KEY('p')}
         LIMIT $3
         FOR UPDATE OF p SKIP LOCKED)
       RETURNING ${PENDING_COLUMNS}`,
      claimant,
      leaseMs,
      limit,
      exclusive,
    );
    return rows.map(pendingFromRow).sort((a, b) => (a.seq < b.seq ? -1 : 1));
  }

  /**
   * Milliseconds until the next recall this process could claim (negative: overdue), or null when none is waiting.
   * Sessions with a running turn are left out: they are woken when the turn ends (or by the poll).
   */
  async nextDueInMs(leaseMs: number): Promise<number | null> {
    const rows = await this.db.prisma.$queryRawUnsafe<{ ms: number | null }[]>(
      `SELECT (extract(epoch FROM (min(CASE WHEN p.status = 'PENDING' THEN p.due_at
                                        ELSE greatest(p.due_at, p.claimed_at + $1::int * interval '1 millisecond') ` +
        `END) - now())) * 1000)::float8 AS ms
       FROM pending_turns p WHERE p.kind = 'RECALL' AND p.status IN ('PENDING', 'CLAIMED') AND ${NO_ACTIVE_TURN}`,
      leaseMs,
    );
    const ms = rows[0]?.ms;
    return ms === null || ms === undefined ? null : Number(ms);
  }

  /** Inside the dispatching transaction: the row, locked, if it is still CLAIMED by `claimant`. */
  async lockClaimed(tx: Tx, id: string, claimant: string): Promise<PendingTurn | null> {
    const rows = await tx.$queryRawUnsafe<PendingRow[]>(
      `SELECT ${PENDING_COLUMNS} FROM pending_turns WHERE id = $1::uuid AND status = 'CLAIMED' AND claimed_by = $2
       FOR UPDATE`,
      id,
      claimant,
    );
    return rows[0] ? pendingFromRow(rows[0]) : null;
  }

  /** A claim given back (a turn started meanwhile, a transient failure): PENDING again, claimed at the next look. */
  async release(id: string, claimant: string): Promise<void> {
    await this.db.prisma.pendingTurn.updateMany({
      where: { id, status: 'CLAIMED', claimedBy: claimant },
      data: { status: 'PENDING', claimedBy: null, claimedAt: null },
    });
  }

  /**
   * A failed dispatch of a row `claimant` holds: counted, and the claim given back; the `maxFailures`-th failure
   * parks it FAILED with `reason`. Null when the claim was no longer ours.
   */
  async recordFailure(
    id: string,
    claimant: string,
    reason: string,
    maxFailures: number,
    tx?: Tx,
  ): Promise<PendingTurn | null> {
    const rows = await (tx ?? this.db.prisma).$queryRawUnsafe<PendingRow[]>(
      `UPDATE pending_turns SET failures = failures + 1, failure_reason = $3, claimed_by = NULL, claimed_at = NULL,
         status = CASE WHEN failures + 1 >= $4 THEN 'FAILED' ELSE 'PENDING' END,
         failed_at = CASE WHEN failures + 1 >= $4 THEN now() ELSE NULL END
       WHERE id = $1::uuid AND status = 'CLAIMED' AND claimed_by = $2 RETURNING ${PENDING_COLUMNS}`,
      id,
      claimant,
      reason,
      maxFailures,
    );
    return rows[0] ? pendingFromRow(rows[0]) : null;
  }
}
