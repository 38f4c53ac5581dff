/**
 * Sharing over GraphQL: public read-only share links, session files and
 * uploads, export / import. `sharedSession` is public (no authScopes, the
 * viewer may be null) and exposes no ids: no session, owner or message id,
 * no context, no file listing; every string it returns goes through the share
 * redactor (src/domain/share-redaction.ts), which turns session file URLs into
 * share-scoped `/shared/files/<name>` ones (src/routes.ts serves the published ones).
 */
import { can } from '../auth/policy.js';
import type { SessionFileEntry } from '../files/store.js';
import type { Redactor } from '../domain/share-redaction.js';
import { redactMessage, shareRedactorFor, shareRoots, shareUrl } from '../sessions/share.js';
import { BadInput } from '../store/errors.js';
import type { StoredMessage } from '../store/rows.js';
import type { SessionRow } from '../store/sessions.js';
import { builder } from './builder.js';
import { parseGlobalId } from './ids.js';
import { MessageRoleEnum, PageInfoRef, ToolCallRef } from './message.js';
import { historyPage, SessionRef } from './session.js';

// ---------------------------------------------------------------- files

export const ExportFormatEnum = builder.enumType('ExportFormat', { values: ['MARKDOWN', 'JSON'] as const });

interface SessionFileShape {
  sessionId: string;
  entry: Pick<SessionFileEntry, 'filename' | 'size' | 'contentType' | 'createdAt'>;
}

export const fileUrl = (sessionId: string, filename: string) =>
  `/sessions/${encodeURIComponent(sessionId)}/files/${encodeURIComponent(filename)}`;

const SessionFileRef = builder.objectRef<SessionFileShape>('SessionFile').implement({
  fields: (t) => ({
    filename: t.string({ resolve: (f) => f.entry.filename }),
    size: t.int({ resolve: (f) => f.entry.size }),
    contentType: t.string({ resolve: (f) => f.entry.contentType }),
    url: t.string({
      description: 'Download path, served with the caller\'s credentials',
      resolve: (f) => fileUrl(f.sessionId, f.entry.filename),
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (f) => f.entry.createdAt }),
  }),
});

// ---------------------------------------------------------------- shared view

interface SharedSessionShape {
  session: SessionRow;
  profileName: string;
  /** scrubs session/owner ids and server paths from everything the holder gets */
  redact: Redactor;
}
interface SharedEdgeShape {
  cursor: string;
  displayIndex: number;
  node: StoredMessage;
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

const SharedMessageEdgeRef = builder.objectRef<SharedEdgeShape>('SharedMessageEdge').implement({
  fields: (t) => ({
    cursor: t.exposeString('cursor'),
    displayIndex: t.exposeInt('displayIndex'),
    node: t.field({ type: SharedMessageRef, resolve: (e) => e.node }),
  }),
});

const SharedMessageConnectionRef = builder
  .objectRef<{ edges: SharedEdgeShape[]; pageInfo: PageInfoShape }>('SharedMessageConnection')
  .implement({
    fields: (t) => ({
      edges: t.field({ type: [SharedMessageEdgeRef], resolve: (c) => c.edges }),
      pageInfo: t.field({ type: PageInfoRef, resolve: (c) => c.pageInfo }),
    }),
  });
type PageInfoShape = { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };

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

const ImportSessionInput = builder.inputType('ImportSessionInput', {
  fields: (t) => ({
    data: t.string({ required: true, description: 'JSON as produced by export(format: JSON)' }),
    profileId: t.id(),
  }),
});

// ---------------------------------------------------------------- Session fields

builder.prismaObjectFields('Session', (t) => ({
  files: t.field({
    type: [SessionFileRef],
    select: { id: true },
    resolve: async (s, _a, ctx) => (await ctx.app.files.list(s.id)).map((entry) => ({ sessionId: s.id, entry })),
  }),
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
  export: t.string({
    args: { format: t.arg({ type: ExportFormatEnum, required: true }) },
    resolve: async (s, args, ctx) => {
      const session = (await ctx.app.store.get(s.id))!;
      return ctx.app.transfer.export(ctx.viewer!, session, args.format);
    },
  }),
}));

// ---------------------------------------------------------------- root fields

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

builder.mutationFields((t) => ({
  shareSession: t.field({
    type: ShareSessionPayloadRef,
    description: 'One capability link per session; the same token on repeat calls. CONFLICT while the session has no saved message.',
    authScopes: { authenticated: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.app.shares.issue(ctx.viewer!, parseGlobalId(String(args.id), 'Session')),
  }),
  uploadSessionFiles: t.field({
    type: [SessionFileRef],
    authScopes: { authenticated: true },
    args: { sessionId: t.arg.id({ required: true }), files: t.arg({ type: ['File'], required: true }) },
    resolve: async (_root, args, ctx) => {
      const session = await ctx.app.sessions.writable(ctx.viewer!, parseGlobalId(String(args.sessionId), 'Session'));
      if (args.files.length === 0) throw new BadInput('No files to upload');
      const saved = await ctx.app.files.saveUploads(session.id, args.files);
      return saved.map((entry) => ({ sessionId: session.id, entry }));
    },
  }),
  importSession: t.field({
    type: SessionRef,
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: ImportSessionInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.app.transfer.import(ctx.viewer!, {
        data: input.data,
        profileId: input.profileId ? parseGlobalId(String(input.profileId), 'Profile') : null,
      }),
  }),
}));
