/**
 * `schedule_recall`: the model schedules a message to itself in this session
 * (a reminder, a follow-up, a check later). At its time the text arrives as
 * an is_recall user message and a new turn answers it. Registered only with
 * RECALL_TOOL_ENABLED=true (off by default: a definition costs prompt tokens
 * on every model call).
 */
import type { ServerTool } from '../turns/tools.js';
import type { RecallService } from './service.js';

export function scheduleRecallTool(recalls: Pick<RecallService, 'scheduleFromTool'>): ServerTool {
  return {
    name: 'schedule_recall',
    description:
      'Schedule a message to yourself in this conversation: at the given time the text arrives as a new message ' +
      '(marked as a scheduled recall) and you answer it in a new turn. ' +
      'Give in_seconds (from now) or at (ISO 8601 time).',
    parameters: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'what the recall message will say (what to do or check then)' },
        in_seconds: { type: 'number', description: 'delay from now in seconds' },
        at: { type: 'string', description: 'absolute time, ISO 8601 with a time zone, e.g. 2026-12-01T09:00:00Z' },
      },
      required: ['text'],
    },
    run: async (args, ctx) => {
      const text = typeof args.text === 'string' ? args.text : '';
      let at: Date;
      if (
        typeof args.in_seconds === 'number' ||
        (typeof args.in_seconds === 'string' && args.in_seconds.trim() !== '')
      ) {
        const seconds = Number(args.in_seconds);
        if (!Number.isFinite(seconds) || seconds <= 0)
          return { content: 'Error: in_seconds must be a positive number', isError: true };
        at = new Date(Date.now() + seconds * 1000);
      } else if (typeof args.at === 'string' && args.at.trim() !== '') {
        // Only ISO 8601 with a zone: a zoneless time would be read in the server's zone, which the model cannot know.
        if (!ISO_WITH_ZONE.test(args.at.trim())) {
          return {
            content: 'Error: at must be an ISO 8601 time with a time zone (e.g. 2026-12-01T09:00:00Z)',
            isError: true,
          };
        }
        at = new Date(args.at.trim());
        if (Number.isNaN(at.getTime())) return { content: 'Error: at must be an ISO 8601 time', isError: true };
      } else {
        return { content: 'Error: give in_seconds or at', isError: true };
      }
      const recall = await recalls.scheduleFromTool(ctx.sessionId, at, text);
      const result = { id: recall.id, dueAt: recall.dueAt.toISOString(), status: recall.status };
      return { content: JSON.stringify(result), metadata: { recall: result } };
    },
  };
}

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
