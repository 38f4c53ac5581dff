/** The store's own guarantees: patch-merged session metadata, one-row message lookups, the turn status guard. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TurnStore } from '../src/store/turns.js';
import { TurnLifecycle } from '../src/turns/lifecycle.js';
import { createTestApp, dbKind, type TestContext } from './support/harness.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function newSession() {
  const profile = await t.app.profiles.default();
  return t.app.store.create({ profileId: profile.id, userId: 'anonymous' });
}

describe(`store (${dbKind})`, () => {
  it('merges a metadata patch: unknown keys and keys of other writers survive', async () => {
    const s = await newSession();
    await t.app.db.raw.query(
      `UPDATE sessions SET metadata = '{"legacy": {"x": 1}, "contextTruncated": true}'::jsonb WHERE id = $1::uuid`,
      [s.id],
    );
    // Two writers of different keys at once: neither undoes the other.
    await Promise.all([
      t.app.store.patchMetadata(s.id, { set: { injected_chunk_ids: ['c1'] } }),
      t.app.store.patchMetadata(s.id, { set: { streamRules: { fired: ['repeat_line'] } } }),
    ]);
    const updated = await t.app.store.patchMetadata(s.id, {
      set: { baseline: { promptTokens: 7 } },
      remove: ['contextTruncated'],
    });
    expect(updated?.metadata).toEqual({
      legacy: { x: 1 },
      injected_chunk_ids: ['c1'],
      streamRules: { fired: ['repeat_line'] },
      baseline: { promptTokens: 7 },
    });
    expect((await t.app.store.get(s.id))?.metadata).toEqual(updated?.metadata);
  });

  it('folds a model call into the stored usage and keeps the rest of the row', async () => {
    const s = await newSession();
    const usage = { promptTokens: 10, completionTokens: 3, cachedPromptTokens: 1, cacheWriteTokens: 4 };
    await t.app.store.recordCall(s.id, {
      metadata: { set: { baseline: { promptTokens: 10 } } },
      usage,
      contextTokenCount: 10,
    });
    const row = await t.app.store.recordCall(s.id, {
      metadata: { set: { contextTruncated: true } },
      usage,
      contextTokenCount: 25,
    });
    expect(row).toMatchObject({
      id: s.id,
      profileId: s.profileId,
      usage: { promptTokens: 20, completionTokens: 6, cachedPromptTokens: 2, cacheWriteTokens: 8 },
      contextTokenCount: 25,
      metadata: { baseline: { promptTokens: 10 }, contextTruncated: true },
    });
    expect(row?.createdAt).toBeInstanceOf(Date);
    expect(await t.app.store.get(s.id)).toEqual(row);
  });

  it('finds one message by sequence number, hot or archived', async () => {
    const s = await newSession();
    await t.app.store.append(
      s.id,
      Array.from({ length: 6 }, (_, i) => ({ role: 'user' as const, content: `m${i}` })),
    );
    await t.app.store.archiveOldMessages(s.id, 3);
    expect(await t.app.store.message(s.id, 1)).toMatchObject({ sequenceNumber: 1, content: 'm1', archived: true });
    expect(await t.app.store.message(s.id, 4)).toMatchObject({ sequenceNumber: 4, content: 'm4', archived: false });
    expect(await t.app.store.message(s.id, 6)).toBeNull();
    expect((await t.app.store.messagesAfter(s.id, 2)).map((m) => m.content)).toEqual(['m3', 'm4', 'm5']);
  });

  it('ends a turn once: a second ending finds it no longer active', async () => {
    const s = await newSession();
    const [m] = await t.app.store.append(s.id, [{ role: 'user', content: 'hi' }]);
    const turns = new TurnStore(t.app.db);
    const lifecycle = new TurnLifecycle(turns, t.app.bus);
    const turn = await t.app.store.transaction((tx) =>
      lifecycle.create(tx, {
        id: crypto.randomUUID(),
        sessionId: s.id,
        userSequence: m!.sequenceNumber,
        ownerProcess: 'p',
        ownerInstance: null,
      }),
    );
    expect((await turns.active(s.id))?.id).toBe(turn.id);
    expect(await turns.checkpoint(turn.id, 'partial', '')).toBe(true);
    expect((await lifecycle.end(turn.id, 'COMPLETED', null))?.status).toBe('COMPLETED');
    expect(await lifecycle.end(turn.id, 'FAILED', 'late')).toBeNull();
    expect(await turns.checkpoint(turn.id, 'late', '')).toBe(false);
    expect(await turns.active(s.id)).toBeNull();
  });
});
