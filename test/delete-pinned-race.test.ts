/**
 * deleteSessions reads the matching sessions, then deletes them one by one:
 * a session pinned in between (here: by the delete hook that runs just
 * before each delete, where another client's pinSession can land) is kept,
 * because the delete itself checks the pin again. With includePinned it goes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousViewer as viewer } from '../src/auth/auth.js';
import { SessionAccess } from '../src/sessions/access.js';
import { SessionService } from '../src/sessions/service.js';
import { createTestApp, dbKind, type TestContext } from './support/harness.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
}, 180_000);
afterAll(() => t?.close());

/** A SessionService whose pre-delete hook pins the session first: the pin lands between the read and the delete. */
function pinningService() {
  const { store, profiles, bus, config } = t.app;
  return new SessionService(store, new SessionAccess(store), profiles, bus, config, {
    beforeDelete: async (id) => {
      await t.app.sessions.setPinned(viewer, id, true);
    },
    afterDelete: async () => undefined,
  });
}

describe(`deleteSessions and a concurrent pin (${dbKind})`, () => {
  it('keeps a session pinned after the read, unless includePinned', async () => {
    const service = pinningService();
    const kept = await t.app.sessions.create(viewer, { name: 'pinned meanwhile' });
    const first = await service.deleteMany(viewer, { ids: [kept.id] });
    expect(first.deletedIds).toEqual([]);
    expect((await t.app.store.byIds([kept.id])).map((s) => s.pinned)).toEqual([true]);

    const gone = await t.app.sessions.create(viewer, { name: 'pinned meanwhile, includePinned' });
    const second = await service.deleteMany(viewer, { ids: [gone.id], includePinned: true });
    expect(second.deletedIds).toEqual([gone.id]);
    expect(await t.app.store.byIds([gone.id])).toEqual([]);
  });
});
