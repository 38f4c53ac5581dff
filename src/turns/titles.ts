/** After the first exchange, a small model names the session (unless a title was set by hand). */
import type { Config } from '../config.js';
import {
  applyGeneratedTitle,
  canAutoTitle,
  TITLE_PROMPT,
  titlePromptInput,
  type TitleSource,
} from '../domain/titles.js';
import type { EventBus } from '../events/bus.js';
import type { ProfileRow as Profile } from '../store/profiles.js';
import type { LlmProvider } from '../llm/types.js';
import type { SessionStore } from '../store/sessions.js';
import type { TurnStore } from '../store/turns.js';

export interface TitleDeps {
  config: Pick<Config, 'titleGenerationEnabled' | 'titleModel'>;
  store: Pick<SessionStore, 'get' | 'displayRange' | 'renameIfTitleFrom'>;
  turns: Pick<TurnStore, 'countFor'>;
  provider(profile: Pick<Profile, 'provider'>): LlmProvider;
  bus: Pick<EventBus, 'publish' | 'publishList'>;
}

export class TitleService {
  constructor(private readonly deps: TitleDeps) {}

  async generate(sessionId: string, profile: Profile, _turnId: string): Promise<void> {
    const { config, store, bus } = this.deps;
    if (!config.titleGenerationEnabled) return;
    const session = await store.get(sessionId);
    if (!session || !canAutoTitle(session.titleSource as TitleSource, 'GENERATED')) return;
    const messages = (await store.displayRange(sessionId, 0, 6)).filter((m) => !m.isAgentNote);
    const firstUser = messages.find((m) => m.role === 'user');
    const firstAssistant = messages.find((m) => m.role === 'assistant' && m.content.trim());
    // Only after the first exchange: one user message and its answer.
    if (!firstUser || !firstAssistant) return;
    const userTurns = await this.deps.turns.countFor(sessionId);
    if (userTurns > 1) return;
    const { text } = await this.deps.provider(profile).complete({
      model: config.titleModel || profile.model,
      messages: [
        { role: 'system', content: TITLE_PROMPT },
        { role: 'user', content: titlePromptInput(firstUser.content, firstAssistant.content.slice(0, 400)) },
      ],
      temperature: 0.2,
      think: false,
      numCtx: Math.min(profile.contextWindow, 4096),
    });
    const fresh = await store.get(sessionId);
    if (!fresh) return;
    const update = applyGeneratedTitle(fresh.titleSource as TitleSource, text);
    if (!update) return;
    // Re-check under the write: a manual rename in the meantime wins.
    if (!(await store.renameIfTitleFrom(sessionId, ['DEFAULT', 'HEURISTIC'], update.name, update.titleSource))) return;
    await bus.publish(sessionId, { type: 'SessionRenamed', ...update });
    await bus.publishList({ kind: 'renamed', sessionId, userId: fresh.userId });
  }
}
