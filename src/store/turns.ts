/**
 * The turn store: every statement about the `turns` table. A turn's status
 * moves only through `transition`, guarded by the statuses the lifecycle
 * (src/domain/turn-lifecycle.ts) allows it to come from, so two processes (or
 * a runner and a cancel) never both end one turn.
 */
import type { Database } from '../db/client.js';
import type { Prisma, Turn } from '../generated/prisma/client.js';
import { ACTIVE_TURN_STATUSES, TurnStatus } from '../domain/turn-status.js';
import type { Tx } from './sessions.js';

export type TurnRow = Turn;

/** The active statuses as an SQL list, from the one definition. */
const ACTIVE_SQL = ACTIVE_TURN_STATUSES.map((s) => `'${s}'`).join(', ');
/** The condition a row of `turns` (aliased `alias`) meets while its turn is active. */
export function activeTurnSql(alias: string): string {
  return `${alias}.status IN (${ACTIVE_SQL})`;
}

const ACTIVE = { in: [...ACTIVE_TURN_STATUSES] };

/** The TurnStore methods that write a turn's status: called from src/turns/lifecycle.ts alone (a test checks). */
export const TURN_STATUS_WRITES = ['insertTurn', 'transition'] as const;

/** A client-side tool call and, once the client answered, its result (kept in turns.pending_tool_calls). */
export interface StoredToolCall {
  id: string;
  clientSide: boolean;
  result?: { content: string; isError: boolean; critical: boolean };
}

export class TurnStore {
  constructor(private readonly db: Database) {}

  private get prisma() {
    return this.db.prisma;
  }

  get(id: string): Promise<Turn | null> {
    return this.prisma.turn.findUnique({ where: { id } });
  }

  active(sessionId: string): Promise<Turn | null> {
    return this.prisma.turn.findFirst({ where: { sessionId, status: ACTIVE } });
  }

  sessionOf(id: string): Promise<string | null> {
    return this.prisma.turn
      .findUnique({ where: { id }, select: { sessionId: true } })
      .then((t) => t?.sessionId ?? null);
  }

  /**
   * How many turns the session has had (the title generator names a session after its first): turns with a user
   * message, so a QUEUED turn (or one cancelled while queued) does not count.
   */
  countFor(sessionId: string): Promise<number> {
    return this.prisma.turn.count({ where: { sessionId, userSequence: { not: null } } });
  }

  /**
   * Inserts a turn (RUNNING, or QUEUED without its user message). Only the
   * turn lifecycle (src/turns/lifecycle.ts) calls it: see TURN_STATUS_WRITES.
   */
  insertTurn(
    data: {
      id: string;
      sessionId: string;
      userSequence: number | null;
      ownerProcess: string | null;
      ownerInstance: string | null;
      idempotencyKey?: string | null;
      status: TurnStatus;
    },
    tx?: Tx,
  ): Promise<Turn> {
    return (tx ?? this.prisma).turn.create({ data });
  }

  /**
   * Moves the turn to `data.status` if it is in one of `from` (the lifecycle's
   * legal sources for that status), writing `data` with it; null when it is
   * not (someone else moved it first). The one statement that changes a
   * stored turn's status; only src/turns/lifecycle.ts calls it.
   */
  async transition(
    id: string,
    from: readonly TurnStatus[],
    data: Prisma.TurnUpdateManyMutationInput & { status: TurnStatus },
    tx?: Tx,
  ): Promise<Turn | null> {
    const rows = await (tx ?? this.prisma).turn.updateManyAndReturn({
      where: { id, status: { in: [...from] } },
      data,
    });
    return rows[0] ?? null;
  }

  forIdempotencyKey(sessionId: string, key: string): Promise<Turn | null> {
    return this.prisma.turn.findUnique({ where: { sessionId_idempotencyKey: { sessionId, idempotencyKey: key } } });
  }

  async releaseIdempotencyKey(id: string): Promise<void> {
    await this.prisma.turn.update({ where: { id }, data: { idempotencyKey: null } });
  }

  /** Active turns whose owner has not beaten for `staleMs`. */
  staleActive(staleMs: number): Promise<Turn[]> {
    return this.prisma.turn.findMany({
      where: { status: ACTIVE, heartbeatAt: { lt: new Date(Date.now() - staleMs) } },
    });
  }

  /** Active turns not owned by `processId`: of `instanceId`, or of any instance when it is null. */
  activeNotOwnedBy(processId: string, instanceId: string | null): Promise<Turn[]> {
    return this.prisma.turn.findMany({
      where: {
        status: ACTIVE,
        ...(instanceId === null ? {} : { ownerInstance: instanceId }),
        OR: [{ ownerProcess: null }, { ownerProcess: { not: processId } }],
      },
    });
  }

  /**
   * Stores the client's result for a pending call, under the row lock so two
   * answers cannot both land. Null when the call is not pending on a waiting turn.
   */
  answerToolCall(id: string, toolCallId: string, result: NonNullable<StoredToolCall['result']>): Promise<Turn | null> {
    return this.prisma.$transaction(
      async (tx) => {
        const rows = await tx.$queryRawUnsafe<{ pending_tool_calls: StoredToolCall[]; status: string }[]>(
          'SELECT pending_tool_calls, status FROM turns WHERE id = $1::uuid FOR UPDATE',
          id,
        );
        const row = rows[0];
        const calls = row?.pending_tool_calls ?? [];
        const call = calls.find((c) => c.id === toolCallId && c.clientSide && !c.result);
        if (!row || row.status !== TurnStatus.WAITING_FOR_TOOL || !call) return null;
        call.result = result;
        return tx.turn.update({ where: { id }, data: { pendingToolCalls: calls as unknown as Prisma.InputJsonValue } });
      },
      { timeout: 60_000, maxWait: 30_000 },
    );
  }

  /**
   * The runner's checkpoint: partial answer and heartbeat, only while the
   * turn is active. False when it is not (cancelled elsewhere, or gone).
   * The raw driver, not Prisma: this runs every second for every streaming
   * turn, and Prisma's per-query cost is most of a flush's CPU.
   */
  async checkpoint(id: string, text: string, thinking: string): Promise<boolean> {
    const updated = await this.db.raw.query<{ id: string }>(
      `UPDATE turns SET partial_text = $1, partial_thinking = $2, heartbeat_at = $4
        WHERE id = $3::uuid AND ${activeTurnSql('turns')} RETURNING id`,
      [text, thinking, id, new Date()],
    );
    return updated.length > 0;
  }

  async clearPartial(id: string): Promise<void> {
    await this.prisma.turn.update({ where: { id }, data: { partialText: '', partialThinking: '' } });
  }

  async setUsage(id: string, usage: object): Promise<void> {
    await this.prisma.turn.update({ where: { id }, data: { usage: usage as Prisma.InputJsonValue } });
  }

  async heartbeat(id: string): Promise<void> {
    await this.prisma.turn.update({ where: { id }, data: { heartbeatAt: new Date() } });
  }
}
