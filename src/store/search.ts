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
 *
 * At most three statements a search (test/search-statements.test.ts), none
 * of them a transaction's or a SET: the statements run on connections that
 * carry the search timeout and JIT off from their start (RawDriver.boundedQuery).
 * - index plan: [the sample] + ONE statement: the match, the viewer's
 *   matching sessions, their count, the page's rows, positions and each
 *   page session's first match (the snippet), by (session_id, display_index).
 * - probe plan: the sample + the page walk with the capped count + one
 *   aggregate over the page's sessions (positions + snippet).
 * A selection reaching relations (profile, contextWindow, cost) adds
 * Prisma's read of the page's rows by id, as the plain list does.
 *
 * totalCount is exact up to `countCap` sessions (SEARCH_COUNT_CAP); when more
 * match, it is the cap and totalCountIsExact is false (the probe plan's count
 * stops after cap + 1 sessions). Both plans apply the same rule.
 */
import type { Database } from '../db/client.js';
import { likePattern, snippetAround } from '../domain/search-text.js';
import { BadInput } from './errors.js';
import { keyset, SESSION_COLUMNS_OF_S } from './session-lists.js';
import type { ListOptions, SessionQuery, SessionRow, SessionStore } from './sessions.js';

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
  countCap: 10_000,
};

/**
 * The display rows matching a LIKE pattern ($n, not yet folded: lower() folds it as content_folded was folded, and
 * never turns a character into \, % or _, so folding the escaped term is escaping the folded one), grouped per
 * session into its positions. The trigram index finds them. Exported for the benchmark.
 */
export function matchRowsSql(patternParam: string): string {
  const rowsOf = (table: string) =>
    `SELECT session_id, display_index FROM ${table} WHERE display_index IS NOT NULL ` +
    `AND content_folded LIKE lower(${patternParam})`;
  return `SELECT session_id, array_agg(display_index ORDER BY display_index) AS indices
        FROM (${rowsOf('session_messages')} UNION ALL ${rowsOf('session_messages_archive')}) x
       GROUP BY session_id`;
}

/** The content of session `idSql`'s display position `ixSql`: one (session_id, display_index) lookup, archive first. */
const contentAt = (idSql: string, ixSql: string) => `coalesce(
    (SELECT a.content FROM session_messages_archive a WHERE a.session_id = ${idSql} AND a.display_index = ${ixSql}),
    (SELECT h.content FROM session_messages h WHERE h.session_id = ${idSql} AND h.display_index = ${ixSql}))`;

/**
 * The per-session probe: does this session have a display row matching the
 * pattern? Archive first (older positions), then hot rows; each stops
 * at its first match. `IS TRUE` keeps the match a filter on the session's own
 * rows (idx_*_display) rather than a trigram bitmap per session.
 */
function probeSql(idSql: string, patternParam: string): string {
  return `coalesce(
    (SELECT true FROM session_messages_archive a WHERE a.session_id = ${idSql} AND a.display_index IS NOT NULL
        AND (a.content_folded LIKE lower(${patternParam})) IS TRUE LIMIT 1),
    (SELECT true FROM session_messages h WHERE h.session_id = ${idSql} AND h.display_index IS NOT NULL
        AND (h.content_folded LIKE lower(${patternParam})) IS TRUE LIMIT 1),
    false)`;
}

