/** The event bus the configuration asks for: Redis with REDIS_URL, else in-process. */
import { type EventBus, MemoryEventBus } from './bus.js';
import { type BusLogger, RedisEventBus } from './redis-bus.js';

export function createEventBus(options: { redisUrl?: string; retention: number; log?: BusLogger }): EventBus {
  return options.redisUrl
    ? new RedisEventBus(options.redisUrl, options.retention, options.log)
    : new MemoryEventBus(options.retention);
}
