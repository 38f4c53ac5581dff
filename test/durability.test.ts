/**
 * Nothing acknowledged is lost, in one process: the scripted writes of the kill -9 test (session, message and its
 * answer, rename, upload, share link; test/support/durability.ts), every one read back exactly once through a second
 * app opened on the same database and files, as a restarted server would. The same across kill -9 of a real server,
 * with the admin CLI writing meanwhile: test/slow/faults-durability.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { appRoutes } from '../src/routes.js';
import { startServer } from '../src/server.js';
import { newLedger, replyResponder, verifyLedger, writeRound } from './support/durability.js';
import { createTestServer, dbKind, type ServerContext } from './support/harness.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ authEnabled: true, titleGenerationEnabled: false });
  t.fake.responder = replyResponder;
}, 300_000);
afterAll(() => t?.close());

describe(`durable writes in process (${dbKind})`, () => {
  it('every write the server answered is read back exactly once by another app on the same store', async () => {
    const { key } = await t.app.auth.createUser('alice');
    const ledger = newLedger();
    for (let round = 0; round < 2; round++) await writeRound(t.url, ledger, `r${round}`, key);
    expect(ledger.acknowledged).toBe(12);

    let restarted: App | undefined;
    let running: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      restarted = await createApp(t.app.config, { db: t.app.db });
      running = await startServer(restarted, { routes: appRoutes(restarted) });
      expect(await verifyLedger(running.url, ledger, key)).toEqual({ lost: [], duplicates: [] });
    } finally {
      await running?.close();
      await restarted?.close();
    }
  }, 600_000);
});
