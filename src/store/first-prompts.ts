/**
 * The first real user prompts of sessions (display history, current path, hot
 * and archived rows), one statement for a whole page of sessions. The title
 * upgrade from history reads them: a session still carrying the placeholder
 * title shows a name taken from its first prompt (docs/api.md "Titles").
 */
import type { Database } from '../db/client.js';

/** How many leading prompts are read per session (an image-only or code-only first prompt gives no title). */
export const FIRST_PROMPTS_READ = 3;
/** Characters read of each: the heuristic only looks at the head of a prompt. */
const PROMPT_HEAD_CHARS = 2_000;

const REAL_USER =
  "role = 'user' AND is_display AND display_index IS NOT NULL AND NOT is_agent_note AND NOT is_summary " +
  'AND NOT is_compression AND NOT is_recall';

export async function firstPrompts(db: Database, sessionIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(sessionIds.map((id) => [id, []]));
  if (sessionIds.length === 0) return out;
  const rows = await db.prisma.$queryRawUnsafe<{ id: string; content: string }[]>(
    `SELECT s.id, p.content FROM sessions s CROSS JOIN LATERAL (
       SELECT left(content, ${PROMPT_HEAD_CHARS}) AS content, display_index FROM (
         SELECT content, display_index FROM session_messages_archive WHERE session_id = s.id AND ${REAL_USER}
         UNION ALL
         SELECT content, display_index FROM session_messages WHERE session_id = s.id AND ${REAL_USER}
       ) u ORDER BY display_index LIMIT ${FIRST_PROMPTS_READ}
     ) p
     WHERE s.id = ANY($1::uuid[])
     ORDER BY s.id, p.display_index`,
    sessionIds,
  );
  for (const r of rows) out.get(r.id)?.push(r.content);
  return out;
}
