/**
 * Public read-only share links (seed: "Public read-only share"). One
 * capability token per session (`session_shares`), 256 bits from the CSPRNG,
 * base64url; the URL carries it in the hash (`/#share=<token>`) so it never
 * reaches a request line, access log or Referer header. Lifecycle (issue 19,
 * item 3): `revokeShare` deletes links, an expiry makes a link answer like a
 * revoked one, snapshot links (each call a new token, at most 100 a session) freeze the
 * history as it was when shared. Deleting the session cascades every row away.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createShareRedactor, type Redactor } from '../domain/share-redaction.js';
import { SESSION_FILES_DIRNAME } from '../files/store.js';
import type { MessageShape, StoredMessage } from '../store/rows.js';
import { BadInput, Conflict, Forbidden, NotFound } from '../store/errors.js';
import { ANONYMOUS, can, type Viewer } from '../domain/policy.js';
import { publicUploadNotices } from '../domain/upload-notices.js';
import type { SessionRow, SessionStore } from '../store/sessions.js';
import { type ResolvedShare, type ShareLinkRow, ShareStore, snapshotCut } from '../store/shares.js';

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
export function shareRedactorFor(session: { id: string; userId: string | null }, roots: readonly string[]): Redactor {
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
    localRoots: [...roots],
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
export function redactMessage<M extends MessageShape>(message: M, redact: Redactor): M {
  return {
    ...message,
    content: redact.text(publicUploadNotices(message.content)),
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

/**
 * Snapshot links one session may hold at once (a bound on rows a caller can make). The trigger of migration
 * 20261205000200_snapshot_cap enforces it; this is the number its refusal names.
 */
export const MAX_SNAPSHOT_LINKS = 100;

/** The snapshot-cap trigger's refusal (its name is in the error's message, whatever the driver wraps it in). */
function isSnapshotCapRefusal(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
    if (/session_share_snapshots_cap/.test(String((current as Error).message ?? ''))) return true;
    const layer = current as { cause?: unknown; meta?: { driverAdapterError?: { cause?: unknown } } };
    current = layer.cause ?? layer.meta?.driverAdapterError?.cause ?? layer.meta?.driverAdapterError;
  }
  return false;
}

export interface IssueOptions {
  /** undefined = keep the live link's expiry (none for a new link); null = never expires */
  expiresAt?: Date | null;
  snapshot?: boolean;
}

/** A link as the share payloads and the owner's view show it. */
export interface ShareLink extends ShareLinkRow {
  url: string;
}

const withUrl = (row: ShareLinkRow): ShareLink => ({ ...row, url: shareUrl(row.token) });

export class ShareService {
  constructor(
    private readonly store: SessionStore,
    private readonly shares: ShareStore = new ShareStore(store.db),
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The session if the viewer may publish it: NOT_FOUND when unreadable (same as missing), FORBIDDEN otherwise. */
  private async publishable(viewer: Viewer, sessionId: string): Promise<SessionRow> {
    const session = await this.store.get(sessionId);
    if (!session || !can(viewer, 'read', session)) throw new NotFound();
    if (!can(viewer, 'share', session)) {
      throw new Forbidden(
        viewer.authEnabled
          ? 'Only the owner of the session or an admin may share it'
          : 'With authentication disabled only local-mode sessions can be shared',
      );
    }
    return session;
  }

  /**
   * Issue (or return the existing) live link, or a new snapshot link. NOT_FOUND
   * when the viewer cannot read the session (same as missing), FORBIDDEN when
   * they can read but not publish it, CONFLICT while no message has been saved,
   * BAD_USER_INPUT for an expiry not in the future. A repeat call returns the
   * same live token and sets its expiry when `expiresAt` is given; once the
   * live link expired (or was revoked) the next call issues a new token.
   */
  async issue(viewer: Viewer, sessionId: string, options: IssueOptions = {}): Promise<ShareLink> {
    const { expiresAt, snapshot = false } = options;
    if (expiresAt && expiresAt.getTime() <= this.now().getTime()) {
      throw new BadInput('expiresAt must be in the future');
    }
    const session = await this.publishable(viewer, sessionId);
    if (session.nextSequence === 0)
      throw new Conflict('The session has no saved message yet; send one before sharing it');
    if (snapshot) {
      // The cap is the database's (a trigger counts under a per-session lock): parallel calls cannot pass it.
      try {
        return withUrl(await this.shares.createSnapshot(session, newShareToken(), expiresAt ?? null));
      } catch (error) {
        if (!isSnapshotCapRefusal(error)) throw error;
        throw new BadInput(`A session holds at most ${MAX_SNAPSHOT_LINKS} snapshot links; revoke some first`);
      }
    }
    const existing = await this.shares.liveLink(sessionId);
    if (existing && !isExpired(existing, this.now())) {
      if (expiresAt === undefined || sameTime(existing.expiresAt, expiresAt)) return withUrl(existing);
      const updated = await this.shares.setExpiry(sessionId, existing.token, expiresAt);
      if (updated) return withUrl(updated);
    } else if (existing) {
      // Expired answers like revoked: the old token never resolves again, a new one is issued.
      await this.shares.removeLive(sessionId, existing.token);
    }
    try {
      return withUrl(await this.shares.create(sessionId, newShareToken(), expiresAt ?? null));
    } catch (error) {
      // A concurrent call won the insert: answer with its token.
      if (!isUniqueViolation(error)) throw error;
      const won = await this.shares.liveLink(sessionId);
      if (!won) throw error;
      return withUrl(won);
    }
  }

  /**
   * Revokes the session's links: every one (the live link and all snapshots), or only `token`.
   * The same checks as `issue`; answers how many links went (0 when there was none).
   */
  async revoke(viewer: Viewer, sessionId: string, token?: string | null): Promise<number> {
    await this.publishable(viewer, sessionId);
    if (token != null && !isShareTokenShape(token)) return 0;
    return this.shares.revoke(sessionId, token ?? undefined);
  }

  /** The session's live link, expired or not (no checks: callers decide who sees it). */
  async liveLink(sessionId: string): Promise<ShareLink | null> {
    const row = await this.shares.liveLink(sessionId);
    return row ? withUrl(row) : null;
  }

  /** Every link of the session, live first (no checks). */
  async links(sessionId: string): Promise<ShareLink[]> {
    return (await this.shares.links(sessionId)).map(withUrl);
  }

  /** The live token of a session, if any and not expired (no checks: callers decide who sees it). */
  async tokenOf(sessionId: string): Promise<string | null> {
    const row = await this.shares.liveLink(sessionId);
    return row && !isExpired(row, this.now()) ? row.token : null;
  }

  /**
   * Whether `filename` was published in the shared session's display history
   * (a `content_publish` result card naming it, within the snapshot for a
   * snapshot link): the only files a holder may fetch.
   */
  async isPublished(shared: ResolvedShare, filename: string): Promise<boolean> {
    return this.shares.isPublished(shared.session.id, filename, snapshotCut(shared.snapshot));
  }

  /** The shared session behind a token; null for unknown, forged, revoked, expired or deleted alike. */
  async resolve(token: string): Promise<ResolvedShare | null> {
    if (!isShareTokenShape(token)) return null;
    return this.shares.resolve(token, this.now());
  }
}

export function isExpired(link: { expiresAt: Date | null }, now: Date): boolean {
  return link.expiresAt !== null && link.expiresAt.getTime() <= now.getTime();
}

function sameTime(a: Date | null, b: Date | null): boolean {
  return (a?.getTime() ?? null) === (b?.getTime() ?? null);
}
