/**
 * Raw-history index (its SQL; the chunking and terms are src/domain/memory-text.ts): the exact messages a compression
 * demotes, written verbatim to memory_chunks, and searched without any external model.
 * Idempotent by UNIQUE(session_id, content_hash). Each chunk names the message versions it came from, and a search
 * sees only chunks on the session's current path (`ON_PATH_SQL`): not an undone or edited-away exchange.
 *
 * Matching (see `MemoryIndex.search`): query terms are matched as words first —
 * the `search_vector` column (to_tsvector('simple') of the content with
 * punctuation as spaces, GIN-indexed) — and, when that finds fewer than the
 * requested number of chunks, as substrings (ILIKE, served by the pg_trgm
 * index when the extension is there). Ranking: pg_trgm word similarity and the
 * share of query terms present, or the share alone without pg_trgm.
 */
import type { MemoryChunkInput } from '../domain/export.js';
import { chunkMessages, isIndexable, likePattern, queryWords, termQuery } from '../domain/memory-text.js';
import { createHash } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Database } from '../db/client.js';
import type { SessionScope } from '../domain/policy.js';
import { scopeSql } from './session-lists.js';
import { extractEntities, mergeBreadcrumbs } from '../domain/entities.js';
import type { ChatMessage } from '../domain/types.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A chunk is on the current path when each message it was cut from is a row of its session (hot or archived): an
 * undone message sits in the redo stack and an edited-away one in a branch, so neither is a row. Chunks without ids
 * (written before migration 20261206000100) count as on the path.
 */
export const ON_PATH_SQL =
  `NOT EXISTS (
  SELECT 1 FROM unnest(message_ids) AS u(mid)
   WHERE NOT EXISTS (SELECT 1 FROM session_messages h WHERE h.session_id = memory_chunks.session_id ` +
  `AND h.message_id = u.mid)
     AND NOT EXISTS (SELECT 1 FROM session_messages_archive a WHERE a.session_id = memory_chunks.session_id ` +
  `AND a.message_id = u.mid))`;

export interface MemoryHit extends MemoryChunkInput {
  id: string;
  sessionId: string;
  score: number;
}

/**
 * How many candidates per requested hit are ranked with word_similarity (it reads each chunk whole: ~0.3 ms per 1.5 KB
 * chunk).
 */
const CANDIDATES_PER_HIT = 2;
const MIN_CANDIDATES = 10;

/** Which sessions a search covers: given ids, or a scope of the access policy (src/domain/policy.ts). */
export type MemoryScope = { sessionIds: string[] } | SessionScope;

export interface MemorySearchInput {
  scope: MemoryScope;
  query: string;
  first: number;
  minScore?: number;
  excludeIds?: string[];
  trigram?: boolean;
}

/** Which pass ran last (for tests and diagnostics). */
export type MemorySearchPass = 'words' | 'substrings';

export class MemoryIndex {
  /** The passes the last `search` ran, in order. */
  lastPasses: MemorySearchPass[] = [];

  constructor(
    private readonly prisma: PrismaClient,
    private readonly trigram: boolean,
  ) {}

  static over(db: Pick<Database, 'prisma'>, trigram: boolean): MemoryIndex {
    return new MemoryIndex(db.prisma, trigram);
  }

  /** Writes the demoted messages; returns how many chunks were new. */
  async indexDemoted(sessionId: string, demoted: readonly ChatMessage[], keys: readonly string[]): Promise<number> {
    const drafts = chunkMessages(demoted.filter(isIndexable));
    if (drafts.length === 0) return 0;
    const result = await this.prisma.memoryChunk.createMany({
      data: drafts.map((d) => ({
        sessionId,
        content: d.content,
        contentHash: sha256(d.content),
        breadcrumbs: mergeBreadcrumbs(keys, extractEntities(d.content)),
        turnStart: d.turnStart,
        turnEnd: d.turnEnd,
        messageIds: d.messageIds,
        firstAt: d.firstAt,
        lastAt: d.lastAt,
      })),
      skipDuplicates: true,
    });
    // The same text cut again from other message versions (an edit back to the same words, a re-run after redo)
    // belongs to the messages on the path now: the existing chunk takes their ids.
    await this.prisma.$executeRawUnsafe(
      `UPDATE memory_chunks m SET message_ids = d.ids
         FROM (SELECT x->>'hash' AS hash, ARRAY(SELECT jsonb_array_elements_text(x->'ids'))::uuid[] AS ids
                 FROM jsonb_array_elements($2::jsonb) AS x) d
        WHERE m.session_id = $1::uuid AND m.content_hash = d.hash AND m.message_ids <> d.ids`,
      sessionId,
      JSON.stringify(drafts.map((d) => ({ hash: sha256(d.content), ids: d.messageIds }))),
    );
    return result.count;
  }

