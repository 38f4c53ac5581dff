/**
 * The admin commands (`npm run admin -- …`), run either by the CLI on a database
 * it opened itself or by the running server on behalf of the CLI (admin socket).
 * Keys are shown once, when made; only their hash is stored (docs/security.md
 * "Managing keys and users").
 */
import { KEY_CHECK_REUSE_MS } from '../auth/auth.js';
import { keyStatus, type KeyService } from '../auth/keys.js';
import type { ApiKeyRow, UserRow } from '../store/users.js';

export type AdminRequest =
  | { command: 'create-user'; name: string; admin?: boolean; permissions?: string[]; expires?: string }
  | { command: 'create-key'; name: string; expires?: string }
  | { command: 'list-users' }
  | { command: 'list-keys'; name: string }
  | { command: 'revoke-key'; key: string }
  | { command: 'rotate-key'; key: string; grace?: string; expires?: string }
  | { command: 'disable-user' | 'enable-user'; name: string };

export const ADMIN_USAGE = `usage: npm run admin -- <command>
  create-user NAME [--admin] [--permission P]... [--expires WHEN]   a user and their first key
  create-key NAME [--expires WHEN]                                   another key for NAME
  list-users                                                         every user and their keys
  list-keys NAME                                                     NAME's keys
  revoke-key KEY                                                     refused at once (KEY: its prefix or id)
  rotate-key KEY [--grace DURATION] [--expires WHEN|never]           a new key; the old one works for the grace
  disable-user NAME | enable-user NAME                               refuse (or accept again) all of NAME's keys
WHEN: an ISO date or time (2027-01-31, 2027-01-31T12:00Z) or a duration from now (90d, 12h, 30m).
DURATION: 90d, 12h, 30m, 45s or 0 (default API_KEY_ROTATION_GRACE_MINUTES).`;

export class AdminCommandError extends Error {}

const COMMANDS = new Set([
  'create-user',
  'create-key',
  'list-users',
  'list-keys',
  'revoke-key',
  'rotate-key',
  'disable-user',
  'enable-user',
]);

const optionalString = (v: unknown, what: string): string | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.length > 200) throw new AdminCommandError(`${what} must be a string`);
  return v;
};

/** Parses a request from untrusted JSON (the socket) or from argv. */
export function parseAdminRequest(value: unknown): AdminRequest {
  const v = (value ?? {}) as Record<string, unknown>;
  const command = v.command;
  if (typeof command !== 'string' || !COMMANDS.has(command)) throw new AdminCommandError('unknown command');
  if (command === 'list-users') return { command };
  if (command === 'revoke-key' || command === 'rotate-key') {
    if (typeof v.key !== 'string' || v.key.length === 0 || v.key.length > 200)
      throw new AdminCommandError('key must be its prefix or id');
    if (command === 'revoke-key') return { command, key: v.key };
    return {
      command,
      key: v.key,
      grace: optionalString(v.grace, 'grace'),
      expires: optionalString(v.expires, 'expires'),
    };
  }
  if (typeof v.name !== 'string' || v.name.length === 0 || v.name.length > 200)
    throw new AdminCommandError('name must be 1-200 characters');
  const name = v.name;
  if (command === 'create-user') {
    const permissions = v.permissions ?? [];
    if (!Array.isArray(permissions) || !permissions.every((p) => typeof p === 'string'))
      throw new AdminCommandError('permissions must be strings');
    return { command, name, admin: v.admin === true, permissions, expires: optionalString(v.expires, 'expires') };
  }
  if (command === 'create-key') return { command, name, expires: optionalString(v.expires, 'expires') };
  return { command: command as 'list-keys' | 'disable-user' | 'enable-user', name };
}

