/**
 * Session search over display history, hot and archived: which sessions
 * match, and where (display positions + a snippet), from aggregates, never by
 * loading histories. Terms are literal (% _ \ match themselves) and
 * case-insensitive with Unicode folding (ILIKE under a UTF-8 ctype); the
 * trigram GIN indexes serve ILIKE when pg_trgm is installed.
 */
import type { Database } from '../db/client.js';
import { BadInput } from '../store/errors.js';
import type { SessionStore, Viewer } from '../store/sessions.js';

export const MAX_TERM_LENGTH = 200;
const SNIPPET_RADIUS = 60;

export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function snippetAround(content: string, term: string): string {
  const at = content.toLocaleLowerCase().indexOf(term.toLocaleLowerCase());
  if (at < 0) return content.slice(0, SNIPPET_RADIUS * 2);
  const start = Math.max(0, at - SNIPPET_RADIUS);
  const end = Math.min(content.length, at + term.length + SNIPPET_RADIUS);
  return `${start > 0 ? '…' : ''}${content.slice(start, end)}${end < content.length ? '…' : ''}`.replace(/\s+/g, ' ');
}

export class SearchService {
  constructor(
    private readonly db: Database,
    private readonly store: SessionStore,
    private readonly timeoutMs: number,
  ) {}

  private validTerm(raw: string): string {
    const term = raw.trim();
    if (term.length > MAX_TERM_LENGTH) throw new BadInput(`search must be at most ${MAX_TERM_LENGTH} characters`);
    return term;
  }

  /** Runs fn in a transaction whose statements are bounded by the search timeout. */
  private async bounded<T>(fn: (tx: Parameters<Parameters<Database['prisma']['$transaction']>[0]>[0]) => Promise<T>) {
    let timer: NodeJS.Timeout | undefined;
    // The server enforces statement_timeout; PGlite cannot interrupt a running
    // statement, so the caller is also answered by a timer of the same length.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new BadInput('Search timed out: try a longer or rarer term')), this.timeoutMs + 25);
    });
    try {
      const run = this.db.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${Math.floor(this.timeoutMs)}`);
        return fn(tx);
      });
      run.catch(() => undefined);
      const started = Date.now();
      const result = await Promise.race([run, deadline]);
      // Embedded PGlite runs on this thread and cannot be interrupted: enforce the bound after the fact.
      if (Date.now() - started > this.timeoutMs) throw new BadInput('Search timed out: try a longer or rarer term');
      return result;
    } catch (error) {
      if (error instanceof BadInput) throw error;
      if (String((error as Error).message).includes('statement timeout') || (error as { code?: string }).code === '57014') {
        throw new BadInput('Search timed out: try a longer or rarer term');
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ids of the viewer's sessions whose display history contains the term. */
  async matchingSessions(viewer: Viewer, raw: string): Promise<Set<string>> {
    const term = this.validTerm(raw);
    const where = this.store.listWhere(viewer);
    const params: unknown[] = [...where.params, likePattern(term)];
    const p = `$${params.length}`;
    const rows = await this.bounded((tx) =>
      tx.$queryRawUnsafe<{ id: string }[]>(
        `SELECT s.id FROM sessions s
          WHERE ${where.sql} AND s.id IN (
            SELECT session_id FROM session_messages WHERE display_index IS NOT NULL AND content ILIKE ${p}
            UNION
            SELECT session_id FROM session_messages_archive WHERE display_index IS NOT NULL AND content ILIKE ${p})`,
        ...params,
      ),
    );
    return new Set(rows.map((r) => r.id));
  }

  /** For each session of a page: every matching display position and a snippet around the first. */
  async matchesFor(sessionIds: string[], raw: string): Promise<Map<string, { displayIndices: number[]; snippet: string }>> {
    const term = this.validTerm(raw);
    if (sessionIds.length === 0) return new Map();
    const pattern = likePattern(term);
    const positions = await this.bounded((tx) =>
      tx.$queryRawUnsafe<{ sessionId: string; indices: number[] }[]>(
        `SELECT session_id AS "sessionId", array_agg(display_index ORDER BY display_index) AS indices FROM (
           SELECT session_id, display_index FROM session_messages
            WHERE session_id = ANY($1::uuid[]) AND display_index IS NOT NULL AND content ILIKE $2
           UNION ALL
           SELECT session_id, display_index FROM session_messages_archive
            WHERE session_id = ANY($1::uuid[]) AND display_index IS NOT NULL AND content ILIKE $2
         ) m GROUP BY session_id`,
        sessionIds,
        pattern,
      ),
    );
    if (positions.length === 0) return new Map();
    // Content is read for the first match of each session only.
    const firsts = await this.db.prisma.$queryRawUnsafe<{ sessionId: string; content: string }[]>(
      `SELECT f.session_id AS "sessionId", coalesce(h.content, a.content) AS content
         FROM unnest($1::uuid[], $2::int[]) AS f(session_id, display_index)
         LEFT JOIN session_messages h ON h.session_id = f.session_id AND h.display_index = f.display_index
         LEFT JOIN session_messages_archive a ON a.session_id = f.session_id AND a.display_index = f.display_index`,
      positions.map((p) => p.sessionId),
      positions.map((p) => p.indices[0]),
    );
    const snippets = new Map(firsts.map((f) => [f.sessionId, snippetAround(f.content ?? '', term)]));
    return new Map(
      positions.map((p) => [p.sessionId, { displayIndices: p.indices, snippet: snippets.get(p.sessionId) ?? '' }]),
    );
  }
}
