/**
 * Double-texting: the queued messages and steers among the pending turns (`pending_turns`, kinds QUEUE and STEER;
 * src/store/pending-turns.ts says how a row is claimed and dispatched).
 *
 * A row is a message sent with whileRunning QUEUE or STEER while a turn ran. It leaves PENDING exactly once, inside a
 * transaction that also appends its user message:
 * - STEER, taken by the running turn (`lockSteers`, rows locked FOR UPDATE SKIP LOCKED) before its next model call:
 *   DISPATCHED into that turn;
 * - QUEUE (and a STEER row no turn took), when the session has no active turn: the one dispatcher claims it as its
 *   session's head, then `lockClaimed` + `markDispatched` run inside the transaction that appends the message and
 *   starts the turn.
 */
import type { Database } from '../db/client.js';
import type { NewMessage } from '../domain/types.js';
import type { Prisma } from '../generated/prisma/client.js';
import {
  PENDING_ACTIVE,
  PENDING_COLUMNS,
  type PendingRow,
  PendingStore,
  type PendingTurn,
  pendingFromRow,
} from './pending-turns.js';

type Tx = Prisma.TransactionClient;

export type QueuedMessage = PendingTurn;
export type QueuedKind = 'QUEUE' | 'STEER';
/** The kinds of pending turns that are queued messages. */
export const QUEUED_KINDS: QueuedKind[] = ['QUEUE', 'STEER'];
export const QUEUED_ACTIVE = PENDING_ACTIVE;

const QUEUED = { kind: { in: QUEUED_KINDS } };

export class QueuedStore {
  private readonly pending: PendingStore;

  constructor(readonly db: Database) {
    this.pending = new PendingStore(db);
  }

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
    return (tx ?? this.prisma).pendingTurn.create({
      data: {
        ...input,
        message: input.message as unknown as Prisma.InputJsonValue,
        clientTools: input.clientTools as Prisma.InputJsonValue,
      },
    });
  }

  get(id: string): Promise<QueuedMessage | null> {
    return this.prisma.pendingTurn.findFirst({ where: { id, ...QUEUED } });
  }

  /** The QUEUE entry of a QUEUED turn. */
  forTurn(turnId: string): Promise<QueuedMessage | null> {
    return this.prisma.pendingTurn.findFirst({ where: { turnId, kind: 'QUEUE' } });
  }

  forIdempotencyKey(sessionId: string, key: string): Promise<QueuedMessage | null> {
    return this.prisma.pendingTurn.findUnique({
      where: { sessionId_idempotencyKey: { sessionId, idempotencyKey: key } },
    });
  }

  async releaseIdempotencyKey(id: string): Promise<void> {
    await this.prisma.pendingTurn.update({ where: { id }, data: { idempotencyKey: null } });
  }

  /** The session's waiting rows, in the order they will run. */
  waiting(sessionId: string, take?: number): Promise<QueuedMessage[]> {
    return this.prisma.pendingTurn.findMany({
      where: { sessionId, status: { in: QUEUED_ACTIVE }, ...QUEUED },
      orderBy: { seq: 'asc' },
      ...(take !== undefined && { take }),
    });
  }

  /** 1-based place of a waiting row in its session's queue. */
  async position(row: QueuedMessage): Promise<number> {
    const before = await this.prisma.pendingTurn.count({
      where: { sessionId: row.sessionId, status: { in: QUEUED_ACTIVE }, seq: { lt: row.seq }, ...QUEUED },
    });
    return before + 1;
  }

  hasWaiting(sessionId: string, tx?: Tx): Promise<boolean> {
    return (tx ?? this.prisma).pendingTurn
      .count({ where: { sessionId, status: { in: QUEUED_ACTIVE }, ...QUEUED } })
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
    const rows = await (tx ?? this.prisma).$queryRawUnsafe<PendingRow[]>(
      `UPDATE pending_turns SET status = 'CANCELLED', cancelled_at = now(), claimed_by = NULL, claimed_at = NULL
       WHERE id = $1::uuid AND kind IN ('QUEUE', 'STEER') AND status IN ('PENDING', 'CLAIMED')
       RETURNING ${PENDING_COLUMNS}`,
      id,
    );
    return rows[0] ? pendingFromRow(rows[0]) : null;
  }

  /** Inside the dispatching transaction: the row, locked, if it is still CLAIMED by `claimant`. */
  lockClaimed(tx: Tx, id: string, claimant: string): Promise<QueuedMessage | null> {
    return this.pending.lockClaimed(tx, id, claimant);
  }

  /** Inside the running turn's transaction: the session's PENDING steer rows, locked, oldest first. */
  async lockSteers(tx: Tx, sessionId: string): Promise<QueuedMessage[]> {
    const rows = await tx.$queryRawUnsafe<PendingRow[]>(
      `SELECT ${PENDING_COLUMNS} FROM pending_turns
       WHERE session_id = $1::uuid AND kind = 'STEER' AND status = 'PENDING'
       ORDER BY seq FOR UPDATE SKIP LOCKED`,
      sessionId,
    );
    return rows.map(pendingFromRow);
  }

  async markDispatched(tx: Tx, id: string, turnId: string, messageSequence: number): Promise<void> {
    await tx.pendingTurn.update({
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

  /** See PendingStore.recordFailure. */
  recordFailure(
    id: string,
    claimant: string,
    reason: string,
    maxFailures: number,
    tx?: Tx,
  ): Promise<QueuedMessage | null> {
    return this.pending.recordFailure(id, claimant, reason, maxFailures, tx);
  }

  /** A claim given back (a turn started meanwhile): PENDING again, claimed once the session is free. */
  release(id: string, claimant: string): Promise<void> {
    return this.pending.release(id, claimant);
  }
}
