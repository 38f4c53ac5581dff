/** Opaque Relay global ids: parse with a clear BAD_USER_INPUT on malformed input. */
import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import { type MessageIdRef, parseMessageLocalId } from '../domain/message-ids.js';
import { BadInput } from '../store/errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseGlobalId(id: string, typename: string): string {
  let decoded: { typename: string; id: string };
  try {
    decoded = decodeGlobalID(id);
  } catch {
    throw new BadInput(`Malformed ${typename} id`);
  }
  if (decoded.typename !== typename) throw new BadInput(`Malformed ${typename} id`);
  if (!UUID.test(decoded.id)) throw new BadInput(`Malformed ${typename} id`);
  return decoded.id;
}

/**
 * The relay plugin's `decodeGlobalID` for `t.arg.globalID({ for })`. An id that does
 * not decode, or whose id part is not a UUID (every type taken as an argument has
 * UUID ids), is an id of no type: the `for` check then refuses it like an id of
 * another type, and src/schema/errors.ts words both as the wanted type's malformed id.
 */
export function decodeArgGlobalId(globalID: string): { typename: string; id: string } {
  try {
    const decoded = decodeGlobalID(globalID);
    return UUID.test(decoded.id) ? decoded : { typename: '', id: '' };
  } catch {
    return { typename: '', id: '' };
  }
}

/**
 * The type a relay `for` check wanted, from the error it throws for an id of another type; null for any other error.
 */
export function wantedTypeOf(error: Error): string | null {
  const marker = ' is not of type: ';
  if (error.name !== 'PothosValidationError' || !error.message.startsWith('ID: ')) return null;
  const at = error.message.lastIndexOf(marker);
  return at < 0 ? null : error.message.slice(at + marker.length);
}

/**
 * A Message id: `Message:<session uuid>:<message uuid>`, or the old positional `Message:<session uuid>:<seq>`
 * (parsed as `sequenceNumber`; the editing mutations answer it CONFLICT with the current id, see docs/api.md).
 */
export function parseMessageId(id: string): MessageIdRef {
  let decoded: { typename: string; id: string };
  try {
    decoded = decodeGlobalID(id);
  } catch {
    throw new BadInput('Malformed Message id');
  }
  const parsed = decoded.typename === 'Message' ? parseMessageLocalId(decoded.id) : null;
  if (!parsed) throw new BadInput('Malformed Message id');
  return parsed;
}

export const sessionGlobalId = (id: string) => encodeGlobalID('Session', id);
export const turnGlobalId = (id: string) => encodeGlobalID('Turn', id);

/**
 * Whether the caller gave `name` on this field (inline, or as a variable that
 * was sent), as opposed to the schema default applying.
 */
export function argumentGiven(
  info: {
    fieldNodes: readonly {
      arguments?: readonly { name: { value: string }; value: { kind: string; name?: { value: string } } }[];
    }[];
    variableValues: Record<string, unknown>;
  },
  name: string,
): boolean {
  return info.fieldNodes.some((node) =>
    node.arguments?.some(
      (arg) =>
        arg.name.value === name &&
        (arg.value.kind !== 'Variable' || info.variableValues[arg.value.name!.value] !== undefined),
    ),
  );
}
