import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForkFilesDeleteDocument, ForkFilesForkDocument } from './generated/graphql.js';
import { createTestServer, dbKind, type ServerContext } from './support/harness.js';
import { newSession, rawId, sendWithAttachments } from './support/uploads.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false });
});
afterAll(() => t.close());

describe(`fork and session files (${dbKind})`, () => {
  it("a fork owns copies of the attachments, which survive the original's deletion", async () => {
    const id = await newSession(t);
    t.fake.enqueue({ text: 'read it' });
    await sendWithAttachments(
      t,
      { sessionId: id, content: 'see attached' },
      { files: [{ name: 'notes.txt', bytes: 'hello from the file' }] },
    );
    const forked = await t.http(ForkFilesForkDocument, { id });
    expect(forked.errors).toBeUndefined();
    const fork = forked.data!.forkSession;
    const forkRaw = rawId(fork.id);
    expect(fork.files.map((f) => f.filename)).toEqual(['notes.txt']);
    expect(fork.history.edges[0].node.files).toEqual([`session_files/${forkRaw}/notes.txt`]);
    await t.http(ForkFilesDeleteDocument, { id });
    await t.app.files.cleanupOrphans(async (ids) => {
      const rows = await t.app.db.prisma.session.findMany({ where: { id: { in: ids } }, select: { id: true } });
      return new Set(rows.map((r) => r.id));
    });
    const download = await fetch(`${t.url}/sessions/${forkRaw}/files/notes.txt`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('hello from the file');
  });
});
