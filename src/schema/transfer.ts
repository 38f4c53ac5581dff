/** Export and import: Session.export and importSession. */
import { builder } from './builder.js';
import { parseGlobalId } from './ids.js';
import { SessionRef } from './session.js';

const ExportFormatEnum = builder.enumType('ExportFormat', { values: ['MARKDOWN', 'JSON'] as const });

const ImportSessionInput = builder.inputType('ImportSessionInput', {
  fields: (t) => ({
    data: t.string({
      description:
        "JSON as produced by export(format: JSON), or ChatGPT's or Claude's conversations.json (this or file)",
    }),
    file: t.field({
      type: 'File',
      description:
        'The same JSON as an uploaded file (GraphQL multipart request), up to 64 MB: read and parsed off the ' +
        "server's event loop, the way to send a large export (this or data)",
    }),
    // A plain id: an empty one means the default profile, which the relay plugin would refuse.
    profileId: t.id(),
  }),
});

builder.prismaObjectFields(SessionRef, (t) => ({
  export: t.withAuth({ authenticated: true }).field({
    type: 'String',
    args: { format: t.arg({ type: ExportFormatEnum, required: true }) },
    resolve: async (s, args, ctx) => {
      const session = (await ctx.app.reads.session(s.id))!;
      return ctx.app.transfer.export(ctx.viewer, session, args.format);
    },
  }),
}));

builder.mutationField('importSession', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: SessionRef,
    args: { input: t.arg({ type: ImportSessionInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.app.transfer.import(ctx.viewer, {
        data: input.data ?? null,
        file: input.file ?? null,
        profileId: input.profileId ? parseGlobalId(String(input.profileId), 'Profile') : null,
      }),
  }),
);
