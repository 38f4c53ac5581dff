/** Session: the node, its summary fields, history, context; the session list; session mutations. */
import { queryFromInfo } from '@pothos/plugin-prisma';
import DataLoader from 'dataloader';
import { can } from '../auth/policy.js';
import { BadInput, Forbidden } from '../store/errors.js';
import { pageWindow } from '../sessions/paging.js';
import { SessionStore, type SessionCursor, type SessionRow } from '../store/sessions.js';
import { builder } from './builder.js';
import { argumentGiven, decodeJsonCursor, encodeIndexCursor, encodeJsonCursor, parseGlobalId } from './ids.js';
import { MessageRef, type MessageShape, PageInfoRef } from './message.js';
import { nextPromptOf } from './next-prompt.js';
import { UserRef } from './viewer.js';

export const TitleSourceEnum = builder.enumType('TitleSource', {
  values: ['DEFAULT', 'HEURISTIC', 'GENERATED', 'MANUAL', 'IMPORTED'] as const,
});
const SessionOrderFieldEnum = builder.enumType('SessionOrderField', {
  values: ['LAST_ACTIVE', 'CREATED_AT', 'NAME'] as const,
});
const SortDirectionEnum = builder.enumType('SortDirection', { values: ['ASC', 'DESC'] as const });

interface MessageEdgeShape {
  cursor: string;
  displayIndex: number;
  node: MessageShape;
}
const MessageEdgeRef = builder.objectRef<MessageEdgeShape>('MessageEdge').implement({
  fields: (t) => ({
    cursor: t.exposeString('cursor'),
    displayIndex: t.exposeInt('displayIndex', { description: '0-based position in the display history' }),
    node: t.field({ type: MessageRef, resolve: (e) => e.node }),
  }),
});

builder.objectType(PageInfoRef, {
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage'),
    hasPreviousPage: t.exposeBoolean('hasPreviousPage'),
    startCursor: t.exposeString('startCursor', { nullable: true }),
    endCursor: t.exposeString('endCursor', { nullable: true }),
  }),
});

export const MessageConnectionRef = builder
  .objectRef<{ edges: MessageEdgeShape[]; pageInfo: PageInfoRef; totalCount: number }>('MessageConnection')
  .implement({
    fields: (t) => ({
      edges: t.field({ type: [MessageEdgeRef], resolve: (c) => c.edges }),
      pageInfo: t.field({ type: PageInfoRef, resolve: (c) => c.pageInfo }),
      totalCount: t.exposeInt('totalCount'),
    }),
  });
type PageInfoRef = { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };

/** One page of display history, hot and archived rows seamlessly. */
export async function historyPage(
  store: SessionStore,
  session: { id: string; displayCount: number },
  args: { first?: number | null; after?: string | null; last?: number | null; before?: string | null },
  maxPageSize: number,
) {
  const total = session.displayCount;
  const { start, end } = pageWindow(args, total, maxPageSize);
  const rows = await store.displayRange(session.id, start, end);
  const edges = rows.map((node) => ({ cursor: encodeIndexCursor(node.displayIndex!), displayIndex: node.displayIndex!, node }));
  return {
    edges,
    totalCount: total,
    pageInfo: {
      hasNextPage: end < total,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

export const SessionRef = builder.prismaNode('Session', {
  id: { field: 'id' },
  // Someone else's session answers exactly like a missing one.
  findUnique: (id) => ({ id }),
  authScopes: (session, ctx) => can(ctx.viewer, 'read', session),
  runScopesOnType: true,
  fields: (t) => ({
    name: t.exposeString('name', { nullable: true }),
    titleSource: t.field({ type: TitleSourceEnum, resolve: (s) => s.titleSource as 'DEFAULT' }),
    profile: t.relation('profile'),
    owner: t.field({
      type: UserRef,
      nullable: true,
      resolve: async (s, _a, ctx) => {
        if (!s.userId || !/^[0-9a-f-]{36}$/i.test(s.userId)) return null;
        return ctx.app.db.prisma.user.findUnique({ where: { id: s.userId } });
      },
    }),
    pinned: t.exposeBoolean('pinned'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastActive: t.expose('lastActive', { type: 'DateTime' }),
    displayMessageCount: t.exposeInt('displayCount'),
    preview: t.string({
      nullable: true,
      select: { id: true },
      // One query for every session on the page (no N+1).
      resolve: async (s, _a, ctx) => {
        const loader = previewLoader(ctx);
        return loader.load(s.id);
      },
    }),
    history: t.field({
      type: MessageConnectionRef,
      args: { first: t.arg.int(), after: t.arg.string(), last: t.arg.int(), before: t.arg.string() },
      description: 'Display history, hot and archived, oldest first. `last: N` is the newest page.',
      resolve: (s, args, ctx) => historyPage(ctx.app.store, s, args, ctx.app.config.maxPageSize),
    }),
    context: t.field({
      type: [MessageRef],
      description: 'What the model sees on the next call (owner or admin only).',
      resolve: async (s, _a, ctx) => {
        if (!can(ctx.viewer, 'readContext', s)) {
          throw new Forbidden('Only the owner or an admin may read the context');
        }
        return ctx.app.store.context(s.id);
      },
    }),
    contextTokens: t.int({
      description: 'The next prompt in real tokens: the last real prompt count + the calibrated delta of every message saved since.',
      select: { id: true, contextTokenCount: true },
      // The same prompt Session.modelView shows; the stored meter if it cannot be built (a missing profile).
      resolve: async (s, _a, ctx) => (await nextPromptOf(ctx, s.id))?.prompt.estimate ?? s.contextTokenCount,
    }),
    contextWindow: t.int({
      select: { profile: { select: { contextWindow: true } } },
      resolve: (s) => s.profile.contextWindow,
    }),
    planningLogs: t.field({ type: 'JSON', resolve: (s) => s.planningLogs }),
  }),
});

const previewLoaders = new WeakMap<object, DataLoader<string, string | null>>();
function previewLoader(ctx: import('./builder.js').Context) {
  let loader = previewLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly string[]) => {
      const map = await ctx.app.store.previews(ids);
      return ids.map((id) => map.get(id) ?? null);
    });
    previewLoaders.set(ctx, loader);
  }
  return loader;
}

interface SessionEdgeShape {
  cursor: string;
  node: SessionRow;
  matches: { displayIndices: number[]; snippet: string } | null;
}

export const SearchMatchesRef = builder
  .objectRef<{ displayIndices: number[]; snippet: string }>('SearchMatches')
  .implement({
    fields: (t) => ({
      displayIndices: t.exposeIntList('displayIndices'),
      snippet: t.exposeString('snippet'),
    }),
  });

const SessionEdgeRef = builder.objectRef<SessionEdgeShape>('SessionEdge').implement({
  fields: (t) => ({
    cursor: t.exposeString('cursor'),
    node: t.field({ type: SessionRef, resolve: (e) => e.node }),
    matches: t.field({ type: SearchMatchesRef, nullable: true, resolve: (e) => e.matches }),
  }),
});

const SessionConnectionRef = builder
  .objectRef<{ edges: SessionEdgeShape[]; pageInfo: PageInfoRef; totalCount: number }>('SessionConnection')
  .implement({
    fields: (t) => ({
      edges: t.field({ type: [SessionEdgeRef], resolve: (c) => c.edges }),
      pageInfo: t.field({ type: PageInfoRef, resolve: (c) => c.pageInfo }),
      totalCount: t.exposeInt('totalCount'),
    }),
  });

const isSessionCursor = (v: unknown): v is SessionCursor =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as SessionCursor).pinned === 'boolean' &&
  typeof (v as SessionCursor).id === 'string' &&
  /^[0-9a-f-]{36}$/i.test((v as SessionCursor).id);

