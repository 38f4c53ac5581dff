/**
 * Users and their API keys: create, list, revoke, rotate, disable (docs/security.md "Managing keys and users").
 * A key is shown once, when it is made, and stored as its sha256 hash with a short prefix to recognise it by.
 * Every change that takes a credential away is announced to every process (CredentialChanges), which forget
 * what they remembered of it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CredentialChanges } from '../events/credential-changes.js';
import { BadInput, Conflict, NotFound } from '../store/errors.js';
import { type ApiKeyRow, KeyNotRotatable, type UserRow, type UserStore } from '../store/users.js';

export const KEY_PREFIX = 'csk_';
/** How many characters of a key are stored in clear to recognise it by (`csk_` and six more). */
const SHOWN_PREFIX = 10;

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export type KeyStatus = 'ACTIVE' | 'ROTATED' | 'EXPIRED' | 'REVOKED';

/** Where a key stands now: revoked, expired, still valid in a rotation's grace period, or active. */
export function keyStatus(
  key: Pick<ApiKeyRow, 'revokedAt' | 'expiresAt' | 'replacedById'>,
  now = new Date(),
): KeyStatus {
  if (key.revokedAt) return 'REVOKED';
  if (key.expiresAt && key.expiresAt <= now) return 'EXPIRED';
  return key.replacedById ? 'ROTATED' : 'ACTIVE';
}

export interface NewKey {
  /** the key itself: shown once, never stored */
  key: string;
  record: ApiKeyRow;
}

export interface KeyServiceOptions {
  /** how long a rotated key keeps working after its replacement is made */
  rotationGraceMs: number;
}

export class KeyService {
  constructor(
    private readonly users: UserStore,
    private readonly changes: CredentialChanges,
    private readonly options: KeyServiceOptions,
  ) {}

  /** A local user (made by an admin command, not by a token) by name. */
  localUser(name: string): Promise<UserRow | null> {
    return this.users.localByName(name);
  }

  user(id: string): Promise<UserRow | null> {
    return this.users.get(id);
  }

  /** Creates a user and its first API key. */
  async createUser(
    name: string,
    options: { admin?: boolean; permissions?: string[]; expiresAt?: Date | null } = {},
  ): Promise<{ user: UserRow } & NewKey> {
    if (!name.trim() || name.length > 200) throw new BadInput('A user name must be 1-200 characters');
    if (await this.users.localByName(name)) throw new Conflict(`A user named ${name} already exists`);
    const user = await this.users
      .create({ name, isAdmin: options.admin ?? false, permissions: options.permissions ?? [] })
      .catch((error: unknown) => {
        if ((error as { code?: string }).code === 'P2002') throw new Conflict(`A user named ${name} already exists`);
        throw error;
      });
    return { user, ...(await this.createKey(user.id, { expiresAt: options.expiresAt ?? null })) };
  }

  /** A new key for the user; `expiresAt` (future) or none. */
  async createKey(userId: string, options: { expiresAt?: Date | null } = {}): Promise<NewKey> {
    const expiresAt = options.expiresAt ?? null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) throw new BadInput('expiresAt must be in the future');
    if (!(await this.users.exists(userId))) throw new NotFound('User');
    const key = generateKey();
    const record = await this.users.createApiKey(userId, hashKey(key), key.slice(0, SHOWN_PREFIX), expiresAt);
    return { key, record };
  }

  /** The key by id, or by the prefix the CLI printed (refused when it names several). */
  async findKey(ref: string): Promise<ApiKeyRow> {
    const found = await this.users.findKeys(ref.trim());
    if (found.length === 0 || ref.trim().length < 6) throw new NotFound('API key');
    if (found.length > 1)
      throw new BadInput(`${ref} names ${found.length} keys; use the key id (${found.map((k) => k.id).join(', ')})`);
    return found[0]!;
  }

  key(id: string): Promise<ApiKeyRow | null> {
    return this.users.key(id);
  }

  /** Revokes at once, on every process; revoking a revoked key answers it unchanged. */
  async revoke(keyId: string): Promise<{ record: ApiKeyRow; announced: boolean }> {
    const record = await this.users.revokeKey(keyId);
    if (!record) throw new NotFound('API key');
    return { record, announced: await this.changes.announce() };
  }

  /**
   * A new key for the same user; the old one keeps working until the grace period ends (`graceMs`, else the
   * configured one), then expires. The new key keeps the old one's lifetime when it had one, unless `expiresAt`.
   */
  async rotate(
    keyId: string,
    options: { graceMs?: number; expiresAt?: Date | null } = {},
  ): Promise<NewKey & { previous: ApiKeyRow; announced: boolean }> {
    const graceMs = options.graceMs ?? this.options.rotationGraceMs;
    if (!Number.isFinite(graceMs) || graceMs < 0) throw new BadInput('The grace period must be 0 or more');
    const old = await this.users.key(keyId);
    if (!old) throw new NotFound('API key');
    const lifetime = old.expiresAt ? old.expiresAt.getTime() - old.createdAt.getTime() : null;
    const expiresAt =
      options.expiresAt !== undefined ? options.expiresAt : lifetime ? new Date(Date.now() + lifetime) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) throw new BadInput('expiresAt must be in the future');
    const key = generateKey();
    let rotated: Awaited<ReturnType<UserStore['rotateKey']>>;
    try {
      rotated = await this.users.rotateKey(
        keyId,
        { keyHash: hashKey(key), prefix: key.slice(0, SHOWN_PREFIX), expiresAt },
        new Date(Date.now() + graceMs),
      );
    } catch (error) {
      if (error instanceof KeyNotRotatable) throw new Conflict(`Cannot rotate this key: ${error.message}`);
      throw error;
    }
    if (!rotated) throw new NotFound('API key');
    return { key, record: rotated.key, previous: rotated.previous, announced: await this.changes.announce() };
  }

  /** Disables (every credential of the user refused, at once on every process) or enables again. */
  async setDisabled(userId: string, disabled: boolean): Promise<{ user: UserRow; announced: boolean }> {
    const user = await this.users.setDisabled(userId, disabled);
    if (!user) throw new NotFound('User');
    return { user, announced: disabled ? await this.changes.announce() : true };
  }

  /** Users by name (then id), `take` at a time after `afterId`; Pothos' connection passes its paging as is. */
  listUsers(args: Parameters<UserStore['listUsers']>[0]): Promise<UserRow[]> {
    return this.users.listUsers(args);
  }

  /** Every user, in pages (the CLI's listing). */
  async allUsers(): Promise<UserRow[]> {
    const all: UserRow[] = [];
    for (;;) {
      const last = all.at(-1);
      const page = await this.users.listUsers({ take: 500, ...(last ? { cursor: { id: last.id }, skip: 1 } : {}) });
      all.push(...page);
      if (page.length < 500) return all;
    }
  }

  keysOf(userId: string): Promise<ApiKeyRow[]> {
    return this.users.keysOf(userId);
  }
}

function generateKey(): string {
  return `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
}
