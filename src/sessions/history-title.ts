/**
 * Title upgrade from history: a session still carrying the placeholder title
 * (titleSource DEFAULT) shows a name taken from its first user prompt when it
 * is listed or resumed — derived on read, nothing written — and that name is
 * stored with the session's next write (the next turn), instead of a name
 * taken from the newest message.
 */
import type { Database } from '../db/client.js';
import { canAutoTitle, titleFromPrompts, type TitleSource, type TitleUpdate } from '../domain/titles.js';
import { firstPrompts } from '../store/first-prompts.js';

/** Derived names of the given sessions (null where the history gives none), one statement. */
export async function historyTitles(db: Database, sessionIds: readonly string[]): Promise<Map<string, string | null>> {
  const prompts = await firstPrompts(db, sessionIds);
  return new Map(sessionIds.map((id) => [id, titleFromPrompts(prompts.get(id) ?? [])]));
}

/** The heuristic title to store for a session, from its first prompts; null when the current title must stay. */
export async function historyTitleUpdate(
  db: Database,
  session: { id: string; titleSource: string },
): Promise<TitleUpdate | null> {
  if (!canAutoTitle(session.titleSource as TitleSource, 'HEURISTIC')) return null;
  const name = (await historyTitles(db, [session.id])).get(session.id);
  return name ? { name, titleSource: 'HEURISTIC' } : null;
}
