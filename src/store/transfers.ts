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
import { STAGING_PREFIX, stagedAt } from '../domain/policy.js';

/** Rows one INSERT takes at most (Postgres binds at most 65,535 parameters). */
const INSERT_BATCH = 1000;
/** Branches one INSERT takes (each holds a whole message list as JSON). */
const BRANCH_BATCH = 50;
/**
 * Characters of text one INSERT takes at most (a row over it goes alone): the statement's building and encoding run
 * on the event loop, so a statement of a few hundred rows of long messages would hold other requests back.
 */
const INSERT_CHARS = 128 * 1024;

/** `rows` in order, in batches of at most `maxRows` rows and `INSERT_CHARS` characters by `weigh`. */
function* batches<T>(rows: readonly T[], maxRows: number, weigh: (row: T) => number): Generator<T[]> {
  let batch: T[] = [];
  let chars = 0;
  for (const row of rows) {
    const w = weigh(row);
    if (batch.length > 0 && (batch.length >= maxRows || chars + w > INSERT_CHARS)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(row);
    chars += w;
  }
  if (batch.length > 0) yield batch;
}

/** A row's text, roughly: its content and its JSON columns' size. */
const textOf = (row: { content?: unknown; metadata?: unknown }) =>
  (typeof row.content === 'string' ? row.content.length : 0) + 256;

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
    /** the message versions the chunk was cut from (older exports: none, so on every path) */
    messageIds?: string[];
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

  /**
   * Writes an imported session under its staging owner (`importing:…`, which no list, read or search shows): its
   * row, then every message, branch and chunk in bounded statements, each its own short write (no interactive
   * transaction, so no time limit; other requests run between them). `finishImport` then hands it to its owner.
   */
  async writeImport(item: ImportedSession, stagingOwner: string): Promise<SessionRow> {
    const s = item.session;
    const session = await this.prisma.session.create({
      data: {
        ...s,
        userId: stagingOwner,
        usage: json(s.usage),
        planningLogs: json(s.planningLogs),
        metadata: json(s.metadata),
        checkpoint: s.checkpoint === undefined || s.checkpoint === null ? undefined : json(s.checkpoint),
      },
    });
    const hot: Prisma.SessionMessageCreateManyInput[] = [];
    const archived: Prisma.SessionMessageArchiveCreateManyInput[] = [];
    for (const m of item.messages) (m.archived ? archived : hot).push(toRowData(session.id, m.message, m.displayIndex));
    for (const data of batches(hot, INSERT_BATCH, textOf)) await this.prisma.sessionMessage.createMany({ data });
    for (const data of batches(archived, INSERT_BATCH, textOf))
      await this.prisma.sessionMessageArchive.createMany({ data });
    const suffixChars = (b: ImportedSession['branches'][number]) =>
      (Array.isArray(b.suffix) ? (b.suffix as { content?: unknown }[]) : []).reduce((n, m) => n + textOf(m), 256);
    for (const slice of batches(item.branches, BRANCH_BATCH, suffixChars)) {
      await this.prisma.sessionBranch.createMany({
        data: slice.map((b) => ({ sessionId: session.id, ...b, suffix: json(b.suffix) })),
      });
    }
    for (const slice of batches(item.memoryChunks, INSERT_BATCH, textOf)) {
      await this.prisma.memoryChunk.createMany({ data: slice.map((c) => ({ sessionId: session.id, ...c })) });
    }
    return session;
  }

  /**
   * One short transaction: the staged session becomes its owner's (visible from now on) and the fingerprint maps
   * to it. A unique violation means the same import finished first.
   */
  async finishImport(tx: Tx, sessionId: string, owner: string, fingerprint: string): Promise<SessionRow> {
    const session = await tx.session.update({ where: { id: sessionId }, data: { userId: owner } });
    await tx.sessionImport.create({ data: { userId: owner, fingerprint, sessionId } });
    return session;
  }

  /** Removes a staged session (a failed import: its messages, branches and chunks go with it). */
  async dropStaged(sessionId: string): Promise<void> {
    await this.prisma.session.deleteMany({ where: { id: sessionId, userId: { startsWith: STAGING_PREFIX } } });
  }

  /**
   * Removes staged sessions left by an import that died (kill -9, crash) and started more than `olderThanMs` ago
   * (their staging owner names when); run at start and before each import. Returns how many.
   */
  async sweepStaged(olderThanMs: number, now = Date.now()): Promise<number> {
    const rows = await this.prisma.session.findMany({
      where: { userId: { startsWith: STAGING_PREFIX } },
      select: { id: true, userId: true },
    });
    const stale = rows.filter((r) => now - stagedAt(r.userId!) > olderThanMs).map((r) => r.id);
    if (stale.length === 0) return 0;
    const { count } = await this.prisma.session.deleteMany({ where: { id: { in: stale } } });
    return count;
  }
}
