import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressAndSaveSession } from '../src/compression/compress.js';
import { createTestServer, dbKind, type ServerContext } from './support/harness.js';
import { exchanges, isSummaryCall, profileSession } from './support/compression.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false });
});
afterAll(() => t.close());

describe(`compression racing other writers (${dbKind})`, () => {
  it('a pass whose history moved while the summary was written saves nothing', async () => {
    const s = await profileSession(t, { window: 4096 });
    await t.app.store.append(s.raw, exchanges(10, 300));
    const before = await t.app.store.context(s.raw);
    let appended = false;
    t.fake.responder = (call) => {
      if (isSummaryCall(call) && !appended) {
        appended = true;
        // another writer appends while the summarizer runs: the summary is answered once the append is in
        const written = t.app.store.append(s.raw, [{ role: 'user', content: 'arrived during the summary' }]);
        return { text: '- summary\nKEYS: a', hold: written };
      }
      return { text: 'ok' };
    };
    const result = await compressAndSaveSession(t.app, s.raw, { reason: 'FORCED', strategy: 'SUMMARY' });
    t.fake.responder = undefined;
    expect(appended).toBe(true);
    expect(result).toBeNull();
    const after = await t.app.store.context(s.raw);
    expect(after.filter((m) => m.isSummary)).toEqual([]);
    expect(after.map((m) => m.sequenceNumber)).toEqual([...before.map((m) => m.sequenceNumber), before.length]);
  });

  it('an undo waits for a running compression pass on the same session', async () => {
    const s = await profileSession(t, { window: 4096 });
    await t.app.store.append(s.raw, exchanges(10, 300));
    t.fake.responder = (call) => (isSummaryCall(call) ? { text: '- summary\nKEYS: b', chunkDelayMs: 150 } : { text: 'ok' });
    const order: string[] = [];
    const requests = t.fake.requests.length;
    const pass = compressAndSaveSession(t.app, s.raw, { reason: 'FORCED', strategy: 'SUMMARY' }).then((r) => {
      order.push('compressed');
      return r;
    });
    // the pass is running (its summary request arrived) before the undo is sent; the slow summary leaves the undo time to jump ahead if it did not wait
    await t.fake.waitForRequests(requests + 1);
    const undo = t.http(`mutation($id: ID!) { undoLastTurn(id: $id) { id } }`, { id: s.id }).then((r) => {
      order.push('undone');
      return r;
    });
    const [result, undone] = await Promise.all([pass, undo]);
    t.fake.responder = undefined;
    expect(result).not.toBeNull();
    expect(undone.errors).toBeUndefined();
    expect(order).toEqual(['compressed', 'undone']);
  });
});

describe(`memorySearch scope (${dbKind})`, () => {
  it('the owned scope (read_all) never reaches ownerless legacy sessions', async () => {
    const { MemoryIndex } = await import('../src/compression/memory.js');
    const profile = await t.app.profiles.default();
    const legacy = await t.app.store.create({ profileId: profile.id, userId: null });
    const owned = await t.app.store.create({ profileId: profile.id, userId: 'someone' });
    const chunk = (sessionId: string, content: string) => ({
      sessionId, content, contentHash: content, breadcrumbs: [], turnStart: 0, turnEnd: 1, firstAt: new Date(), lastAt: new Date(),
    });
    await t.app.db.prisma.memoryChunk.createMany({ data: [chunk(legacy.id, 'zanzibar legacy secret'), chunk(owned.id, 'zanzibar owned note')] });
    const index = new MemoryIndex(t.app.db.prisma, t.app.trigram);
    const ownedHits = await index.search({ scope: { owned: true }, query: 'zanzibar', first: 10 });
    expect(ownedHits.map((h) => h.content)).toEqual(['zanzibar owned note']);
    const all = await index.search({ scope: { all: true }, query: 'zanzibar', first: 10 });
    expect(all).toHaveLength(2);
  });
});
