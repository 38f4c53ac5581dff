/**
 * The runners of this process's turns: started by TurnService.startTurn,
 * stopped by cancel, INTERRUPT, a session's delete or a shutdown, woken by a
 * client's tool result, and awaited when the process stops.
 */
import type { Logger } from 'pino';
import type { TurnRow } from '../store/turns.js';
import type { ClientToolDefinition, RunningTurn, StartRunner } from './types.js';

/** How long a stop waits for the runner to save its partial answer and end the turn. */
const STOP_WAIT_MS = 5_000;

export class LocalRunners {
  private readonly running = new Map<string, RunningTurn>();

  constructor(
    private readonly startRunner: StartRunner,
    private readonly log: Logger,
    /** a runner finished: what waits for its session looks again */
    private readonly finished: (sessionId: string) => void,
  ) {}

  launch(turn: TurnRow, clientTools: ClientToolDefinition[]): void {
    const runner = this.startRunner(turn, clientTools);
    this.running.set(turn.id, runner);
    void runner.done
      .catch((error) => this.log.error({ err: error, turnId: turn.id }, 'turn.runner_crashed'))
      .finally(() => {
        this.running.delete(turn.id);
        this.finished(turn.sessionId);
      });
  }

  has(turnId: string): boolean {
    return this.running.has(turnId);
  }

  ids(): string[] {
    return [...this.running.keys()];
  }

  /** Aborts the turn's runner with `reason` and waits (a while) for it to end; false when it does not run here. */
  async stop(turnId: string, reason: Error): Promise<boolean> {
    const local = this.running.get(turnId);
    if (!local) return false;
    local.controller.abort(reason);
    await Promise.race([local.done, new Promise((r) => setTimeout(r, STOP_WAIT_MS))]);
    return true;
  }

  /** A client answered a tool call: the waiting runner looks now. */
  wake(turnId: string): void {
    this.running.get(turnId)?.wake();
  }

  abortAll(reason: () => Error): void {
    for (const runner of this.running.values()) runner.controller.abort(reason());
  }

  /** Waits for every local runner to finish (shutdown, tests). */
  async drain(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.done));
  }
}
