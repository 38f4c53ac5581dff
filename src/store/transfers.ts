/**
 * SQL for export and import: the rows an export reads beside the history
 * (profile key, branches, raw-history chunks), the import fingerprints, and
 * the one transaction that writes an imported session whole.
 */
import type { Database } from '../db/client.js';
import type { ChatMessage } from '../domain/types.js';
import type { MemoryChunk, Prisma, SessionBranch } from '../generated/prisma/client.js';
import { toRowData } from './rows.js';
import type { SessionRow, Tx } from './sessions.js';

/** Rows one INSERT takes at most (Postgres binds at most 65,535 parameters). */
const INSERT_BATCH = 1000;

export type BranchRow = SessionBranch;
export type MemoryChunkRow = MemoryChunk;

export interface ImportedSession {
  session: {
    id: string;
    profileId: string;
    userId: string;
    name: string | null;
    titleSource: string;
    pinned: boolean;
    createdAt: Date;
    lastActive: Date;
    usage: unknown;
    planningLogs: unknown;
    metadata: Record<string, unknown>;
    checkpoint: unknown;
    lastRewindReport: string | null;
    contextTokenCount: number;
    nextSequence: number;
    displayCount: number;
  };
  messages: { message: ChatMessage; displayIndex: number | null; archived: boolean }[];
  branches: { name: string; baseSequence: number; suffix: unknown; createdAt: Date }[];
  memoryChunks: {
    content: string;
    contentHash: string;
    breadcrumbs: string[];
    turnStart: number;
    turnEnd: number;
    firstAt: Date;
    lastAt: Date;
  }[];
  fingerprint: string;
}

const json = (value: unknown) => value as Prisma.InputJsonValue;

export class TransferStore {
  constructor(private readonly db: Database) {}

  private get prisma() {
    return this.db.prisma;
  }

  /**
   * What a full export adds to the history: the profile's key, the branches and the raw-history chunks, in export
   * order.
   */
  async exportExtras(
    session: Pick<SessionRow, 'id' | 'profileId'>,
  ): Promise<{ profileKey: string | null; branches: BranchRow[]; chunks: MemoryChunkRow[] }> {
    const [profile, branches, chunks] = await Promise.all([
      this.prisma.profile.findUnique({ where: { id: session.profileId }, select: { key: true } }),
      this.prisma.sessionBranch.findMany({
        where: { sessionId: session.id },
        orderBy: [{ createdAt: 'asc' }, { name: 'asc' }],
      }),
      this.prisma.memoryChunk.findMany({
        where: { sessionId: session.id },
        orderBy: [{ turnStart: 'asc' }, { createdAt: 'asc' }],
      }),
    ]);
    return { profileKey: profile?.key ?? null, branches, chunks };
  }

  /** The session an earlier import of the same data (by this owner) created, if recorded. */
  async importedSessionId(owner: string, fingerprint: string): Promise<string | null> {
    const row = await this.prisma.sessionImport.findUnique({
      where: { userId_fingerprint: { userId: owner, fingerprint } },
    });
    return row?.sessionId ?? null;
  }

  async forgetImport(owner: string, fingerprint: string): Promise<void> {
    await this.prisma.sessionImport.deleteMany({ where: { userId: owner, fingerprint } });
  }

  /** Writes an imported session: its row, every message, branch and chunk, and the fingerprint that maps to it. */
  async writeImport(tx: Tx, item: ImportedSession): Promise<SessionRow> {
    const s = item.session;
    const session = await tx.session.create({
      data: {
        ...s,
        usage: json(s.usage),
        planningLogs: json(s.planningLogs),
        metadata: json(s.metadata),
        checkpoint: s.checkpoint === undefined || s.checkpoint === null ? undefined : json(s.checkpoint),
      },
    });
    const hot: Prisma.SessionMessageCreateManyInput[] = [];
    const archived: Prisma.SessionMessageArchiveCreateManyInput[] = [];
    for (const m of item.messages) (m.archived ? archived : hot).push(toRowData(session.id, m.message, m.displayIndex));
    for (let i = 0; i < hot.length; i += INSERT_BATCH)
      await tx.sessionMessage.createMany({ data: hot.slice(i, i + INSERT_BATCH) });
    for (let i = 0; i < archived.length; i += INSERT_BATCH) {
      await tx.sessionMessageArchive.createMany({ data: archived.slice(i, i + INSERT_BATCH) });
    }
    if (item.branches.length > 0) {
      await tx.sessionBranch.createMany({
        data: item.branches.map((b) => ({ sessionId: session.id, ...b, suffix: json(b.suffix) })),
      });
    }
    if (item.memoryChunks.length > 0) {
      await tx.memoryChunk.createMany({ data: item.memoryChunks.map((c) => ({ sessionId: session.id, ...c })) });
    }
    await tx.sessionImport.create({ data: { userId: s.userId, fingerprint: item.fingerprint, sessionId: session.id } });
    return session;
  }
}
