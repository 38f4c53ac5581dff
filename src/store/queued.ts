/**
 * Double-texting: every SQL statement about the `queued_messages` table.
 *
 * A row is a message sent with whileRunning QUEUE or STEER while a turn ran.
 * It leaves PENDING exactly once, inside a transaction that also appends its
 * user message:
 * - STEER, taken by the running turn (`takeSteers`, rows locked FOR UPDATE
 *   SKIP LOCKED) before its next model call: DISPATCHED into that turn;
 * - QUEUE (and a STEER row no turn took), when the session has no active
 *   turn: `claimHeads` marks the head of the session's queue CLAIMED by one
 *   process (the recalls' lease, src/store/recalls.ts), then `lockClaimed` +
 *   `markDispatched` run inside the transaction that appends the message and
 *   starts the turn. A crash before the commit leaves a claim to re-take;
 *   after it, nothing to dispatch again.
 */
import type { Database } from '../db/client.js';
import type { NewMessage } from '../domain/types.js';
import type { Prisma, QueuedMessage as PrismaQueued } from '../generated/prisma/client.js';
import { recordFailureSql } from './pending-failures.js';
import { activeTurnSql } from './turns.js';

type Tx = Prisma.TransactionClient;

export type QueuedMessage = PrismaQueued;
export type QueuedKind = 'QUEUE' | 'STEER';

export const QUEUED_ACTIVE = ['PENDING', 'CLAIMED'];

interface QueuedRow {
  id: string;
  session_id: string;
  seq: bigint | number | string;
  kind: string;
  content: string;
  message: unknown;
  client_tools: unknown;
  idempotency_key: string | null;
  status: string;
  claimed_by: string | null;
  claimed_at: Date | null;
  turn_id: string | null;
  message_sequence: number | null;
  dispatched_at: Date | null;
  cancelled_at: Date | null;
  failures: number;
  failure_reason: string | null;
  failed_at: Date | null;
  created_at: Date;
}

const COLUMNS = `id, session_id, seq, kind, content, message, client_tools, idempotency_key, status, claimed_by,
  claimed_at, turn_id, message_sequence, dispatched_at, cancelled_at, failures, failure_reason, failed_at, created_at`;

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

