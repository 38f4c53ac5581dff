/**
 * Raw-history index: the exact messages a compression demotes, written
 * verbatim to memory_chunks, and searched without any external model —
 * pg_trgm word similarity when the extension is there, else word overlap
 * over ILIKE. Idempotent by UNIQUE(session_id, content_hash).
 */
import type { MemoryChunkInput } from '../domain/export.js';
import { createHash } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import { extractEntities, mergeBreadcrumbs } from '../domain/entities.js';
import type { ChatMessage } from '../domain/types.js';

/** Chunks stay small enough to inject as an excerpt and to rank meaningfully. */
export const CHUNK_MAX_CHARS = 4_000;
export const MAX_QUERY_WORDS = 8;

export interface ChunkDraft {
  content: string;
  turnStart: number;
  turnEnd: number;
  firstAt: Date;
  lastAt: Date;
}

export interface MemoryHit extends MemoryChunkInput {
  id: string;
  sessionId: string;
  score: number;
}

function label(m: ChatMessage): string {
  if (m.role === 'tool') return `TOOL RESULT${m.name ? ` (${m.name})` : ''}`;
  return m.role.toUpperCase();
}

function render(m: ChatMessage): string {
  const calls = m.toolCalls.map((c) => `\n→ ${c.name}(${JSON.stringify(c.arguments ?? {})})`).join('');
  return `${label(m)}: ${m.content}${calls}`;
}

/** Whether a demoted row is original history (not a summary, a copy or a provider carrier). */
export function isIndexable(m: ChatMessage): boolean {
  return !m.isSummary && !m.isCompression && m.metadata.contextCopyOf === undefined && m.metadata.nativeCompaction !== true;
}

/**
 * Consecutive messages packed into chunks of at most CHUNK_MAX_CHARS, each
 * message's content verbatim; a single longer message is split into pieces.
 * turnStart/turnEnd are the sequence numbers the chunk spans.
 */
export function chunkMessages(messages: readonly ChatMessage[], maxChars: number = CHUNK_MAX_CHARS): ChunkDraft[] {
  const out: ChunkDraft[] = [];
  let parts: string[] = [];
  let span: ChatMessage[] = [];
  let size = 0;
  const flush = () => {
    if (parts.length === 0) return;
    const at = span.map((m) => m.createdAt.getTime());
    out.push({
      content: parts.join('\n\n'),
      turnStart: Math.min(...span.map((m) => m.sequenceNumber)),
      turnEnd: Math.max(...span.map((m) => m.sequenceNumber)),
      firstAt: new Date(Math.min(...at)),
      lastAt: new Date(Math.max(...at)),
    });
    parts = [];
    span = [];
    size = 0;
  };
  for (const m of [...messages].sort((a, b) => a.sequenceNumber - b.sequenceNumber)) {
    const text = render(m);
    if (size > 0 && size + text.length + 2 > maxChars) flush();
    if (text.length <= maxChars) {
      parts.push(text);
      span.push(m);
      size += text.length + 2;
      continue;
    }
    for (let i = 0; i < text.length; i += maxChars) {
      parts.push(text.slice(i, i + maxChars));
      span.push(m);
      flush();
    }
  }
  flush();
  return out;
}

const STOPWORDS = new Set(
  'the and for are was were what which who whom this that these those with from into about have has had did does not you your our we they them then than there their when where why how can could would should will shall may might been being its let lets please also just any all some'.split(' '),
);

/** Distinct lower-cased words of at least 3 characters, stopwords out, capped. */
export function queryWords(query: string): string[] {
  const words = (query.toLowerCase().match(/[\p{L}\p{N}_][\p{L}\p{N}_.\-/]*[\p{L}\p{N}_]|[\p{L}\p{N}_]/gu) ?? []).filter(
    (w) => w.length >= 3 && !STOPWORDS.has(w),
  );
  return [...new Set(words)].slice(0, MAX_QUERY_WORDS);
}

