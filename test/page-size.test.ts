/** MAX_PAGE_SIZE below the schema's default page sizes: defaults are clamped, explicit sizes above the cap refused. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PageSizeCreateSessionDocument,
  PageSizeHistoryDocument,
  PageSizeSessionsDocument,
  PageSizeSessionsFirstDocument,
  PageSizeSessionsTotalFirstDocument,
} from './generated/graphql.js';
import { codeOf, createTestApp, dbKind, type TestContext } from './support/harness.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ maxPageSize: 5 });
});
afterAll(() => t.close());

const gid = (id: string) => Buffer.from(`Session:${id}`).toString('base64');

describe(`MAX_PAGE_SIZE=5 (${dbKind})`, () => {
  it('clamps the default session page and refuses an explicit larger one', async () => {
    for (let i = 0; i < 7; i++)
      expect((await t.gql(PageSizeCreateSessionDocument, { name: `s${i}` })).errors).toBeUndefined();
    const page = await t.gql(PageSizeSessionsDocument, {});
    expect(page.errors).toBeUndefined();
    expect(page.data!.sessions.totalCount).toBe(7);
    expect(page.data!.sessions.edges).toHaveLength(5);
    const viaUnsetVariable = await t.gql(PageSizeSessionsFirstDocument, {});
    expect(viaUnsetVariable.errors).toBeUndefined();
    expect(viaUnsetVariable.data!.sessions.edges).toHaveLength(5);
    const explicit = await t.gql(`{ sessions(first: 6) { totalCount } }`);
    expect(codeOf(explicit)).toBe('BAD_USER_INPUT');
    const explicitVariable = await t.gql(PageSizeSessionsTotalFirstDocument, { n: 6 });
    expect(codeOf(explicitVariable)).toBe('BAD_USER_INPUT');
  });

  it('clamps the default history page and refuses an explicit larger one', async () => {
    const profile = await t.app.profiles.default();
    const s = await t.app.store.create({ profileId: profile.id, userId: 'anonymous' });
    await t.app.store.append(
      s.id,
      Array.from({ length: 8 }, (_, i) => ({
        role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
        content: `m${i}`,
      })),
    );
    const page = await t.gql(PageSizeHistoryDocument, {
      id: gid(s.id),
    });
    expect(page.errors).toBeUndefined();
    expect(page.data!.session!.history.edges.map((e) => e.node.content)).toEqual(['m3', 'm4', 'm5', 'm6', 'm7']);
    const explicit = await t.gql(`query($id: ID!) { session(id: $id) { history(last: 6) { totalCount } } }`, {
      id: gid(s.id),
    });
    expect(codeOf(explicit)).toBe('BAD_USER_INPUT');
  });
});
