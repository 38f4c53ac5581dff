/**
 * The turn lifecycle, stated once: the states a turn passes through, the
 * transitions that are legal, and the event each transition publishes. Pure
 * (no I/O). src/turns/lifecycle.ts is the one module that writes a turn's
 * status and publishes turn events; it asks this table before each write, and
 * the store's guards (`WHERE status IN …`) are derived from it.
 * docs/architecture.md draws the same table as a state diagram (a test checks
 * that the two agree).
 */
import { TURN_STATUSES, TurnStatus } from './turn-status.js';

/** Where a turn comes from: not a stored status, the diagram's `[*]`. */
export const NEW = 'NEW' as const;
export type TurnState = TurnStatus | typeof NEW;

/**
 * The turn events a transition publishes. `TurnInterrupted` is not one: it is
 * published after an INTERRUPT's new turn started (naming the CANCELLED turn and
 * the new one), once both transitions are done.
 */
export type TurnEventType = 'TurnStarted' | 'TurnEnded' | 'TurnFailed';

export interface TurnTransition {
  from: TurnState;
  to: TurnStatus;
  /** the turn event this transition publishes; null: none (the queue's or the tool's own events say it) */
  event: TurnEventType | null;
  /** why it happens, for the docs and the diagram's label */
  on: string;
}

const ACTIVE = [TurnStatus.RUNNING, TurnStatus.WAITING_FOR_TOOL] as const;

/** Every legal transition. Anything else is refused. */
export const TURN_TRANSITIONS: readonly TurnTransition[] = [
  { from: NEW, to: TurnStatus.RUNNING, event: 'TurnStarted', on: 'start' },
  { from: NEW, to: TurnStatus.QUEUED, event: null, on: 'queue' },
  { from: TurnStatus.QUEUED, to: TurnStatus.RUNNING, event: 'TurnStarted', on: 'dispatch' },
  { from: TurnStatus.QUEUED, to: TurnStatus.CANCELLED, event: null, on: 'cancelQueued' },
  { from: TurnStatus.RUNNING, to: TurnStatus.WAITING_FOR_TOOL, event: null, on: 'clientToolCall' },
  { from: TurnStatus.WAITING_FOR_TOOL, to: TurnStatus.RUNNING, event: null, on: 'toolResults' },
  ...ACTIVE.flatMap((from): TurnTransition[] => [
    { from, to: TurnStatus.COMPLETED, event: 'TurnEnded', on: 'complete' },
    { from, to: TurnStatus.CANCELLED, event: 'TurnEnded', on: 'cancel' },
    { from, to: TurnStatus.FAILED, event: 'TurnFailed', on: 'fail' },
    { from, to: TurnStatus.INTERRUPTED, event: 'TurnFailed', on: 'interrupt' },
  ]),
];

/** The statuses a turn can no longer leave. */
export const FINAL_TURN_STATUSES: readonly TurnStatus[] = TURN_STATUSES.filter(
  (s) => !TURN_TRANSITIONS.some((t) => t.from === s),
);

export function transitionOf(from: TurnState, to: TurnStatus): TurnTransition | null {
  return TURN_TRANSITIONS.find((t) => t.from === from && t.to === to) ?? null;
}

export function canTransition(from: TurnState, to: TurnStatus): boolean {
  return transitionOf(from, to) !== null;
}

/** The statuses a turn may be in to move to `to`: the store's guard for that write. */
export function sourcesOf(to: TurnStatus): TurnStatus[] {
  return TURN_TRANSITIONS.filter((t) => t.to === to && t.from !== NEW).map((t) => t.from as TurnStatus);
}

export class IllegalTurnTransition extends Error {
  constructor(
    readonly from: TurnState,
    readonly to: TurnStatus,
  ) {
    super(`A turn cannot go from ${from} to ${to}`);
    this.name = 'IllegalTurnTransition';
  }
}

/** The transition from `from` to `to`, or IllegalTurnTransition. */
export function assertTransition(from: TurnState, to: TurnStatus): TurnTransition {
  const transition = transitionOf(from, to);
  if (!transition) throw new IllegalTurnTransition(from, to);
  return transition;
}
