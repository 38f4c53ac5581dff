/**
 * The SQL of session search over display history, hot and archived: which sessions
 * match, and where (display positions + a snippet), from aggregates, never by
 * loading histories. Terms are literal (% _ \ match themselves) and
 * case-insensitive with Unicode folding.
 *
 * Matching is `content_folded LIKE lower(pattern)`: content_folded is the
 * stored lower(content) (migration 20261130000300), and PostgreSQL evaluates
 * `content ILIKE pattern` as exactly that, so the rows are the same, without
 * ILIKE's per-row lower() (six times the cost of the match). The trigram GIN
 * indexes on content_folded serve it when pg_trgm is installed.
 *
 * Two exact plans, chosen per query:
 * - index (rare terms, and terms with no trigram such as 1–2 characters):
 *   the trigram index finds every matching row, and that one statement
 *   returns, per matching session, its matching display positions; the page
 *   is the plain list restricted to those sessions, its positions are taken
 *   from what the match found (no second look at any session's rows, however
 *   long), and totalCount is the number of sessions.
 * - probe (terms in nearly every session): reading every matching row only to
 *   learn which sessions match is most of the heap, so each session is
 *   probed instead with an early-exit scan of its own display rows (the first
 *   match answers); the page walks the list order probing only until it is
 *   full, and totalCount probes every session, split in parts that run on
 *   separate pooled connections alongside the page.
 * The choice: a term none of ANALYZE's sampled values contains is rare
 * (index plan, no extra statement); otherwise a bounded sample of the
 * viewer's most recently active sessions decides. Both plans give the same
 * answers (test/search.test.ts compares them); only the cost differs.
 * The index plan ends with one lookup of each page session's first match
 * (the snippet) by (session_id, display_index); the probe plan with one
 * aggregate over the page's sessions (positions + snippet).
 *
 * totalCount is exact up to `countCap` sessions (SEARCH_COUNT_CAP); when more
 * match, it is the cap and totalCountIsExact is false (the probe plan's count
 * stops after cap + 1 sessions). Both plans apply the same rule.
 */
import type { Database } from '../db/client.js';
import { likePattern, snippetAround } from '../domain/search-text.js';
import { BadInput } from './errors.js';
import type { ListOptions, SessionQuery, SessionRow, SessionStore, Tx } from './sessions.js';

export interface SearchMatches {
  displayIndices: number[];
  snippet: string;
}

export interface SearchPage {
  rows: SessionRow[];
  hasNextPage: boolean;
  /** matching sessions, exact up to the count cap; the cap itself (a lower bound) beyond it; null uncounted */
  totalCount: number | null;
  /** false when more sessions than the cap match; null uncounted (`count: false`) */
  totalCountIsExact: boolean | null;
  matches: Map<string, SearchMatches>;
  /** which plan answered (for tests and the benchmark) */
  plan: 'index' | 'probe';
}

/** How the plan is chosen; the defaults suit the bench database and production alike. */
export interface SearchTuning {
  /** 'auto' samples; tests force either plan to compare them */
  plan: 'auto' | 'index' | 'probe';
  /** most recently active sessions sampled */
  sampleSize: number;
  /** rows per table a sample probe may read per session */
  sampleDepth: number;
  /** smallest sample that may choose the probe plan */
  minSample: number;
  /** share of sampled sessions that must match for the probe plan */
  denseShare: number;
  /** statements the probe plan's count is split into on a server (one on PGlite) */
  countParts: number;
  /** sessions counted exactly at most (SEARCH_COUNT_CAP): this changes answers, not only cost */
  countCap: number;
}

const STATS_TTL_MS = 60_000;
/** Display rows of a probe-plan page up to which positions are found by reading them (~0.4 µs a row). */
const PAGE_SCAN_ROWS = 20_000;
const DEFAULT_TUNING: SearchTuning = {
  plan: 'auto',
  sampleSize: 64,
  sampleDepth: 200,
  minSample: 16,
  denseShare: 0.9,
  countParts: 2,
  countCap: 10_000,
};

/**
 * The index plan's match statement: every display row matching the folded
 * pattern (the trigram index finds them), grouped per session into its
 * positions, joined to the sessions the viewer may list. A rare term's few
 * sessions are looked up by id (the planner, not knowing how few, would
 * hash-join every session). Exported for the benchmark's EXPLAIN.
 */
