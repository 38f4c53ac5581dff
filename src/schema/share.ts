/**
 * Public read-only share links: SharedSession, `sharedSession`, `shareSession`,
 * `revokeShare`, and Session.shareUrl / share / shareLinks. `sharedSession` is public (no authScopes, the viewer
 * may be null) and exposes no ids: no session, owner or message id, no
 * context, no file listing; every string it returns goes through the share
 * redactor (src/domain/share-redaction.ts), which turns session file URLs into
 * share-scoped `/shared/files/<name>` ones (src/routes.ts serves the published ones).
 */
import { can } from '../domain/policy.js';
import type { Redactor } from '../domain/share-redaction.js';
import type { HistoryEdge } from '../sessions/history-page.js';
import { isExpired, redactMessage, type ShareLink, shareRedactorFor, shareUrl } from '../sessions/share.js';
import type { MessageShape } from '../store/rows.js';
import type { SessionRow } from '../store/sessions.js';
import { type ShareSnapshotCut, snapshotCut } from '../store/shares.js';
import { builder } from './builder.js';
import { MessageRoleEnum, ToolCallRef } from './message.js';
import { SessionRef } from './session.js';

interface SharedSessionShape {
  session: SessionRow;
  profileName: string;
  /** a snapshot link: the cut it froze */
  snapshot: ShareSnapshotCut | null;
  /** scrubs session/owner ids and server paths from everything the holder gets */
  redact: Redactor;
}

const SharedMessageRef = builder.objectRef<MessageShape>('SharedMessage').implement({
  fields: (t) => ({
    role: t.field({ type: MessageRoleEnum, resolve: (m) => m.role.toUpperCase() as 'USER' }),
    content: t.exposeString('content'),
    isPlan: t.exposeBoolean('isPlan'),
    toolCalls: t.field({ type: [ToolCallRef], resolve: (m) => m.toolCalls }),
    name: t.exposeString('name', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (m) => m.createdAt }),
  }),
});

const SharedMessageConnectionRef = builder.connectionObject(
  { type: SharedMessageRef, name: 'SharedMessageConnection' },
  {
    name: 'SharedMessageEdge',
    fields: (t) => ({ displayIndex: t.int({ resolve: (e) => (e as HistoryEdge).displayIndex }) }),
  },
);

const SharedSessionRef = builder.objectRef<SharedSessionShape>('SharedSession').implement({
  fields: (t) => ({
    name: t.string({
      nullable: true,
      description: 'For a snapshot link, the name the session had when it was shared.',
      resolve: (s) => {
        const name = s.snapshot ? s.snapshot.name : s.session.name;
        return name == null ? null : s.redact.text(name);
      },
    }),
    profileName: t.string({ resolve: (s) => s.redact.text(s.profileName) }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.session.createdAt }),
    lastActive: t.field({ type: 'DateTime', resolve: (s) => s.snapshot?.lastActive ?? s.session.lastActive }),
    snapshot: t.boolean({
      description: 'Whether this link shows the history as it was when shared (messages saved later are not in it).',
      resolve: (s) => s.snapshot !== null,
    }),
    history: t.field({
      type: SharedMessageConnectionRef,
      description: 'Newest page by default; the same rows the owner scrolls through. No session, owner or message ids.',
      args: { first: t.arg.int(), after: t.arg.string(), last: t.arg.int(), before: t.arg.string() },
      resolve: async (s, args, ctx) => {
        const cut = s.snapshot;
        const window = cut
          ? { id: s.session.id, displayCount: Math.min(cut.displayCount, s.session.displayCount) }
          : s.session;
        const page = await ctx.app.reads.historyPage(window, args, snapshotCut(cut));
        const edges = page.edges.map((e) => ({ ...e, node: redactMessage(e.node, s.redact) }));
        return { edges, pageInfo: page.pageInfo };
      },
    }),
  }),
});

const ShareSessionPayloadRef = builder.objectRef<ShareLink>('ShareSessionPayload').implement({
  fields: (t) => ({
    token: t.exposeString('token'),
    url: t.exposeString('url'),
    createdAt: t.field({ type: 'DateTime', resolve: (l) => l.createdAt }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (l) => l.expiresAt }),
    snapshot: t.exposeBoolean('snapshot'),
  }),
});