function fromRow(r: QueuedRow): QueuedMessage {
  const date = (v: Date | string | null) => (v === null ? null : new Date(v));
  return {
    id: r.id,
    sessionId: r.session_id,
    seq: BigInt(r.seq),
    kind: r.kind,
    content: r.content,
    message: jsonColumn(r.message) as QueuedMessage['message'],
    clientTools: jsonColumn(r.client_tools) as QueuedMessage['clientTools'],
    idempotencyKey: r.idempotency_key,
    status: r.status,
    claimedBy: r.claimed_by,
    claimedAt: date(r.claimed_at),
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

/** The head of its session's queue: no earlier row of the session is still waiting. */
const IS_HEAD = `NOT EXISTS (SELECT 1 FROM queued_messages e WHERE e.session_id = q.session_id
  AND e.status IN ('PENDING', 'CLAIMED') AND e.seq < q.seq)`;
const NO_ACTIVE_TURN = `NOT EXISTS (SELECT 1 FROM turns t WHERE t.session_id = q.session_id AND ${activeTurnSql('t')})`;

export class QueuedStore {
  constructor(readonly db: Database) {}

  private get prisma() {
    return this.db.prisma;
  }

  create(
    input: {
      id: string;
      sessionId: string;
      kind: QueuedKind;
      content: string;
      message: NewMessage;
      clientTools: unknown[];
      idempotencyKey: string | null;
      turnId: string | null;
    },
    tx?: Tx,
  ): Promise<QueuedMessage> {
    return (tx ?? this.prisma).queuedMessage.create({
      data: {
        ...input,
        message: input.message as unknown as Prisma.InputJsonValue,
        clientTools: input.clientTools as Prisma.InputJsonValue,
      },
    });
  }

  get(id: string): Promise<QueuedMessage | null> {
    return this.prisma.queuedMessage.findUnique({ where: { id } });
  }

  /** The QUEUE entry of a QUEUED turn. */
  forTurn(turnId: string): Promise<QueuedMessage | null> {
    return this.prisma.queuedMessage.findFirst({ where: { turnId, kind: 'QUEUE' } });
  }

  forIdempotencyKey(sessionId: string, key: string): Promise<QueuedMessage | null> {
    return this.prisma.queuedMessage.findUnique({
      where: { sessionId_idempotencyKey: { sessionId, idempotencyKey: key } },
    });
  }

  async releaseIdempotencyKey(id: string): Promise<void> {
    await this.prisma.queuedMessage.update({ where: { id }, data: { idempotencyKey: null } });
  }

  /** The session's waiting rows, in the order they will run. */
  waiting(sessionId: string, take?: number): Promise<QueuedMessage[]> {
    return this.prisma.queuedMessage.findMany({
      where: { sessionId, status: { in: QUEUED_ACTIVE } },
      orderBy: { seq: 'asc' },
      ...(take !== undefined && { take }),
    });
  }

  /** 1-based place of a waiting row in its session's queue. */
  async position(row: QueuedMessage): Promise<number> {
    const before = await this.prisma.queuedMessage.count({
      where: { sessionId: row.sessionId, status: { in: QUEUED_ACTIVE }, seq: { lt: row.seq } },
    });
    return before + 1;
  }

  hasWaiting(sessionId: string, tx?: Tx): Promise<boolean> {
    return (tx ?? this.prisma).queuedMessage
      .count({ where: { sessionId, status: { in: QUEUED_ACTIVE } } })
      .then((n) => n > 0);
  }

  /**
   * Inside an enqueue's transaction: the session row, share-locked, so that a turn starting now (its append updates
   * that row) either committed before this entry (the entry waits for it) or sees it (REJECT refuses).
   */
  async lockSession(tx: Tx, sessionId: string): Promise<void> {
    await tx.$queryRawUnsafe(`SELECT 1 FROM sessions WHERE id = $1::uuid FOR SHARE`, sessionId);
  }

  /** PENDING or CLAIMED → CANCELLED; null when it is neither. A dispatching transaction holds the row: this waits. */
  async cancel(id: string, tx?: Tx): Promise<QueuedMessage | null> {
    const rows = await (tx ?? this.prisma).$queryRawUnsafe<QueuedRow[]>(
      `UPDATE queued_messages SET status = 'CANCELLED', cancelled_at = now(), claimed_by = NULL, claimed_at = NULL
       WHERE id = $1::uuid AND status IN ('PENDING', 'CLAIMED') RETURNING ${COLUMNS}`,
      id,
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /**
   * Claims, for `claimant`, the head of the queue of up to `limit` sessions
   * that have no active turn: PENDING heads, and CLAIMED ones whose lease
   * expired (or, with `exclusive`, any other claimant's: a previous run of
   * this process). A head another process's transaction holds is skipped, and
   * the rows behind it wait (they are not heads).
   */
  async claimHeads(claimant: string, leaseMs: number, limit: number, exclusive: boolean): Promise<QueuedMessage[]> {
    const rows = await this.prisma.$queryRawUnsafe<QueuedRow[]>(
      `UPDATE queued_messages SET status = 'CLAIMED', claimed_by = $1, claimed_at = now()
       WHERE id IN (
         SELECT q.id FROM queued_messages q
         WHERE (q.status = 'PENDING'
                OR (q.status = 'CLAIMED' AND (q.claimed_at < now() - $2::int * interval '1 millisecond'
                                              OR ($4::boolean AND q.claimed_by IS DISTINCT FROM $1))))
           AND ${IS_HEAD}
           AND ${NO_ACTIVE_TURN}
         ORDER BY q.seq
         LIMIT $3
         FOR UPDATE OF q SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      claimant,
      leaseMs,
      limit,
      exclusive,
    );
    return rows.map(fromRow);
  }

  /** Inside the dispatching transaction: the row, locked, if it is still CLAIMED by `claimant`. */
  async lockClaimed(tx: Tx, id: string, claimant: string): Promise<QueuedMessage | null> {
    const rows = await tx.$queryRawUnsafe<QueuedRow[]>(
      `SELECT ${COLUMNS} FROM queued_messages WHERE id = $1::uuid AND status = 'CLAIMED' AND claimed_by = $2
       FOR UPDATE`,
      id,
      claimant,
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Inside the running turn's transaction: the session's PENDING steer rows, locked, oldest first. */
  async lockSteers(tx: Tx, sessionId: string): Promise<QueuedMessage[]> {
    const rows = await tx.$queryRawUnsafe<QueuedRow[]>(
      `SELECT ${COLUMNS} FROM queued_messages
       WHERE session_id = $1::uuid AND kind = 'STEER' AND status = 'PENDING'
       ORDER BY seq FOR UPDATE SKIP LOCKED`,
      sessionId,
    );
    return rows.map(fromRow);
  }

  async markDispatched(tx: Tx, id: string, turnId: string, messageSequence: number): Promise<void> {
    await tx.queuedMessage.update({
      where: { id },
      data: {
        status: 'DISPATCHED',
        dispatchedAt: new Date(),
        turnId,
        messageSequence,
        claimedBy: null,
        claimedAt: null,
      },
    });
  }

  /**
   * A dispatch of a row `claimant` holds failed: counted, and the claim given back (tried again at the next look);
   * the `maxFailures`-th failure parks it FAILED with `reason`. Null when the claim was no longer ours.
   */
  async recordFailure(
    id: string,
    claimant: string,
    reason: string,
    maxFailures: number,
    tx?: Tx,
  ): Promise<QueuedMessage | null> {
    const rows = await (tx ?? this.prisma).$queryRawUnsafe<QueuedRow[]>(
      recordFailureSql('queued_messages', COLUMNS),
      id,
      claimant,
      reason,
      maxFailures,
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** A claim given back (a turn started meanwhile): PENDING again, claimed once the session is free. */
  async release(id: string, claimant: string): Promise<void> {
    await this.prisma.queuedMessage.updateMany({
      where: { id, status: 'CLAIMED', claimedBy: claimant },
      data: { status: 'PENDING', claimedBy: null, claimedAt: null },
    });
  }
}
