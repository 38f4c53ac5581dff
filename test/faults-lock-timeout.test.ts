/**
 * A lock held past DATABASE_LOCK_TIMEOUT_MS at a turn's final save never
 * drops the answer the user watched stream: the save retries with backoff;
 * when the lock is still held the turn ends INTERRUPTED (code LOCK_TIMEOUT)
 * and the streamed answer is stored once the lock frees.
 *
 * PostgreSQL server only: the lock is held from a second connection, and
 * PGlite has one connection (nothing else can hold a row lock against the
 * service), so the case cannot arise there.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultsDbCreateSessionDocument, FaultsDbSendDocument } from './generated/graphql.js';
import { createTestServer, eventually, isEvent, SESSION_EVENTS, type ServerContext } from './support/harness.js';
import { needsServer, skipping } from './support/skips.js';

const rawId = (id: string) => Buffer.from(id, 'base64').toString().split(':')[1]!;

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const skipped = skipping('lock timeout at the final save', needsServer('holds a row lock from a second connection'));
describe.skipIf(skipped)('lock timeout at the final save (postgres)', () => {
  let t: ServerContext;
  let admin: pg.Client;

  beforeAll(async () => {
    // A short lock timeout: each attempt of the final save gives up after 300 ms.
    t = await createTestServer(
      { titleGenerationEnabled: false, contextCompressionEnabled: false },
      {
        lockTimeoutMs: 300,
      },
    );
    const [{ name }] = await t.app.db.raw.query<{ name: string }>('SELECT current_database() AS name');
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await t?.close();
  });

  it('ends the turn INTERRUPTED (LOCK_TIMEOUT) and stores the streamed answer once the lock frees', async () => {
    const sessionId = (await t.http(FaultsDbCreateSessionDocument, {})).data!.createSession.id;
    const id = rawId(sessionId);
    const held = gate();
    t.fake.enqueue({ text: ['streamed ', 'answer'], hold: held.promise, holdBeforeChunk: 1 });
    const sub = t.subscribe(SESSION_EVENTS, { sessionId, after: '0' });
    const sent = await t.http(FaultsDbSendDocument, { input: { sessionId, content: 'question' } });
    expect(sent.errors).toBeUndefined();
    await sub.waitFor((es) => es.some((e) => e.__typename === 'TextDelta'));
    // The session row is locked by another connection while the rest of the answer streams in.
    await admin.query('BEGIN');
    let locked = true;
    try {
      await admin.query('SELECT id FROM sessions WHERE id = $1 FOR UPDATE', [id]);
      held.open();
      const events = await sub.waitFor((es) => es.some((e) => e.__typename === 'TurnFailed'));
      const failed = events.find(isEvent('TurnFailed'))!;
      expect(failed.code).toBe('LOCK_TIMEOUT');
      expect(failed.turn.status).toBe('INTERRUPTED');
      // Nothing could be written while the lock is held: the answer waits.
      const rows = await admin.query('SELECT count(*)::int AS n FROM session_messages WHERE session_id = $1', [id]);
      expect(rows.rows[0].n).toBe(1);
      await admin.query('ROLLBACK');
      locked = false;
    } finally {
      if (locked) await admin.query('ROLLBACK');
    }
    const events = await sub.waitFor((es) =>
      es.some((e) => e.__typename === 'MessageSaved' && e.message.role === 'ASSISTANT'),
    );
    const saved = events.filter(isEvent('MessageSaved')).find((e) => e.message.role === 'ASSISTANT')!;
    expect(saved.message.content).toBe('streamed answer');
    expect(saved.message.metadata).toMatchObject({ interrupted: true, lockTimeout: true });
    sub.dispose();
    const stored = await eventually(
      () => t.app.store.messagesAfter(id, -1),
      (ms) => ms.some((m) => m.role === 'assistant'),
      60_000,
    );
    expect(stored.map((m) => [m.role, m.content])).toEqual([
      ['user', 'question'],
      ['assistant', 'streamed answer'],
    ]);
    // The turn keeps no partial once its answer is stored, and the session takes the next message.
    const turn = await t.app.db.prisma.turn.findFirst({ where: { sessionId: id } });
    expect(turn).toMatchObject({ status: 'INTERRUPTED', partialText: '' });
    t.fake.enqueue({ text: 'next' });
    const next = await t.http(FaultsDbSendDocument, { input: { sessionId, content: 'again' } });
    expect(next.errors).toBeUndefined();
  });
});
