import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SessionsCreateSessionSummaryDocument,
  DeleteSessionDocument,
  SessionsPinnedListDocument,
  SessionsPinSessionDocument,
  SessionsRenameToXDocument,
  SessionsRenameSessionToBetaDocument,
  SessionsSessionByIdDocument,
  SessionsSessionOrderPageDocument,
  type SessionsSessionOrderPageQuery,
  SessionsSessionTotalDocument,
} from './generated/graphql.js';
import { createTestApp, codeOf, dbKind, type GqlResult, type TestContext } from './support/harness.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const CREATE = SessionsCreateSessionSummaryDocument;

describe(`sessions (${dbKind})`, () => {
  it('creates, renames (MANUAL), pins, lists pinned first and deletes', async () => {
    const a = await t.gql(CREATE, { name: 'alpha' });
    expect(a.errors).toBeUndefined();
    expect(a.data!.createSession).toMatchObject({
      name: 'alpha',
      titleSource: 'MANUAL',
      pinned: false,
      displayMessageCount: 0,
      preview: null,
    });
    const b = await t.gql(CREATE, {});
    expect(b.data!.createSession.titleSource).toBe('DEFAULT');
    const idA = a.data!.createSession.id;
    const idB = b.data!.createSession.id;

    const renamed = await t.gql(SessionsRenameSessionToBetaDocument, { id: idB });
    expect(renamed.data!.renameSession).toEqual({ name: 'beta', titleSource: 'MANUAL' });

    await t.gql(SessionsPinSessionDocument, { id: idA });
    const list = await t.gql(SessionsPinnedListDocument, {});
    expect(list.data!.sessions.totalCount).toBe(2);
    expect(list.data!.sessions.edges[0]!.node.id).toBe(idA);

    const del = await t.gql(DeleteSessionDocument, { id: idA });
    expect(del.data!.deleteSession.deletedSessionId).toBe(idA);
    const gone = await t.gql(SessionsSessionByIdDocument, { id: idA });
    expect(gone.data!.session).toBeNull();
  });

  it('rejects bad input with the contract codes and writes nothing', async () => {
    const before = await t.app.db.prisma.session.count();
    expect(codeOf(await t.gql(CREATE, { name: '   ' }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(CREATE, { name: 'x'.repeat(201) }))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(`{ session(id: "garbage") { id } }`))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(`mutation { renameSession(id: "U2Vzc2lvbjpub3BlLW5vcGU", name: "x") { id } }`))).toBe(
      'BAD_USER_INPUT',
    );
    const unknown = Buffer.from('Session:00000000-0000-4000-8000-000000000000').toString('base64');
    expect(codeOf(await t.gql(SessionsRenameToXDocument, { id: unknown }))).toBe('NOT_FOUND');
    expect(codeOf(await t.gql(`{ sessions(first: 500) { totalCount } }`))).toBe('BAD_USER_INPUT');
    expect(codeOf(await t.gql(`{ sessions(first: -1) { totalCount } }`))).toBe('BAD_USER_INPUT');
    expect(await t.app.db.prisma.session.count()).toBe(before);
  });

  it('pages the session list without gaps or duplicates in every order', async () => {
    for (let i = 0; i < 7; i++) await t.gql(CREATE, { name: `page-${i}` });
    for (const orderBy of ['LAST_ACTIVE', 'CREATED_AT', 'NAME'] as const) {
      for (const direction of ['ASC', 'DESC'] as const) {
        const seen: string[] = [];
        let after: string | null = null;
        for (;;) {
          const r: GqlResult<SessionsSessionOrderPageQuery> = await t.gql(SessionsSessionOrderPageDocument, {
            after,
            o: orderBy,
            d: direction,
          });
          expect(r.errors).toBeUndefined();
          seen.push(...r.data!.sessions.edges.map((e) => e.node.id));
          if (!r.data!.sessions.pageInfo.hasNextPage) break;
          after = r.data!.sessions.pageInfo.endCursor;
        }
        const total = (await t.gql(SessionsSessionTotalDocument, {})).data!.sessions.totalCount;
        expect(seen.length).toBe(total);
        expect(new Set(seen).size).toBe(total);
      }
    }
  });

  it(
    'reads the context the same through the driver as ' + 'through Prisma in a transaction, archived rows included',
    async () => {
      const created = await t.gql(CREATE, { name: 'context read' });
      const id = Buffer.from(created.data!.createSession.id, 'base64').toString('utf8').split(':').slice(1).join(':');
      const store = t.app.store;
      await store.append(id, [
        {
          role: 'user',
          content: 'first ünïcødé question',
          images: ['session_files/x/a.png'],
          files: ['notes.txt'],
          metadata: { contextNotice: 'n', nested: { a: [1, 2.5, null] } },
        },
        {
          role: 'assistant',
          content: 'answer',
          thinking: 'hmm',
          elapsedSeconds: 1.25,
          tokenCount: 42,
          toolCallCount: 1,
          toolCalls: [{ id: 'c1', name: 'tool', arguments: { q: 'x' } }],
        },
        { role: 'tool', content: 'result', toolCallId: 'c1', name: 'tool', isCompressionCritical: true },
        {
          role: 'assistant',
          content: 'Summary so far',
          isSummary: true,
          isDisplay: false,
          metadata: { contextOrder: 0.5 },
        },
        { role: 'system', content: 'a note', isAgentNote: true, isDisplay: false },
        { role: 'user', content: 'hidden from the model', isContext: false },
        { role: 'user', content: 'last question' },
      ]);
      await store.archiveOldMessages(id, 4);
      const direct = await store.context(id);
      const inTransaction = await store.transaction((tx) => store.context(id, tx));
      expect(direct.some((m) => m.archived)).toBe(true);
      expect(direct).toHaveLength(6);
      expect(direct).toEqual(inTransaction);
      expect(direct[1]!.createdAt).toBeInstanceOf(Date);
      expect(direct.find((m) => m.role === 'assistant' && !m.isSummary)).toMatchObject({
        elapsedSeconds: 1.25,
        tokenCount: 42,
        toolCalls: [{ id: 'c1', name: 'tool', arguments: { q: 'x' } }],
      });
    },
  );
});
