/**
 * A client tool call's wait: the result the client submitted (submitToolResult), polled from the turn row and woken
 * early when this process receives it, with a deadline (TOOL_RESULT_TIMEOUT_MS) that answers an error result. The
 * turn's heartbeat beats while it waits.
 */
import type { ToolOutcome } from './tools.js';
import type { TurnRunStore } from './run-store.js';
import { CancelledError } from './types.js';

export async function waitForClientResult(
  store: TurnRunStore,
  timeoutMs: number,
  signal: AbortSignal,
  onWake: (fn: () => void) => void,
  toolCallId: string,
): Promise<Pick<ToolOutcome, 'content' | 'isError' | 'critical'>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new CancelledError();
    const result = await store.toolResult(toolCallId);
    if (result === 'ended') throw new CancelledError();
    if (result) return result;
    if (Date.now() > deadline) {
      return {
        content: `Error: the client did not answer tool call ${toolCallId} in time`,
        isError: true,
        critical: false,
      };
    }
    await store.heartbeat();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, 250);
      onWake(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
