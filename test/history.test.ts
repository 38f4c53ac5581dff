import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeleteSessionDocument,
  HistoryPagingDocument,
  type HistoryPagingQuery,
  MessageNodeDocument,
  SessionPreviewsDocument,
} from './generated/graphql.js';
import { codeOf, createTestApp, dbKind, type GqlResult, type TestContext } from './support/harness.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const gid = (id: string) => Buffer.from(`Session:${id}`).toString('base64');

async function sessionWith(count: number, every = 5) {
  const profile = await t.app.profiles.default();
  const s = await t.app.store.create({ profileId: profile.id, userId: 'anonymous' });
  const rows = Array.from({ length: count }, (_, i) => ({
    role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant',
    content: `message ${i}`,
    // every `every`-th row is a context-only summary: never shown
    ...(i % every === every - 1 && {
      isDisplay: false,
      isSummary: true,
      role: 'user' as const,
      content: `summary ${i}`,
    }),
  }));
  for (let i = 0; i < rows.length; i += 100) await t.app.store.append(s.id, rows.slice(i, i + 100));
  return s.id;
}

const HISTORY = HistoryPagingDocument;
type HistoryEdge = NonNullable<HistoryPagingQuery['session']>['history']['edges'][number];

describe(`history paging (${dbKind})`, () => {
  it('pages forward and backward over hot and archived rows with no gap or duplicate', async () => {
    const id = await sessionWith(230);
    const moved = await t.app.store.archiveOldMessages(id, 97);
    expect(moved).toBe(97);
    const shown = Array.from({ length: 230 }, (_, i) => i).filter((i) => i % 5 !== 4);

    const forward: HistoryEdge[] = [];
    let after: string | null = null;
    for (;;) {
      const r: GqlResult<HistoryPagingQuery> = await t.gql(HISTORY, { id: gid(id), first: 17, after });
      expect(r.errors).toBeUndefined();
      forward.push(...r.data!.session!.history.edges);
      if (!r.data!.session!.history.pageInfo.hasNextPage) break;
      after = r.data!.session!.history.pageInfo.endCursor;
    }
    expect(forward.map((e) => e.node.sequenceNumber)).toEqual(shown);
    expect(forward.map((e) => e.displayIndex)).toEqual(shown.map((_, i) => i));
    expect(forward.some((e) => e.node.archived) && forward.some((e) => !e.node.archived)).toBe(true);

    const backward: HistoryEdge[] = [];
    let before: string | null = null;
    for (;;) {
      const r: GqlResult<HistoryPagingQuery> = await t.gql(HISTORY, { id: gid(id), last: 23, before });
      backward.unshift(...r.data!.session!.history.edges);
      if (!r.data!.session!.history.pageInfo.hasPreviousPage) break;
      before = r.data!.session!.history.pageInfo.startCursor;
    }
    expect(backward.map((e) => e.node.sequenceNumber)).toEqual(shown);
    const first = (await t.gql(HISTORY, { id: gid(id) })).data!.session!;
    expect(first.displayMessageCount).toBe(shown.length);
    expect(first.history.totalCount).toBe(shown.length);
    // default page is the newest one
    expect(first.history.edges.at(-1)!.node.sequenceNumber).toBe(shown.at(-1));
    expect(first.history.pageInfo.hasNextPage).toBe(false);
  });

  it('rejects out-of-range page sizes and malformed cursors', async () => {
    const id = await sessionWith(5);
    expect(codeOf(await t.gql(HISTORY, { id: gid(id), first: 201 }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(HISTORY, { id: gid(id), last: -2 }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(HISTORY, { id: gid(id), first: 2, last: 2 }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(HISTORY, { id: gid(id), first: 2, after: 'bogus!' }))).toBe('BAD_USER_INPUT');
  });

  it('resolves messages as nodes and the preview from the newest display row', async () => {
    const id = await sessionWith(9);
    const r = await t.gql(HISTORY, { id: gid(id), last: 1 });
    const node = r.data!.session!.history.edges[0]!.node;
    const again = await t.gql(MessageNodeDocument, { id: node.id });
    expect(again.data!.node).toEqual({ content: node.content, sequenceNumber: node.sequenceNumber });
    const list = await t.gql(SessionPreviewsDocument, {});
    const mine = list.data!.sessions.edges.find((e) => e.node.id === gid(id))!.node;
    expect(mine.preview).toBe('message 8');
  });

  it('appends with gapless sequence numbers under concurrent writers', async () => {
    const id = await sessionWith(0);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.app.store.append(id, [
          { role: 'user', content: `c${i}a` },
          { role: 'assistant', content: `c${i}b` },
        ]),
      ),
    );
    const all = await t.app.store.allMessages(id);
    expect(all.map((m) => m.sequenceNumber)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(all.map((m) => m.displayIndex)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    // each writer's pair stays adjacent
    for (let i = 0; i < 40; i += 2) expect(all[i]!.content.slice(0, -1)).toBe(all[i + 1]!.content.slice(0, -1));
  });

  it('rebuilds the context from is_context rows of both tables and flips the flag by sequence', async () => {
    const id = await sessionWith(12, 100);
    await t.app.store.archiveOldMessages(id, 4);
    await t.app.store.setContextFlag(id, [0, 1, 6], false);
    const context = await t.app.store.context(id);
    expect(context.map((m) => m.sequenceNumber)).toEqual([2, 3, 4, 5, 7, 8, 9, 10, 11]);
    const archived = await t.app.store.getArchivedMessages(id);
    expect(archived.map((m) => [m.sequenceNumber, m.isContext])).toEqual([
      [0, false],
      [1, false],
      [2, true],
      [3, true],
    ]);
    // archiving past the window keeps context rows hot
    const moved = await t.app.store.archiveBeyondWindow(id, 10);
    expect(moved).toBe(0);
  });

  it('deleting a session removes its rows in both tables', async () => {
    const id = await sessionWith(10);
    await t.app.store.archiveOldMessages(id, 5);
    await t.gql(DeleteSessionDocument, { id: gid(id) });
    expect(await t.app.db.prisma.sessionMessage.count({ where: { sessionId: id } })).toBe(0);
    expect(await t.app.db.prisma.sessionMessageArchive.count({ where: { sessionId: id } })).toBe(0);
  });
});