const likePattern = (w: string) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Which sessions a search covers: given ids, one owner's sessions, or every session (admin). */
export type MemoryScope = { sessionIds: string[] } | { userId: string } | { owned: true } | { all: true };

export class MemoryIndex {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly trigram: boolean,
  ) {}

  /** Writes the demoted messages; returns how many chunks were new. */
  async indexDemoted(sessionId: string, demoted: readonly ChatMessage[], keys: readonly string[]): Promise<number> {
    const drafts = chunkMessages(demoted.filter(isIndexable));
    if (drafts.length === 0) return 0;
    const result = await this.prisma.memoryChunk.createMany({
      data: drafts.map((d) => ({
        sessionId,
        content: d.content,
        contentHash: createHash('sha256').update(d.content).digest('hex'),
        breadcrumbs: mergeBreadcrumbs(keys, extractEntities(d.content)),
        turnStart: d.turnStart,
        turnEnd: d.turnEnd,
        firstAt: d.firstAt,
        lastAt: d.lastAt,
      })),
      skipDuplicates: true,
    });
    return result.count;
  }

  /**
   * Best chunks of the given sessions for `query`, score in [0, 1]: with
   * pg_trgm the mean of word_similarity(query, content) and the share of query
   * words present; without it the share alone. Candidates are rows containing
   * at least one query word (an ILIKE the trigram GIN index serves).
   */
  async search(input: {
    scope: MemoryScope;
    query: string;
    first: number;
    minScore?: number;
    excludeIds?: string[];
    trigram?: boolean;
  }): Promise<MemoryHit[]> {
    const words = queryWords(input.query);
    if (words.length === 0 || input.first <= 0) return [];
    if ('sessionIds' in input.scope && input.scope.sessionIds.length === 0) return [];
    const params: unknown[] = [];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const scope =
      'sessionIds' in input.scope
        ? `session_id = ANY(${p(input.scope.sessionIds)}::uuid[])`
        : 'owned' in input.scope
          ? 'session_id IN (SELECT id FROM sessions WHERE user_id IS NOT NULL)'
          : 'userId' in input.scope
          ? `session_id IN (SELECT id FROM sessions WHERE user_id = ${p(input.scope.userId)})`
          : 'TRUE';
    const likes = words.map((w) => `content ILIKE ${p(likePattern(w))}`);
    const share = `((${likes.map((l) => `(CASE WHEN ${l} THEN 1 ELSE 0 END)`).join(' + ')})::float8 / ${words.length})`;
    const useTrigram = input.trigram ?? this.trigram;
    const exclude = input.excludeIds?.length ? `AND id <> ALL(${p(input.excludeIds)}::uuid[])` : '';
    // Cheap word-share ranking picks a bounded candidate set; word_similarity only runs on those.
    const candidates = p(Math.max(50, input.first * 20));
    const score = useTrigram ? `((word_similarity(${p(input.query.slice(0, 1000))}, c.content)::float8 + c.share) / 2)` : 'c.share';
    const min = p(input.minScore ?? 0);
    const limit = p(input.first);
    const rows = await this.prisma.$queryRawUnsafe<MemoryHit[]>(
      `SELECT * FROM (
         SELECT c.id, c.session_id AS "sessionId", c.content, c.breadcrumbs, c.turn_start AS "turnStart", c.turn_end AS "turnEnd",
                c.first_at AS "firstAt", c.last_at AS "lastAt", ${score} AS score
           FROM (SELECT *, ${share} AS share FROM memory_chunks
                  WHERE ${scope} AND (${likes.join(' OR ')}) ${exclude}
                  ORDER BY share DESC, last_at DESC LIMIT ${candidates}) c
       ) r WHERE r.score >= ${min}
       ORDER BY r.score DESC, r."lastAt" DESC LIMIT ${limit}`,
      ...params,
    );
    return rows.map((r) => ({ ...r, score: Number(r.score) }));
  }
}
