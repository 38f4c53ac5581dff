/**
 * Turns as seen from outside the turn code: the event bus wrapped so that what it publishes (a turn started,
 * ended, failed; a context compressed) opens and closes the turn's OpenTelemetry span and is reported to an optional
 * observer (the metrics). The span is found again by the session's prompt-cache key, which every model call of the
 * turn carries (src/llm/observed.ts makes those calls children of it).
 */
import { type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import { promptCacheKey } from '../domain/prompt-cache.js';
import type { EventBus } from './bus.js';
import type { SessionEventBody } from './types.js';

const TRACER_NAME = 'chat-session-service';

export interface TurnObserver {
  /** a turn ended: COMPLETED, CANCELLED, FAILED, INTERRUPTED */
  turnEnded(status: string): void;
  /** a compression pass finished: why (its trigger) and how (its strategy) */
  compressed(reason: string, strategy: string): void;
}

export interface ObservedBus {
  bus: EventBus;
  /** the open span of the turn running in the session whose prompt-cache key this is */
  turnSpan(cacheKey: string): Span | undefined;
}

export function observeBus(bus: EventBus, observer?: TurnObserver): ObservedBus {
  const tracer = trace.getTracer(TRACER_NAME);
  const open = new Map<string, { turnId: string; span: Span }>();
  const publish = bus.publish.bind(bus);
  const seen = (sessionId: string, body: SessionEventBody) => {
    switch (body.type) {
      case 'TurnStarted': {
        const key = promptCacheKey(sessionId);
        open.get(key)?.span.end();
        const span = tracer.startSpan('chat.turn', {
          attributes: {
            'gen_ai.operation.name': 'invoke_agent',
            'gen_ai.conversation.id': sessionId,
            'chat.turn.id': body.turn.id,
          },
        });
        open.set(key, { turnId: body.turn.id, span });
        break;
      }
      case 'TurnEnded':
      case 'TurnFailed': {
        const status = body.type === 'TurnFailed' ? 'FAILED' : body.turn.status;
        observer?.turnEnded(status);
        const key = promptCacheKey(sessionId);
        const entry = open.get(key);
        if (!entry || entry.turnId !== body.turn.id) break;
        entry.span.setAttribute('chat.turn.status', status);
        if (body.type === 'TurnFailed') {
          entry.span.setAttribute('error.type', body.code);
          entry.span.setStatus({ code: SpanStatusCode.ERROR, message: body.message });
        }
        entry.span.end();
        open.delete(key);
        break;
      }
      case 'ContextCompressed':
        observer?.compressed(body.reason, body.strategy);
        break;
    }
  };
  bus.publish = async (sessionId, body) => {
    const event = await publish(sessionId, body);
    try {
      seen(sessionId, body);
    } catch {
      // what is observed never fails a publish
    }
    return event;
  };
  return { bus, turnSpan: (cacheKey) => open.get(cacheKey)?.span };
}
