/** Session files: the SessionFile type, Session.files and uploadSessionFiles. */
import type { SessionFileEntry } from '../files/store.js';
import { BadInput } from '../store/errors.js';
import { builder } from './builder.js';
import { SessionRef } from './session.js';

interface SessionFileShape {
  sessionId: string;
  entry: Pick<SessionFileEntry, 'filename' | 'size' | 'contentType' | 'createdAt'>;
}

const fileUrl = (sessionId: string, filename: string) =>
  `/sessions/${encodeURIComponent(sessionId)}/files/${encodeURIComponent(filename)}`;

const SessionFileRef = builder.objectRef<SessionFileShape>('SessionFile').implement({
  fields: (t) => ({
    filename: t.string({ resolve: (f) => f.entry.filename }),
    size: t.int({ resolve: (f) => f.entry.size }),
    contentType: t.string({ resolve: (f) => f.entry.contentType }),
    url: t.string({
      description: "Download path, served with the caller's credentials",
      resolve: (f) => fileUrl(f.sessionId, f.entry.filename),
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (f) => f.entry.createdAt }),
  }),
});

builder.prismaObjectFields(SessionRef, (t) => ({
  files: t.field({
    type: [SessionFileRef],
    select: { id: true },
    resolve: async (s, _a, ctx) => (await ctx.app.files.list(s.id)).map((entry) => ({ sessionId: s.id, entry })),
  }),
}));

builder.mutationField('uploadSessionFiles', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [SessionFileRef],
    args: {
      sessionId: t.arg.globalID({ for: SessionRef, required: true }),
      files: t.arg({ type: ['File'], required: true }),
    },
    resolve: async (_root, args, ctx) => {
      const session = await ctx.app.sessions.writable(ctx.viewer, args.sessionId.id);
      if (args.files.length === 0) throw new BadInput('No files to upload');
      const saved = await ctx.app.files.saveUploads(session.id, args.files);
      return saved.map((entry) => ({ sessionId: session.id, entry }));
    },
  }),
);
