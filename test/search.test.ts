import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { likePattern, snippetAround } from '../src/domain/search-text.js';
import type { SessionCursor } from '../src/store/sessions.js';
import {
  SearchCreateNamedSessionDocument,
  SearchHistoryContentsDocument,
  SearchSessionsDocument,
  type SearchSessionsQuery,
} from './generated/graphql.js';
import { createTestApp, dbKind, type GqlResult, type TestContext } from './support/harness.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ authEnabled: true });
});
afterAll(() => t.close());

const gid = (id: string) => Buffer.from(`Session:${id}`).toString('base64');

async function session(token: string, name: string, contents: (string | { content: string; isDisplay: false })[]) {
  const r = await t.gql(SearchCreateNamedSessionDocument, { n: name }, token);
  const id = Buffer.from(r.data!.createSession.id, 'base64').toString().split(':')[1]!;
  await t.app.store.append(
    id,
    contents.map(
      (c, i) =>
        (typeof c === 'string' ? { role: i % 2 ? 'assistant' : 'user', content: c } : { role: 'user', ...c }) as never,
    ),
  );
  return id;
}

const SEARCH = SearchSessionsDocument;
/** SearchStore's private bounded(): the search's statements under its timeout. */
interface Bounded {
  bounded<T>(fn: () => Promise<T>): Promise<T>;
}

async function history(token: string, id: string) {
  const r = await t.gql(SearchHistoryContentsDocument, { id: gid(id) }, token);
  return r.data!.session!.history.edges;
}

let alice: string;
let bob: string;
let hot: string;
let archived: string;
let both: string;

