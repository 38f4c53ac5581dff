/** The user store: every statement about `users` and `api_keys`. */
import type { Database } from '../db/client.js';
import type { Prisma, User } from '../generated/prisma/client.js';

export type UserRow = User;

/** What a Pothos resolver's `query` adds to a users read (its selection drives the SQL). */
export type UserQuery = { include?: Prisma.UserInclude; select?: Prisma.UserSelect };

export class UserStore {
  constructor(private readonly db: Database) {}

  private get prisma() {
    return this.db.prisma;
  }

  get(id: string, query: UserQuery = {}): Promise<User | null> {
    return this.prisma.user.findUnique({ ...(query as object), where: { id } }) as Promise<User | null>;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.prisma.user.count({ where: { id } })) > 0;
  }

  /** The user behind an API key's hash, or null. */
  async byKeyHash(keyHash: string): Promise<User | null> {
    const key = await this.prisma.apiKey.findUnique({ where: { keyHash }, include: { user: true } });
    return key?.user ?? null;
  }

  /** A local user (created by an admin command, not by a token) by name. */
  localByName(name: string): Promise<User | null> {
    return this.prisma.user.findFirst({ where: { name, jwtSubject: null } });
  }

  create(data: { name: string; isAdmin: boolean; permissions: string[] }): Promise<User> {
    return this.prisma.user.create({ data });
  }

  async createApiKey(userId: string, keyHash: string, prefix: string): Promise<void> {
    await this.prisma.apiKey.create({ data: { userId, keyHash, prefix } });
  }

  /**
   * The identity's row, created on first sight; a row from before identities
   * (jwt_issuer null) is adopted by its subject.
   */
  async jwtUser(issuer: string, subject: string): Promise<{ id: string; name: string }> {
    const prisma = this.prisma;
    const where = { jwtIssuer_jwtSubject: { jwtIssuer: issuer, jwtSubject: subject } };
    const select = { id: true, name: true } as const;
    for (let attempt = 0; ; attempt++) {
      const found = await prisma.user.findUnique({ where, select });
      if (found) return found;
      try {
        const adopted = await prisma.user.updateMany({
          where: { jwtIssuer: null, jwtSubject: subject },
          data: { jwtIssuer: issuer },
        });
        if (adopted.count > 0) continue;
        return await prisma.user.create({ data: { name: subject, jwtIssuer: issuer, jwtSubject: subject }, select });
      } catch (error) {
        // A concurrent first request created (or adopted) the same identity: read it.
        if ((error as { code?: string }).code !== 'P2002' || attempt > 2) throw error;
      }
    }
  }
}

/** User rows by id, in one query (Session.owner batches every owner on a page). */
export function usersByIds(db: Database, ids: readonly string[]): Promise<User[]> {
  return db.prisma.user.findMany({ where: { id: { in: [...ids] } } });
}
