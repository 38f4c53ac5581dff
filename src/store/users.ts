/** The user store: every statement about `users` and `api_keys`. */
import type { Database } from '../db/client.js';
import type { ApiKey, Prisma, User } from '../generated/prisma/client.js';

export type UserRow = User;
export type ApiKeyRow = ApiKey;

/** What a Pothos resolver's `query` adds to an api_keys read. */
export type ApiKeyQuery = { include?: Prisma.ApiKeyInclude; select?: Prisma.ApiKeySelect };

/** A key as its credential check needs it: the key's own state and its user's. */
export interface KeyCheck {
  key: Pick<ApiKey, 'id' | 'expiresAt' | 'revokedAt' | 'lastUsedAt'>;
  user: User;
}

/** A rotation refused: the key is revoked, expired, or was already rotated (its replacement is the one to rotate). */
export class KeyNotRotatable extends Error {}

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

  /** The key with this hash and its user, whatever their state (the caller refuses revoked, expired, disabled). */
  async keyByHash(keyHash: string): Promise<KeyCheck | null> {
    const found = await this.prisma.apiKey.findUnique({
      where: { keyHash },
      select: { id: true, expiresAt: true, revokedAt: true, lastUsedAt: true, user: true },
    });
    return found ? { key: found, user: found.user } : null;
  }

  /** Records a use of the key, at most once a minute per key (a credential check must not write per request). */
  async touchKey(id: string): Promise<void> {
    const now = new Date();
    await this.prisma.apiKey.updateMany({
      where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - 60_000) } }] },
      data: { lastUsedAt: now },
    });
  }

  /** A local user (created by an admin command, not by a token) by name. */
  localByName(name: string): Promise<User | null> {
    return this.prisma.user.findFirst({ where: { name, jwtSubject: null } });
  }

  create(data: { name: string; isAdmin: boolean; permissions: string[] }): Promise<User> {
    return this.prisma.user.create({ data });
  }

  createApiKey(userId: string, keyHash: string, prefix: string, expiresAt: Date | null = null): Promise<ApiKey> {
    return this.prisma.apiKey.create({ data: { userId, keyHash, prefix, expiresAt } });
  }

  /**
   * Users by name, then id: `take` of them, after the `cursor` row when given (skip 1 to leave it out). Pothos'
   * connection passes its own paging and selection here.
   */
  listUsers(args: UserQuery & { take: number; skip?: number; cursor?: { id: string } }): Promise<User[]> {
    return this.prisma.user.findMany({
      ...(args as object),
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    }) as Promise<User[]>;
  }

  /** A user's keys, newest first. */
  keysOf(userId: string, query: ApiKeyQuery = {}): Promise<ApiKey[]> {
    return this.prisma.apiKey.findMany({
      ...(query as object),
      where: { userId },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    }) as Promise<ApiKey[]>;
  }

  key(id: string, query: ApiKeyQuery = {}): Promise<ApiKey | null> {
    return this.prisma.apiKey.findUnique({ ...(query as object), where: { id } }) as Promise<ApiKey | null>;
  }

  /** Keys whose id is `ref`, or whose shown prefix starts with it (the CLI names keys by what it printed). */
  findKeys(ref: string): Promise<ApiKey[]> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref);
    return this.prisma.apiKey.findMany({
      where: isUuid ? { id: ref } : { prefix: { startsWith: ref } },
      orderBy: { createdAt: 'asc' },
      take: 10,
    });
  }

  /** Revokes the key; null when there is none. Revoking a revoked key keeps its first revocation time. */
  async revokeKey(id: string): Promise<ApiKey | null> {
    await this.prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
    return this.prisma.apiKey.findUnique({ where: { id } });
  }

  /**
   * Replaces a key: the new key is stored and the old one expires at `graceEnds` (or earlier, if it already did
   * then), naming its replacement. Under the old key's row lock, so two rotations of one key cannot both succeed.
   */
  rotateKey(
    id: string,
    replacement: { keyHash: string; prefix: string; expiresAt: Date | null },
    graceEnds: Date,
  ): Promise<{ previous: ApiKey; key: ApiKey } | null> {
    return this.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM api_keys WHERE id = ${id}::uuid FOR UPDATE`;
      if (!row) return null;
      const old = (await tx.apiKey.findUnique({ where: { id } }))!;
      const now = new Date();
      if (old.revokedAt) throw new KeyNotRotatable('the key is revoked');
      if (old.expiresAt && old.expiresAt <= now) throw new KeyNotRotatable('the key has expired');
      if (old.replacedById) throw new KeyNotRotatable('the key was already rotated: rotate its replacement');
      const key = await tx.apiKey.create({ data: { userId: old.userId, ...replacement } });
      const expiresAt = old.expiresAt && old.expiresAt < graceEnds ? old.expiresAt : graceEnds;
      const previous = await tx.apiKey.update({ where: { id }, data: { expiresAt, replacedById: key.id } });
      return { previous, key };
    });
  }

  /** Disables (every credential refused) or enables the user; null when there is none. */
  async setDisabled(id: string, disabled: boolean): Promise<User | null> {
    await this.prisma.user.updateMany({
      where: disabled ? { id, disabledAt: null } : { id },
      data: { disabledAt: disabled ? new Date() : null },
    });
    return this.prisma.user.findUnique({ where: { id } });
  }

  /**
   * The identity's row, created on first sight; a row from before identities
   * (jwt_issuer null) is adopted by its subject.
   */
  async jwtUser(issuer: string, subject: string): Promise<{ id: string; name: string; disabledAt: Date | null }> {
    const prisma = this.prisma;
    const where = { jwtIssuer_jwtSubject: { jwtIssuer: issuer, jwtSubject: subject } };
    const select = { id: true, name: true, disabledAt: true } as const;
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