describe(`session search (${dbKind})`, () => {
  beforeAll(async () => {
    alice = (await t.app.auth.createUser('alice')).key;
    bob = (await t.app.auth.createUser('bob')).key;
    hot = await session(alice, 'hot only', ['nothing here', 'the Zebra crossing', 'more', 'zebra again']);
    archived = await session(alice, 'archived only', ['ZEBRA old', 'filler', 'filler', 'recent filler']);
    await t.app.store.archiveOldMessages(archived, 2);
    both = await session(alice, 'both', [
      'zebra one',
      'x',
      { content: 'zebra hidden summary', isDisplay: false },
      'y',
      'zebra two',
    ]);
    await t.app.store.archiveOldMessages(both, 2);
    await session(bob, 'bob zebra', ['zebra belongs to bob']);
  });

  it('finds hot, archived and mixed matches with positions equal to history display indices', async () => {
    const r = await t.gql(SEARCH, { q: 'zebra' }, alice);
    expect(r.errors).toBeUndefined();
    expect(r.data!.sessions.totalCount).toBe(3);
    for (const edge of r.data!.sessions.edges) {
      const id = Buffer.from(edge.node.id, 'base64').toString().split(':')[1]!;
      const h = await history(alice, id);
      const expected = h.filter((e) => e.node.content.toLowerCase().includes('zebra')).map((e) => e.displayIndex);
      expect(edge.matches!.displayIndices).toEqual(expected);
      expect(edge.matches!.snippet.toLowerCase()).toContain('zebra');
    }
    const byName = Object.fromEntries(r.data!.sessions.edges.map((e) => [e.node.name, e.matches!.displayIndices]));
    expect(byName).toEqual({ 'hot only': [1, 3], 'archived only': [0], both: [0, 3] });
  });

  it('never matches non-display rows and never reveals other users', async () => {
    const hidden = await t.gql(SEARCH, { q: 'hidden summary' }, alice);
    expect(hidden.data!.sessions.totalCount).toBe(0);
    const bobs = await t.gql(SEARCH, { q: 'zebra' }, bob);
    expect(bobs.data!.sessions.edges.map((e) => e.node.name)).toEqual(['bob zebra']);
    const aliceForBob = await t.gql(SEARCH, { q: 'belongs to bob' }, alice);
    expect(aliceForBob.data!.sessions.totalCount).toBe(0);
  });

  it('treats % _ and \\ literally', async () => {
    await session(alice, 'literal', ['100% sure', 'a_b', 'c\\d', 'plain 100 percent', 'axb']);
    const pct = await t.gql(SEARCH, { q: '100%' }, alice);
    expect(pct.data!.sessions.edges.map((e) => e.matches!.displayIndices)).toEqual([[0]]);
    const under = await t.gql(SEARCH, { q: 'a_b' }, alice);
    expect(under.data!.sessions.edges[0]!.matches!.displayIndices).toEqual([1]);
    const backslash = await t.gql(SEARCH, { q: 'c\\d' }, alice);
    expect(backslash.data!.sessions.edges[0]!.matches!.displayIndices).toEqual([2]);
    expect(likePattern('50%_\\')).toBe('%50\\%\\_\\\\%');
  });

  it('answers a clear BAD_USER_INPUT for a term too long or holding NUL', async () => {
    const nul = await t.gql(SEARCH, { q: 'a\u0000b' }, alice);
    expect(nul.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(nul.errors?.[0]?.message).toContain('NUL');
    const long = await t.gql(SEARCH, { q: 'x'.repeat(201) }, alice);
    expect(long.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('folds Unicode case (Cyrillic, Greek, accents) and answers 1–2 character terms', async () => {
    await session(alice, 'unicode', ['ПРИВЕТ мир', 'ΣΟΦΊΑ', 'Ãçé', 'ok']);
    expect((await t.gql(SEARCH, { q: 'привет' }, alice)).data!.sessions.edges[0]!.matches!.displayIndices).toEqual([0]);
    expect((await t.gql(SEARCH, { q: 'σοφία' }, alice)).data!.sessions.edges[0]!.matches!.displayIndices).toEqual([1]);
    expect((await t.gql(SEARCH, { q: 'ãÇÉ' }, alice)).data!.sessions.edges[0]!.matches!.displayIndices).toEqual([2]);
    const two = await t.gql(SEARCH, { q: 'ok' }, alice);
    expect(two.data!.sessions.edges.find((e) => e.node.name === 'unicode')!.matches!.displayIndices).toEqual([3]);
    const one = await t.gql(SEARCH, { q: 'Ã' }, alice);
    expect(one.data!.sessions.totalCount).toBeGreaterThanOrEqual(1);
    expect(snippetAround('x'.repeat(100) + 'ПРИВЕТ' + 'y'.repeat(100), 'привет')).toMatch(/^…x+ПРИВЕТy+…$/);
  });

  it('pages search results without gaps or duplicates', async () => {
    for (let i = 0; i < 5; i++) await session(alice, `pager ${i}`, ['needle-page']);
    const seen: (string | null)[] = [];
    let after: string | null = null;
    for (;;) {
      const r: GqlResult<SearchSessionsQuery> = await t.gql(SEARCH, { q: 'needle-page', first: 2, after }, alice);
      expect(r.data!.sessions.totalCount).toBe(5);
      seen.push(...r.data!.sessions.edges.map((e) => e.node.name));
      if (!r.data!.sessions.pageInfo.hasNextPage) break;
      after = r.data!.sessions.pageInfo.endCursor;
    }
    expect(seen.sort()).toEqual(['pager 0', 'pager 1', 'pager 2', 'pager 3', 'pager 4']);
  });

  it('bounds the worst case with a statement timeout and a clear error', async () => {
    const { SearchStore } = await import('../src/store/search.js');
    const slow = new SearchStore(t.app.db, t.app.store, 1);
    // pg_sleep in a bounded statement (RawDriver.boundedQuery) proves the timeout is applied
    await t.app.db.raw.exec(
      'CREATE OR REPLACE FUNCTION slow_ilike(a text, b text) RETURNS boolean ' +
        'AS $$ SELECT pg_sleep(0.05) IS NOT NULL AND a ILIKE b $$ LANGUAGE sql',
    );
    await expect(
      (slow as unknown as Bounded).bounded(() =>
        t.app.db.raw.boundedQuery(`SELECT count(*) FROM session_messages WHERE slow_ilike(content, '%x%')`, [], 1),
      ),
    ).rejects.toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringMatching(/timed out/) });
  });
});

/** One page of SearchService.search, as the plans are compared. */
type SearchPage = {
  totalCount: number;
  hasNextPage: boolean;
  edges: { id: string; pinned: boolean; matches: unknown }[];
};

describe(`session search: the index and probe plans give the same answers (${dbKind})`, () => {
  let carol: string;
  let viewer: { userId: string; userName: string; isAdmin: boolean; permissions: string[]; authEnabled: boolean };
  const ids: string[] = [];

  beforeAll(async () => {
    const created = await t.app.auth.createUser('carol');
    carol = created.key;
    viewer = { userId: created.user.id, userName: 'carol', isAdmin: false, permissions: [], authEnabled: true };
    // 24 sessions, all but one mention "Dense" (at varying depths, hot, archived or both; one only in a
    // hidden row), a few "sparse"; some pinned, some archived, names out of creation order.
    for (let i = 0; i < 24; i++) {
      const rows: (string | { content: string; isDisplay: false })[] = [];
      for (let j = 0; j < 4 + (i % 5); j++) rows.push(`filler ${i}.${j}`);
      if (i === 7) rows.push({ content: 'dense but hidden', isDisplay: false });
      else rows.splice(i % rows.length, 0, `a DENSE line ${i}`);
      if (i % 4 === 1) rows.push(`dense again and Sparse too ${i}`);
      if (i % 6 === 2) rows.push('ДЕНС dense ünïcode');
      const id = await session(carol, `plan ${(i * 7) % 24}`, rows);
      if (i % 3 === 0) await t.app.store.archiveOldMessages(id, 3);
      if (i % 5 === 0) await t.app.store.setPinned(id, true);
      ids.push(id);
    }
    await t.app.db.raw.exec('ANALYZE session_messages; ANALYZE session_messages_archive');
  });

  async function allPages(
    plan: 'auto' | 'index' | 'probe',
    term: string,
    orderBy: 'LAST_ACTIVE' | 'NAME',
    first: number,
  ) {
    const { SearchService } = await import('../src/search/service.js');
    const { SessionStore } = await import('../src/store/sessions.js');
    const { SearchStore } = await import('../src/store/search.js');
    const service = new SearchService(new SearchStore(t.app.db, t.app.store, 5000, { plan }));
    const pages: SearchPage[] = [];
    const plans = new Set<string>();
    let after: SessionCursor | undefined;
    for (;;) {
      const r = await service.search(
        { viewer, orderBy, direction: orderBy === 'NAME' ? 'ASC' : 'DESC', first, after },
        {},
        term,
      );
      plans.add(r.plan);
      pages.push({
        totalCount: r.totalCount!,
        hasNextPage: r.hasNextPage,
        edges: r.rows.map((row) => ({ id: row.id, pinned: row.pinned, matches: r.matches.get(row.id) ?? null })),
      });
      if (!r.hasNextPage) break;
      after = SessionStore.cursorOf(r.rows.at(-1)!, orderBy);
    }
    return { pages, plans: [...plans] };
  }

  it('agree on totalCount, order (pinned first), paging and positions for every term', async () => {
    for (const term of ['dense', 'DENSE line', 'sparse', 'денс', 'de', 'e', 'no such words']) {
      for (const [orderBy, first] of [
        ['LAST_ACTIVE', 5],
        ['NAME', 7],
        ['LAST_ACTIVE', 50],
      ] as const) {
        const index = await allPages('index', term, orderBy, first);
        const probe = await allPages('probe', term, orderBy, first);
        expect(index.plans).toEqual(['index']);
        expect(probe.plans).toEqual(['probe']);
        expect(probe.pages, `${term} ${orderBy} ${first}`).toEqual(index.pages);
      }
    }
    const dense = await allPages('index', 'dense', 'LAST_ACTIVE', 50);
    const [page] = dense.pages;
    expect(page!.totalCount).toBe(23);
    expect(page!.edges.map((e) => e.id)).not.toContain(ids[7]);
    expect(page!.edges.slice(0, 4).every((e) => e.pinned)).toBe(true);
  });

  it('chooses the probe plan for a term in nearly every session and the index plan otherwise', async () => {
    const auto = async (term: string) => (await allPages('auto', term, 'LAST_ACTIVE', 50)).plans;
    expect(await auto('dense')).toEqual(['probe']);
    expect(await auto('sparse')).toEqual(['index']);
    expect(await auto('no such words')).toEqual(['index']);
    // Through GraphQL (the app's service, auto plan): the same answer as the index plan.
    const viaGql = await t.gql(SEARCH, { q: 'dense', first: 50 }, carol);
    const index = (await allPages('index', 'dense', 'LAST_ACTIVE', 50)).pages[0]!;
    expect(viaGql.data!.sessions.totalCount).toBe(index.totalCount);
    expect(
      viaGql.data!.sessions.edges.map((e) => [Buffer.from(e.node.id, 'base64').toString().split(':')[1], e.matches]),
    ).toEqual(index.edges.map((e) => [e.id, e.matches]));
  });
});
