import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, dbKind, type ServerContext } from './support/harness.js';
import { CompressionRacesRecordEventDocument, CompressionRacesUndoDocument } from './generated/graphql.js';
import { COMPACT_DOC, exchanges, isSummaryCall, isSummaryRequest, profileSession } from './support/compression.js';

let t: ServerContext;
beforeAll(async () => {
  t = await createTestServer({ titleGenerationEnabled: false });
});
afterAll(() => t.close());

describe(`compression racing other writers (${dbKind})`, () => {
  /** A summary call held at the fake until `release()`; `arrived` resolves once it reached the fake. */
  function holdSummary(summary: string) {
    let release!: () => void;
    let arrivedResolve!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const arrived = new Promise<void>((r) => (arrivedResolve = r));
    let held = false;
    t.fake.responder = (call) => {
      if (!isSummaryCall(call)) return { text: 'ok' };
      if (held) return { text: summary };
      held = true;
      arrivedResolve();
      return { text: summary, gate };
    };
    return { release, arrived };
  }

  it(
    'a task_note recorded during the summary call: the paid-for ' +
      'summary is saved over the new tail (no NOTHING_TO_COMPACT)',
    async () => {
      const s = await profileSession(t, { window: 4096 });
      await t.app.store.append(s.raw, exchanges(10, 300));
      const before = await t.app.store.context(s.raw);
      const summariesBefore = t.fake.requests.filter((b) => isSummaryRequest(b)).length;
      const held = holdSummary('- summary of the early turns\nKEYS: alpha');
      const pass = t.http(COMPACT_DOC, { id: s.id });
      await held.arrived;
      const note = await t.http(CompressionRacesRecordEventDocument, {
        i: { sessionId: s.id, source: 'task_note', text: 'note recorded while the summary was written' },
      });
      expect(note.errors).toBeUndefined();
      held.release();
      const r = await pass;
      t.fake.responder = undefined;
      expect(r.errors).toBeUndefined();
      expect(r.data!.compactSession.summary).toContain('summary of the early turns');
      // The summary was paid for once, and kept.
      expect(t.fake.requests.filter((b) => isSummaryRequest(b)).length - summariesBefore).toBe(1);
      const after = await t.app.store.context(s.raw);
      expect(after.filter((m) => m.isSummary)).toHaveLength(1);
      expect(after[0]!.isSummary).toBe(true);
      // The new tail is in the context, after what was kept.
      expect(after.at(-1)).toMatchObject({ role: 'system', content: 'note recorded while the summary was written' });
      expect(after.length).toBeLessThan(before.length);
      const marker = (await t.app.store.allMessages(s.raw)).find((m) => m.isCompression)!;
      expect(marker.metadata.messagesBefore).toBe(before.length + 1);
    },
  );

  it(
    'a pass whose planned rows changed under it plans again ' +
      'and saves; NOTHING_TO_COMPACT only when nothing can shrink',
    async () => {
      const s = await profileSession(t, { window: 4096 });
      await t.app.store.append(s.raw, exchanges(10, 300));
      const before = await t.app.store.context(s.raw);
      const held = holdSummary('- summary\nKEYS: beta');
      const pass = t.app.compression.compress(s.raw, { reason: 'FORCED', strategy: 'SUMMARY' });
      await held.arrived;
      // Another writer (say another process) demotes the oldest exchange and appends a message.
      await t.app.store.setContextFlag(s.raw, [before[0]!.sequenceNumber, before[1]!.sequenceNumber], false);
      await t.app.store.append(s.raw, [{ role: 'user', content: 'arrived during the summary' }]);
      held.release();
      const result = await pass;
      t.fake.responder = undefined;
      expect(result).not.toBeNull();
      const after = await t.app.store.context(s.raw);
      expect(after.filter((m) => m.isSummary)).toHaveLength(1);
      expect(after.map((m) => m.sequenceNumber)).not.toContain(before[0]!.sequenceNumber);
      expect(after.at(-1)!.content).toBe('arrived during the summary');

      // Nothing left to shrink: null (compactSession answers NOTHING_TO_COMPACT).
      const small = await profileSession(t, { window: 4096 });
      await t.app.store.append(small.raw, exchanges(1, 10));
      expect(await t.app.compression.compress(small.raw, { reason: 'FORCED', strategy: 'SUMMARY' })).toBeNull();
    },
  );

  it('an undo waits for a running compression pass on the same session', async () => {
    const s = await profileSession(t, { window: 4096 });
    await t.app.store.append(s.raw, exchanges(10, 300));
    t.fake.responder = (call) =>
      isSummaryCall(call) ? { text: '- summary\nKEYS: b', chunkDelayMs: 150 } : { text: 'ok' };
    const order: string[] = [];
    const requests = t.fake.requests.length;
    const pass = t.app.compression.compress(s.raw, { reason: 'FORCED', strategy: 'SUMMARY' }).then((r) => {
      order.push('compressed');
      return r;
    });
    // the pass is running (its summary request arrived) before the undo is sent;
    // the slow summary leaves the undo time to jump ahead if it did not wait
    await t.fake.waitForRequests(requests + 1);
    const undo = t.http(CompressionRacesUndoDocument, { id: s.id }).then((r) => {
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
    const { MemoryIndex } = await import('../src/store/memory.js');
    const profile = await t.app.profiles.default();
    const legacy = await t.app.store.create({ profileId: profile.id, userId: null });
    const owned = await t.app.store.create({ profileId: profile.id, userId: 'someone' });
    const chunk = (sessionId: string, content: string) => ({
      sessionId,
      content,
      contentHash: content,
      breadcrumbs: [],
      turnStart: 0,
      turnEnd: 1,
      firstAt: new Date(),
      lastAt: new Date(),
    });
    await t.app.db.prisma.memoryChunk.createMany({
      data: [chunk(legacy.id, 'zanzibar legacy secret'), chunk(owned.id, 'zanzibar owned note')],
    });
    const index = new MemoryIndex(t.app.db.prisma, t.app.trigram);
    const ownedHits = await index.search({ scope: { owned: true }, query: 'zanzibar', first: 10 });
    expect(ownedHits.map((h) => h.content)).toEqual(['zanzibar owned note']);
    const all = await index.search({ scope: { all: true }, query: 'zanzibar', first: 10 });
    expect(all).toHaveLength(2);
  });
});
