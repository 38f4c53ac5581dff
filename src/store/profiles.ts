/** The profile store: every statement about the `profiles` table. */
import type { Database } from '../db/client.js';
import type { Prisma, Profile } from '../generated/prisma/client.js';

export type ProfileRow = Profile;

/** The fields a profile write may set (the service validates them). */
export type ProfileFields = Omit<Prisma.ProfileCreateInput, 'sessions'>;

export class ProfileStore {
  constructor(private readonly db: Database) {}

  private get prisma() {
    return this.db.prisma;
  }

  list(): Promise<Profile[]> {
    return this.prisma.profile.findMany({ orderBy: { key: 'asc' } });
  }

  get(id: string): Promise<Profile | null> {
    return this.prisma.profile.findUnique({ where: { id } });
  }

  byKey(key: string): Promise<Profile | null> {
    return this.prisma.profile.findUnique({ where: { key } });
  }

  /** Inserts `create` under its key unless a profile has it; then applies `update` (empty: leave it as it is). */
  upsert(key: string, create: ProfileFields, update: Partial<ProfileFields>): Promise<Profile> {
    return this.prisma.profile.upsert({ where: { key }, update, create });
  }
}