export function indexMatchSql(viewerSql: string, patternParam: string, rare: boolean): string {
  const rowsOf = (table: string) =>
    `SELECT session_id, display_index FROM ${table} WHERE display_index IS NOT NULL ` +
    `AND content_folded LIKE ${patternParam}`;
  return `WITH m AS MATERIALIZED (
      SELECT session_id, array_agg(display_index ORDER BY display_index) AS indices
        FROM (${rowsOf('session_messages')} UNION ALL ${rowsOf('session_messages_archive')}) x
       GROUP BY session_id)
    SELECT s.id, m.indices FROM sessions s JOIN m ON m.session_id = s.id
     WHERE ${viewerSql}${rare ? ' AND s.id = ANY(ARRAY(SELECT session_id FROM m))' : ''}`;
}

/**
 * The content of given display positions ($1 session ids, $2 positions, pairwise):
 * one (session_id, display_index) index lookup per pair, archive then hot.
 * Exported for the benchmark's EXPLAIN.
 */
export const CONTENT_AT_SQL = `SELECT p.id AS "sessionId", coalesce(
    (SELECT a.content FROM session_messages_archive a WHERE a.session_id = p.id AND a.display_index = p.ix),
    (SELECT h.content FROM session_messages h WHERE h.session_id = p.id AND h.display_index = p.ix)) AS content
  FROM unnest($1::uuid[], $2::int[]) AS p(id, ix)`;

/**
 * The per-session probe: does this session have a display row matching the
 * folded pattern? Archive first (older positions), then hot rows; each stops
 * at its first match. `IS TRUE` keeps the match a filter on the session's own
 * rows (idx_*_display) rather than a trigram bitmap per session.
 */
function probeSql(idSql: string, patternParam: string): string {
  return `coalesce(
    (SELECT true FROM session_messages_archive a WHERE a.session_id = ${idSql} AND a.display_index IS NOT NULL
        AND (a.content_folded LIKE ${patternParam}) IS TRUE LIMIT 1),
    (SELECT true FROM session_messages h WHERE h.session_id = ${idSql} AND h.display_index IS NOT NULL
        AND (h.content_folded LIKE ${patternParam}) IS TRUE LIMIT 1),
    false)`;
}

export class SearchStore {
  private readonly tuning: SearchTuning;
  private stats: { values: string[]; at: number } | undefined;

  constructor(
    private readonly db: Database,
    private readonly store: SessionStore,
    private readonly timeoutMs: number,
    tuning: Partial<SearchTuning> = {},
  ) {
    this.tuning = { ...DEFAULT_TUNING, ...tuning };
  }

