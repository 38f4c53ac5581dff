/** sessionListEvents: the list changes a viewer may see (the policy's `list` scope), until the stream is ended. */
import { Repeater } from '@repeaterjs/repeater';
import { inScope, sessionScope, type Viewer } from '../domain/policy.js';
import { type EventBus, registerStream } from '../events/bus.js';
import type { SessionListEvent } from '../events/types.js';

export function sessionListEvents(bus: EventBus, viewer: Viewer): AsyncIterable<SessionListEvent> {
  const scope = sessionScope(viewer, 'list');
  return new Repeater<SessionListEvent>(async (push, stop) => {
    const off = bus.onList((e) => {
      if (inScope(scope, { userId: e.userId })) void push(e);
    });
    const unregister = registerStream(bus, { end: () => stop() });
    await stop;
    unregister();
    off();
  });
}
