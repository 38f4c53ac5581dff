import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anonymousViewer } from '../../src/auth/auth.js';
import { can, inScope, type SessionAction, sessionScope, type Viewer } from '../../src/domain/policy.js';
import { scopeSql } from '../../src/store/sessions.js';

const user = (userId: string, extra: Partial<Viewer> = {}): Viewer => ({
  userId,
  userName: userId,
  isAdmin: false,
  permissions: [],
  authEnabled: true,
  ...extra,
});

const viewers = {
  'auth off': anonymousViewer,
  admin: user('root', { isAdmin: true }),
  // What src/auth/auth.ts makes of a JWT with `admin: true` (or "admin" in permissions): an admin for that request.
  'JWT-claims admin': user('jwt-root', { isAdmin: true, permissions: ['admin', 'sessions.read_all'] }),
  alice: user('alice'),
  'sessions.read_all': user('auditor', { permissions: ['sessions.read_all'] }),
  'no credentials': null,
} satisfies Record<string, Viewer | null>;

/**
 * The sessions every row answers for, in this order: alice's (alice owns it,
 * the others are other users), bob's, a local-mode one, a legacy ownerless one.
 */
const sessions = [{ userId: 'alice' }, { userId: 'bob' }, { userId: 'anonymous' }, { userId: null }];

/** viewer × action → the answer for each session above (T allowed, . refused). */
const table: Record<keyof typeof viewers, Record<SessionAction, string>> = {
  'auth off': { list: '..T.', read: 'TTTT', write: 'TTTT', readContext: 'TTTT', share: '..TT' },
  admin: { list: 'TTTT', read: 'TTTT', write: 'TTTT', readContext: 'TTTT', share: 'TTTT' },
  'JWT-claims admin': { list: 'TTTT', read: 'TTTT', write: 'TTTT', readContext: 'TTTT', share: 'TTTT' },
  alice: { list: 'T...', read: 'T...', write: 'T...', readContext: 'T...', share: 'T...' },
  'sessions.read_all': { list: '....', read: 'TTT.', write: '....', readContext: '....', share: '....' },
  'no credentials': { list: '....', read: '....', write: '....', readContext: '....', share: '....' },
};

const manageProfiles: Record<keyof typeof viewers, boolean> = {
  'auth off': true,
  admin: true,
  'JWT-claims admin': true,
  alice: false,
  'sessions.read_all': false,
  'no credentials': false,
};

describe('access policy', () => {
  for (const [name, viewer] of Object.entries(viewers) as [keyof typeof viewers, Viewer | null][]) {
    for (const [action, expected] of Object.entries(table[name]) as [SessionAction, string][]) {
      it(`${name}: ${action}`, () => {
        expect(sessions.map((s) => (can(viewer, action, s) ? 'T' : '.')).join('')).toBe(expected);
      });
    }
    it(`${name}: manageProfiles`, () => {
      expect(can(viewer, 'manageProfiles')).toBe(manageProfiles[name]);
    });
  }

  it('the list and read scopes select exactly the sessions `can` allows', () => {
    for (const viewer of Object.values(viewers)) {
      if (!viewer) continue;
      for (const action of ['list', 'read'] as const) {
        const scope = sessionScope(viewer, action);
        expect(sessions.map((s) => inScope(scope, s))).toEqual(sessions.map((s) => can(viewer, action, s)));
      }
    }
  });

  it('scopes have the shapes the store translates', () => {
    expect(sessionScope(anonymousViewer, 'list')).toEqual({ userId: 'anonymous' });
    expect(sessionScope(anonymousViewer, 'read')).toEqual({ all: true });
    expect(sessionScope(viewers['sessions.read_all'], 'read')).toEqual({ owned: true });
    expect(sessionScope(viewers['sessions.read_all'], 'list')).toEqual({ userId: 'auditor' });
    expect(sessionScope(viewers.alice, 'read')).toEqual({ userId: 'alice' });
    expect(sessionScope(viewers.admin, 'list')).toEqual({ all: true });
    const params: unknown[] = [];
    const add = (value: unknown) => `$${params.push(value)}`;
    // A session an import is still writing (owner `importing:…`) is in no scope.
    expect(scopeSql({ all: true }, 's.user_id', add)).toBe("(s.user_id IS NULL OR s.user_id NOT LIKE 'importing:%')");
    expect(scopeSql({ owned: true }, 's.user_id', add)).toBe(
      "(s.user_id IS NOT NULL AND s.user_id NOT LIKE 'importing:%')",
    );
    expect(scopeSql({ userId: 'alice' }, 's.user_id', add)).toBe('s.user_id = $1');
    expect(params).toEqual(['alice']);
  });

  it('no module outside src/auth and the policy names the read_all permission', () => {
    const src = fileURLToPath(new URL('../../src', import.meta.url));
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const path = join(dir, entry);
        const rel = relative(src, path);
        if (rel === 'auth' || rel === 'generated' || rel === join('domain', 'policy.ts')) continue;
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ts|tsx|js|mjs)$/.test(entry) && readFileSync(path, 'utf8').includes('read_all'))
          offenders.push(rel);
      }
    };
    walk(src);
    expect(offenders).toEqual([]);
  });
});
