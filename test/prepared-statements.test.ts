/**
 * The hot reads (the history page's one statement, the session list's) are
 * named prepared statements on a PostgreSQL server: parsed and planned once
 * per connection (src/db/client.ts, `{ prepare: true }`). Checked on one
 * pooled connection through pg_prepared_statements: both are prepared, the
 * answers are the same as unprepared ones, DATABASE_PREPARED_STATEMENTS=false
 * prepares nothing, and a connection that lost its statements (a pooler that
 * moved the client to another backend, here DEALLOCATE ALL) still answers,
 * unnamed. On PGlite the option changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { SessionStore } from '../src/store/sessions.js';
import { createTestDatabase, dbKind, testConfig } from './support/harness.js';
import { needsServer, skipping } from './support/skips.js';

const serverOnly = skipping(
  'prepared statements',
  needsServer('named prepared statements exist on a PostgreSQL server only'),
);

let app: App;
let db: Database;
let url: string | undefined;
let drop: () => Promise<void>;
let sessionId: string;
const viewer = { userId: 'anonymous', userName: null, isAdmin: false, permissions: [], authEnabled: false };

beforeAll(async () => {
  const opened = await createTestDatabase({ poolSize: 1 });
  ({ db, drop, url } = opened);
  app = await createApp(testConfig(), { db });
  const session = await app.sessions.create(viewer, { name: 'prepared' });
  sessionId = session.id;
  for (let i = 0; i < 3; i++)
    await app.store.append(sessionId, [{ role: i % 2 ? 'assistant' : 'user', content: `line ${i}` } as never]);
}, 180_000);
afterAll(async () => {
  await app?.close();
  await drop?.();
});

const reads = async (store: SessionStore) => ({
  page: await store.readableWithPage(viewer, sessionId, { lower: 0, before: null, first: null, size: 50 }),
  list: await store.listPage({ viewer, orderBy: 'LAST_ACTIVE', direction: 'DESC', first: 10 }),
});
const preparedOn = async (database: Database) =>
  (
    await database.raw.query<{ name: string; statement: string }>(
      "SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'chat\\_%'",
    )
  ).map((r) => r.statement);

describe(`hot reads as prepared statements (${dbKind})`, () => {
  it('answers the history page and the list', async () => {
    const { page, list } = await reads(app.store);
    expect(page!.rows.map((r) => r.content)).toEqual(['line 0', 'line 1', 'line 2']);
    expect(list.rows.map((r) => r.id)).toEqual([sessionId]);
    expect(list.totalCount).toBe(1);
  });

  it.skipIf(serverOnly)('prepares both once per connection; off prepares nothing; same answers', async () => {
    const prepared = await reads(app.store);
    await reads(app.store);
    const statements = await preparedOn(db);
    expect(statements).toHaveLength(2);
    expect(statements.some((s) => /json_agg/.test(s))).toBe(true);
    expect(statements.some((s) => /session_count_deltas/.test(s))).toBe(true);

    const plain = await openDatabase({ url: url!, poolSize: 1, preparedStatements: false });
    try {
      expect(await reads(new SessionStore(plain))).toEqual(prepared);
      expect(await preparedOn(plain)).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it.skipIf(serverOnly)('a connection that lost its prepared statements still answers', async () => {
    const before = await reads(app.store);
    await db.raw.query('DEALLOCATE ALL');
    expect(await preparedOn(db)).toEqual([]);
    expect(await reads(app.store)).toEqual(before);
  });
});
