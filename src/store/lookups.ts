/**
 * Single-row reads the GraphQL layer needs to decide what a caller may see
 * (`node(id:)`, the Turn and Message loaders): existence checks and the
 * session a row belongs to. The access rule itself is the policy's
 * (src/auth/policy.ts), passed in as a `readWhere` filter.
 */
import type { Database } from '../db/client.js';
import type { Prisma, Turn } from '../generated/prisma/client.js';

/** Whether a session matching `readable` (the viewer's read filter) has this id. */
export async function sessionExists(db: Database, id: string, readable: Prisma.SessionWhereInput): Promise<boolean> {
  return (await db.prisma.session.count({ where: { id, ...readable } })) > 0;
}

export function readableSession(db: Database, id: string, readable: Prisma.SessionWhereInput) {
  return db.prisma.session.findFirst({ where: { id, ...readable } });
}

export async function countOwnedSessions(
  db: Database,
  userId: string,
  readable: Prisma.SessionWhereInput,
): Promise<number> {
  return db.prisma.session.count({ where: { AND: [{ userId }, readable] } });
}

export function turnById(db: Database, id: string): Promise<Turn | null> {
  return db.prisma.turn.findUnique({ where: { id } });
}

export async function sessionIdOfTurn(db: Database, id: string): Promise<string | null> {
  return (await db.prisma.turn.findUnique({ where: { id }, select: { sessionId: true } }))?.sessionId ?? null;
}

export async function sessionIdOfRecall(db: Database, id: string): Promise<string | null> {
  return (await db.prisma.recall.findUnique({ where: { id }, select: { sessionId: true } }))?.sessionId ?? null;
}

export async function sessionIdOfQueuedMessage(db: Database, id: string): Promise<string | null> {
  return (await db.prisma.queuedMessage.findUnique({ where: { id }, select: { sessionId: true } }))?.sessionId ?? null;
}

export async function userExists(db: Database, id: string): Promise<boolean> {
  return (await db.prisma.user.count({ where: { id } })) > 0;
}

export async function userIdOfApiKey(db: Database, id: string): Promise<string | null> {
  return (await db.prisma.apiKey.findUnique({ where: { id }, select: { userId: true } }))?.userId ?? null;
}

export async function profileExists(db: Database, id: string): Promise<boolean> {
  return (await db.prisma.profile.count({ where: { id } })) > 0;
}

/** A message by its key, hot or archived (`archived` says which). */
export async function messageByKey(db: Database, sessionId: string, sequenceNumber: number) {
  const where = { sessionId_sequenceNumber: { sessionId, sequenceNumber } };
  const hot = await db.prisma.sessionMessage.findUnique({ where });
  if (hot) return { row: hot, archived: false };
  const cold = await db.prisma.sessionMessageArchive.findUnique({ where });
  return cold ? { row: cold, archived: true } : null;
}
