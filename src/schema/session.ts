/**
 * Session: the node and its summary fields, `session(id:)`, the session list,
 * and the session mutations.
 *
 * Other Session fields sit with their domain, each module adding them with
 * `builder.prismaObjectFields(SessionRef, …)`:
 * - history.ts: history
 * - turn.ts: activeTurn
 * - model-view.ts: modelView
 * - files.ts: files
 * - share.ts: shareUrl
 * - transfer.ts: export
 * - editing.ts: branches, tree, checkpoint, editStats
 * - recall.ts: recalls
 */
import { queryFromInfo } from '@pothos/plugin-prisma';
import DataLoader from 'dataloader';
import { can } from '../domain/policy.js';
import { costOf, type Usage } from '../domain/cost.js';
import { ZERO_USAGE } from '../domain/types.js';
import { isPlaceholderTitle, TITLE_SOURCES } from '../domain/titles.js';
import {
  countOf,
  DEFAULT_SESSION_PAGE,
  type SessionListEdge,
  type SessionListPage,
  wantsRelations,
} from '../sessions/list.js';
import { BadInput, Forbidden } from '../store/errors.js';
import { builder, type Context } from './builder.js';
import { plainHistorySelection, selectedMessageColumns, withPrefetchedHistory } from './history-prefetch.js';
import { argumentGiven, parseGlobalId, sessionGlobalId } from './ids.js';
import { selectsField } from './selection.js';
import { MessageRef } from './message.js';
import { nextPromptOf } from './next-prompt.js';
import { CostRef, UsageRef } from './usage.js';
import { UserRef } from './viewer.js';

export const TitleSourceEnum = builder.enumType('TitleSource', {
  values: TITLE_SOURCES,
});
const SessionOrderFieldEnum = builder.enumType('SessionOrderField', {
  values: ['LAST_ACTIVE', 'CREATED_AT', 'NAME'] as const,
});
const SortDirectionEnum = builder.enumType('SortDirection', { values: ['ASC', 'DESC'] as const });

const previewLoaders = new WeakMap<Context, DataLoader<string, string | null>>();
function previewLoader(ctx: Context): DataLoader<string, string | null> {
  let loader = previewLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly string[]) => {
      const previews = await ctx.app.reads.previews(ids);
      return ids.map((id) => previews.get(id) ?? null);
    });
    previewLoaders.set(ctx, loader);
  }
  return loader;
}

const historyTitleLoaders = new WeakMap<Context, DataLoader<string, string | null>>();
function historyTitleLoader(ctx: Context): DataLoader<string, string | null> {
  let loader = historyTitleLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids: readonly string[]) => {
      const names = await ctx.app.reads.historyTitles(ids);
      return ids.map((id) => names.get(id) ?? null);
    });
    historyTitleLoaders.set(ctx, loader);
  }
  return loader;
}

/** Local-mode and legacy owners ('anonymous', null) have no User row. */
const USER_ID = /^[0-9a-f-]{36}$/i;

