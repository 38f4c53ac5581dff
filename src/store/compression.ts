/**
 * The statements compression needs beyond the session store's: the profile of
 * a pass, the save's row lock and meter reset, spilled bodies, recall's
 * bookkeeping in session metadata.
 */
import type { Profile, Session } from '../generated/prisma/client.js';
import type { SessionStore, Tx } from './sessions.js';

export interface LastCompression {
  at: string;
  reason: string;
  marker: number | undefined;
}

export class CompressionStore {
  constructor(private readonly store: SessionStore) {}

  private get prisma() {
    return this.store.db.prisma;
  }

  profile(profileId: string): Promise<Profile | null> {
    return this.prisma.profile.findUnique({ where: { id: profileId } });
  }

  /** Locks the session row for the save and answers its next_sequence (undefined when the session is gone). */
  async lockNextSequence(tx: Tx, sessionId: string): Promise<number | undefined> {
    return (await this.store.lockCounter(sessionId, tx)) ?? undefined;
  }

  /**
   * The meter reset after a pass: new token count, baseline and truncated flag cleared, the pass recorded (merged,
   * other keys kept).
   */
  async recordCompression(
    tx: Tx,
    sessionId: string,
    contextTokens: number,
    lastCompression: LastCompression,
  ): Promise<void> {
    const recorded = {
      at: lastCompression.at,
      reason: lastCompression.reason,
      ...(lastCompression.marker !== undefined && { marker: lastCompression.marker }),
    };
    await this.store.recordCompression(
      sessionId,
      { set: { lastCompression: recorded }, remove: ['baseline', 'contextTruncated'] },
      contextTokens,
      tx,
    );
  }

  /** The full body of a stored row (hot or archived), for `read_spilled`. */
  async storedContent(sessionId: string, sequenceNumber: number): Promise<string | null> {
    return (await this.store.message(sessionId, sequenceNumber))?.content ?? null;
  }

  /** Recall's bookkeeping: the ids of the chunks injected so far, merged into the metadata; the updated row. */
  async setInjectedChunks(sessionId: string, ids: string[]): Promise<Session> {
    const updated = await this.store.patchMetadata(sessionId, { set: { injected_chunk_ids: ids } });
    if (!updated) throw new Error(`session ${sessionId} is gone`);
    return updated;
  }
}