  /**
   * Runs fn in a transaction whose statements are bounded by the search
   * timeout; fn also receives lower(term) as the database folds it (the same
   * first statement sets the timeout, so folding costs no round trip).
   */
  private async bounded<T>(fn: (tx: Tx, foldedTerm: string) => Promise<T>, term = '') {
    let timer: NodeJS.Timeout | undefined;
    // The server enforces statement_timeout; PGlite cannot interrupt a running
    // statement, so the caller is also answered by a timer of the same length.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new BadInput('Search timed out: try a longer or rarer term')),
        this.timeoutMs + 25,
      );
    });
    try {
      const run = this.db.prisma.$transaction(async (tx) => {
        // SET LOCAL, in one statement. No JIT: the probe plan's estimated cost
        // (a subplan per session) would otherwise buy ~0.5 s of compilation.
        const [row] = await tx.$queryRawUnsafe<{ folded: string }[]>(
          `SELECT set_config('statement_timeout', $1, true), set_config('jit', 'off', true), lower($2::text) AS folded`,
          String(Math.floor(this.timeoutMs)),
          term,
        );
        return fn(tx, row!.folded);
      });
      run.catch(() => undefined);
      const started = Date.now();
      const result = await Promise.race([run, deadline]);
      // Embedded PGlite runs on this thread and cannot be interrupted: enforce the bound after the fact.
      if (Date.now() - started > this.timeoutMs) throw new BadInput('Search timed out: try a longer or rarer term');
      return result;
    } catch (error) {
      if (error instanceof BadInput) throw error;
      if (
        String((error as Error).message).includes('statement timeout') ||
        (error as { code?: string }).code === '57014'
      ) {
        throw new BadInput('Search timed out: try a longer or rarer term');
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The planner's own sample of the folded text: ANALYZE's most common values
   * and histogram bounds of content_folded on both tables (~200 rows), read
   * at most once a minute. Empty when the tables were never analyzed.
   */
  private async statistics(tx: Tx): Promise<string[]> {
    if (this.stats && Date.now() - this.stats.at < STATS_TTL_MS) return this.stats.values;
    const rows = await tx.$queryRawUnsafe<{ v: string }[]>(
      `SELECT v FROM pg_stats st,
              unnest(coalesce(st.most_common_vals::text::text[], '{}') ` +
        `|| coalesce(st.histogram_bounds::text::text[], '{}')) v
        WHERE st.schemaname = current_schema() AND st.attname = 'content_folded'
          AND st.tablename IN ('session_messages', 'session_messages_archive')`,
    );
    this.stats = { values: rows.map((r) => r.v), at: Date.now() };
    return this.stats.values;
  }

  /**
   * Whether the probe plan should answer. A term that none of the planner's
   * sampled rows contains is rare: the index plan, at no cost. Otherwise (or
   * without statistics) a sample of the viewer's most recently active
   * sessions decides: probe when nearly all of them match within their first
   * rows. The sample's work is bounded by its LIMITs.
   */
  private async density(
    tx: Tx,
    options: Pick<ListOptions, 'viewer' | 'profileId'>,
    foldedTerm: string,
    folded: string,
  ): Promise<'rare' | 'sparse' | 'dense'> {
    if (this.tuning.plan !== 'auto') return this.tuning.plan === 'probe' ? 'dense' : 'sparse';
    const stats = await this.statistics(tx);
    if (stats.length > 0 && !stats.some((v) => v.includes(foldedTerm))) return 'rare';
    const { conditions, params, add } = this.store.listScope(options);
    const p = add(folded);
    const depth = add(this.tuning.sampleDepth);
    const firstRows = (table: string) =>
      `EXISTS (SELECT 1 FROM (SELECT t.content_folded FROM ${table} t WHERE t.session_id = o.id ` +
      `AND t.display_index IS NOT NULL
                 ORDER BY t.display_index LIMIT ${depth}) f WHERE f.content_folded LIKE ${p})`;
    const [row] = await tx.$queryRawUnsafe<{ sampled: number; hits: number }[]>(
      `SELECT count(*)::int AS sampled, count(*) FILTER (WHERE hit)::int AS hits
         FROM (SELECT ${firstRows('session_messages_archive')} OR ${firstRows('session_messages')} AS hit
                 FROM (SELECT s.id FROM sessions s WHERE ${conditions.join(' AND ')}
                        ORDER BY s.last_active DESC LIMIT ${add(this.tuning.sampleSize)}) o) x`,
      ...params,
    );
    return row!.sampled >= this.tuning.minSample && row!.hits >= this.tuning.denseShare * row!.sampled
      ? 'dense'
      : 'sparse';
  }

  /**
   * One page of sessions(search:) for a valid term: the plain list's order and pinned-first rule, totalCount
   * (exact up to the cap), matches per edge.
   */
  async search(options: Omit<ListOptions, 'ids' | 'probe'>, query: SessionQuery, term: string): Promise<SearchPage> {
    const concurrent = this.db.kind === 'postgres';
    const cap = this.tuning.countCap;
    const wanted = options.count !== false;
    const capped = (n: number) =>
      wanted
        ? { totalCount: Math.min(n, cap), totalCountIsExact: n <= cap }
        : { totalCount: null, totalCountIsExact: null };
    // The probe plan's count, split into parts (by a hash of the id) on
    // separate pooled connections of a server, runs alongside the page.
    let counting: Promise<number[]> | undefined;
    const page = await this.bounded(async (tx, foldedTerm) => {
      // lower() never turns a character into \, % or _: folding the escaped term is escaping the folded one.
      const folded = likePattern(foldedTerm);
      const density = await this.density(tx, options, foldedTerm, folded);
      if (density === 'dense') {
        const parts = concurrent ? Math.max(1, this.tuning.countParts) : 1;
        if (concurrent && wanted) {
          counting = Promise.all(
            Array.from({ length: parts }, (_, i) => this.bounded((t) => this.probeCount(t, options, folded, i, parts))),
          );
          counting.catch(() => undefined);
        }
        const listed = await this.store.list(
          { ...options, probe: (idSql, add) => probeSql(idSql, add(folded)) },
          query,
          tx,
        );
        const pageIds = listed.rows.map((r) => r.id);
        // A dense term's trigram posting lists are long: when the page's own
        // display rows are fewer, reading those beats intersecting with them.
        const [size] = pageIds.length
          ? await tx.$queryRawUnsafe<{ n: number }[]>(
              `SELECT coalesce(sum(display_count), 0)::int AS n FROM sessions WHERE id = ANY($1::uuid[])`,
              pageIds,
            )
          : [{ n: 0 }];
        const matches = await this.matchesIn(tx, pageIds, folded, term, size!.n <= PAGE_SCAN_ROWS);
        const counted = concurrent || !wanted ? capped(0) : capped(await this.probeCount(tx, options, folded, 0, 1));
        return { ...listed, matches, ...counted, plan: 'probe' as const };
      }
      const where = this.store.listWhere(options.viewer);
      const params: unknown[] = [...where.params, folded];
      const found = await tx.$queryRawUnsafe<{ id: string; indices: number[] }[]>(
        indexMatchSql(where.sql, `$${params.length}`, density === 'rare'),
        ...params,
      );
      const positions = new Map(found.map((r) => [r.id, r.indices]));
      const ids = [...positions.keys()];
      const listed = await this.store.list({ ...options, ids }, query, tx);
      // The match set already applied the viewer's filter: without a profile filter the count is its size.
      const counted = capped(
        options.profileId && wanted
          ? await this.store.count(options.viewer, options.profileId, ids, undefined, tx)
          : ids.length,
      );
      const firsts = listed.rows.map((r) => ({ id: r.id, indices: positions.get(r.id)! }));
      const contents = firsts.length
        ? await tx.$queryRawUnsafe<{ sessionId: string; content: string | null }[]>(
            CONTENT_AT_SQL,
            firsts.map((f) => f.id),
            firsts.map((f) => f.indices[0]!),
          )
        : [];
      const content = new Map(contents.map((r) => [r.sessionId, r.content]));
      const matches = new Map(
        firsts.map((f) => [f.id, { displayIndices: f.indices, snippet: snippetAround(content.get(f.id) ?? '', term) }]),
      );
      return { ...listed, ...counted, matches, plan: 'index' as const };
    }, term);
    if (counting) Object.assign(page, capped((await counting).reduce((a, b) => a + b, 0)));
    return page;
  }

  /**
   * The probe plan's count (one part of it, by a hash of the id, when split):
   * matching sessions the viewer may list, stopping after the cap + 1st.
   */
  private async probeCount(
    tx: Tx,
    options: Pick<ListOptions, 'viewer' | 'profileId'>,
    folded: string,
    part: number,
    parts: number,
  ): Promise<number> {
    const { conditions, params, add } = this.store.listScope(options);
    if (parts > 1) conditions.push(`(hashtext(s.id::text) & 2147483647) % ${add(parts)}::int = ${add(part)}::int`);
    conditions.push(probeSql('s.id', add(folded)));
    const [row] = await tx.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM sessions s WHERE ${conditions.join(' AND ')}
        LIMIT ${add(this.tuning.countCap + 1)}) c`,
      ...params,
    );
    return row?.n ?? 0;
  }

  /**
   * The probe plan's positions: for each session of a page, every matching
   * display position and a snippet around the first, in one statement. Content is read for the
   * matching rows only (trigram bitmap AND the page's sessions) and for the
   * first match of each session.
   */
  private async matchesIn(
    tx: Tx,
    sessionIds: string[],
    folded: string,
    term: string,
    scan = false,
  ): Promise<Map<string, SearchMatches>> {
    if (sessionIds.length === 0) return new Map();
    // scan: filter the page's display rows (idx_*_display) instead of a trigram bitmap AND.
    const like = scan ? '(content_folded LIKE $2) IS TRUE' : 'content_folded LIKE $2';
    const rows = await tx.$queryRawUnsafe<{ sessionId: string; indices: number[]; content: string | null }[]>(
      `WITH m AS (
         SELECT session_id, array_agg(display_index ORDER BY display_index) AS indices FROM (
           SELECT session_id, display_index FROM session_messages
            WHERE session_id = ANY($1::uuid[]) AND display_index IS NOT NULL AND ${like}
           UNION ALL
           SELECT session_id, display_index FROM session_messages_archive
            WHERE session_id = ANY($1::uuid[]) AND display_index IS NOT NULL AND ${like}
         ) x GROUP BY session_id)
       SELECT m.session_id AS "sessionId", m.indices, coalesce(
           (SELECT a.content FROM session_messages_archive a WHERE a.session_id = m.session_id ` +
        `AND a.display_index = m.indices[1]),
           (SELECT h.content FROM session_messages h WHERE h.session_id = m.session_id ` +
        `AND h.display_index = m.indices[1])) AS content
         FROM m`,
      sessionIds,
      folded,
    );
    return new Map(
      rows.map((r) => [r.sessionId, { displayIndices: r.indices, snippet: snippetAround(r.content ?? '', term) }]),
    );
  }
}
