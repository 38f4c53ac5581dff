/** The profile store: every statement about the `profiles` table. */
import type { Database } from '../db/client.js';
import type { Prisma, Profile } from '../generated/prisma/client.js';

export type ProfileRow = Profile;

/** The fields a profile write may set (the service validates them). */
export type ProfileFields = Omit<Prisma.ProfileCreateInput, 'sessions'>;

/** What a Pothos resolver's `query` adds to a profiles read (its selection drives the SQL). */
export type ProfileQuery = { include?: Prisma.ProfileInclude; select?: Prisma.ProfileSelect };

export class ProfileStore {
  constructor(private readonly db: Database) {}

  private get prisma() {
    return this.db.prisma;
  }

  list(query: ProfileQuery = {}): Promise<Profile[]> {
    return this.prisma.profile.findMany({ ...(query as object), orderBy: { key: 'asc' } }) as Promise<Profile[]>;
  }

  get(id: string, query: ProfileQuery = {}): Promise<Profile | null> {
    return this.prisma.profile.findUnique({ ...(query as object), where: { id } }) as Promise<Profile | null>;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.prisma.profile.count({ where: { id } })) > 0;
  }

  byKey(key: string): Promise<Profile | null> {
    return this.prisma.profile.findUnique({ where: { key } });
  }

  /** Inserts `create` under its key unless a profile has it; then applies `update` (empty: leave it as it is). */
  upsert(key: string, create: ProfileFields, update: Partial<ProfileFields>): Promise<Profile> {
    return this.prisma.profile.upsert({ where: { key }, update, create });
  }
}
