import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ioredis } from './distributed-clients';
import { ServiceUnavailableError } from './services';

/** how often a store logs, at most, that Redis is away */
const ERROR_LOG_EVERY_MS = 5000;

/**
 * A Redis client for a store that answers requests (sessions, rate limits): while Redis is away a
 * command fails after a few reconnection attempts (about 0.3 s), so that the request answers 503
 * rather than waiting, and ioredis keeps reconnecting in the background. Its connection errors are
 * logged as `<what>: Redis connection error`, at most every 5 s.
 */
export function requestRedisClient(redisUrl: string, log: Logger, what: string): Redis {
  const redis = new (ioredis().Redis)(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  let lastErrorLog = 0;
  redis.on('error', (err) => {
    const now = Date.now();
    if (now - lastErrorLog < ERROR_LOG_EVERY_MS) return;
    lastErrorLog = now;
    log.warn({ err: err.message }, `${what}: Redis connection error`);
  });
  return redis;
}

/** `op`, any failure of it a ServiceUnavailableError naming `service` (answered 503). */
export async function unavailableOnFailure<R>(service: string, op: () => Promise<R>): Promise<R> {
  try {
    return await op();
  } catch (e) {
    throw new ServiceUnavailableError(service, e);
  }
}
