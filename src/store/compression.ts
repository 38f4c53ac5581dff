/**
 * The statements compression needs beyond the session store's: the profile of
 * a pass, the save's row lock and meter reset, spilled bodies, recall's
 * bookkeeping in session metadata.
 */
import type { Prisma, Profile, Session } from '../generated/prisma/client.js';
import type { SessionStore } from './sessions.js';

type Tx = Prisma.TransactionClient;

export interface LastCompression {
  at: string;
  reason: string;
  marker: number | undefined;
}

export class CompressionStore {
  constructor(private readonly store: SessionStore) {}

  private get prisma() {
    return this.store.prisma;
  }

  profile(profileId: string): Promise<Profile | null> {
    return this.prisma.profile.findUnique({ where: { id: profileId } });
  }

  /** Locks the session row for the save and answers its next_sequence (undefined when the session is gone). */
  async lockNextSequence(tx: Tx, sessionId: string): Promise<number | undefined> {
    const current = await tx.$queryRawUnsafe<{ next_sequence: number }[]>(
      'SELECT next_sequence FROM sessions WHERE id = $1::uuid FOR UPDATE',
      sessionId,
    );
    return current[0]?.next_sequence;
  }

  /** The meter reset after a pass: new token count, baseline and truncated flag cleared, the pass recorded. */
  async recordCompression(tx: Tx, sessionId: string, contextTokens: number, lastCompression: LastCompression): Promise<void> {
    const row = await tx.session.findUnique({ where: { id: sessionId }, select: { metadata: true } });
    const { baseline: _b, contextTruncated: _t, ...metadata } = (row?.metadata ?? {}) as Record<string, unknown>;
    await tx.session.update({
      where: { id: sessionId },
      data: { contextTokenCount: contextTokens, metadata: { ...metadata, lastCompression } as never },
    });
  }

  /** The full body of a stored row (hot or archived), for `read_spilled`. */
  async storedContent(sessionId: string, sequenceNumber: number): Promise<string | null> {
    const where = { sessionId, sequenceNumber };
    const row =
      (await this.prisma.sessionMessage.findFirst({ where, select: { content: true } })) ??
      (await this.prisma.sessionMessageArchive.findFirst({ where, select: { content: true } }));
    return row?.content ?? null;
  }

  setMetadata(sessionId: string, metadata: Record<string, unknown>): Promise<Session> {
    return this.prisma.session.update({ where: { id: sessionId }, data: { metadata: metadata as never } });
  }
}
