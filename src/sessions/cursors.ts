/** Opaque page cursors: history pages by display position, session lists by their sort key. */
import { BadInput } from '../store/errors.js';

/** Opaque cursors for display positions. */
export const encodeIndexCursor = (index: number) => Buffer.from(`m:${index}`).toString('base64url');
export function decodeIndexCursor(cursor: string): number {
  const raw = Buffer.from(cursor, 'base64url').toString();
  const match = raw.match(/^m:(\d+)$/);
  if (!match) throw new BadInput('Malformed cursor');
  return Number(match[1]);
}

export const encodeJsonCursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
export function decodeJsonCursor<T>(cursor: string, check: (v: unknown) => v is T): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString());
  } catch {
    throw new BadInput('Malformed cursor');
  }
  if (!check(value)) throw new BadInput('Malformed cursor');
  return value;
}
