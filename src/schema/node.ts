/**
 * `node(id:)`: one access policy for every Node type. The answer is the node,
 * or `null` with no error for an id the caller may not see, a missing or
 * deleted one, and a malformed one alike, so the field tells nothing about
 * what exists (docs/security.md "Object access and `node(id:)`").
 */
import { decodeGlobalID, resolveNodes } from '@pothos/plugin-relay';
import { can } from '../domain/policy.js';
import type { AuthenticatedContext } from './builder.js';
import { builder } from './builder.js';
import { parseMessageLocalId } from '../domain/message-ids.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether the caller may see the node, checked before it is loaded; it is the
 * rule of the field that lists or returns that type elsewhere. A Node type
 * without an entry is never answered (fail closed).
 */
const visible: Record<string, (id: string, ctx: AuthenticatedContext) => Promise<boolean>> = {
  // session(id:): the store's read rule, as one filtered query.
  Session: async (id, ctx) => UUID.test(id) && (await ctx.app.reads.sessionVisible(ctx.viewer, id)),
  // The session's rule, through the turn's session.
  Turn: async (id, ctx) => {
    if (!UUID.test(id)) return false;
    const sessionId = await ctx.app.reads.sessionIdOfTurn(id);
    return sessionId !== null && (await visible.Session!(sessionId, ctx));
  },
  // The session's rule; the loader also hides context-only rows from readers who cannot write.
  // Both id forms: `<session>:<message uuid>` and the old positional `<session>:<seq>`.
  Message: async (id, ctx) => {
    const ref = parseMessageLocalId(id);
    return ref !== null && (await visible.Session!(ref.sessionId, ctx));
  },
  // Session.recalls: the session's write rule (owner or admin), through the recall's session.
  Recall: async (id, ctx) => {
    if (!UUID.test(id)) return false;
    const sessionId = await ctx.app.reads.sessionIdOfRecall(id);
    if (!sessionId) return false;
    const session = await ctx.app.reads.readableSessionRow(ctx.viewer, sessionId);
    return session !== null && can(ctx.viewer, 'readContext', session);
  },
  // Session.queuedMessages: like recalls, the session's owner or an admin.
  QueuedMessage: async (id, ctx) => {
    if (!UUID.test(id)) return false;
    const sessionId = await ctx.app.reads.sessionIdOfQueuedMessage(id);
    if (!sessionId) return false;
    const session = await ctx.app.reads.readableSessionRow(ctx.viewer, sessionId);
    return session !== null && can(ctx.viewer, 'readContext', session);
  },
  // viewer.user and Session.owner: yourself, and the owners of sessions you may read (everyone for an admin).
  User: async (id, ctx) => UUID.test(id) && (await ctx.app.reads.userVisible(ctx.viewer, id)),
  // An API key: its user, and whoever manages users (never the key itself, only its prefix and dates).
  ApiKey: async (id, ctx) => {
    if (!UUID.test(id)) return false;
    const owner = await ctx.app.reads.userIdOfApiKey(id);
    return (
      owner !== null && (can(ctx.viewer, 'manageUsers') || (ctx.viewer.authEnabled && owner === ctx.viewer.userId))
    );
  },
  // profiles: every authenticated caller sees every profile, systemPrompt included.
  Profile: async (id, ctx) => UUID.test(id) && (await ctx.app.reads.profileExists(id)),
};

export const nodeTypesWithPolicy = Object.keys(visible);

function parse(raw: string): { typename: string; id: string } | null {
  try {
    const decoded = decodeGlobalID(raw);
    return Object.hasOwn(visible, decoded.typename) ? decoded : null;
  } catch {
    return null;
  }
}

/** Prisma's "record not found": the node went away between the check and the load. */
const isGone = (error: unknown) => (error as { code?: string } | null)?.code === 'P2025';

builder.queryField('node', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: builder.nodeInterfaceRef(),
    nullable: true,
    description:
      'Any Node by its global id. An id the caller may not see, ' +
      'a missing or deleted one and a malformed one all answer null, with no error.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx, info) => {
      const target = parse(String(args.id));
      if (!target || !(await visible[target.typename]!(target.id, ctx))) return null;
      try {
        const [node] = await resolveNodes(builder, ctx, info, [target]);
        // Turn and Message loaders answer an Error for what they will not show.
        return node instanceof Error ? null : (node ?? null);
      } catch (error) {
        if (isGone(error)) return null;
        throw error;
      }
    },
  }),
);
