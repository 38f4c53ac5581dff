/**
 * Message ids (issue 31 item 4). A stored message version has a uuid for life (`messageId`); its API id is the
 * Relay global id `Message:<session uuid>:<messageId>` (base64, like every Node id). Ids of the old form
 * `Message:<session uuid>:<sequenceNumber>` (a position on the active path) still parse, as `sequenceNumber`.
 * Pure: no I/O.
 */

import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);

/** The part of a Message global id after `Message:`, parsed; null when it is neither form. */
export type MessageIdRef = { sessionId: string; messageId: string } | { sessionId: string; sequenceNumber: number };

export function parseMessageLocalId(local: string): MessageIdRef | null {
  const [sessionId = '', rest = '', ...more] = local.split(':');
  if (more.length > 0 || !UUID.test(sessionId)) return null;
  if (UUID.test(rest)) return { sessionId, messageId: rest.toLowerCase() };
  if (/^\d{1,9}$/.test(rest)) return { sessionId, sequenceNumber: Number(rest) };
  return null;
}

/** The local part of a message's global id. */
export const messageLocalId = (m: { sessionId: string; messageId: string }): string => `${m.sessionId}:${m.messageId}`;

/** The global id (what `Message.id` answers): base64 of `Message:<session>:<messageId>`, as Pothos encodes it. */
export const messageGlobalId = (m: { sessionId: string; messageId: string }): string =>
  Buffer.from(`Message:${messageLocalId(m)}`, 'utf8').toString('base64');

/**
 * The id of the assistant message a turn stores after tool results (its second and later model calls): a name-based
 * uuid (RFC 9562 version 5 layout) of the turn's id and the id of the first tool call whose results it follows. The
 * first message a turn stores takes the turn's id itself (src/store/messages.ts). So every answer message's id is
 * known while it streams, from the turn's events alone: the frontend protocols name it before it is stored.
 */
export function followingAnswerId(turnId: string, toolCallId: string): string {
  const hash = createHash('sha1').update(`answer-after:${turnId}:${toolCallId}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
