import { mkdirSync } from 'node:fs';
import type { Config } from './config/config';
import type { EventStore } from './eventstore/port';
import { SqliteEventStore } from './eventstore/sqlite-event-store';
import { EventStoreDbEventStore } from './eventstore/eventstoredb-event-store';
import type { ReadStore } from './readstore/port';
import { MemoryReadStore } from './readstore/memory-read-store';
import { MongoReadStore } from './readstore/mongo-read-store';
import type { JobQueue } from './jobs/port';
import { InProcessJobQueue } from './jobs/in-process-job-queue';
import { BullMqJobQueue } from './jobs/bullmq-job-queue';
import type { SessionStore } from './sessions/port';
import { MemorySessionStore } from './sessions/memory-session-store';
import { RedisSessionStore } from './sessions/redis-session-store';

/** Adapters chosen from the configuration: embedded by default, distributed when URLs are set. */
export function createEventStore(config: Config): EventStore {
  if (config.EVENTSTORE_URL) return new EventStoreDbEventStore(config.EVENTSTORE_URL);
  mkdirSync(config.DATA_DIR, { recursive: true });
  return new SqliteEventStore(config.eventsFile);
}

export function createReadStore(config: Config): ReadStore {
  return config.MONGO_URL ? new MongoReadStore(config.MONGO_URL) : new MemoryReadStore();
}

export function createJobQueue(config: Config): JobQueue {
  return config.REDIS_URL
    ? new BullMqJobQueue({
        redisUrl: config.REDIS_URL,
        prefix: config.REDIS_PREFIX,
        stalledAfterMs: config.JOB_STALLED_SECONDS * 1000,
      })
    : new InProcessJobQueue();
}

export function createSessionStore(config: Config): SessionStore {
  return config.REDIS_URL
    ? new RedisSessionStore(config.REDIS_URL, `${config.REDIS_PREFIX}:sess:`)
    : new MemorySessionStore();
}

/** The Redis channel prefix shared by the API servers' Socket.IO adapters and the projections' emitter. */
export function pushChannelKey(config: Config): string {
  return `${config.REDIS_PREFIX}:socket.io`;
}
