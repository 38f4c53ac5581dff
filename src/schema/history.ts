/** Session.history: the display history connection, hot and archived rows seamlessly. */
import type { HistoryEdge, HistoryPage } from '../sessions/history-page.js';
import { builder } from './builder.js';
import { prefetchedHistory } from './history-prefetch.js';
import { MessageRef } from './message.js';
import { SessionRef } from './session.js';

const MessageConnectionRef = builder.connectionObject(
  {
    type: MessageRef,
    name: 'MessageConnection',
    fields: (t) => ({ totalCount: t.int({ resolve: (c) => (c as HistoryPage).totalCount }) }),
  },
  {
    name: 'MessageEdge',
    fields: (t) => ({
      displayIndex: t.int({
        description: '0-based position in the display history',
        resolve: (e) => (e as HistoryEdge).displayIndex,
      }),
    }),
  },
);

builder.prismaObjectFields(SessionRef, (t) => ({
  history: t.field({
    type: MessageConnectionRef,
    args: { first: t.arg.int(), after: t.arg.string(), last: t.arg.int(), before: t.arg.string() },
    description: 'Display history, hot and archived, oldest first. `last: N` is the newest page.',
    select: { id: true, displayCount: true },
    resolve: async (s, args, ctx, info): Promise<HistoryPage> =>
      prefetchedHistory(s, info) ?? ctx.app.reads.historyPage(s, args),
  }),
}));
