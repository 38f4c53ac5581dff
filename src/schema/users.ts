/**
 * Key management (docs/security.md "Managing keys and users"): `users`, a user's `apiKeys`, createUser,
 * createApiKey, revokeApiKey, rotateApiKey, setUserDisabled. Admins only, with auth on (the policy's
 * `manageUsers`); a user sees their own keys (never the key itself: that is shown once, when made).
 */
import { keyStatus } from '../auth/keys.js';
import type { Context } from './builder.js';
import { builder } from './builder.js';
import { UserRef } from './viewer.js';

const ApiKeyStatusEnum = builder.enumType('ApiKeyStatus', {
  values: {
    ACTIVE: { description: 'accepted' },
    ROTATED: { description: 'accepted until expiresAt, the end of its rotation grace period; see replacedBy' },
    EXPIRED: { description: 'refused: expiresAt has passed' },
    REVOKED: { description: 'refused since revokedAt' },
  } as const,
});

/** The viewer themself (with auth on), else only a user manager. */
const selfOrManager = (user: { id: string }, _args: unknown, ctx: Context) =>
  ctx.viewer?.authEnabled && ctx.viewer.userId === user.id ? true : { manageUsers: true };

export const ApiKeyRef = builder.prismaNode('ApiKey', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    prefix: t.exposeString('prefix', {
      description: "the key's first characters, to recognise it by (the key itself is shown once, when made)",
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'the last request it authenticated, to the minute',
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'null = never' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    status: t.field({ type: ApiKeyStatusEnum, resolve: (key) => keyStatus(key) }),
    replacedBy: t.relation('replacedBy', { nullable: true, description: 'the key a rotation made to replace it' }),
    user: t.relation('user'),
  }),
});

builder.prismaObjectFields('User', (t) => ({
  createdAt: t.expose('createdAt', { type: 'DateTime', authScopes: selfOrManager }),
  isAdmin: t.exposeBoolean('isAdmin', { authScopes: selfOrManager }),
  permissions: t.exposeStringList('permissions', { authScopes: selfOrManager }),
  disabled: t.boolean({
    authScopes: selfOrManager,
    description: 'every credential of a disabled user is refused',
    resolve: (user) => user.disabledAt !== null,
  }),
  disabledAt: t.expose('disabledAt', { type: 'DateTime', nullable: true, authScopes: selfOrManager }),
  jwtIssuer: t.exposeString('jwtIssuer', {
    nullable: true,
    authScopes: selfOrManager,
    description: "set for a JWT identity (its token's issuer, '' without one); null for a user of API keys",
  }),
  apiKeys: t.relation('apiKeys', {
    authScopes: selfOrManager,
    description: 'newest first',
    query: { orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] },
  }),
}));

builder.queryField('users', (t) =>
  t.withAuth({ manageUsers: true }).prismaConnection(
    {
      type: 'User',
      cursor: 'id',
      description: 'Every user, by name (admins, with auth on)',
      resolve: (query, _root, _args, ctx) =>
        ctx.app.keys.listUsers(query as Parameters<typeof ctx.app.keys.listUsers>[0]),
    },
    { name: 'UserConnection' },
    { name: 'UserEdge' },
  ),
);

const NewApiKeyRef = builder.objectRef<{ key: string; record: { id: string } }>('NewApiKey').implement({
  fields: (t) => ({
    key: t.exposeString('key', { description: 'the key itself: shown this once, stored only as its hash' }),
    apiKey: t.prismaField({
      type: 'ApiKey',
      resolve: (query, parent, _args, ctx) => ctx.app.reads.apiKey(parent.record.id, query).then((k) => k!),
    }),
  }),
});

const CreateUserInput = builder.inputType('CreateUserInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    admin: t.boolean({ defaultValue: false }),
    permissions: t.stringList({ defaultValue: [] }),
    keyExpiresAt: t.field({ type: 'DateTime', description: 'when the first key expires; null = never' }),
  }),
});

builder.mutationField('createUser', (t) =>
  t.withAuth({ manageUsers: true }).field({
    type: NewApiKeyRef,
    description: 'A user of API keys and their first key (apiKey.user is the user)',
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const made = await ctx.app.keys.createUser(input.name, {
        admin: input.admin ?? false,
        permissions: input.permissions ?? [],
        expiresAt: input.keyExpiresAt ?? null,
      });
      return { key: made.key, record: made.record };
    },
  }),
);

builder.mutationField('createApiKey', (t) =>
  t.withAuth({ manageUsers: true }).field({
    type: NewApiKeyRef,
    args: {
      userId: t.arg.globalID({ for: UserRef, required: true }),
      expiresAt: t.arg({ type: 'DateTime', description: 'null = never' }),
    },
    resolve: (_root, args, ctx) => ctx.app.keys.createKey(args.userId.id, { expiresAt: args.expiresAt ?? null }),
  }),
);

builder.mutationField('revokeApiKey', (t) =>
  t.withAuth({ manageUsers: true }).prismaField({
    type: 'ApiKey',
    description: 'Refused from now on, on every server process; revoking a revoked key changes nothing',
    args: { id: t.arg.globalID({ for: ApiKeyRef, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const { record } = await ctx.app.keys.revoke(args.id.id);
      return (await ctx.app.reads.apiKey(record.id, query))!;
    },
  }),
);

const RotatedApiKeyRef = builder
  .objectRef<{ key: string; record: { id: string }; previous: { id: string } }>('RotatedApiKey')
  .implement({
    fields: (t) => ({
      key: t.exposeString('key', { description: 'the new key itself: shown this once, stored only as its hash' }),
      apiKey: t.prismaField({
        type: 'ApiKey',
        resolve: (query, parent, _args, ctx) => ctx.app.reads.apiKey(parent.record.id, query).then((k) => k!),
      }),
      previous: t.prismaField({
        type: 'ApiKey',
        description: 'the rotated key: accepted until its expiresAt (the end of the grace period), then refused',
        resolve: (query, parent, _args, ctx) => ctx.app.reads.apiKey(parent.previous.id, query).then((k) => k!),
      }),
    }),
  });

builder.mutationField('rotateApiKey', (t) =>
  t.withAuth({ manageUsers: true }).field({
    type: RotatedApiKeyRef,
    description:
      'A new key for the same user. The old key keeps working for graceSeconds ' +
      "(default API_KEY_ROTATION_GRACE_MINUTES), then expires. The new key keeps the old one's lifetime unless " +
      'expiresAt is given (null = never).',
    args: {
      id: t.arg.globalID({ for: ApiKeyRef, required: true }),
      graceSeconds: t.arg.int(),
      expiresAt: t.arg({ type: 'DateTime' }),
    },
    resolve: (_root, args, ctx) =>
      ctx.app.keys.rotate(args.id.id, {
        graceMs: args.graceSeconds == null ? undefined : args.graceSeconds * 1000,
        expiresAt: args.expiresAt === undefined ? undefined : args.expiresAt,
      }),
  }),
);

builder.mutationField('setUserDisabled', (t) =>
  t.withAuth({ manageUsers: true }).prismaField({
    type: 'User',
    description: "A disabled user's keys and tokens are refused, on every server process, until enabled again",
    args: {
      userId: t.arg.globalID({ for: UserRef, required: true }),
      disabled: t.arg.boolean({ required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const { user } = await ctx.app.keys.setDisabled(args.userId.id, args.disabled);
      return (await ctx.app.reads.user(user.id, query))!;
    },
  }),
);
