/**
 * The access policy: who may do what to a session, as pure functions of the
 * viewer and the session's owner. Every entry point asks `can` (or, to filter
 * many sessions in one query, `sessionScope`, which the store translates into
 * SQL); nothing else reads `isAdmin`, `permissions` or the auth mode to decide
 * access (docs/security.md "Access policy").
 */

/** Who is asking: resolved from credentials by src/auth/auth.ts. */
export interface Viewer {
  userId: string | null;
  userName: string | null;
  isAdmin: boolean;
  permissions: string[];
  authEnabled: boolean;
}

/** The owner of every session in local mode (auth off), and of the viewer then. */
export const ANONYMOUS = 'anonymous';

/** Reads (never changes, never publishes) every session that has an owner. */
const READ_ALL = 'sessions.read_all';

/** A session as far as the policy cares: its owner (`sessions.user_id`; null for legacy, ownerless rows). */
export interface Owned {
  userId: string | null;
}

/**
 * - `list`: the session appears in the viewer's lists (`sessions`, also with `search`,
 *   `sessionListEvents`): admins every session, everyone else (local mode too) their own.
 * - `read`: the session, its display history, turns and events.
 * - `write`: change it (send, edit, compact, rename, delete, recalls).
 * - `readContext`: what only who may write it reads: its context, model view,
 *   recalls, context-only messages, the full export.
 * - `share`: publish a capability link to it.
 */
export type SessionAction = 'list' | 'read' | 'write' | 'readContext' | 'share';

/**
 * Actions on the service rather than on one session. `manageProfiles`: create and change profiles.
 * `manageUsers`: list users and their keys, create, revoke and rotate keys, disable users: admins only, and only
 * with auth on (in local mode keys are made with the admin CLI, so no unauthenticated caller can mint an admin key
 * that outlives local mode).
 */
export type ServiceAction = 'manageProfiles' | 'manageUsers';

export type Action = SessionAction | ServiceAction;

/** Local mode (auth off) and admins may do everything, except where `can` says otherwise. */
const unrestricted = (viewer: Viewer) => !viewer.authEnabled || viewer.isAdmin;

const owns = (viewer: Viewer, session: Owned) => session.userId !== null && session.userId === viewer.userId;

export function can(viewer: Viewer | null, action: ServiceAction): boolean;
export function can(viewer: Viewer | null, action: SessionAction, session: Owned): boolean;
export function can(viewer: Viewer | null, action: Action, session?: Owned): boolean {
  if (!viewer) return false;
  if (action === 'manageProfiles') return unrestricted(viewer);
  if (action === 'manageUsers') return viewer.authEnabled && viewer.isAdmin;
  const s = session!;
  if (isStaged(s)) return false;
  switch (action) {
    case 'list':
      return inScope(sessionScope(viewer, 'list'), s);
    case 'read':
      return inScope(sessionScope(viewer, 'read'), s);
    case 'write':
    case 'readContext':
      return unrestricted(viewer) || owns(viewer, s);
    case 'share':
      // Local mode publishes local-mode sessions only; reading someone's session is not publishing it.
      if (!viewer.authEnabled) return s.userId === null || s.userId === ANONYMOUS;
      return viewer.isAdmin || owns(viewer, s);
  }
}

/**
 * Which sessions a viewer may list or read, as a predicate on the owner:
 * every session, every session that has an owner, or one owner's.
 */
export type SessionScope = { all: true } | { owned: true } | { userId: string };

export function sessionScope(viewer: Viewer, action: 'list' | 'read'): SessionScope {
  if (action === 'list') return viewer.isAdmin ? { all: true } : { userId: viewer.userId ?? ANONYMOUS };
  if (unrestricted(viewer)) return { all: true };
  // Ownerless (legacy) sessions stay with admins.
  if (viewer.permissions.includes(READ_ALL)) return { owned: true };
  return { userId: viewer.userId ?? ANONYMOUS };
}

/** The scope as a predicate on one session: what the store's SQL for the scope selects. */
export function inScope(scope: SessionScope, session: Owned): boolean {
  if (isStaged(session)) return false;
  if ('all' in scope) return true;
  if ('owned' in scope) return session.userId !== null;
  return session.userId === scope.userId;
}

/**
 * The owner of a session an import is still writing: `importing:<start ms>:<uuid>`. No one may list, read, search
 * or change it; the import hands it to its owner when every row is written (src/sessions/transfer.ts), or removes
 * it, and a leftover of an import that died is swept (TransferStore.sweepStaged).
 */
export const STAGING_PREFIX = 'importing:';

export const stagingOwner = (uuid: string, now = Date.now()) => `${STAGING_PREFIX}${now}:${uuid}`;

/** When the import of a staged owner started (ms); 0 for a malformed one (swept at once). */
export function stagedAt(owner: string): number {
  const ms = Number(owner.slice(STAGING_PREFIX.length).split(':')[0]);
  return Number.isFinite(ms) ? ms : 0;
}

export const isStaged = (session: Owned) => session.userId?.startsWith(STAGING_PREFIX) === true;
