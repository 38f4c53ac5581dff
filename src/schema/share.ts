/**
 * Public read-only share links: SharedSession, `sharedSession`, `shareSession`
 * and Session.shareUrl. `sharedSession` is public (no authScopes, the viewer
 * may be null) and exposes no ids: no session, owner or message id, no
 * context, no file listing; every string it returns goes through the share
 * redactor (src/domain/share-redaction.ts), which turns session file URLs into
 * share-scoped `/shared/files/<name>` ones (src/routes.ts serves the published ones).
 */
import { can } from '../auth/policy.js';
import type { Redactor } from '../domain/share-redaction.js';
import { historyPage, type HistoryEdge } from '../sessions/history-page.js';
import { redactMessage, shareRedactorFor, shareRoots, shareUrl } from '../sessions/share.js';
import type { StoredMessage } from '../store/rows.js';
import type { SessionRow } from '../store/sessions.js';
import { builder } from './builder.js';
import { MessageRoleEnum, ToolCallRef } from './message.js';
import { SessionRef } from './session.js';

interface SharedSessionShape {
  session: SessionRow;
  profileName: string;
  /** scrubs session/owner ids and server paths from everything the holder gets */
  redact: Redactor;
}

const SharedMessageRef = builder.objectRef<StoredMessage>('SharedMessage').implement({
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
    name: t.string({ nullable: true, resolve: (s) => (s.session.name == null ? null : s.redact.text(s.session.name)) }),
    profileName: t.string({ resolve: (s) => s.redact.text(s.profileName) }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.session.createdAt }),
    lastActive: t.field({ type: 'DateTime', resolve: (s) => s.session.lastActive }),
    history: t.field({
      type: SharedMessageConnectionRef,
      description: 'Newest page by default; the same rows the owner scrolls through. No session, owner or message ids.',
      args: { first: t.arg.int(), after: t.arg.string(), last: t.arg.int(), before: t.arg.string() },
      resolve: async (s, args, ctx) => {
        const page = await historyPage(ctx.app.store, s.session, args, ctx.app.config.maxPageSize);
        const edges = page.edges.map((e) => ({ ...e, node: redactMessage(e.node, s.redact) }));
        return { edges, pageInfo: page.pageInfo };
      },
    }),
  }),
});

const ShareSessionPayloadRef = builder.objectRef<{ token: string; url: string }>('ShareSessionPayload').implement({
  fields: (t) => ({ token: t.exposeString('token'), url: t.exposeString('url') }),
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
      const { profileName, ...session } = found;
      return { session, profileName, redact: shareRedactorFor(session, shareRoots(ctx.app)) };
    },
  }),
);

builder.mutationField('shareSession', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ShareSessionPayloadRef,
    description:
      'One capability link per session; the same token on repeat calls. ' +
      'CONFLICT while the session has no saved message.',
    args: { id: t.arg.globalID({ for: SessionRef, required: true }) },
    resolve: (_root, args, ctx) => ctx.app.shares.issue(ctx.viewer, args.id.id),
  }),
);