const ShareLinkRef = builder.objectRef<ShareLink>('ShareLink').implement({
  description: 'A share link as its issuer sees it.',
  fields: (t) => ({
    url: t.exposeString('url', { description: '/#share=<token>' }),
    token: t.exposeString('token'),
    createdAt: t.field({ type: 'DateTime', resolve: (l) => l.createdAt }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (l) => l.expiresAt }),
    expired: t.boolean({
      description: 'Past expiresAt: the link answers like a revoked one.',
      resolve: (l) => isExpired(l, new Date()),
    }),
    snapshot: t.exposeBoolean('snapshot', {
      description: "Shows the history as it was when shared; false for the session's one live link.",
    }),
  }),
});

const RevokeSharePayloadRef = builder.objectRef<{ revokedCount: number }>('RevokeSharePayload').implement({
  fields: (t) => ({ revokedCount: t.exposeInt('revokedCount') }),
});

builder.prismaObjectFields(SessionRef, (t) => ({
  shareUrl: t.string({
    nullable: true,
    description: 'Share link path if one was issued: /#share=<token>',
    select: { id: true, userId: true },
    // Only those who may issue the link see it: reading someone's session is not publishing it.
    resolve: async (s, _a, ctx) => {
      if (!can(ctx.viewer, 'share', s)) return null;
      const token = await ctx.app.shares.tokenOf(s.id);
      return token ? shareUrl(token) : null;
    },
  }),
  share: t.field({
    type: ShareLinkRef,
    nullable: true,
    description: 'The live share link (expired ones included, with `expired: true`); owner or admin only, else null.',
    select: { id: true, userId: true },
    resolve: async (s, _a, ctx) => (can(ctx.viewer, 'share', s) ? ctx.app.shares.liveLink(s.id) : null),
  }),
  shareLinks: t.field({
    type: [ShareLinkRef],
    description:
      'Every share link of the session: the live one first, then snapshot links newest first. ' +
      'Owner or admin only (empty for anyone else).',
    select: { id: true, userId: true },
    resolve: async (s, _a, ctx) => (can(ctx.viewer, 'share', s) ? ctx.app.shares.links(s.id) : []),
  }),
}));

builder.queryField('sharedSession', (t) =>
  t.field({
    type: SharedSessionRef,
    nullable: true,
    description: 'Public read-only view behind a share link. No authentication.',
    args: { token: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const found = await ctx.app.shares.resolve(args.token);
      if (!found) return null;
      const { profileName, ...session } = found.session;
      return {
        session,
        profileName,
        snapshot: found.snapshot,
        redact: shareRedactorFor(session, ctx.app.settings.shareRoots),
      };
    },
  }),
);

builder.mutationField('shareSession', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ShareSessionPayloadRef,
    description:
      'One live capability link per session; the same token on repeat calls (a given `expiresAt` updates its ' +
      'expiry, null removes it). After a revoke or its expiry the next call issues a new token. `snapshot: true` ' +
      'issues a new, separate link on every call showing the history as it is now. ' +
      'CONFLICT while the session has no saved message; BAD_USER_INPUT for an expiresAt not in the future.',
    args: {
      id: t.arg.globalID({ for: SessionRef, required: true }),
      expiresAt: t.arg({ type: 'DateTime', description: 'After this the link answers like a revoked one.' }),
      snapshot: t.arg.boolean({ defaultValue: false }),
    },
    resolve: (_root, args, ctx) =>
      ctx.app.shares.issue(ctx.viewer, args.id.id, {
        expiresAt: args.expiresAt === undefined ? undefined : (args.expiresAt as Date | null),
        snapshot: args.snapshot ?? false,
      }),
  }),
);

builder.mutationField('revokeShare', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: RevokeSharePayloadRef,
    description:
      "Revokes the session's share links at once: all of them (the live link and every snapshot), or only `token`. " +
      'A revoked token never resolves again; the next shareSession issues a new one. Same rights as shareSession.',
    args: {
      sessionId: t.arg.globalID({ for: SessionRef, required: true }),
      token: t.arg.string({ description: 'Revoke only this link of the session.' }),
    },
    resolve: async (_root, args, ctx) => ({
      revokedCount: await ctx.app.shares.revoke(ctx.viewer, args.sessionId.id, args.token),
    }),
  }),
);
