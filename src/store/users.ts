/** User rows by id, in one query (Session.owner batches every owner on a page). */
import type { Database } from '../db/client.js';
import type { User } from '../generated/prisma/client.js';

export function usersByIds(db: Database, ids: readonly string[]): Promise<User[]> {
  return db.prisma.user.findMany({ where: { id: { in: [...ids] } } });
}