/** The request an argv names, or null for a usage error. */
export function requestFromArgv(argv: string[]): AdminRequest | null {
  const [command, subject, ...rest] = argv;
  const option = (name: string) => {
    const i = rest.indexOf(name);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const permissions = rest.flatMap((arg, i) => (arg === '--permission' && rest[i + 1] ? [rest[i + 1]!] : []));
  const raw: Record<string, unknown> = { command, name: subject, key: subject };
  if (command === 'create-user') Object.assign(raw, { admin: rest.includes('--admin'), permissions });
  if (command === 'rotate-key') raw.grace = option('--grace');
  raw.expires = option('--expires');
  if (command !== 'list-users' && !subject) return null;
  try {
    return parseAdminRequest(raw);
  } catch {
    return null;
  }
}

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90d`, `12h`, `30m`, `45s` or `0`, in milliseconds. */
export function parseDuration(text: string): number {
  if (text.trim() === '0') return 0;
  const m = /^(\d{1,6})\s*([smhd])$/.exec(text.trim());
  if (!m) throw new AdminCommandError(`${text}: a duration is a number and s, m, h or d (90d, 12h, 30m)`);
  return Number(m[1]) * UNITS[m[2]!]!;
}

/** WHEN: a duration from now, an ISO date or time, or `never` (null) where allowed. */
export function parseWhen(text: string, now = Date.now()): Date | null {
  if (text === 'never') return null;
  if (/^\d+\s*[smhd]$/.test(text.trim())) return new Date(now + parseDuration(text));
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new AdminCommandError(`${text}: not a date, a time or a duration`);
  return date;
}

const when = (d: Date | null) => (d ? `${d.toISOString().slice(0, 16).replace('T', ' ')}Z` : 'never');

/** One line per key: prefix, status, created, last used, expiry. */
function keyLines(keys: ApiKeyRow[]): string[] {
  if (keys.length === 0) return ['    (no keys)'];
  return keys.map(
    (k) =>
      `    ${k.prefix.padEnd(11)} ${keyStatus(k).padEnd(8)} created ${when(k.createdAt)}  ` +
      `last used ${k.lastUsedAt ? when(k.lastUsedAt) : 'never'}  expires ${when(k.expiresAt)}  id ${k.id}`,
  );
}

function userLine(user: UserRow): string {
  const tags = [
    user.isAdmin ? 'admin' : null,
    user.permissions.length ? `permissions: ${user.permissions.join(', ')}` : null,
    user.jwtSubject !== null ? 'JWT identity' : null,
    user.disabledAt ? `DISABLED since ${when(user.disabledAt)}` : null,
  ].filter(Boolean);
  return `${user.name}${tags.length ? ` (${tags.join('; ')})` : ''}  created ${when(user.createdAt)}  id ${user.id}`;
}

const NOT_ANNOUNCED =
  'warning: Redis did not confirm the change: other server processes may accept the old credential for up to ' +
  `${KEY_CHECK_REUSE_MS / 1000} s`;

async function userNamed(keys: KeyService, name: string): Promise<UserRow> {
  const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(name);
  const user = (await keys.localUser(name)) ?? (isId ? await keys.user(name) : null);
  if (!user) throw new AdminCommandError(`no user named ${name}`);
  return user;
}

/** Runs one command; returns the lines to print. */
export async function runAdminCommand(keys: KeyService, request: AdminRequest): Promise<string[]> {
  try {
    return await run(keys, request);
  } catch (error) {
    // The service's refusals (a name taken, a revoked key, an ambiguous prefix) are the user's to read.
    if (error instanceof Error && 'code' in error && !(error instanceof AdminCommandError))
      throw new AdminCommandError(error.message);
    throw error;
  }
}

async function run(keys: KeyService, request: AdminRequest): Promise<string[]> {
  switch (request.command) {
    case 'create-user': {
      const expiresAt = request.expires ? parseWhen(request.expires) : null;
      const { user, key, record } = await keys.createUser(request.name, {
        admin: request.admin,
        permissions: request.permissions,
        expiresAt,
      });
      return [
        `created user ${user.name}${user.isAdmin ? ' (admin)' : ''}`,
        `API key (shown once): ${key}`,
        `  ${record.prefix}, expires ${when(record.expiresAt)}`,
      ];
    }
    case 'create-key': {
      const user = await userNamed(keys, request.name);
      const { key, record } = await keys.createKey(user.id, {
        expiresAt: request.expires ? parseWhen(request.expires) : null,
      });
      return [`API key (shown once): ${key}`, `  ${record.prefix}, expires ${when(record.expiresAt)}`];
    }
    case 'list-users': {
      const users = await keys.allUsers();
      if (users.length === 0) return ['no users yet: npm run admin -- create-user NAME'];
      const lines: string[] = [];
      for (const user of users) lines.push(userLine(user), ...keyLines(await keys.keysOf(user.id)));
      return lines;
    }
    case 'list-keys': {
      const user = await userNamed(keys, request.name);
      return [userLine(user), ...keyLines(await keys.keysOf(user.id))];
    }
    case 'revoke-key': {
      const { record, announced } = await keys.revoke((await keys.findKey(request.key)).id);
      return [`revoked ${record.prefix} (id ${record.id})`, ...(announced ? [] : [NOT_ANNOUNCED])];
    }
    case 'rotate-key': {
      const old = await keys.findKey(request.key);
      const rotated = await keys.rotate(old.id, {
        graceMs: request.grace !== undefined ? parseDuration(request.grace) : undefined,
        expiresAt: request.expires !== undefined ? parseWhen(request.expires) : undefined,
      });
      return [
        `API key (shown once): ${rotated.key}`,
        `  ${rotated.record.prefix}, expires ${when(rotated.record.expiresAt)}`,
        `${rotated.previous.prefix} keeps working until ${when(rotated.previous.expiresAt)}, then is refused`,
        ...(rotated.announced ? [] : [NOT_ANNOUNCED]),
      ];
    }
    case 'disable-user':
    case 'enable-user': {
      const disabled = request.command === 'disable-user';
      const { user, announced } = await keys.setDisabled((await userNamed(keys, request.name)).id, disabled);
      return [
        disabled
          ? `disabled ${user.name}: every key of theirs is refused`
          : `enabled ${user.name}: their keys are accepted again`,
        ...(announced ? [] : [NOT_ANNOUNCED]),
      ];
    }
  }
}