export const SessionRef = builder.prismaNode('Session', {
  id: { field: 'id' },
  // Someone else's session answers exactly like a missing one.
  findUnique: (id) => ({ id }),
  authScopes: (session, ctx) => can(ctx.viewer, 'read', session),
  runScopesOnType: true,
  fields: (t) => ({
    // The placeholder title (titleSource DEFAULT) shows a name from the first prompt, derived on read (no write).
    name: t.string({
      nullable: true,
      resolve: async (s, _a, ctx, info) => {
        if (!isPlaceholderTitle(s)) return s.name;
        if (info.operation.operation === 'subscription')
          return (await ctx.app.reads.historyTitles([s.id])).get(s.id) ?? null;
        return (await historyTitleLoader(ctx).load(s.id)) ?? s.name;
      },
    }),
    titleSource: t.field({ type: TitleSourceEnum, resolve: (s) => s.titleSource as 'DEFAULT' }),
    profile: t.relation('profile'),
    // One query for every owner on the page.
    owner: t.loadable({
      type: UserRef,
      nullable: true,
      load: (ids: string[], ctx) => ctx.app.reads.usersByIds(ids),
      sort: (user) => user.id,
      resolve: (s) => (s.userId && USER_ID.test(s.userId) ? s.userId : null),
    }),
    pinned: t.exposeBoolean('pinned'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastActive: t.expose('lastActive', { type: 'DateTime' }),
    displayMessageCount: t.exposeInt('displayCount'),
    // The list page's statement carries each row's preview; elsewhere one query for every session asked. A
    // subscription's context lives as long as the subscription: its loader would answer every later event with the
    // first event's preview, so each event reads afresh.
    preview: t.string({
      nullable: true,
      resolve: async (s, _a, ctx, info) => {
        const carried = (s as { preview?: string | null }).preview;
        if (carried !== undefined) return carried;
        if (info.operation.operation === 'subscription')
          return (await ctx.app.reads.previews([s.id])).get(s.id) ?? null;
        return previewLoader(ctx).load(s.id);
      },
    }),
    context: t.field({
      type: [MessageRef],
      description: 'What the model sees on the next call (owner or admin only).',
      resolve: async (s, _a, ctx) => {
        if (!can(ctx.viewer, 'readContext', s)) {
          throw new Forbidden('Only the owner or an admin may read the context');
        }
        return ctx.app.reads.context(s.id);
      },
    }),
    contextTokens: t.int({
      description:
        'The next prompt in real tokens: the last real prompt count + ' +
        'the calibrated delta of every message saved since.',
      select: { id: true, contextTokenCount: true },
      // The same prompt Session.modelView shows; the stored meter if it cannot be built (a missing profile).
      resolve: async (s, _a, ctx) => (await nextPromptOf(ctx, s.id))?.prompt.estimate ?? s.contextTokenCount,
    }),
    contextWindow: t.int({
      select: { profile: { select: { contextWindow: true } } },
      resolve: (s) => s.profile.contextWindow,
    }),
    planningLogs: t.field({ type: 'JSON', resolve: (s) => s.planningLogs }),
    usage: t.field({
      type: UsageRef,
      select: { usage: true },
      resolve: (s) => ({ ...ZERO_USAGE, ...(s.usage as object) }),
    }),
    cost: t.field({
      type: CostRef,
      select: { usage: true, profile: { select: { model: true } } },
      resolve: (s, _a, ctx) => costOf(s.usage as Usage, ctx.app.settings.modelPrices[s.profile.model]),
    }),
  }),
});

export const SearchMatchesRef = builder
  .objectRef<{ displayIndices: number[]; snippet: string }>('SearchMatches')
  .implement({
    fields: (t) => ({
      displayIndices: t.exposeIntList('displayIndices'),
      snippet: t.exposeString('snippet'),
    }),
  });

const SessionConnectionRef = builder.connectionObject(
  {
    type: SessionRef,
    name: 'SessionConnection',
    fields: (t) => ({
      totalCount: t.int({ resolve: (c) => countOf(c as SessionListPage).totalCount }),
      totalCountIsExact: t.boolean({
        description:
          'False when a search matched more sessions than the server counts exactly (SEARCH_COUNT_CAP, ' +
          'default 10,000): totalCount is then that cap, a lower bound (show it as "10,000+"). ' +
          'Always true without search.',
        resolve: (c) => countOf(c as SessionListPage).totalCountIsExact,
      }),
    }),
  },
  {
    name: 'SessionEdge',
    fields: (t) => ({
      matches: t.field({ type: SearchMatchesRef, nullable: true, resolve: (e) => (e as SessionListEdge).matches }),
    }),
  },
);

builder.queryFields((t) => ({
  session: t.withAuth({ authenticated: true }).prismaField({
    type: 'Session',
    nullable: true,
    args: { id: t.arg.globalID({ for: SessionRef, required: true }) },
    // One query: the selection drives the SQL and the access rule is part of the filter. A selection of the
    // session's own columns and one history page reads both in that one statement (history-prefetch.ts).
    resolve: async (query, _root, args, ctx, info) => {
      const history = wantsRelations(query) ? null : plainHistorySelection(info);
      const { reads } = ctx.app;
      if (!history) return reads.readableSession(ctx.viewer, args.id.id, query);
      const columns = selectedMessageColumns(history.field);
      const found = await reads
        .readableWithHistoryPage(ctx.viewer, args.id.id, history.args, columns)
        // bad page arguments: the ordinary path, so that the history field reports them at its own path
        .catch((error: unknown) => (error instanceof BadInput ? undefined : Promise.reject(error)));
      if (found === undefined) return reads.readableSession(ctx.viewer, args.id.id, query);
      return found && withPrefetchedHistory(found.session, history.field, found.page);
    },
  }),
  sessions: t.withAuth({ authenticated: true }).field({
    type: SessionConnectionRef,
    args: {
      first: t.arg.int({ defaultValue: DEFAULT_SESSION_PAGE }),
      after: t.arg.string(),
      // Optional ids stay plain: an empty one means none, which the relay plugin would refuse.
      profileId: t.arg.id(),
      search: t.arg.string(),
      orderBy: t.arg({ type: SessionOrderFieldEnum, defaultValue: 'LAST_ACTIVE' }),
      direction: t.arg({ type: SortDirectionEnum, defaultValue: 'DESC' }),
    },
    resolve: async (_root, args, ctx, info): Promise<SessionListPage> => {
      const listArgs = {
        first: args.first ?? DEFAULT_SESSION_PAGE,
        firstGiven: argumentGiven(info, 'first'),
        after: args.after,
        profileId: args.profileId ? parseGlobalId(String(args.profileId), 'Profile') : undefined,
        search: args.search,
        orderBy: args.orderBy ?? 'LAST_ACTIVE',
        direction: args.direction ?? 'DESC',
        // A page that does not ask for its count is not counted (the count reads every matching session).
        count: selectsField(info, ['totalCount', 'totalCountIsExact']),
      };
      const query = queryFromInfo({ context: ctx, info, path: ['edges', 'node'], typeName: 'Session' });
      return ctx.app.reads.sessionList(ctx.viewer, listArgs, query);
    },
  }),
}));

const CreateSessionInput = builder.inputType('CreateSessionInput', {
  // profileId stays a plain id: an empty one means the default profile.
  fields: (t) => ({ profileId: t.id(), name: t.string() }),
});
const DeleteSessionPayload = builder.objectRef<{ deletedSessionId: string }>('DeleteSessionPayload').implement({
  fields: (t) => ({ deletedSessionId: t.exposeID('deletedSessionId') }),
});
const DeleteSessionsFilter = builder.inputType('DeleteSessionsFilter', {
  description:
    'Which of your own sessions to delete: every given criterion must hold, and at least one is required. ' +
    'Pinned sessions are kept unless includePinned.',
  fields: (t) => ({
    ids: t.globalIDList({
      for: SessionRef,
      description: "At most MAX_PAGE_SIZE ids; unknown or others' match nothing.",
    }),
    inactiveBefore: t.field({ type: 'DateTime', description: 'lastActive before this' }),
    profileId: t.id({ description: 'sessions of this profile' }),
    includePinned: t.boolean({ defaultValue: false }),
  }),
});
const DeleteSessionsPayload = builder
  .objectRef<{ deletedIds: string[]; hasMore: boolean }>('DeleteSessionsPayload')
  .implement({
    fields: (t) => ({
      deletedCount: t.int({ resolve: (p) => p.deletedIds.length }),
      deletedSessionIds: t.idList({ resolve: (p) => p.deletedIds.map(sessionGlobalId) }),
      hasMore: t.boolean({
        description: 'More sessions match than one call deletes (MAX_PAGE_SIZE): call again.',
        resolve: (p) => p.hasMore,
      }),
    }),
  });
const RecordSessionEventInput = builder.inputType('RecordSessionEventInput', {
  fields: (t) => ({
    sessionId: t.globalID({ for: SessionRef, required: true }),
    source: t.string({ required: true, description: 'allowlisted sources reach the model: task_note, synapse_event' }),
    text: t.string({ required: true }),
  }),
});

builder.mutationFields((t) => {
  const authed = t.withAuth({ authenticated: true });
  return {
    createSession: authed.field({
      type: SessionRef,
      args: { input: t.arg({ type: CreateSessionInput, required: true }) },
      resolve: (_root, { input }, ctx) =>
        ctx.app.sessions.create(ctx.viewer, {
          name: input.name,
          profileId: input.profileId ? parseGlobalId(String(input.profileId), 'Profile') : null,
        }),
    }),
    deleteSession: authed.field({
      type: DeleteSessionPayload,
      args: { id: t.arg.globalID({ for: SessionRef, required: true }) },
      resolve: async (_root, args, ctx) => {
        await ctx.app.sessions.delete(ctx.viewer, args.id.id);
        return { deletedSessionId: sessionGlobalId(args.id.id) };
      },
    }),
    deleteSessions: authed.field({
      type: DeleteSessionsPayload,
      description:
        "Bulk delete of the viewer's own sessions (admins too: only their own), as deleteSession does each; " +
        'at most MAX_PAGE_SIZE per call (hasMore). BAD_USER_INPUT without a criterion.',
      args: { filter: t.arg({ type: DeleteSessionsFilter, required: true }) },
      resolve: (_root, { filter }, ctx) =>
        ctx.app.sessions.deleteMany(ctx.viewer, {
          ids: filter.ids ? filter.ids.map((g) => g.id) : undefined,
          inactiveBefore: filter.inactiveBefore ?? undefined,
          profileId: filter.profileId ? parseGlobalId(String(filter.profileId), 'Profile') : undefined,
          includePinned: filter.includePinned ?? false,
        }),
    }),
    renameSession: authed.field({
      type: SessionRef,
      args: { id: t.arg.globalID({ for: SessionRef, required: true }), name: t.arg.string({ required: true }) },
      resolve: (_root, args, ctx) => ctx.app.sessions.rename(ctx.viewer, args.id.id, args.name),
    }),
    setSessionPinned: authed.field({
      type: SessionRef,
      args: { id: t.arg.globalID({ for: SessionRef, required: true }), pinned: t.arg.boolean({ required: true }) },
      resolve: (_root, args, ctx) => ctx.app.sessions.setPinned(ctx.viewer, args.id.id, args.pinned),
    }),
    recordSessionEvent: authed.field({
      type: MessageRef,
      args: { input: t.arg({ type: RecordSessionEventInput, required: true }) },
      resolve: (_root, { input }, ctx) =>
        ctx.app.sessions.recordEvent(ctx.viewer, {
          sessionId: input.sessionId.id,
          source: input.source,
          text: input.text,
        }),
    }),
  };
});
