/**
 * The admin commands (`npm run admin -- …`), run either by the CLI on a database
 * it opened itself or by the running server on behalf of the CLI (admin socket).
 */
import type { Auth } from '../auth/auth.js';

export interface AdminRequest {
  command: 'create-user' | 'create-key';
  name: string;
  admin?: boolean;
  permissions?: string[];
}

export class AdminCommandError extends Error {}

/** Parses a request from untrusted JSON (the socket) or from argv. */
export function parseAdminRequest(value: unknown): AdminRequest {
  const v = (value ?? {}) as Record<string, unknown>;
  if (v.command !== 'create-user' && v.command !== 'create-key') throw new AdminCommandError('unknown command');
  if (typeof v.name !== 'string' || v.name.length === 0 || v.name.length > 200)
    throw new AdminCommandError('name must be 1-200 characters');
  const permissions = v.permissions ?? [];
  if (!Array.isArray(permissions) || !permissions.every((p) => typeof p === 'string'))
    throw new AdminCommandError('permissions must be strings');
  return { command: v.command, name: v.name, admin: v.admin === true, permissions };
}

export function requestFromArgv(argv: string[]): AdminRequest | null {
  const [command, name, ...rest] = argv;
  if (!command || !name || (command !== 'create-user' && command !== 'create-key')) return null;
  const permissions = rest.flatMap((arg, i) => (arg === '--permission' && rest[i + 1] ? [rest[i + 1]!] : []));
  return { command, name, admin: rest.includes('--admin'), permissions };
}

/** Runs one command; returns the lines to print. */
export async function runAdminCommand(auth: Auth, request: AdminRequest): Promise<string[]> {
  if (request.command === 'create-user') {
    const existing = await auth.localUser(request.name);
    if (existing) throw new AdminCommandError(`a user named ${request.name} already exists`);
    const { user, key } = await auth.createUser(request.name, {
      admin: request.admin,
      permissions: request.permissions,
    });
    return [`created user ${user.name}${user.isAdmin ? ' (admin)' : ''}`, `API key (shown once): ${key}`];
  }
  const user = await auth.localUser(request.name);
  if (!user) throw new AdminCommandError(`no user named ${request.name}`);
  return [`API key (shown once): ${await auth.createApiKey(user.id)}`];
}
