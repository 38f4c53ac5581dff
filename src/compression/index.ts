/**
 * Context compression and the raw-history index, plugged into the app:
 * turn hooks (pre/mid/post-turn triggers, recall) and the built-in tools.
 * See compress.ts for the pipeline and strategies.ts for the strategies.
 */
import type { App } from '../app.js';
import { memorySearchTool, readSpilledTool } from './recall.js';
import { compressionHooks } from './triggers.js';

export function registerCompression(app: App): void {
  Object.assign(app.hooks, compressionHooks(app));
  if (app.config.memorySearchEnabled) app.tools.register(memorySearchTool(app));
  app.tools.register(readSpilledTool(app));
}
