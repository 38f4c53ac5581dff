/**
 * Scheduled recalls: the pending turns of kind RECALL (`pending_turns`; src/store/pending-turns.ts says how the one
 * dispatcher claims a due row and fires it: `lockClaimed` + `markFired` inside the transaction that appends the
 * recall message and creates its turn, so a recall fires exactly once across processes and restarts).
 */
import type { Database } from '../db/client.js';
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

/** A recall as the services see it. */
export interface Recall {
  id: string;
  sessionId: string;
  owner: string | null;
  /** USER (scheduleRecall) or MODEL (the schedule_recall tool) */
  source: string;
  dueAt: Date;
  text: string;
  /** PENDING, CLAIMED, FIRED, CANCELLED or FAILED */
  status: string;
  claimedBy: string | null;
  claimedAt: Date | null;
  attempts: number;
  messageSequence: number | null;
  turnId: string | null;
  firedAt: Date | null;
  cancelledAt: Date | null;
  failures: number;
  failureReason: string | null;
  failedAt: Date | null;
  createdAt: Date;
}

export const RECALL_ACTIVE = PENDING_ACTIVE;

/** A pending turn of kind RECALL as a Recall. */
export function recallOf(p: PendingTurn): Recall {
  return {
    id: p.id,
    sessionId: p.sessionId,
    owner: p.owner,
    source: p.source ?? 'USER',
    dueAt: p.dueAt ?? p.createdAt,
    text: p.content,
    status: p.status,
    claimedBy: p.claimedBy,
    claimedAt: p.claimedAt,
    attempts: p.attempts,
    messageSequence: p.messageSequence,
    turnId: p.turnId,
    firedAt: p.dispatchedAt,
    cancelledAt: p.cancelledAt,
    failures: p.failures,
    failureReason: p.failureReason,
    failedAt: p.failedAt,
    createdAt: p.createdAt,
  };
}

const RECALL = { kind: 'RECALL' };
const maybe = (p: PendingTurn | null) => (p ? recallOf(p) : null);

export class RecallStore {
  private readonly pending: PendingStore;

  constructor(readonly db: Database) {
    this.pending = new PendingStore(db);
  }

  private get prisma() {
    return this.db.prisma;
  }

  async create(input: { sessionId: string; owner: string | null; source: string; dueAt: Date; text: string }) {
    const { text, ...rest } = input;
    return recallOf(await this.prisma.pendingTurn.create({ data: { ...rest, kind: 'RECALL', content: text } }));
  }

  async get(id: string): Promise<Recall | null> {
    return maybe(await this.prisma.pendingTurn.findFirst({ where: { id, ...RECALL } }));
  }

  countActive(sessionId: string) {
    return this.prisma.pendingTurn.count({ where: { sessionId, status: { in: RECALL_ACTIVE }, ...RECALL } });
  }

  /** Pending (and claimed) first, soonest first; then, when asked, fired and cancelled ones, newest first. */
  async list(sessionId: string, options: { includeFinished: boolean; first: number }): Promise<Recall[]> {
    const active = await this.prisma.pendingTurn.findMany({
      where: { sessionId, status: { in: RECALL_ACTIVE }, ...RECALL },
      orderBy: [{ dueAt: 'asc' }, { id: 'asc' }],
      take: options.first,
    });
    if (!options.includeFinished || active.length >= options.first) return active.map(recallOf);
    const finished = await this.prisma.pendingTurn.findMany({
      where: { sessionId, status: { notIn: RECALL_ACTIVE }, ...RECALL },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: options.first - active.length,
    });
    return [...active, ...finished].map(recallOf);
  }

  /**
   * PENDING or CLAIMED → CANCELLED; null when the row is in neither (fired, cancelled, gone). A firing transaction
   * holds the row: this waits for it.
   */
  async cancel(id: string): Promise<Recall | null> {
    const rows = await this.prisma.$queryRawUnsafe<PendingRow[]>(
      `UPDATE pending_turns SET status = 'CANCELLED', cancelled_at = now(), claimed_by = NULL, claimed_at = NULL
       WHERE id = $1::uuid AND kind = 'RECALL' AND status IN ('PENDING', 'CLAIMED') RETURNING ${PENDING_COLUMNS}`,
      id,
    );
    return rows[0] ? recallOf(pendingFromRow(rows[0])) : null;
  }

  /** See PendingStore.recordFailure. */
  async recordFailure(id: string, claimant: string, reason: string, maxFailures: number): Promise<Recall | null> {
    return maybe(await this.pending.recordFailure(id, claimant, reason, maxFailures));
  }

  /** Inside the firing transaction: the row, locked, if it is still CLAIMED by `claimant`. */
  async lockClaimed(tx: Tx, id: string, claimant: string): Promise<Recall | null> {
    return maybe(await this.pending.lockClaimed(tx, id, claimant));
  }

  async markFired(tx: Tx, id: string, messageSequence: number, turnId: string): Promise<Recall> {
    return recallOf(
      await tx.pendingTurn.update({
        where: { id },
        data: { status: 'FIRED', dispatchedAt: new Date(), messageSequence, turnId, claimedBy: null, claimedAt: null },
      }),
    );
  }

  /** A claim given back (the session started a turn meanwhile): PENDING again, claimed at the next wake-up. */
  release(id: string, claimant: string): Promise<void> {
    return this.pending.release(id, claimant);
  }
}
