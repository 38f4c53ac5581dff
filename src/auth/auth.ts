/**
 * Credentials → Viewer. API keys (`Authorization: Bearer csk_…`, stored as
 * sha256 hashes, shown once) or JWTs (HS256 secret or a JWKS URL, via jose;
 * docs/security.md "Identity: API keys and JWTs").
 * With auth disabled every caller is `anonymous` and checks are bypassed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, type FlattenedJWSInput, type JWTHeaderParameters, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../config.js';
import type { UserStore } from '../store/users.js';
import { Unauthenticated } from '../store/errors.js';
import { ANONYMOUS, type Viewer } from './policy.js';

const KEY_PREFIX = 'csk_';
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

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export class Auth {
  private readonly jwks?: ReturnType<typeof createRemoteJWKSet>;
  private readonly secret?: Uint8Array;

  constructor(
    private readonly users: UserStore,
    private readonly config: Config,
  ) {
    if (config.jwtJwksUrl) this.jwks = createRemoteJWKSet(new URL(config.jwtJwksUrl));
    if (config.jwtSecret) this.secret = new TextEncoder().encode(config.jwtSecret);
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
    if (this.secret || this.jwks) return this.viewerForJwt(token);
    throw new Unauthenticated('Invalid credentials');
  }

  private async viewerForApiKey(token: string): Promise<Viewer> {
    const user = await this.users.byKeyHash(hashKey(token));
    if (!user) throw new Unauthenticated('Invalid API key');
    return {
      userId: user.id,
      userName: user.name,
      isAdmin: user.isAdmin,
      permissions: user.permissions,
      authEnabled: true,
    };
  }

  /**
   * A JWT names an identity, (issuer, subject), with its own users row; its
   * claims grant rights for this request only and are never stored, so no
   * token can change what an API key (or the next token) may do.
   */
  private async viewerForJwt(token: string): Promise<Viewer> {
    let payload: JWTPayload;
    try {
      payload = (
        await jwtVerify(token, this.jwtKey, {
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
    return { userId: user.id, userName: user.name, isAdmin, permissions, authEnabled: true };
  }

  /**
   * HS256 with JWT_SECRET; the asymmetric families with JWT_JWKS_URL. Nothing else (never `none`, never HS384/HS512).
   */
  private get jwtAlgorithms(): string[] {
    return [...(this.secret ? HMAC_ALGORITHMS : []), ...(this.jwks ? JWKS_ALGORITHMS : [])];
  }

  /** jose has already refused any alg outside jwtAlgorithms when this runs. */
  private readonly jwtKey = (header: JWTHeaderParameters, token: FlattenedJWSInput) =>
    HMAC_ALGORITHMS.includes(header.alg) ? this.secret! : this.jwks!(header, token);

  /**
   * The identity's row, created on first sight; a row from before identities (jwt_issuer null) is adopted by its
   * subject.
   */
  private jwtUser(issuer: string, subject: string): Promise<{ id: string; name: string }> {
    return this.users.jwtUser(issuer, subject);
  }

  /** A local user (made by an admin command, not by a token) by name. */
  localUser(name: string) {
    return this.users.localByName(name);
  }

  /** Creates a user and its first API key; the key is returned once and stored hashed. */
  async createUser(name: string, options: { admin?: boolean; permissions?: string[] } = {}) {
    const user = await this.users.create({
      name,
      isAdmin: options.admin ?? false,
      permissions: options.permissions ?? [],
    });
    const key = await this.createApiKey(user.id);
    return { user, key };
  }

  async createApiKey(userId: string): Promise<string> {
    const key = `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
    await this.users.createApiKey(userId, hashKey(key), key.slice(0, 10));
    return key;
  }
}
