/** The share store: `session_shares` and the published-file probe over a shared session's messages. */
import type { Database } from '../db/client.js';
import type { SessionRow } from './sessions.js';

export class ShareStore {
  constructor(private readonly db: Database) {}

  private get prisma() {
    return this.db.prisma;
  }

  async tokenOf(sessionId: string): Promise<string | null> {
    const row = await this.prisma.sessionShare.findUnique({ where: { sessionId }, select: { token: true } });
    return row?.token ?? null;
  }

  /** Inserts the session's share token; throws a unique violation when it already has one. */
  async create(sessionId: string, token: string): Promise<string> {
    const row = await this.prisma.sessionShare.create({ data: { sessionId, token } });
    return row.token;
  }

  /** Whether a display `content_publish` result card of the session names `filename`. */
  async isPublished(sessionId: string, filename: string): Promise<boolean> {
    const row = await this.prisma.sessionMessage.findFirst({
      where: {
        sessionId,
        role: 'tool',
        name: 'content_publish',
        isDisplay: true,
        metadata: { path: ['card', 'filename'], equals: filename },
      },
      select: { sequenceNumber: true },
    });
    return row !== null;
  }

  /** The session behind a token, with its profile's name. */
  async resolve(token: string): Promise<(SessionRow & { profileName: string }) | null> {
    const row = await this.prisma.sessionShare.findUnique({
      where: { token },
      include: { session: { include: { profile: { select: { name: true } } } } },
    });
    if (!row?.session) return null;
    const { profile, ...session } = row.session;
    return { ...session, profileName: profile.name };
  }
}
