/**
 * Credentials → Viewer. API keys (`Authorization: Bearer csk_…`, stored as
 * sha256 hashes, shown once) or JWTs (HS256 secret or a JWKS URL, via jose;
 * docs/security.md "Identity: API keys and JWTs").
 * With auth disabled every caller is `anonymous` and checks are bypassed.
 * A revoked or expired key and a disabled user are refused (docs/security.md
 * "Managing keys and users"); keys are managed by src/auth/keys.ts.
 */
import type { createRemoteJWKSet, FlattenedJWSInput, JWTHeaderParameters, JWTPayload } from 'jose';
import type { Config } from '../config.js';
import { type CredentialChanges, localCredentialChanges } from '../events/credential-changes.js';
import type { KeyCheck, UserStore } from '../store/users.js';
import { Unauthenticated } from '../store/errors.js';
import { hashKey, KEY_PREFIX, KeyService, type NewKey } from './keys.js';
import { ANONYMOUS, type Viewer } from '../domain/policy.js';

export { hashKey } from './keys.js';

/**
 * How long a process may reuse a key check, only while credential changes reach it live (Redis); without Redis
 * every request reads its key. A change clears every remembered check at once.
 */
export const KEY_CHECK_REUSE_MS = 30_000;
const KEY_CHECK_ENTRIES = 10_000;
/** A key's last use is written at most this often per process (and per minute by the store). */
const TOUCH_EVERY_MS = 60_000;
const HMAC_ALGORITHMS = ['HS256'];
const JWKS_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

export const anonymousViewer: Viewer = {
  userId: ANONYMOUS,
  userName: ANONYMOUS,
  isAdmin: false,
  permissions: [],
  authEnabled: false,
};

export interface AuthOptions {
  /** where credential changes are announced and heard (default: this process only) */
  changes?: CredentialChanges;
  /** a failed last-use write (the request itself goes on) */
  onTouchError?(error: unknown): void;
}

