/** After the first exchange, a small model names the session (unless a title was set by hand). */
import type { App } from '../app.js';
import { applyGeneratedTitle, canAutoTitle, TITLE_PROMPT, titlePromptInput, type TitleSource } from '../domain/titles.js';
import type { ProfileRow as Profile } from '../store/profiles.js';

export async function generateTitle(app: App, sessionId: string, profile: Profile, _turnId: string): Promise<void> {
  if (!app.config.titleGenerationEnabled) return;
  const session = await app.store.get(sessionId);
  if (!session || !canAutoTitle(session.titleSource as TitleSource, 'GENERATED')) return;
  const messages = (await app.store.displayRange(sessionId, 0, 6)).filter((m) => !m.isAgentNote);
  const firstUser = messages.find((m) => m.role === 'user');
  const firstAssistant = messages.find((m) => m.role === 'assistant' && m.content.trim());
  // Only after the first exchange: one user message and its answer.
  if (!firstUser || !firstAssistant) return;
  const userTurns = await app.turns.turnCount(sessionId);
  if (userTurns > 1) return;
  const { text } = await app.provider(profile).complete({
    model: app.config.titleModel || profile.model,
    messages: [
      { role: 'system', content: TITLE_PROMPT },
      { role: 'user', content: titlePromptInput(firstUser.content, firstAssistant.content.slice(0, 400)) },
    ],
    temperature: 0.2,
    think: false,
    numCtx: Math.min(profile.contextWindow, 4096),
  });
  const fresh = await app.store.get(sessionId);
  if (!fresh) return;
  const update = applyGeneratedTitle(fresh.titleSource as TitleSource, text);
  if (!update) return;
  // Re-check under the write: a manual rename in the meantime wins.
  if (!(await app.store.renameIfTitleFrom(sessionId, ['DEFAULT', 'HEURISTIC'], update.name, update.titleSource))) return;
  await app.bus.publish(sessionId, { type: 'SessionRenamed', ...update });
  await app.bus.publishList({ kind: 'renamed', sessionId, userId: fresh.userId });
}