type PageRow = Record<string, unknown> & { total: number | null; id: string | null };

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

  /** One statement of the search, on a connection bounded by the search timeout (RawDriver.boundedQuery). */
  private query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.db.raw.boundedQuery<T>(sql, params, this.timeoutMs);
  }

  /**
   * Runs the search's statements within the timeout: the server enforces statement_timeout per statement; PGlite
   * cannot interrupt a running statement, so the caller is also answered by a timer of the same length.
   */
  private async bounded<T>(fn: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = () => new BadInput('Search timed out: try a longer or rarer term');
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timedOut()), this.timeoutMs + 25);
    });
    try {
      const run = fn();
      run.catch(() => undefined);
      const started = Date.now();
      const result = await Promise.race([run, deadline]);
      // Embedded PGlite runs on this thread and cannot be interrupted: enforce the bound after the fact.
      if (Date.now() - started > this.timeoutMs) throw timedOut();
      return result;
    } catch (error) {
      if (error instanceof BadInput) throw error;
      if (
        String((error as Error).message).includes('statement timeout') ||
        (error as { code?: string }).code === '57014'
      ) {
        throw timedOut();
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Whether the probe plan should answer. A term that none of the planner's
   * sampled rows contains (ANALYZE's most common values and histogram bounds
   * of content_folded on both tables, ~200 rows, re-read at most once a
   * minute) is rare: the index plan, at no cost when they are fresh. Otherwise
   * (or without statistics) a sample of the viewer's most recently active
   * sessions decides: probe when nearly all of them match within their first
   * rows. One statement at most: a re-read of the statistics carries the
   * sample, which runs only when the term is in them (a CASE branch).
   */
  private async density(
    options: Pick<ListOptions, 'viewer' | 'profileId'>,
    term: string,
    pattern: string,
  ): Promise<'rare' | 'sparse' | 'dense'> {
    if (this.tuning.plan !== 'auto') return this.tuning.plan === 'probe' ? 'dense' : 'sparse';
    const fresh = this.stats && Date.now() - this.stats.at < STATS_TTL_MS ? this.stats.values : undefined;
    // A term folded here as the database would (only the plan's cost depends on it, never the answer).
    if (fresh && fresh.length > 0 && !fresh.some((v) => v.includes(term.toLowerCase()))) return 'rare';
    const { conditions, params, add } = this.store.listScope(options);
    const p = add(pattern);
    const depth = add(this.tuning.sampleDepth);
    const firstRows = (table: string) =>
      `EXISTS (SELECT 1 FROM (SELECT t.content_folded FROM ${table} t WHERE t.session_id = o.id ` +
      `AND t.display_index IS NOT NULL
                 ORDER BY t.display_index LIMIT ${depth}) f WHERE f.content_folded LIKE lower(${p}))`;
    const sample = `(SELECT ARRAY[count(*)::int, (count(*) FILTER (WHERE hit))::int]
         FROM (SELECT ${firstRows('session_messages_archive')} OR ${firstRows('session_messages')} AS hit
                 FROM (SELECT s.id FROM sessions s WHERE ${conditions.join(' AND ')}
                        ORDER BY s.last_active DESC LIMIT ${add(this.tuning.sampleSize)}) o) x)`;
    let counts: number[] | null;
    if (fresh) {
      [{ counts }] = (await this.query<{ counts: number[] }>(`SELECT ${sample} AS counts`, params)) as [
        { counts: number[] },
      ];
    } else {
      const t = add(term);
      const [row] = await this.query<{ stats: string[] | null; counts: number[] | null }>(
        `WITH st AS (SELECT v FROM pg_stats st,
              unnest(coalesce(st.most_common_vals::text::text[], '{}') ` +
          `|| coalesce(st.histogram_bounds::text::text[], '{}')) v
            WHERE st.schemaname = current_schema() AND st.attname = 'content_folded'
              AND st.tablename IN ('session_messages', 'session_messages_archive'))
         SELECT ARRAY(SELECT v FROM st) AS stats,
                CASE WHEN EXISTS (SELECT 1 FROM st) AND NOT EXISTS (SELECT 1 FROM st WHERE strpos(v, lower(${t})) > 0)
                     THEN NULL ELSE ${sample} END AS counts`,
        params,
      );
      this.stats = { values: row?.stats ?? [], at: Date.now() };
      counts = row?.counts ?? null;
      if (counts === null) return 'rare';
    }
    const [sampled = 0, hits = 0] = counts ?? [];
    return sampled >= this.tuning.minSample && hits >= this.tuning.denseShare * sampled ? 'dense' : 'sparse';
  }

  /**
   * One page of sessions(search:) for a valid term: the plain list's order and pinned-first rule, totalCount
   * (exact up to the cap), matches per edge.
   */
  async search(options: Omit<ListOptions, 'ids' | 'probe'>, query: SessionQuery, term: string): Promise<SearchPage> {
    const cap = this.tuning.countCap;
    const wanted = options.count !== false;
    const capped = (n: number | null) =>
      wanted
        ? { totalCount: Math.min(n ?? 0, cap), totalCountIsExact: (n ?? 0) <= cap }
        : { totalCount: null, totalCountIsExact: null };
    const pattern = likePattern(term);
    const page = await this.bounded(async () => {
      const density = await this.density(options, term, pattern);
      if (density === 'dense') {
        const { rows: found, total } = await this.probePage(options, pattern);
        const rows = found.slice(0, options.first);
        // A dense term's trigram posting lists are long: when the page's own
        // display rows are fewer, reading those beats intersecting with them.
        const size = rows.reduce((n, r) => n + Number(r.displayCount ?? 0), 0);
        const matches = await this.matchesIn(
          rows.map((r) => r.id),
          pattern,
          term,
          size <= PAGE_SCAN_ROWS,
        );
        return { rows, hasNextPage: found.length > options.first, matches, ...capped(total), plan: 'probe' as const };
      }
      const { rows: found, total, firsts } = await this.indexPage(options, pattern, density === 'rare');
      const rows = found.slice(0, options.first);
      const matches = new Map(
        rows.map((r) => {
          const first = firsts.get(r.id)!;
          return [r.id, { displayIndices: first.indices, snippet: snippetAround(first.content ?? '', term) }];
        }),
      );
      return { rows, hasNextPage: found.length > options.first, matches, ...capped(total), plan: 'index' as const };
    });
    const relations = Object.keys(query.include ?? {}).length > 0 || Object.keys(query.select ?? {}).length > 0;
    if (!relations || page.rows.length === 0) return page;
    // A selection reaching relations: Prisma reads the page's rows by id, in the statement's order.
    const full = new Map(
      (
        await this.store.byIds(
          page.rows.map((r) => r.id),
          query,
        )
      ).map((r) => [r.id, r]),
    );
    return { ...page, rows: page.rows.flatMap((r) => (full.has(r.id) ? [full.get(r.id)!] : [])) };
  }

  /**
   * The page's SQL pieces: the list scope (viewer, profile), the keyset past the cursor, order and limit, as the
   * plain list has them (src/store/session-lists.ts).
   */
  private pageParts(options: Omit<ListOptions, 'ids' | 'probe'>, pattern: string) {
    const { conditions, params, add } = this.store.listScope(options);
    const p = add(pattern);
    const keys: string[] = [];
    const { value, dir } = keyset(options, keys, add);
    const limit = add(options.first + 1);
    const order = (alias: string, sortValue: string) =>
      `ORDER BY ${alias}.pinned DESC, ${sortValue} ${dir}, ${alias}.id ${dir}`;
    return { scope: conditions.join(' AND '), keys, params, add, p, value, limit, order };
  }

  /** Statement rows → session rows (their extra columns dropped) and the count on the first row. */
  private static split(result: PageRow[]): { rows: SessionRow[]; total: number | null; extra: PageRow[] } {
    const total = result[0]?.total ?? null;
    const extra = result.filter((r) => r.id !== null && r.id !== undefined);
    const rows = extra.map((r) => {
      const { total: _t, sort_value: _s, indices: _i, first_match: _f, ...row } = r;
      return row as unknown as SessionRow;
    });
    return { rows, total: total === null ? null : Number(total), extra };
  }

  /**
   * The index plan in ONE statement: every matching display row (trigram index), grouped per session; the viewer's
   * matching sessions (a rare term's few looked up by id: the planner, not knowing how few, would hash-join every
   * session) and their count; the page of them, each with its positions and the content of its first match.
   */
  private async indexPage(
    options: Omit<ListOptions, 'ids' | 'probe'>,
    pattern: string,
    rare: boolean,
  ): Promise<{
    rows: SessionRow[];
    total: number | null;
    firsts: Map<string, { indices: number[]; content: string | null }>;
  }> {
    const { scope, keys, params, p, value, limit, order } = this.pageParts(options, pattern);
    const matching = rare ? 's.id = ANY(ARRAY(SELECT session_id FROM m))' : 's.id IN (SELECT session_id FROM m)';
    const listed = rare ? 's.id = ANY(ARRAY(SELECT id FROM v))' : 's.id IN (SELECT id FROM v)';
    const counted = options.count === false ? 'SELECT NULL::int AS total' : 'SELECT count(*)::int AS total FROM v';
    const result = await this.query<PageRow>(
      `WITH m AS MATERIALIZED (${matchRowsSql(p)}),
       v AS MATERIALIZED (SELECT s.id FROM sessions s WHERE ${scope} AND ${matching})
       SELECT c.total, p.*, m.indices, ${contentAt('p.id', 'm.indices[1]')} AS first_match
         FROM (${counted}) c
         LEFT JOIN LATERAL (
           SELECT ${SESSION_COLUMNS_OF_S}, ${value} AS sort_value FROM sessions s
            WHERE ${listed}${keys.map((k) => ` AND ${k}`).join('')}
            ${order('s', value)} LIMIT ${limit}) p ON true
         LEFT JOIN m ON m.session_id = p.id
        ${order('p', 'p.sort_value')}`,
      params,
    );
    const { rows, total, extra } = SearchStore.split(result);
    const firsts = new Map(
      extra.map((r) => [r.id!, { indices: r.indices as number[], content: (r.first_match as string | null) ?? null }]),
    );
    return { rows, total, firsts };
  }

  /**
   * The probe plan's page in ONE statement: the capped count (matching sessions the viewer may list, stopping after
   * the cap + 1st) and the list order walked, probing each session, until the page is full.
   */
  private async probePage(
    options: Omit<ListOptions, 'ids' | 'probe'>,
    pattern: string,
  ): Promise<{ rows: SessionRow[]; total: number | null }> {
    const { scope, keys, params, add, p, value, limit, order } = this.pageParts(options, pattern);
    const counted =
      options.count === false
        ? 'SELECT NULL::int AS total'
        : `SELECT count(*)::int AS total FROM (SELECT 1 FROM sessions s WHERE ${scope} AND ${probeSql('s.id', p)}
            LIMIT ${add(this.tuning.countCap + 1)}) n`;
    // The probe filters the ordered rows from outside (OFFSET 0 keeps it out of the subquery), so the LIMIT stops
    // the walk: only as many sessions are probed as the page needs.
    const result = await this.query<PageRow>(
      `SELECT c.total, p.* FROM (${counted}) c
         LEFT JOIN LATERAL (
           SELECT o.* FROM (SELECT ${SESSION_COLUMNS_OF_S}, ${value} AS sort_value FROM sessions s
              WHERE ${[scope, ...keys].join(' AND ')} ${order('s', value)} OFFSET 0) o
            WHERE ${probeSql('o.id', p)} LIMIT ${limit}) p ON true
        ${order('p', 'p.sort_value')}`,
      params,
    );
    const { rows, total } = SearchStore.split(result);
    return { rows, total };
  }

  /**
   * The probe plan's positions: for each session of a page, every matching
   * display position and a snippet around the first, in one statement. Content is read for the
   * matching rows only (trigram bitmap AND the page's sessions) and for the
   * first match of each session.
   */
  private async matchesIn(
    sessionIds: string[],
    pattern: string,
    term: string,
    scan = false,
  ): Promise<Map<string, SearchMatches>> {
    if (sessionIds.length === 0) return new Map();
    // scan: filter the page's display rows (idx_*_display) instead of a trigram bitmap AND.
    const like = scan ? '(content_folded LIKE lower($2)) IS TRUE' : 'content_folded LIKE lower($2)';
    const rows = await this.query<{ sessionId: string; indices: number[]; content: string | null }>(
      `WITH m AS (
         SELECT session_id, array_agg(display_index ORDER BY display_index) AS indices FROM (
           SELECT session_id, display_index FROM session_messages
            WHERE session_id = ANY($1::uuid[]) AND display_index IS NOT NULL AND ${like}
           UNION ALL
           SELECT session_id, display_index FROM session_messages_archive
            WHERE session_id = ANY($1::uuid[]) AND display_index IS NOT NULL AND ${like}
         ) x GROUP BY session_id)
       SELECT m.session_id AS "sessionId", m.indices, ${contentAt('m.session_id', 'm.indices[1]')} AS content
         FROM m`,
      [sessionIds, pattern],
    );
    return new Map(
      rows.map((r) => [r.sessionId, { displayIndices: r.indices, snippet: snippetAround(r.content ?? '', term) }]),
    );
  }
}
