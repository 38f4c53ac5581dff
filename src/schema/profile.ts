import { builder } from './builder.js';

export const ProfileRef = builder.prismaNode('Profile', {
  id: { field: 'id' },
  findUnique: (id) => ({ id }),
  fields: (t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    provider: t.exposeString('provider'),
    model: t.exposeString('model'),
    systemPrompt: t.exposeString('systemPrompt'),
    contextWindow: t.exposeInt('contextWindow'),
    compressionKeepRecent: t.exposeInt('compressionKeepRecent'),
    compressionMaxTokens: t.exposeInt('compressionMaxTokens'),
    vision: t.exposeBoolean('vision'),
    planning: t.exposeBoolean('planning'),
    providerExtensions: t.exposeBoolean('providerExtensions', {
      description:
        'Whether fields beyond the core chat-completions request (prompt_cache_key) go to an OpenAI-compatible ' +
        'server; false for strict servers that refuse them.',
    }),
    retentionDays: t.exposeInt('retentionDays', {
      nullable: true,
      description:
        'Sessions of this profile inactive for more than this many days are deleted; ' +
        'null = SESSION_RETENTION_DAYS, 0 = never.',
    }),
  }),
});

builder.queryField('profiles', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: ['Profile'],
    resolve: (query, _root, _args, ctx) => ctx.app.reads.profiles(query),
  }),
);

const UpsertProfileInput = builder.inputType('UpsertProfileInput', {
  fields: (t) => ({
    key: t.string({ required: true }),
    name: t.string({ required: true }),
    provider: t.string(),
    model: t.string({ required: true }),
    systemPrompt: t.string(),
    contextWindow: t.int(),
    compressionKeepRecent: t.int(),
    compressionMaxTokens: t.int(),
    compressionPrompt: t.string(),
    vision: t.boolean(),
    planning: t.boolean(),
    providerExtensions: t.boolean({
      description: 'false = send only the core chat-completions fields (no prompt_cache_key); left out = unchanged.',
    }),
    retentionDays: t.int({
      description:
        'Overrides SESSION_RETENTION_DAYS for this profile (0 = keep forever); null = the global setting; ' +
        'left out = unchanged.',
    }),
  }),
});

builder.mutationField('upsertProfile', (t) =>
  // A plain field: Profile has no relations, so there is no selection to spread into the write.
  t.withAuth({ admin: true }).field({
    type: ProfileRef,
    args: { input: t.arg({ type: UpsertProfileInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.app.profiles.upsert(input),
  }),
);
