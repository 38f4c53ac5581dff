/** The states of a turn: one list, shared by the store's SQL, the services and the GraphQL enum. */
export const TurnStatus = {
  RUNNING: 'RUNNING',
  WAITING_FOR_TOOL: 'WAITING_FOR_TOOL',
  COMPLETED: 'COMPLETED',
  CANCELLED: 'CANCELLED',
  FAILED: 'FAILED',
  INTERRUPTED: 'INTERRUPTED',
  /** sent with whileRunning QUEUE: waits for the running turn to end (becomes RUNNING, or CANCELLED) */
  QUEUED: 'QUEUED',
} as const;

export type TurnStatus = (typeof TurnStatus)[keyof typeof TurnStatus];

export const TURN_STATUSES = [
  TurnStatus.RUNNING,
  TurnStatus.WAITING_FOR_TOOL,
  TurnStatus.COMPLETED,
  TurnStatus.CANCELLED,
  TurnStatus.FAILED,
  TurnStatus.INTERRUPTED,
  TurnStatus.QUEUED,
] as const;

/** A turn in one of these still owns its session: no other turn may start. */
export const ACTIVE_TURN_STATUSES: readonly TurnStatus[] = [TurnStatus.RUNNING, TurnStatus.WAITING_FOR_TOOL];

export function isActiveTurnStatus(status: string): boolean {
  return (ACTIVE_TURN_STATUSES as readonly string[]).includes(status);
}
