/** A session's next prompt, computed once per request (Session.modelView and Session.contextTokens share it). */
import type { Context, SchemaServices } from './builder.js';

type Loaded = Awaited<ReturnType<SchemaServices['prompts']['next']>>;

const perRequest = new WeakMap<Context, Map<string, Promise<Loaded>>>();
export function nextPromptOf(ctx: Context, sessionId: string): Promise<Loaded> {
  let map = perRequest.get(ctx);
  if (!map) perRequest.set(ctx, (map = new Map()));
  let loaded = map.get(sessionId);
  if (!loaded) map.set(sessionId, (loaded = ctx.app.prompts.next(sessionId)));
  return loaded;
}
