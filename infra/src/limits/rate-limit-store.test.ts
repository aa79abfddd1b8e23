import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from './memory-rate-limit-store';
import { RedisRateLimitStore } from './redis-rate-limit-store';
import { rateLimitStoreContract } from './rate-limit-store.contract';
import { ServiceUnavailableError } from '../services';

rateLimitStoreContract('in-process', () => new MemoryRateLimitStore());

// CI runs it against Redis, never skipped there (.ci/run sets REDIS_URL)
const redisUrl = process.env.REDIS_URL;
if (redisUrl) {
  const prefix = `evo-test-${randomUUID()}`;
  rateLimitStoreContract(
    'Redis',
    () => new RedisRateLimitStore(redisUrl, prefix),
    () => new RedisRateLimitStore(redisUrl, prefix),
  );
} else if (process.env.CI) {
  describe('RateLimitStore contract: Redis', () => {
    it('runs on CI', () => {
      throw new Error('REDIS_URL must be set on CI: the Redis rate limits are never skipped there');
    });
  });
} else {
  console.warn('[skip] RateLimitStore contract on Redis: REDIS_URL is not set');
}

describe('RedisRateLimitStore with Redis away', () => {
  it('fails with ServiceUnavailableError (a 503), never lets a request through unlimited', async () => {
    // nothing listens on port 1
    const store = new RedisRateLimitStore('redis://127.0.0.1:1', `evo-test-${randomUUID()}`);
    try {
      await expect(store.take({ name: 'r', limit: 1, windowMs: 1000 }, 'k')).rejects.toBeInstanceOf(
        ServiceUnavailableError,
      );
    } finally {
      await store.close();
    }
  });
});
