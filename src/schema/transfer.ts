/** Export and import: Session.export and importSession. */
import { builder } from './builder.js';
import { parseGlobalId } from './ids.js';
import { SessionRef } from './session.js';

const ExportFormatEnum = builder.enumType('ExportFormat', { values: ['MARKDOWN', 'JSON'] as const });

const ImportSessionInput = builder.inputType('ImportSessionInput', {
  fields: (t) => ({
    data: t.string({
      required: true,
      description: "JSON as produced by export(format: JSON), or ChatGPT's or Claude's conversations.json",
    }),
    // A plain id: an empty one means the default profile, which the relay plugin would refuse.
    profileId: t.id(),
  }),
});

const ImportSessionFileInput = builder.inputType('ImportSessionFileInput', {
  fields: (t) => ({
    file: t.field({
      type: 'File',
      required: true,
      description:
        'The JSON importSession takes, as an uploaded file (GraphQL multipart request), up to 64 MB: read and ' +
        "parsed off the server's event loop, the way to send a large export",
    }),
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

const profileOf = (id: string | number | null | undefined) => (id ? parseGlobalId(String(id), 'Profile') : null);

builder.mutationField('importSession', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: SessionRef,
    args: { input: t.arg({ type: ImportSessionInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.app.transfer.import(ctx.viewer, { data: input.data, profileId: profileOf(input.profileId) }),
  }),
);

builder.mutationField('importSessionFile', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: SessionRef,
    description: 'importSession with the export as an uploaded file (multipart): for large exports',
    args: { input: t.arg({ type: ImportSessionFileInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.app.transfer.import(ctx.viewer, { file: input.file, profileId: profileOf(input.profileId) }),
  }),
);
