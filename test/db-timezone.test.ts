/**
 * Every connection runs in UTC (src/db/client.ts), whatever the database's default zone: Prisma's adapter writes a
 * timestamptz without an offset, so a connection in another zone stored another instant, and the one-statement
 * history page (raw JSON) then disagreed with every Prisma read by the zone's offset. Checked against a database
 * whose default is America/Caracas (UTC-4): the instant stored, the page's createdAt and Prisma's agree.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { createTestDatabase, dbKind, testConfig } from './support/harness.js';

const viewer = { userId: 'anonymous', userName: null, isAdmin: false, permissions: [], authEnabled: false };
const AT = new Date('2024-02-29T12:00:00.500Z');

let app: App;
let db: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  const opened = await createTestDatabase({ fresh: true });
  drop = opened.drop;
  if (opened.url) {
    // The database's default zone is not UTC; connections opened from now on start in it.
    const admin = new pg.Client({ connectionString: opened.url });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${new URL(opened.url).pathname.slice(1)} SET TimeZone = 'America/Caracas'`);
    await admin.end();
    await opened.db.close();
    db = await openDatabase({ url: opened.url, poolSize: 2 });
    drop = async () => {
      await db.close();
      await opened.drop().catch(() => undefined);
    };
  } else {
    db = opened.db;
  }
  app = await createApp(testConfig(), { db });
}, 180_000);
afterAll(async () => {
  await app?.close();
  await drop?.();
});

describe(`connections in UTC (${dbKind})`, () => {
  it('every connection, raw and Prisma, is in UTC', async () => {
    const [raw] = await db.raw.query<{ TimeZone: string }>('SHOW TimeZone');
    expect(raw!.TimeZone).toBe('UTC');
    const viaPrisma = await db.prisma.$queryRawUnsafe<{ TimeZone: string }[]>('SHOW TimeZone');
    expect(viaPrisma[0]!.TimeZone).toBe('UTC');
  });

  it('stores the instant it is given, and the one-statement page answers it as Prisma does', async () => {
    const session = await app.sessions.create(viewer, { name: 'tz' });
    await app.store.append(session.id, [{ role: 'user', content: 'when', createdAt: AT }]);
    const [stored] = await db.raw.query<{ utc: string }>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS utc
         FROM session_messages WHERE session_id = $1::uuid`,
      [session.id],
    );
    expect(stored!.utc).toBe(AT.toISOString());
    const page = await app.store.readableWithPage(viewer, session.id, { lower: 0, before: null, first: null, size: 5 });
    expect(page!.rows.map((r) => r.createdAt)).toEqual([AT.toISOString()]);
    const [viaPrisma] = await app.store.displayRange(session.id, 0, 1);
    expect(viaPrisma!.createdAt).toEqual(AT);
  });
});
