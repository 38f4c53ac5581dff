/**
 * Public read-only share links (seed: "Public read-only share"). One
 * capability token per session (`session_shares`), 256 bits from the CSPRNG,
 * base64url; the URL carries it in the hash (`/#share=<token>`) so it never
 * reaches a request line, access log or Referer header. No expiry, no revoke:
 * deleting the session cascades the row away and the link stops resolving.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createShareRedactor, type Redactor } from '../domain/share-redaction.js';
import { SESSION_FILES_DIRNAME } from '../files/store.js';
import type { StoredMessage } from '../store/rows.js';
import { Conflict, Forbidden, NotFound } from '../store/errors.js';
import { ANONYMOUS, can, type Viewer } from '../auth/policy.js';
import type { SessionRow, SessionStore } from '../store/sessions.js';
import { ShareStore } from '../store/shares.js';

/** 32 random bytes → 43 base64url characters. */
export const SHARE_TOKEN_BYTES = 32;
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export function newShareToken(): string {
  return randomBytes(SHARE_TOKEN_BYTES).toString('base64url');
}

export function shareUrl(token: string): string {
  return `/#share=${token}`;
}

/** Whether the token is even shaped like one we issue (a cheap reject before any query). */
export function isShareTokenShape(token: string): boolean {
  return typeof token === 'string' && TOKEN_RE.test(token);
}

/**
 * The redactor for what a holder of this session's link receives: the
 * session id (raw and global), the owner id (raw and global) and the
 * server's directories (`roots`: the session-files root, the data dir).
 */
export function shareRedactorFor(session: { id: string; userId: string | null }, roots: string[]): Redactor {
  const owner = session.userId && session.userId !== ANONYMOUS ? session.userId : null;
  return createShareRedactor({
    sessionId: session.id,
    sessionAliases: [
      ...globalIdForms('Session', session.id),
      ...globalIdPrefixForms('Message', session.id),
      session.id.replace(/-/g, ''),
      ...base64Forms(session.id),
    ],
    ownerIds: owner ? [owner, ...globalIdForms('User', owner)] : [],
    localRoots: roots,
    filesDirName: SESSION_FILES_DIRNAME,
  });
}

function base64Forms(text: string): string[] {
  const b64 = Buffer.from(text, 'utf8').toString('base64');
  const url = Buffer.from(text, 'utf8').toString('base64url');
  // base64url (Node) carries no padding; strip it from the plain form by length, not by a pattern.
  const unpadded = b64.slice(0, b64.length - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0));
  return [b64, unpadded, url];
}

/** A global id as padded base64, unpadded base64 and base64url. */
function globalIdForms(typename: string, id: string): string[] {
  return base64Forms(`${typename}:${id}`);
}

/**
 * Global ids that start with the session id (`Message:<session>:<seq>`): the base64 of their longest prefix that
 * encodes the same whatever follows (whole 3-byte groups), so every such id loses the part that spells the session.
 */
function globalIdPrefixForms(typename: string, sessionId: string): string[] {
  const bytes = Buffer.from(`${typename}:${sessionId}`, 'utf8');
  const whole = bytes.subarray(0, bytes.length - (bytes.length % 3));
  const b64 = whole.toString('base64');
  return [b64, whole.toString('base64url')];
}

/** The server directories a holder must never see: the session-files root and the data directory. */
export function shareRoots(app: { config: { dataDir: string }; files: { root: string; baseDir: string } }): string[] {
  return [app.files.baseDir, app.files.root, path.resolve(app.config.dataDir)];
}

/** A stored message as a share holder may see it: every text and JSON field redacted. */
export function redactMessage(message: StoredMessage, redact: Redactor): StoredMessage {
  return {
    ...message,
    content: redact.text(message.content),
    thinking: message.thinking == null ? message.thinking : redact.text(message.thinking),
    name: message.name == null ? message.name : redact.text(message.name),
    toolCallId: message.toolCallId == null ? message.toolCallId : redact.text(message.toolCallId),
    toolCalls: redact.json(message.toolCalls) as StoredMessage['toolCalls'],
    metadata: redact.json(message.metadata) as StoredMessage['metadata'],
    files: message.files.map(redact.text),
    images: message.images.map(redact.text),
  };
}

function isUniqueViolation(error: unknown): boolean {
  const text = `${(error as { code?: string }).code ?? ''} ${(error as Error).message ?? ''}`;
  return /P2002|23505|unique constraint/i.test(text);
}

export class ShareService {
  constructor(
    private readonly store: SessionStore,
    private readonly shares: ShareStore = new ShareStore(store.db),
  ) {}

  /**
   * Issue (or return the existing) token. NOT_FOUND when the viewer cannot
   * read the session (same as missing), FORBIDDEN when they can read but not
   * publish it, CONFLICT while no message has been saved.
   */
  async issue(viewer: Viewer, sessionId: string): Promise<{ token: string; url: string }> {
    const session = await this.store.get(sessionId);
    if (!session || !can(viewer, 'read', session)) throw new NotFound();
    if (!can(viewer, 'share', session)) {
      throw new Forbidden(
        viewer.authEnabled
          ? 'Only the owner of the session or an admin may share it'
          : 'With authentication disabled only local-mode sessions can be shared',
      );
    }
    const existing = await this.shares.tokenOf(sessionId);
    if (existing) return { token: existing, url: shareUrl(existing) };
    if (session.nextSequence === 0)
      throw new Conflict('The session has no saved message yet; send one before sharing it');
    try {
      const token = await this.shares.create(sessionId, newShareToken());
      return { token, url: shareUrl(token) };
    } catch (error) {
      // A concurrent call won the insert: answer with its token.
      if (!isUniqueViolation(error)) throw error;
      const token = await this.shares.tokenOf(sessionId);
      if (!token) throw error;
      return { token, url: shareUrl(token) };
    }
  }

  /** The existing token of a session, if any (no checks: callers decide who sees it). */
  async tokenOf(sessionId: string): Promise<string | null> {
    return this.shares.tokenOf(sessionId);
  }

  /**
   * Whether `filename` was published in the shared session's display history
   * (a `content_publish` result card naming it): the only files a holder may fetch.
   */
  async isPublished(sessionId: string, filename: string): Promise<boolean> {
    return this.shares.isPublished(sessionId, filename);
  }

  /** The shared session behind a token; null for unknown, forged or deleted alike. */
  async resolve(token: string): Promise<(SessionRow & { profileName: string }) | null> {
    if (!isShareTokenShape(token)) return null;
    return this.shares.resolve(token);
  }
}
