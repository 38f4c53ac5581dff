/** Profiles: model, window, prompt and compression overrides. A default one is created from configuration. */
import type { Config } from '../config.js';
import type { ProfileRow as Profile, ProfileStore } from '../store/profiles.js';
import { BadInput } from '../store/errors.js';

export interface UpsertProfile {
  key: string;
  name: string;
  provider?: string | null;
  model: string;
  systemPrompt?: string | null;
  contextWindow?: number | null;
  compressionKeepRecent?: number | null;
  compressionMaxTokens?: number | null;
  compressionPrompt?: string | null;
  vision?: boolean | null;
  planning?: boolean | null;
  /** false = only core chat-completions fields to an OpenAI-compatible server; undefined/null = unchanged */
  providerExtensions?: boolean | null;
  /** undefined = unchanged; null = SESSION_RETENTION_DAYS; 0 = keep forever */
  retentionDays?: number | null;
}

/** The longest retention a profile may set (100 years). */
export const MAX_RETENTION_DAYS = 36_500;

const PROVIDERS = new Set(['ollama', 'openai', 'anthropic']);

export class ProfileService {
  private defaultId: string | null = null;

  constructor(
    private readonly profiles: ProfileStore,
    private readonly config: Config,
  ) {}

  list() {
    return this.profiles.list();
  }

  /** By key (an imported session names its profile by key). */
  byKey(key: string) {
    return this.profiles.byKey(key);
  }

  get(id: string) {
    return this.profiles.get(id);
  }

  async default(): Promise<Profile> {
    if (this.defaultId) {
      const found = await this.get(this.defaultId);
      if (found) return found;
    }
    const profile = await this.ensureDefault();
    this.defaultId = profile.id;
    return profile;
  }

  /** Creates the default profile from configuration on first start; never overwrites an edited one. */
  ensureDefault() {
    const c = this.config;
    return this.profiles.upsert(
      c.defaultProfileKey,
      {
        key: c.defaultProfileKey,
        name: 'Default',
        provider: c.defaultProvider,
        model: c.defaultModel,
        systemPrompt: c.defaultSystemPrompt,
        contextWindow: c.ollamaNumCtx,
        compressionKeepRecent: c.contextKeepRecent,
        compressionMaxTokens: c.contextSummaryMaxTokens,
      },
      {},
    );
  }

  upsert(input: UpsertProfile) {
    const key = input.key.trim();
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(key)) throw new BadInput('key must be 1-64 letters, digits, _ . -');
    if (input.name.trim() === '' || input.name.length > 200) throw new BadInput('name must be 1-200 characters');
    if (input.model.trim() === '') throw new BadInput('model must not be empty');
    if (input.provider != null && !PROVIDERS.has(input.provider)) {
      throw new BadInput(`provider must be one of ${[...PROVIDERS].join(', ')}`);
    }
    if (input.contextWindow != null && (input.contextWindow < 256 || input.contextWindow > 10_000_000)) {
      throw new BadInput('contextWindow must be between 256 and 10000000');
    }
    if (input.compressionKeepRecent != null && input.compressionKeepRecent < 1) {
      throw new BadInput('compressionKeepRecent must be at least 1');
    }
    if (input.compressionMaxTokens != null && input.compressionMaxTokens < 1) {
      throw new BadInput('compressionMaxTokens must be at least 1');
    }
    if (input.retentionDays != null && (input.retentionDays < 0 || input.retentionDays > MAX_RETENTION_DAYS)) {
      throw new BadInput(`retentionDays must be between 0 and ${MAX_RETENTION_DAYS}`);
    }
    const data = {
      name: input.name.trim(),
      model: input.model.trim(),
      ...(input.provider != null && { provider: input.provider }),
      ...(input.systemPrompt != null && { systemPrompt: input.systemPrompt }),
      ...(input.contextWindow != null && { contextWindow: input.contextWindow }),
      ...(input.compressionKeepRecent != null && { compressionKeepRecent: input.compressionKeepRecent }),
      ...(input.compressionMaxTokens != null && { compressionMaxTokens: input.compressionMaxTokens }),
      ...(input.compressionPrompt !== undefined && { compressionPrompt: input.compressionPrompt }),
      ...(input.vision != null && { vision: input.vision }),
      ...(input.planning != null && { planning: input.planning }),
      ...(input.providerExtensions != null && { providerExtensions: input.providerExtensions }),
      ...(input.retentionDays !== undefined && { retentionDays: input.retentionDays }),
    };
    const c = this.config;
    return this.profiles.upsert(
      key,
      {
        key,
        contextWindow: c.ollamaNumCtx,
        compressionKeepRecent: c.contextKeepRecent,
        compressionMaxTokens: c.contextSummaryMaxTokens,
        ...data,
      },
      { ...data, updatedAt: new Date() },
    );
  }
}
