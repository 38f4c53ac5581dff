/**
 * The prompt-cache key an OpenAI-compatible request carries (`prompt_cache_key`): stable for a
 * session, different between sessions, so the provider routes a session's calls to the same cache.
 * A hash, not the session id itself: the provider learns which calls belong together, never the
 * id the API hands out.
 */
import { createHash } from 'node:crypto';

export function promptCacheKey(sessionId: string): string {
  return `session-${createHash('sha256').update(`prompt-cache:${sessionId}`).digest('hex').slice(0, 32)}`;
}
