/**
 * The share store: `session_shares` (the live link of a session, one at most),
 * `session_share_snapshots` (snapshot links, at most 100 a session) and the
 * published-file probe over a shared session's messages.
 */
import type { Database } from '../db/client.js';
import type { SessionRow, SnapshotCut } from './sessions.js';

/** One issued link as its owner sees it. */
export interface ShareLinkRow {
  token: string;
  sessionId: string;
  createdAt: Date;
  expiresAt: Date | null;
  snapshot: boolean;
}

/** What a snapshot link froze: the history below `nextSequence`, the name and activity of that moment. */
export interface ShareSnapshotCut {
  name: string | null;
  lastActive: Date;
  displayCount: number;
  nextSequence: number;
  /** when the link was taken: rows saved later are not in it, whatever their sequence number */
  takenAt: Date;
}

export interface ResolvedShare {
  session: SessionRow & { profileName: string };
  /** set for a snapshot link */
  snapshot: ShareSnapshotCut | null;
}

/** The rows filter of a snapshot link (none for the live link). */
export const snapshotCut = (snapshot: ShareSnapshotCut | null): SnapshotCut | undefined =>
  snapshot ? { beforeSequence: snapshot.nextSequence, takenAt: snapshot.takenAt } : undefined;

const live = (now: Date) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

export class ShareStore {
  constructor(private readonly db: Database) {}

  private get prisma() {
    return this.db.prisma;
  }

  /** The session's live (non-snapshot) link row, expired or not. */
  async liveLink(sessionId: string): Promise<ShareLinkRow | null> {
    const row = await this.prisma.sessionShare.findUnique({ where: { sessionId } });
    return row ? { ...row, snapshot: false } : null;
  }

  /** Every link of the session: the live one first, then snapshots newest first. */
  async links(sessionId: string): Promise<ShareLinkRow[]> {
    const [one, snapshots] = await Promise.all([
      this.liveLink(sessionId),
      this.prisma.sessionShareSnapshot.findMany({
        where: { sessionId },
        select: { token: true, sessionId: true, createdAt: true, expiresAt: true },
        orderBy: [{ createdAt: 'desc' }, { token: 'asc' }],
      }),
    ]);
    return [...(one ? [one] : []), ...snapshots.map((s) => ({ ...s, snapshot: true }))];
  }

  /** Inserts the session's live token; throws a unique violation when it already has one. */
  async create(sessionId: string, token: string, expiresAt: Date | null): Promise<ShareLinkRow> {
    const row = await this.prisma.sessionShare.create({ data: { sessionId, token, expiresAt } });
    return { ...row, snapshot: false };
  }

  /** Sets the live link's expiry; null when that token is no longer the session's. */
  async setExpiry(sessionId: string, token: string, expiresAt: Date | null): Promise<ShareLinkRow | null> {
    const { count } = await this.prisma.sessionShare.updateMany({ where: { sessionId, token }, data: { expiresAt } });
    return count > 0 ? this.liveLink(sessionId) : null;
  }

  /** Removes the live link if it still is `token` (an expired one being replaced). */
  async removeLive(sessionId: string, token: string): Promise<void> {
    await this.prisma.sessionShare.deleteMany({ where: { sessionId, token } });
  }

  /**
   * A snapshot link freezing the session as it is in this statement's view of the row. The insert is refused
   * (error naming `session_share_snapshots_cap`) once the session holds MAX_SNAPSHOT_LINKS: a trigger's cap.
   */
  async createSnapshot(
    session: { id: string; name: string | null; lastActive: Date; displayCount: number; nextSequence: number },
    token: string,
    expiresAt: Date | null,
  ): Promise<ShareLinkRow> {
    const row = await this.prisma.sessionShareSnapshot.create({
      data: {
        token,
        sessionId: session.id,
        expiresAt,
        name: session.name,
        lastActive: session.lastActive,
        displayCount: session.displayCount,
        nextSequence: session.nextSequence,
      },
    });
    return { token: row.token, sessionId: row.sessionId, createdAt: row.createdAt, expiresAt, snapshot: true };
  }

  /** Deletes the session's links (all, or the one `token`); how many went. */
  async revoke(sessionId: string, token?: string): Promise<number> {
    const where = token === undefined ? { sessionId } : { sessionId, token };
    const [a, b] = await this.prisma.$transaction([
      this.prisma.sessionShare.deleteMany({ where }),
      this.prisma.sessionShareSnapshot.deleteMany({ where }),
    ]);
    return a.count + b.count;
  }

  /**
   * Whether a display `content_publish` result card of the session names `filename`
   * (for a snapshot link: a card that existed when it was taken, see {@link SnapshotCut}).
   */
  async isPublished(sessionId: string, filename: string, cut?: SnapshotCut): Promise<boolean> {
    const row = await this.prisma.sessionMessage.findFirst({
      where: {
        sessionId,
        role: 'tool',
        name: 'content_publish',
        isDisplay: true,
        metadata: { path: ['card', 'filename'], equals: filename },
        ...(cut !== undefined && { sequenceNumber: { lt: cut.beforeSequence }, createdAt: { lte: cut.takenAt } }),
      },
      select: { sequenceNumber: true },
    });
    return row !== null;
  }

  /** The session behind a token that has not expired (at `now`), with its profile's name. */
  async resolve(token: string, now: Date): Promise<ResolvedShare | null> {
    const include = { session: { include: { profile: { select: { name: true } } } } } as const;
    const one = await this.prisma.sessionShare.findFirst({ where: { token, ...live(now) }, include });
    if (one?.session) return { session: flatten(one.session), snapshot: null };
    const snap = await this.prisma.sessionShareSnapshot.findFirst({ where: { token, ...live(now) }, include });
    if (!snap?.session) return null;
    const { name, lastActive, displayCount, nextSequence } = snap;
    // The database keeps microseconds, a Date milliseconds: one more millisecond keeps the rows saved in the same
    // millisecond before the link (a cut that reuses a sequence number takes far longer than that).
    const takenAt = new Date(snap.createdAt.getTime() + 1);
    return { session: flatten(snap.session), snapshot: { name, lastActive, displayCount, nextSequence, takenAt } };
  }
}

function flatten<T extends { profile: { name: string } }>(row: T): Omit<T, 'profile'> & { profileName: string } {
  const { profile, ...session } = row;
  return { ...session, profileName: profile.name };
}
