/**
 * When a process may reuse a key check (src/auth/auth.ts): only while credential changes reach it live (Redis,
 * subscribed); without Redis, or while its subscriber is down, every request reads its key. A change forgets every
 * remembered check.
 */
import { describe, expect, it } from 'vitest';
import { Auth } from '../../src/auth/auth.js';
import { loadConfig } from '../../src/config.js';
import type { CredentialChanges } from '../../src/events/credential-changes.js';
import type { KeyCheck, UserStore } from '../../src/store/users.js';

const KEY = 'csk_abcdefghijklmnopqrstuvwxyz012345';

function setup(shared: boolean, live: boolean) {
  const listeners = new Set<() => void>();
  const changes: CredentialChanges & { live: boolean } = {
    shared,
    live,
    announce: async () => {
      for (const l of listeners) l();
      return true;
    },
    onChange: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close: async () => undefined,
  };
  const reads = { count: 0 };
  const check: KeyCheck = {
    key: { id: 'k1', expiresAt: null, revokedAt: null, lastUsedAt: new Date() },
    user: {
      id: 'u1',
      name: 'alice',
      isAdmin: false,
      permissions: [],
      createdAt: new Date(),
      jwtIssuer: null,
      jwtSubject: null,
      disabledAt: null,
    },
  };
  const users = {
    keyByHash: async () => {
      reads.count++;
      return structuredClone(check);
    },
    touchKey: async () => undefined,
  } as unknown as UserStore;
  const auth = new Auth(users, loadConfig({ AUTH_ENABLED: 'true' }), { changes });
  return { auth, reads, changes, check };
}

describe('reusing key checks', () => {
  it('with live shared changes: one read, until a change', async () => {
    const { auth, reads, changes } = setup(true, true);
    for (let i = 0; i < 3; i++) expect((await auth.viewerFor(`Bearer ${KEY}`))?.userName).toBe('alice');
    expect(reads.count).toBe(1);
    await changes.announce();
    await auth.viewerFor(`Bearer ${KEY}`);
    expect(reads.count).toBe(2);
  });

  it('while the subscriber is down, or without Redis: every request reads its key', async () => {
    for (const [shared, live] of [
      [true, false],
      [false, true],
    ] as const) {
      const { auth, reads } = setup(shared, live);
      for (let i = 0; i < 3; i++) await auth.viewerFor(`Bearer ${KEY}`);
      expect(reads.count).toBe(3);
    }
  });

  it('a remembered check still refuses a key once its expiry passes', async () => {
    const { auth, reads } = setup(true, true);
    (auth as unknown as { checks: Map<string, { check: KeyCheck; until: number }> }).checks.clear();
    await auth.viewerFor(`Bearer ${KEY}`);
    const remembered = [...(auth as unknown as { checks: Map<string, { check: KeyCheck }> }).checks.values()][0]!.check;
    remembered.key.expiresAt = new Date(Date.now() - 1);
    await expect(auth.viewerFor(`Bearer ${KEY}`)).rejects.toThrow('This API key has expired');
    expect(reads.count).toBe(1);
  });
});
