/**
 * Context compression and the raw-history index as one service: the turn
 * hooks (pre/mid/post-turn triggers, recall), the forced pass and the dry
 * run, and the built-in tools. See compress.ts for the pipeline and
 * strategies.ts for the strategies.
 */
import type { ProfileRow as Profile } from '../store/profiles.js';
import type { TurnHooks } from '../turns/runner.js';
import type { ServerTool } from '../turns/tools.js';
import { compressAndSaveSession, type CompressOptions, type CompressionResult } from './compress.js';
import type { CompressionDeps } from './deps.js';
import { compressionSettings, type CompressionSettings } from './estimate.js';
import { compressionPlan, type CompressionPlanResult } from './plan.js';
import { memorySearchTool, readSpilledTool } from './recall.js';
import type { CompressionStrategy } from '../domain/compression-kinds.js';
import { compressionHooks } from './triggers.js';

export class CompressionService {
  /** what the turn runner calls around each model call */
  readonly hooks: TurnHooks;

  constructor(private readonly deps: CompressionDeps) {
    this.hooks = compressionHooks(deps);
  }

  /** One pass under the session lock (the forced /compact and every trigger). */
  compress(sessionId: string, opts: CompressOptions): Promise<CompressionResult | null> {
    return compressAndSaveSession(this.deps, sessionId, opts);
  }

  plan(
    sessionId: string,
    strategy: CompressionStrategy,
    keepRecentMessages?: number | null,
  ): Promise<CompressionPlanResult> {
    return compressionPlan(this.deps, sessionId, strategy, keepRecentMessages);
  }

  settings(profile: Profile, window?: number): CompressionSettings {
    return compressionSettings(this.deps, profile, window);
  }

  /** memory_search (when the index is searchable) and read_spilled, for the tool registry */
  tools(): ServerTool[] {
    return [...(this.deps.config.memorySearchEnabled ? [memorySearchTool(this.deps)] : []), readSpilledTool(this.deps)];
  }
}
