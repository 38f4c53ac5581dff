/**
 * Issue 32 item 5: a large ChatGPT export imports (on the test database: PGlite, or PostgreSQL with
 * TEST_DATABASE_URL), sent as an uploaded file (`importSessionFile`), and the server answers other requests meanwhile:
 * a request made once the import is writing completes before the import does (event-based: the write of its last
 * conversation waits for that request; the server is never blocked by the wait, it is an await outside any
 * transaction). The same text sent again as the `data` string finds the same sessions.
 *
 * Size: 50 MB on PGlite; 12 MB on PostgreSQL, with the same 200 conversations × 100 messages (shorter texts). The
 * size-bound parts (the request body limit, the spool, the worker's parse) do not depend on the database, and the
 * database side runs the same statements either way (one session at a time, bounded INSERTs, no interactive
 * transaction); at 50 MB PostgreSQL spent ~78 s of the slow stage's 120 s writing text. `npm run bench:import`
 * imports 50 MB on both (docs/testing.md, docs/performance.md).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TransferStore } from '../../src/store/transfers.js';
import { ImportSessionDocument, ImportSessionFileDocument } from '../generated/graphql.js';
import { createTestServer, dbKind, type ServerContext } from '../support/harness.js';
import { largeChatGptExport } from '../support/large-chatgpt.js';
import { multipart } from '../support/uploads.js';

const MB = dbKind === 'postgres' ? 12 : 50;

let t: ServerContext;
let alice: string;

beforeAll(async () => {
  t = await createTestServer({ authEnabled: true, titleGenerationEnabled: false });
  alice = (await t.app.auth.createUser('alice')).key;
});
afterAll(() => t.close());

describe(`a ${MB} MB ChatGPT import (${dbKind})`, () => {
  it('imports whole, invisible until done, and other requests are answered meanwhile', async () => {
    const CONVERSATIONS = 200;
    const data = largeChatGptExport(MB * 1024 * 1024, CONVERSATIONS, 100);
    expect(data.length).toBeGreaterThan((MB - 1) * 1_000_000);

    // Once the first conversation is written the test asks; the last conversation's write waits for the answer (an
    // await outside any transaction, so nothing the other request needs is held).
    let writes = 0;
    let firstWritten!: () => void;
    const writing = new Promise<void>((resolve) => (firstWritten = resolve));
    let answered!: () => void;
    const otherAnswered = new Promise<void>((resolve) => (answered = resolve));
    const write = TransferStore.prototype.writeImport;
    const spy = vi.spyOn(TransferStore.prototype, 'writeImport').mockImplementation(async function (
      this: TransferStore,
      ...args
    ) {
      writes++;
      if (writes === CONVERSATIONS) await otherAnswered;
      const session = await write.apply(this, args);
      if (writes === 1) firstWritten();
      return session;
    });
    let importDone = false;
    const file = [{ name: 'conversations.json', bytes: data, type: 'application/json' }];
    const imported = multipart(t, ImportSessionFileDocument, { file: null }, file, ['variables.file'], alice).then(
      (r) => {
        importDone = true;
        return r.body;
      },
    );
    await writing;
    const other = await t.http('query { sessions { totalCount } }', {}, alice);
    expect(importDone).toBe(false);
    // the import's sessions so far are visible (handed over one by one), never a half-written one
    expect(other.errors).toBeUndefined();
    answered();
    const r = await imported;
    spy.mockRestore();
    expect(r.errors).toBeUndefined();
    const total = await t.http('query { sessions { totalCount } }', {}, alice);
    expect((total.data as { sessions: { totalCount: number } }).sessions.totalCount).toBe(CONVERSATIONS);
    expect(await t.app.db.prisma.sessionMessage.count()).toBe(CONVERSATIONS * 100);
    // same input, same sessions
    const again = await t.http(ImportSessionDocument, { data }, alice);
    expect((again.data as { importSession: { id: string } }).importSession.id).toBe(
      (r.data as { importSessionFile: { id: string } }).importSessionFile.id,
    );
  }, 600_000);
});