  /**
   * Best chunks of the given sessions for `query`, score in [0, 1].
   *
   * Terms: `queryWords` (≥ 3 characters, stopwords out, at most 8). A term
   * occurs in a chunk as words (`termQuery`: word or word prefix,
   * punctuation-separated parts as consecutive words) or as a case-insensitive
   * substring of the content.
   *
   * Candidates, in two passes:
   *  1. words: chunks containing at least one term as words — a GIN probe of
   *     `search_vector`, sub-millisecond for a rare word;
   *  2. substrings, only when pass 1 leaves fewer than `first` hits (a partial
   *     word such as `ploy` for `deploy`, a term inside a longer token, a term
   *     without letters or digits): chunks containing a term as words or as a
   *     substring (ILIKE, which the pg_trgm GIN index serves). The answer is
   *     then both passes' hits merged, so it is a superset of pass 1's.
   *
   * Score: with pg_trgm the mean of word_similarity(query, content) and the
   * share of terms present; without it the share alone. Present means as
   * words in pass 1, as words or substrings in pass 2 (so a chunk both passes
   * find keeps pass 2's score, never lower). Each pass ranks at most
   * max(10, 2 × first) candidates with word_similarity, picked by share,
   * full-text rank (ts_rank), then recency; ties in score go to the most
   * recent chunk.
   */
  async search(input: MemorySearchInput): Promise<MemoryHit[]> {
    this.lastPasses = [];
    const words = queryWords(input.query);
    if (words.length === 0 || input.first <= 0) return [];
    if ('sessionIds' in input.scope && input.scope.sessionIds.length === 0) return [];
    const terms = words.map((w) => ({ word: w, tsquery: termQuery(w) }));
    let hits: MemoryHit[] = [];
    if (terms.some((t) => t.tsquery)) {
      this.lastPasses.push('words');
      hits = await this.pass(input, terms, 'words');
      if (hits.length >= input.first) return hits;
    }
    this.lastPasses.push('substrings');
    const more = await this.pass(input, terms, 'substrings');
    const byId = new Map(hits.map((h) => [h.id, h]));
    // The substring pass scores a chunk at least as high as the word pass (more terms count as present): keep the
    // higher.
    for (const h of more) if ((byId.get(h.id)?.score ?? -1) < h.score) byId.set(h.id, h);
    return [...byId.values()]
      .sort((a, b) => b.score - a.score || b.lastAt.getTime() - a.lastAt.getTime())
      .slice(0, input.first);
  }

  private async pass(
    input: MemorySearchInput,
    terms: { word: string; tsquery: string | null }[],
    pass: MemorySearchPass,
  ): Promise<MemoryHit[]> {
    const params: unknown[] = [];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const scope =
      'sessionIds' in input.scope
        ? `session_id = ANY(${p(input.scope.sessionIds)}::uuid[])`
        : `session_id IN (SELECT id FROM sessions WHERE ${scopeSql(input.scope, 'user_id', p)})`;
    // Only the substring pass binds the LIKE patterns (an unused parameter has no type).
    const likes = pass === 'substrings' ? terms.map((t) => `content ILIKE ${p(likePattern(t.word))}`) : [];
    // A term is present as words (cheap: the row's vector), or, in the substring pass only, as a substring.
    const present = terms.map((t, i) => {
      const asWords = t.tsquery ? `search_vector @@ to_tsquery('simple', ${p(t.tsquery)})` : null;
      if (pass === 'words') return asWords ?? 'FALSE';
      return asWords ? `(${asWords} OR ${likes[i]})` : likes[i];
    });
    const share =
      `((${present.map((x) => `(CASE WHEN ${x} THEN 1 ELSE 0 END)`).join(' + ')})` + `::float8 / ${terms.length})`;
    const anyWords = terms.flatMap((t) => (t.tsquery ? [t.tsquery] : [])).join(' | ');
    const tsq = anyWords ? `to_tsquery('simple', ${p(anyWords)})` : null;
    const match =
      pass === 'words'
        ? `search_vector @@ ${tsq}`
        : [...(tsq ? [`search_vector @@ ${tsq}`] : []), ...likes].join(' OR ');
    // No term as words: no rank key (a bare `0` in ORDER BY would be read as a column position).
    const rank = tsq ? `ts_rank(search_vector, ${tsq}) DESC, ` : '';
    const useTrigram = input.trigram ?? this.trigram;
    const exclude = input.excludeIds?.length ? `AND id <> ALL(${p(input.excludeIds)}::uuid[])` : '';
    // Cheap ranking (share, full-text rank) picks a bounded candidate set; word_similarity only runs on those.
    const candidates = p(Math.max(MIN_CANDIDATES, input.first * CANDIDATES_PER_HIT));
    const score = useTrigram
      ? `((word_similarity(${p(input.query.slice(0, 1000))}, c.content)::float8 + c.share) / 2)`
      : 'c.share';
    const min = p(input.minScore ?? 0);
    const limit = p(input.first);
    const rows = await this.prisma.$queryRawUnsafe<MemoryHit[]>(
      `SELECT * FROM (
         SELECT c.id, c.session_id AS "sessionId", c.content, c.breadcrumbs, ` +
        `c.turn_start AS "turnStart", c.turn_end AS "turnEnd",
                c.first_at AS "firstAt", c.last_at AS "lastAt", ${score} AS score
           FROM (SELECT id, session_id, content, breadcrumbs, turn_start, turn_end, ` +
        `first_at, last_at, ${share} AS share FROM memory_chunks
                  WHERE ${scope} AND (${match}) ${exclude} AND ${ON_PATH_SQL}
                  ORDER BY share DESC, ${rank}last_at DESC LIMIT ${candidates}) c
         OFFSET 0 -- a fence: without it the planner inlines r and computes word_similarity twice (filter and sort key)
       ) r WHERE r.score >= ${min}
       ORDER BY r.score DESC, r."lastAt" DESC LIMIT ${limit}`,
      ...params,
    );
    return rows.map((r) => ({ ...r, score: Number(r.score) }));
  }
}
