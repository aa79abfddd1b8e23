import { Redis } from 'ioredis';
import type { SessionData, SessionStore } from './port';

/** Sessions shared by every API process, expiring in Redis. */
export class RedisSessionStore implements SessionStore {
  private readonly redis: Redis;
  constructor(
    redisUrl: string,
    private readonly prefix = 'evo:sess:',
  ) {
    this.redis = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  }
  async get(id: string) {
    const raw = await this.redis.get(this.prefix + id);
    return raw ? (JSON.parse(raw) as SessionData) : undefined;
  }
  async set(id: string, data: SessionData, ttlSeconds: number) {
    await this.redis.set(this.prefix + id, JSON.stringify(data), 'EX', ttlSeconds);
  }
  async destroy(id: string) {
    await this.redis.del(this.prefix + id);
  }
  async close() {
    await this.redis.quit();
  }
}
