/**
 * Recall and the model's own access to compressed-away history:
 *  - turn context: when the context holds a summary, up to memoryRecallK
 *    verbatim excerpts above memoryRecallMinSimilarity are appended to the
 *    latest user message at request time (never stored); their ids go to
 *    session metadata `injected_chunk_ids` so a chunk is injected only once;
 *  - `memory_search`: the raw-history index as a server tool;
 *  - `read_spilled`: reads back a tool body that LOCAL compaction spilled.
 */
import type { CompressionDeps } from './deps.js';
import { isUserTurnStart } from '../domain/turns.js';
import type { RunContext } from '../turns/runner.js';
import type { ServerTool } from '../turns/tools.js';
import type { MemoryHit } from '../store/memory.js';
import { parseSessionMetadata } from '../domain/session-metadata.js';

export const RECALL_EXCERPT_CHARS = 1_500;
export const RECALL_QUERY_CHARS = 500;
export const READ_SPILLED_PAGE_CHARS = 8_000;

const excerpt = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}… [${text.length - max} more chars]` : text;

export function formatHits(hits: readonly MemoryHit[], maxChars: number = RECALL_EXCERPT_CHARS): string {
  return hits
    .map(
      (h) =>
        `--- messages ${h.turnStart}–${h.turnEnd}, ${h.firstAt.toISOString().slice(0, 16)} ` +
        `(score ${h.score.toFixed(2)}) ---\n` +
        `${excerpt(h.content, maxChars)}`,
    )
    .join('\n\n');
}

export function recallContext(deps: CompressionDeps): (ctx: RunContext) => Promise<string | null> {
  // The loop asks every iteration; a turn gets its excerpts once and keeps them for its later calls.
  const perTurn = new Map<string, string | null>();
  return async (ctx) => {
    const c = deps.config;
    if (!c.memoryRecallEnabled || !c.memorySearchEnabled || c.memoryRecallK <= 0) return null;
    if (perTurn.has(ctx.turnId)) return perTurn.get(ctx.turnId) ?? null;
    if (perTurn.size > 500) perTurn.clear();
    const text = await recall(deps, ctx).catch((error) => {
      deps.log.warn({ err: error, sessionId: ctx.session.id }, 'memory.recall_failed');
      return null;
    });
    perTurn.set(ctx.turnId, text);
    return text;
  };
}

async function recall(deps: CompressionDeps, ctx: RunContext): Promise<string | null> {
  const context = await (ctx.context?.() ?? deps.store.context(ctx.session.id));
  if (!context.some((m) => m.isSummary)) return null;
  const request = [...context].reverse().find(isUserTurnStart);
  if (!request?.content.trim()) return null;
  const injected = parseSessionMetadata(ctx.session.metadata).injected_chunk_ids ?? [];
  const hits = await deps.memory.search({
    scope: { sessionIds: [ctx.session.id] },
    query: request.content.slice(0, RECALL_QUERY_CHARS),
    first: deps.config.memoryRecallK,
    minScore: deps.config.memoryRecallMinSimilarity,
    excludeIds: injected,
  });
  if (hits.length === 0) return null;
  ctx.session = await deps.compressionStore.setInjectedChunks(ctx.session.id, [...injected, ...hits.map((h) => h.id)]);
  const text =
    `[Recalled from earlier in this conversation (verbatim excerpts the summary may have left out):]` +
    `\n${formatHits(hits)}`;
  // The call manifest names the excerpts by chunk id (src/domain/call-manifest.ts).
  ctx.recall = { text, chunks: hits.map((h) => ({ id: h.id, text: formatHits([h]) })) };
  return text;
}

export function memorySearchTool(deps: CompressionDeps): ServerTool {
  return {
    name: 'memory_search',
    description:
      'Search the verbatim history of this conversation that was compressed out of your context. ' +
      'Use it when the summary mentions something you need exactly (a path, a command, a number, a decision).',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'words to look for' },
        first: { type: 'integer', description: 'how many excerpts (default 5, at most 10)' },
      },
      required: ['query'],
    },
    run: async (args, tc) => {
      const query = typeof args.query === 'string' ? args.query : '';
      if (!query.trim()) return { content: 'Error: query must not be empty', isError: true };
      const first = Math.min(10, Math.max(1, Number(args.first) || 5));
      const hits = await deps.memory.search({ scope: { sessionIds: [tc.sessionId] }, query, first });
      return {
        content: hits.length === 0 ? `No compressed history matches "${query}".` : formatHits(hits, 4_000),
        critical: true,
      };
    },
  };
}

export function readSpilledTool(deps: CompressionDeps): ServerTool {
  return {
    name: 'read_spilled',
    description:
      'Read the full body of a tool result that was shortened in your context ("saved to spill:N"). ' +
      'Pass the pointer; page with offset.',
    parameters: {
      type: 'object',
      properties: {
        pointer: { type: 'string', description: 'e.g. spill:42' },
        offset: { type: 'integer', description: 'character offset to start from (default 0)' },
      },
      required: ['pointer'],
    },
    run: async (args, tc) => {
      const match = /^spill:(\d+)$/.exec(String(args.pointer ?? '').trim());
      if (!match) return { content: 'Error: pointer must look like spill:N', isError: true };
      const sequenceNumber = Number(match[1]);
      const content = await deps.compressionStore.storedContent(tc.sessionId, sequenceNumber);
      if (content === null) return { content: `Error: nothing stored at ${match[0]}`, isError: true };
      const offset = Math.max(0, Math.floor(Number(args.offset) || 0));
      const page = content.slice(offset, offset + READ_SPILLED_PAGE_CHARS);
      const end = offset + page.length;
      const more =
        end < content.length ? `\n[… ${content.length - end} more chars: call again with offset ${end}]` : '';
      return { content: `${page}${more}` };
    },
  };
}
