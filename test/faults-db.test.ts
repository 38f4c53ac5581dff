/**
 * A database blip delays, never fails (PostgreSQL server only: PGlite has no
 * backends to terminate and no second connection to hold a lock).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../src/app.js';
import { openDatabase } from '../src/db/client.js';
import { createGraphQLHandler } from '../src/server.js';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  FaultsDbCreateSessionDocument,
  FaultsDbReadDocument,
  type FaultsDbReadQuery,
  FaultsDbRecordDocument,
  FaultsDbRenameDocument,
  FaultsDbSendDocument,
} from './generated/graphql.js';
import {
  codeOf,
  createTestServer,
  dbKind,
  eventually,
  queryText,
  SESSION_EVENTS,
  testConfig,
  type GqlResult,
  type SendGql,
  type ServerContext,
} from './support/harness.js';
import { needsServer, skipping } from './support/skips.js';

const SEND = FaultsDbSendDocument;
const RECORD = FaultsDbRecordDocument;
const RENAME = FaultsDbRenameDocument;
const READ = FaultsDbReadDocument;
const rawId = (id: string) => Buffer.from(id, 'base64').toString().split(':')[1]!;

const skipped = skipping('database faults', needsServer('kills server connections'));
describe.skipIf(skipped)('database faults (postgres)', () => {
  let t: ServerContext;
  let admin: pg.Client;
  let dbName: string;
  let dbUrl: string;

  beforeAll(async () => {
    // A small pool: the turn path must queue for connections, not fail.
    t = await createTestServer({ titleGenerationEnabled: false }, { poolSize: 3, lockTimeoutMs: 30_000 });
    [{ name: dbName }] = await t.app.db.raw.query<{ name: string }>('SELECT current_database() AS name');
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${dbName}`;
    dbUrl = url.toString();
    admin = new pg.Client({ connectionString: dbUrl });
    await admin.connect();
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await t?.close();
  });

  /** Terminates every connection of the service (all but the admin's). */
  async function terminateService(where = 'true'): Promise<number> {
    const rows = await admin.query(
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND ${where}`,
      [dbName],
    );
    return rows.rowCount ?? 0;
  }

  async function newSession(): Promise<string> {
    const r = await t.gql(FaultsDbCreateSessionDocument, {});
    expect(r.errors).toBeUndefined();
    return r.data!.createSession.id;
  }

  it('a read whose connection is terminated while it runs still answers', async () => {
    const sessionId = await newSession();
    expect((await t.gql(RECORD, { input: { sessionId, source: 'task_note', text: 'before' } })).errors).toBeUndefined();
    // Park the read on a table lock so its backend is known, then terminate that backend.
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE');
    let read: Promise<GqlResult<FaultsDbReadQuery>> | null = null;
    try {
      read = t.gql(READ, { id: sessionId });
      await eventually(
        async () =>
          (
            await admin.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`,
              [dbName],
            )
          ).rows[0].n,
        (n) => n > 0,
        30_000,
      );
      expect(await terminateService(`wait_event_type = 'Lock'`)).toBeGreaterThan(0);
    } finally {
      await admin.query('ROLLBACK');
    }
    const answer = await read!;
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.session!.history.edges.map((e) => e.node.content)).toEqual(['before']);
    // And between requests: every pooled connection gone, the next reads answer.
    await terminateService();
    const reads = await Promise.all(Array.from({ length: 10 }, () => t.gql(READ, { id: sessionId })));
    expect(reads.map((r) => r.errors)).toEqual(Array(10).fill(undefined));
  }, 120_000);

  it('a turn survives its connections being terminated while it streams', async () => {
    const sessionId = await newSession();
    const sub = t.subscribe(SESSION_EVENTS, { sessionId });
    const chunks = Array.from({ length: 40 }, (_, i) => `t${i} `);
    t.fake.enqueue({ text: chunks, chunkDelayMs: 30 });
    // The subscription is live once it sees a note (one recorded before it was may be missed).
    while (!sub.events.some((e) => e.__typename === 'MessageSaved')) {
      expect((await t.gql(RECORD, { input: { sessionId, source: 'task_note', text: 'go' } })).errors).toBeUndefined();
      await sub.waitFor((events) => events.some((e) => e.__typename === 'MessageSaved'), 1_000).catch(() => undefined);
    }
    expect(
      (await t.gql(SEND, { input: { sessionId, content: 'stream while the database drops us' } })).errors,
    ).toBeUndefined();
    for (const n of [5, 15, 25, 35]) {
      await sub.waitFor((events) => events.filter((e) => e.__typename === 'TextDelta').length >= n, 60_000);
      await terminateService();
      // Reads in the middle answer too.
      expect((await t.gql(READ, { id: sessionId })).errors).toBeUndefined();
    }
    const events = await sub.waitFor(
      (events) => events.some((e) => e.__typename === 'TurnEnded' || e.__typename === 'TurnFailed'),
      60_000,
    );
    expect(events.map((e) => e.__typename)).toContain('TurnEnded');
    await terminateService();
    const read = await t.gql(READ, { id: sessionId });
    expect(read.errors).toBeUndefined();
    expect(read.data!.session!.history.edges.at(-1)!.node).toEqual({ role: 'ASSISTANT', content: chunks.join('') });
    sub.dispose();
  }, 180_000);

  describe('a row held FOR UPDATE by another connection', () => {
    let busyApp: App;
    let gql: SendGql;
    beforeAll(async () => {
      // The same database, with a short lock timeout.
      const db = await openDatabase({ url: dbUrl, poolSize: 3, lockTimeoutMs: 500 });
      busyApp = await createApp(testConfig({ titleGenerationEnabled: false, ollamaHost: t.fake.url }), { db });
      const yoga = createGraphQLHandler(busyApp);
      gql = async (query: string | TypedDocumentNode<unknown, never>, variables: Record<string, unknown> = {}) =>
        (await (
          await yoga.fetch('http://test/graphql', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: queryText(query), variables }),
          })
        ).json()) as GqlResult<never>;
    }, 180_000);
    afterAll(async () => {
      await busyApp?.close();
      await busyApp?.db.close().catch(() => undefined);
    });

    it('recordSessionEvent and renameSession answer BUSY ' +
      'with nothing written, and succeed once it is released', async () => {
      const sessionId = await newSession();
      const id = rawId(sessionId);
      const before = (await admin.query('SELECT next_sequence, name FROM sessions WHERE id = $1', [id])).rows[0];
      await admin.query('BEGIN');
      try {
        await admin.query('SELECT id FROM sessions WHERE id = $1 FOR UPDATE', [id]);
        const recorded = await gql(RECORD, { input: { sessionId, source: 'task_note', text: 'while locked' } });
        expect(codeOf(recorded)).toBe('BUSY');
        const renamed = await gql(RENAME, { id: sessionId, name: 'while locked' });
        expect(codeOf(renamed)).toBe('BUSY');
      } finally {
        await admin.query('ROLLBACK');
      }
      expect(
        (await admin.query('SELECT count(*)::int AS n FROM session_messages WHERE session_id = $1', [id])).rows[0].n,
      ).toBe(0);
      expect((await admin.query('SELECT next_sequence, name FROM sessions WHERE id = $1', [id])).rows[0]).toEqual(
        before,
      );
      const recorded = await gql(RECORD, { input: { sessionId, source: 'task_note', text: 'after release' } });
      expect(recorded.errors).toBeUndefined();
      expect(recorded.data!.recordSessionEvent).toEqual({ sequenceNumber: 0, content: 'after release' });
      expect((await gql(RENAME, { id: sessionId, name: 'after release' })).data!.renameSession.name).toBe(
        'after release',
      );
    }, 180_000);
  });

  it('50 concurrent turns on a pool of 3 connections: none fails', async () => {
    const sessions = await Promise.all(Array.from({ length: 50 }, () => newSession()));
    t.fake.responder = () => ({ text: ['a', 'b', 'c', 'd'], chunkDelayMs: 5 });
    try {
      const sent = await Promise.all(
        sessions.map((sessionId) => t.gql(SEND, { input: { sessionId, content: 'concurrent' } })),
      );
      expect(sent.map((r) => r.errors)).toEqual(Array(50).fill(undefined));
      const ids = sent.map((r) => rawId(r.data!.sendMessage.turn.id));
      const statuses = await eventually(
        () => t.app.db.prisma.turn.findMany({ where: { id: { in: ids } }, select: { status: true } }),
        (rows) => rows.every((r) => !['RUNNING', 'WAITING_FOR_TOOL'].includes(r.status)),
        120_000,
      );
      expect(statuses.filter((r) => r.status !== 'COMPLETED')).toEqual([]);
    } finally {
      t.fake.responder = undefined;
    }
  }, 180_000);
});
