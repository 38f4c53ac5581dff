/**
 * Every statement about `turn_calls`: one row per model call of a turn, with its manifest (src/domain/
 * call-manifest.ts). The rows live as long as their turn (ON DELETE CASCADE), the turn as long as its session.
 */
import type { Database } from '../db/client.js';
import { type CallManifest, parseCallManifest } from '../domain/call-manifest.js';
import type { Prisma } from '../generated/prisma/client.js';

export interface TurnCallRow {
  /** the row's id: increasing in the order the calls were sent */
  id: bigint;
  turnId: string;
  sessionId: string;
  callIndex: number;
  model: string;
  estimatedTokens: number;
  promptTokens: number | null;
  manifest: CallManifest;
  createdAt: Date;
}

type Row = Omit<TurnCallRow, 'manifest'> & { manifest: Prisma.JsonValue };
const toRow = (r: Row): TurnCallRow => ({ ...r, manifest: parseCallManifest(r.manifest) });

export class CallManifestStore {
  constructor(private readonly db: Database) {}

  /** Stores a call as the next of its turn (call index: one more than the turn's last); its row id. */
  async insert(input: {
    turnId: string;
    sessionId: string;
    model: string;
    estimatedTokens: number;
    manifest: CallManifest;
  }): Promise<bigint> {
    const [row] = await this.db.prisma.$queryRawUnsafe<{ id: bigint }[]>(
      `INSERT INTO turn_calls (turn_id, session_id, call_index, model, estimated_tokens, manifest)
       SELECT $1::uuid, $2::uuid, COALESCE(MAX(call_index) + 1, 0), $3, $4, $5::jsonb
       FROM turn_calls WHERE turn_id = $1::uuid
       RETURNING id`,
      input.turnId,
      input.sessionId,
      input.model,
      input.estimatedTokens,
      JSON.stringify(input.manifest),
    );
    return BigInt(row!.id);
  }

  /** The provider's prompt count, once the call answered. */
  async answered(id: bigint, promptTokens: number): Promise<void> {
    await this.db.prisma.turnCall.update({ where: { id }, data: { promptTokens } });
  }

  async ofTurn(turnId: string): Promise<TurnCallRow[]> {
    const rows = await this.db.prisma.turnCall.findMany({ where: { turnId }, orderBy: { callIndex: 'asc' } });
    return rows.map(toRow);
  }

  /** The session's call sent just before the call `id` (of any turn), or null. */
  async before(sessionId: string, id: bigint): Promise<TurnCallRow | null> {
    const row = await this.db.prisma.turnCall.findFirst({
      where: { sessionId, id: { lt: id } },
      orderBy: { id: 'desc' },
    });
    return row ? toRow(row) : null;
  }
}