export class Auth {
  /** the JWKS of JWT_JWKS_URL, made on the first token (jose is loaded only when a token comes: idle memory) */
  private jwks?: ReturnType<typeof createRemoteJWKSet>;
  private readonly jwksUrl?: URL;
  private readonly secret?: Uint8Array;
  readonly keys: KeyService;
  readonly changes: CredentialChanges;
  private readonly checks = new Map<string, { check: KeyCheck; until: number }>();
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly users: UserStore,
    private readonly config: Config,
    private readonly options: AuthOptions = {},
  ) {
    if (config.jwtJwksUrl) this.jwksUrl = new URL(config.jwtJwksUrl);
    if (config.jwtSecret) this.secret = new TextEncoder().encode(config.jwtSecret);
    this.changes = options.changes ?? localCredentialChanges();
    this.changes.onChange(() => this.checks.clear());
    this.keys = new KeyService(users, this.changes, { rotationGraceMs: config.apiKeyRotationGraceMinutes * 60_000 });
  }

  get enabled() {
    return this.config.authEnabled;
  }

  /** From an Authorization header value (or a graphql-ws connection param). */
  async viewerFor(authorization: string | null | undefined): Promise<Viewer | null> {
    if (!this.config.authEnabled) return anonymousViewer;
    const token = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (!token) return null;
    if (token.startsWith(KEY_PREFIX)) return this.viewerForApiKey(token);
    if (this.secret || this.jwksUrl) return this.viewerForJwt(token);
    throw new Unauthenticated('Invalid credentials');
  }

  private async viewerForApiKey(token: string): Promise<Viewer> {
    const { key, user } = await this.keyCheck(hashKey(token));
    const now = Date.now();
    if (key.revokedAt) throw new Unauthenticated('This API key was revoked');
    if (key.expiresAt && key.expiresAt.getTime() <= now) throw new Unauthenticated('This API key has expired');
    if (user.disabledAt) throw new Unauthenticated('This user is disabled');
    this.touch(key, now);
    return {
      userId: user.id,
      userName: user.name,
      isAdmin: user.isAdmin,
      permissions: user.permissions,
      authEnabled: true,
    };
  }

  /** The key and its user: remembered for a while only when every change is sure to reach this process. */
  private async keyCheck(hash: string): Promise<KeyCheck> {
    const reuse = this.changes.shared && this.changes.live;
    const remembered = reuse ? this.checks.get(hash) : undefined;
    if (remembered && remembered.until > Date.now()) return remembered.check;
    const check = await this.users.keyByHash(hash);
    if (!check) throw new Unauthenticated('Invalid API key');
    if (reuse) {
      if (this.checks.size >= KEY_CHECK_ENTRIES) this.checks.delete(this.checks.keys().next().value!);
      this.checks.set(hash, { check, until: Date.now() + KEY_CHECK_REUSE_MS });
    }
    return check;
  }

  private touch(key: KeyCheck['key'], now: number): void {
    const last = Math.max(key.lastUsedAt?.getTime() ?? 0, this.touched.get(key.id) ?? 0);
    if (now - last < TOUCH_EVERY_MS) return;
    if (this.touched.size >= KEY_CHECK_ENTRIES) this.touched.clear();
    this.touched.set(key.id, now);
    this.users.touchKey(key.id).catch((error: unknown) => this.options.onTouchError?.(error));
  }

  /**
   * A JWT names an identity, (issuer, subject), with its own users row; its
   * claims grant rights for this request only and are never stored, so no
   * token can change what an API key (or the next token) may do.
   */
  private async viewerForJwt(token: string): Promise<Viewer> {
    let payload: JWTPayload;
    const jose = await import('jose');
    if (this.jwksUrl) this.jwks ??= jose.createRemoteJWKSet(this.jwksUrl);
    try {
      payload = (
        await jose.jwtVerify(token, this.jwtKey, {
          algorithms: this.jwtAlgorithms,
          requiredClaims: ['exp'],
          issuer: this.config.jwtIssuer,
          audience: this.config.jwtAudience,
        })
      ).payload;
    } catch {
      throw new Unauthenticated('Invalid or expired token');
    }
    if (typeof payload.sub !== 'string' || !payload.sub) throw new Unauthenticated('Token has no subject');
    const permissions = Array.isArray(payload.permissions) ? payload.permissions.map(String) : [];
    const isAdmin = payload.admin === true || permissions.includes('admin');
    const user = await this.jwtUser(typeof payload.iss === 'string' ? payload.iss : '', payload.sub);
    if (user.disabledAt) throw new Unauthenticated('This user is disabled');
    return { userId: user.id, userName: user.name, isAdmin, permissions, authEnabled: true };
  }

  /**
   * HS256 with JWT_SECRET; the asymmetric families with JWT_JWKS_URL. Nothing else (never `none`, never HS384/HS512).
   */
  private get jwtAlgorithms(): string[] {
    return [...(this.secret ? HMAC_ALGORITHMS : []), ...(this.jwksUrl ? JWKS_ALGORITHMS : [])];
  }

  /** jose has already refused any alg outside jwtAlgorithms when this runs. */
  private readonly jwtKey = (header: JWTHeaderParameters, token: FlattenedJWSInput) =>
    HMAC_ALGORITHMS.includes(header.alg) ? this.secret! : this.jwks!(header, token);

  /**
   * The identity's row, created on first sight; a row from before identities (jwt_issuer null) is adopted by its
   * subject.
   */
  private jwtUser(issuer: string, subject: string): Promise<{ id: string; name: string; disabledAt: Date | null }> {
    return this.users.jwtUser(issuer, subject);
  }

  /** A local user (made by an admin command, not by a token) by name. */
  localUser(name: string) {
    return this.keys.localUser(name);
  }

  /** Creates a user and its first API key; the key is returned once and stored hashed. */
  async createUser(name: string, options: { admin?: boolean; permissions?: string[]; expiresAt?: Date | null } = {}) {
    const { user, key } = await this.keys.createUser(name, options);
    return { user, key };
  }

  async createApiKey(userId: string, options: { expiresAt?: Date | null } = {}): Promise<string> {
    return (await this.keys.createKey(userId, options)).key;
  }
}

export type { NewKey };
