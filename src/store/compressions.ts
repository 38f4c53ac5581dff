/** The compression markers of a session (hot and archived), oldest first: what `Session.compressions` lists. */
import type { Database } from '../db/client.js';
import { bothTablesSql, type MessageRow, type StoredMessage, toStoredMessage } from './rows.js';

/** At most this many (the newest) are read per session. */
export const COMPRESSIONS_LISTED_MAX = 100;

export async function compressionMarkers(db: Database, sessionId: string): Promise<StoredMessage[]> {
  const rows = await db.prisma.$queryRawUnsafe<(MessageRow & { archived: boolean })[]>(
    `SELECT * FROM (${bothTablesSql('session_id = $1::uuid AND is_compression')}) m
     ORDER BY "sequenceNumber" DESC LIMIT ${COMPRESSIONS_LISTED_MAX}`,
    sessionId,
  );
  return rows.map((r) => toStoredMessage(r, r.archived)).reverse();
}
