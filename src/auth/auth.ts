/**
 * Credentials → Viewer. API keys (`Authorization: Bearer csk_…`, stored as
 * sha256 hashes, shown once) or JWTs (HS256 secret or a JWKS URL, via jose).
 * With auth disabled every caller is `anonymous` and checks are bypassed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { Unauthenticated } from '../store/errors.js';
import { ANONYMOUS, type Viewer } from '../store/sessions.js';

const KEY_PREFIX = 'csk_';

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
    private readonly db: Database,
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
    const key = await this.db.prisma.apiKey.findUnique({ where: { keyHash: hashKey(token) }, include: { user: true } });
    if (!key) throw new Unauthenticated('Invalid API key');
    return { userId: key.user.id, userName: key.user.name, isAdmin: key.user.isAdmin, permissions: key.user.permissions, authEnabled: true };
  }

  private async viewerForJwt(token: string): Promise<Viewer> {
    let payload: JWTPayload;
    try {
      const options = { issuer: this.config.jwtIssuer, audience: this.config.jwtAudience };
      payload = this.secret
        ? (await jwtVerify(token, this.secret, options)).payload
        : (await jwtVerify(token, this.jwks!, options)).payload;
    } catch {
      throw new Unauthenticated('Invalid or expired token');
    }
    if (!payload.sub) throw new Unauthenticated('Token has no subject');
    const permissions = Array.isArray(payload.permissions) ? payload.permissions.map(String) : [];
    const isAdmin = payload.admin === true || permissions.includes('admin');
    // A JWT's subject is a user name; the user row is created on first sight.
    const user = await this.db.prisma.user.upsert({
      where: { name: payload.sub },
      create: { name: payload.sub, isAdmin, permissions },
      update: { isAdmin, permissions },
    });
    return { userId: user.id, userName: user.name, isAdmin, permissions, authEnabled: true };
  }

  /** Creates a user and its first API key; the key is returned once and stored hashed. */
  async createUser(name: string, options: { admin?: boolean; permissions?: string[] } = {}) {
    const user = await this.db.prisma.user.create({
      data: { name, isAdmin: options.admin ?? false, permissions: options.permissions ?? [] },
    });
    const key = await this.createApiKey(user.id);
    return { user, key };
  }

  async createApiKey(userId: string): Promise<string> {
    const key = `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
    await this.db.prisma.apiKey.create({ data: { userId, keyHash: hashKey(key), prefix: key.slice(0, 10) } });
    return key;
  }
}
