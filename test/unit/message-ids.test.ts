/** Message ids (src/domain/message-ids.ts): both parsed forms, and the global id as Pothos encodes it. */
import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import { messageGlobalId, parseMessageLocalId } from '../../src/domain/message-ids.js';
import { makeMessage } from '../../src/domain/types.js';

const sid = '0b6c3a52-1d7e-4c1b-9f5e-2d8a6b4c3e10';
const mid = '7d1f0c2e-5b4a-4e3d-9c8b-1a2b3c4d5e6f';

describe('message ids', () => {
  it('the global id is Pothos’ encoding of Message:<session>:<messageId>', () => {
    expect(messageGlobalId({ sessionId: sid, messageId: mid })).toBe(encodeGlobalID('Message', `${sid}:${mid}`));
    expect(decodeGlobalID(messageGlobalId({ sessionId: sid, messageId: mid }))).toEqual({
      typename: 'Message',
      id: `${sid}:${mid}`,
    });
  });

  it('parses the uuid form and the old positional form; anything else is null', () => {
    expect(parseMessageLocalId(`${sid}:${mid}`)).toEqual({ sessionId: sid, messageId: mid });
    expect(parseMessageLocalId(`${sid}:${mid.toUpperCase()}`)).toEqual({ sessionId: sid, messageId: mid });
    expect(parseMessageLocalId(`${sid}:12`)).toEqual({ sessionId: sid, sequenceNumber: 12 });
    for (const bad of [sid, `${sid}:`, `${sid}:-1`, `${sid}:1.5`, `${sid}:${mid}x`, `${sid}:${mid}:1`, `x:${mid}`])
      expect(parseMessageLocalId(bad)).toBeNull();
  });

  it('every new message gets its own id; a given one is kept', () => {
    const a = makeMessage({ role: 'user', content: 'same' });
    const b = makeMessage({ role: 'user', content: 'same' });
    expect(a.messageId).not.toBe(b.messageId);
    expect(parseMessageLocalId(`${sid}:${a.messageId}`)).toEqual({ sessionId: sid, messageId: a.messageId });
    expect(makeMessage({ role: 'user', content: 'x', messageId: mid }).messageId).toBe(mid);
  });
});