builder.queryFields((t) => ({
  session: t.prismaField({
    type: 'Session',
    nullable: true,
    authScopes: { authenticated: true },
    args: { id: t.arg.id({ required: true }) },
    // One query: the selection drives the SQL and the access rule is part of the filter.
    resolve: (query, _root, args, ctx) =>
      ctx.app.db.prisma.session.findFirst({
        ...query,
        where: { id: parseGlobalId(String(args.id), 'Session'), ...ctx.app.store.readWhere(ctx.viewer!) },
      }),
  }),
  sessions: t.field({
    type: SessionConnectionRef,
    authScopes: { authenticated: true },
    args: {
      first: t.arg.int({ defaultValue: 50 }),
      after: t.arg.string(),
      profileId: t.arg.id(),
      search: t.arg.string(),
      orderBy: t.arg({ type: SessionOrderFieldEnum, defaultValue: 'LAST_ACTIVE' }),
      direction: t.arg({ type: SortDirectionEnum, defaultValue: 'DESC' }),
    },
    resolve: async (_root, args, ctx, info) => {
      const max = ctx.app.config.maxPageSize;
      // A default page larger than MAX_PAGE_SIZE is clamped; an explicit one is refused.
      const first = argumentGiven(info, 'first') ? (args.first ?? 50) : Math.min(args.first ?? 50, max);
      if (first < 0 || first > max) {
        throw new BadInput(`first must be between 0 and ${max}`);
      }
      const orderBy = args.orderBy ?? 'LAST_ACTIVE';
      const profileId = args.profileId ? parseGlobalId(String(args.profileId), 'Profile') : undefined;
      const after = args.after ? decodeJsonCursor(args.after, isSessionCursor) : undefined;
      const listOptions = { viewer: ctx.viewer!, profileId, orderBy, direction: args.direction ?? 'DESC', first, after };
      const query = queryFromInfo({ context: ctx, info, path: ['edges', 'node'], typeName: 'Session' });
      // A search answers page, exact count and match positions together (src/search/service.ts).
      const { rows, hasNextPage, totalCount, matches } = args.search?.trim()
        ? await ctx.app.search.search(listOptions, query, args.search)
        : await Promise.all([ctx.app.store.list(listOptions, query), ctx.app.store.count(ctx.viewer!, profileId)]).then(
            ([page, count]) => ({ ...page, totalCount: count, matches: null }),
          );
      const edges = rows.map((node) => ({
        cursor: encodeJsonCursor(SessionStore.cursorOf(node, orderBy)),
        node,
        matches: matches?.get(node.id) ?? null,
      }));
      return {
        edges,
        totalCount,
        pageInfo: {
          hasNextPage,
          hasPreviousPage: Boolean(after),
          startCursor: edges[0]?.cursor ?? null,
          endCursor: edges.at(-1)?.cursor ?? null,
        },
      };
    },
  }),
}));

const CreateSessionInput = builder.inputType('CreateSessionInput', {
  fields: (t) => ({ profileId: t.id(), name: t.string() }),
});
const DeleteSessionPayload = builder.objectRef<{ deletedSessionId: string }>('DeleteSessionPayload').implement({
  fields: (t) => ({ deletedSessionId: t.exposeID('deletedSessionId') }),
});

builder.mutationFields((t) => ({
  createSession: t.field({
    type: SessionRef,
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: CreateSessionInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.app.sessions.create(ctx.viewer!, {
        name: input.name,
        profileId: input.profileId ? parseGlobalId(String(input.profileId), 'Profile') : null,
      }),
  }),
  deleteSession: t.field({
    type: DeleteSessionPayload,
    authScopes: { authenticated: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await ctx.app.sessions.delete(ctx.viewer!, parseGlobalId(String(args.id), 'Session'));
      return { deletedSessionId: String(args.id) };
    },
  }),
  renameSession: t.field({
    type: SessionRef,
    authScopes: { authenticated: true },
    args: { id: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.app.sessions.rename(ctx.viewer!, parseGlobalId(String(args.id), 'Session'), args.name),
  }),
  setSessionPinned: t.field({
    type: SessionRef,
    authScopes: { authenticated: true },
    args: { id: t.arg.id({ required: true }), pinned: t.arg.boolean({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.app.sessions.setPinned(ctx.viewer!, parseGlobalId(String(args.id), 'Session'), args.pinned),
  }),
}));

const RecordSessionEventInput = builder.inputType('RecordSessionEventInput', {
  fields: (t) => ({
    sessionId: t.id({ required: true }),
    source: t.string({ required: true, description: 'allowlisted sources reach the model: task_note, synapse_event' }),
    text: t.string({ required: true }),
  }),
});

builder.mutationField('recordSessionEvent', (t) =>
  t.field({
    type: MessageRef,
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: RecordSessionEventInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.app.sessions.recordEvent(ctx.viewer!, {
        sessionId: parseGlobalId(String(input.sessionId), 'Session'),
        source: input.source,
        text: input.text,
      }),
  }),
);
