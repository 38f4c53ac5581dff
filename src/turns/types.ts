/**
 * What the turn modules share: the client's tool definitions, a running
 * turn's handle, and the errors a runner is stopped with. Its own module so
 * the runner, the lifecycle and the service import it rather than each other.
 */
import { hostname } from 'node:os';
import type { Config } from '../config.js';
import type { ToolCall } from '../domain/types.js';
import type { UploadLike } from '../files/store.js';
import type { TurnRow } from '../store/turns.js';

export interface ClientToolDefinition {
  name: string;
  description: string;
  parameters: unknown;
}

export interface PendingToolCall extends ToolCall {
  clientSide: boolean;
  result?: { content: string; isError: boolean; critical: boolean };
}

/** What a running turn exposes to the service: abort and tool-result wake-ups. */
export interface RunningTurn {
  controller: AbortController;
  done: Promise<void>;
  wake: () => void;
}

export type StartRunner = (turn: TurnRow, clientTools: ClientToolDefinition[]) => RunningTurn;

/** A runner stopped by a graceful shutdown: it checkpoints and leaves the ending to TurnService.shutdown. */
export class ShutdownError extends Error {
  constructor() {
    super('shutdown');
    this.name = 'ShutdownError';
  }
}

export class CancelledError extends Error {
  constructor(message = 'cancelled') {
    super(message);
    this.name = 'CancelledError';
  }
}

export interface SendMessageInput {
  sessionId: string;
  content: string;
  images?: UploadLike[] | null;
  files?: UploadLike[] | null;
  hidden?: boolean | null;
  clientTools?: ClientToolDefinition[] | null;
  idempotencyKey?: string | null;
  /** what happens when a turn is already running (default REJECT) */
  whileRunning?: WhileRunning | null;
}

/** sendMessage while a turn runs: refuse (CONFLICT), wait in the queue, cancel it, or join it. */
export const WHILE_RUNNING = ['REJECT', 'QUEUE', 'INTERRUPT', 'STEER'] as const;
export type WhileRunning = (typeof WHILE_RUNNING)[number];

/** The stable identity of a server process: its turns left running by a crash are recognised on restart. */
export function instanceIdOf(config: Pick<Config, 'instanceId' | 'port'>): string | null {
  if (config.instanceId) return config.instanceId;
  // Two processes cannot listen on one host:port, so that pair names one process across restarts; port 0 names none.
  return config.port !== 0 ? `${hostname()}:${config.port}` : null;
}
