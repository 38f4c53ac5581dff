import { builder } from './builder.js';

export const UserRef = builder.prismaNode('User', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({ name: t.exposeString('name') }),
});

const ViewerRef = builder.objectRef<{ ok: true }>('Viewer').implement({
  fields: (t) => ({
    user: t.prismaField({
      type: 'User',
      nullable: true,
      resolve: (query, _root, _args, ctx) =>
        ctx.viewer?.authEnabled && ctx.viewer.userId ? ctx.app.reads.user(ctx.viewer.userId, query) : null,
    }),
    isAdmin: t.boolean({ resolve: (_r, _a, ctx) => ctx.viewer?.isAdmin ?? false }),
    authEnabled: t.boolean({ resolve: (_r, _a, ctx) => ctx.app.settings.authEnabled }),
    permissions: t.stringList({ resolve: (_r, _a, ctx) => ctx.viewer?.permissions ?? [] }),
  }),
});

builder.queryField('viewer', (t) =>
  t.withAuth({ authenticated: true }).field({ type: ViewerRef, resolve: () => ({ ok: true as const }) }),
);
