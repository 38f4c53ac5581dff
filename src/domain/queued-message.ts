/**
 * A queued message's kind and state: the store's column values, the
 * MessageQueued event's payload and the GraphQL enums QueuedMessageKind and
 * QueuedMessageStatus (test/unit/event-types.test.ts holds them equal).
 */
export const QUEUED_MESSAGE_KINDS = ['QUEUE', 'STEER'] as const;
export type QueuedMessageKind = (typeof QUEUED_MESSAGE_KINDS)[number];

export const QUEUED_MESSAGE_STATUSES = ['PENDING', 'CLAIMED', 'DISPATCHED', 'CANCELLED', 'FAILED'] as const;
export type QueuedMessageStatus = (typeof QUEUED_MESSAGE_STATUSES)[number];
