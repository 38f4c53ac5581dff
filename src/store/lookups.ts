/**
 * Single-row reads the GraphQL layer needs to decide what a caller may see
 * (`node(id:)`, the Turn and Message loaders): existence checks and the
 * session a row belongs to. The access rule itself is the policy's
 * (src/domain/policy.ts), passed in as a `readWhere` filter.
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

/**
 * The newest turn that answered each user message, by (session, sequence number): a regenerate answers the same
 * message again with a new turn. Keyed `sessionId:sequenceNumber`; messages no turn answered are absent.
 */
export async function turnsOfUserMessages(
  db: Database,
  keys: readonly { sessionId: string; sequenceNumber: number }[],
): Promise<Map<string, Turn>> {
  const rows = await db.prisma.turn.findMany({
    where: { OR: keys.map((k) => ({ sessionId: k.sessionId, userSequence: k.sequenceNumber })) },
    orderBy: [{ startedAt: 'asc' }, { id: 'asc' }],
  });
  return new Map(rows.map((turn) => [`${turn.sessionId}:${turn.userSequence}`, turn]));
}

export async function sessionIdOfTurn(db: Database, id: string): Promise<string | null> {
  return (await db.prisma.turn.findUnique({ where: { id }, select: { sessionId: true } }))?.sessionId ?? null;
}

export async function sessionIdOfRecall(db: Database, id: string): Promise<string | null> {
  return (
    (await db.prisma.pendingTurn.findFirst({ where: { id, kind: 'RECALL' }, select: { sessionId: true } }))
      ?.sessionId ?? null
  );
}

export async function sessionIdOfQueuedMessage(db: Database, id: string): Promise<string | null> {
  return (
    (
      await db.prisma.pendingTurn.findFirst({
        where: { id, kind: { in: ['QUEUE', 'STEER'] } },
        select: { sessionId: true },
      })
    )?.sessionId ?? null
  );
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
/** A message row by its id for life, in either table of the session. */
export async function messageById(db: Database, sessionId: string, messageId: string) {
  const where = { sessionId_messageId: { sessionId, messageId } };
  const hot = await db.prisma.sessionMessage.findUnique({ where });
  if (hot) return { row: hot, archived: false };
  const cold = await db.prisma.sessionMessageArchive.findUnique({ where });
  return cold ? { row: cold, archived: true } : null;
}

export async function messageByKey(db: Database, sessionId: string, sequenceNumber: number) {
  const where = { sessionId_sequenceNumber: { sessionId, sequenceNumber } };
  const hot = await db.prisma.sessionMessage.findUnique({ where });
  if (hot) return { row: hot, archived: false };
  const cold = await db.prisma.sessionMessageArchive.findUnique({ where });
  return cold ? { row: cold, archived: true } : null;
}
