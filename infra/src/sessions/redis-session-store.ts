import type { Redis } from 'ioredis';
import { requestRedisClient, unavailableOnFailure } from '../redis-request-client';
import { childLogger } from '../logger';
import type { SessionData, SessionStore } from './port';

const log = childLogger('sessions');

/** Sessions shared by every API process, expiring in Redis. */
export class RedisSessionStore implements SessionStore {
  private readonly redis: Redis;
  constructor(
    redisUrl: string,
    private readonly prefix = 'evo:sess:',
  ) {
    this.redis = requestRedisClient(redisUrl, log, 'session store');
  }
  private call<R>(op: () => Promise<R>): Promise<R> {
    return unavailableOnFailure('Redis (sessions)', op);
  }
  async get(id: string) {
    const raw = await this.call(() => this.redis.get(this.prefix + id));
    return raw ? (JSON.parse(raw) as SessionData) : undefined;
  }
  /** the ids of a member's sessions (session ids have no ':'), kept as long as their newest session */
  private userKey = (userId: string) => `${this.prefix}user:${userId}`;
  async set(id: string, data: SessionData, ttlSeconds: number) {
    await this.call(() =>
      this.redis
        .multi()
        .set(this.prefix + id, JSON.stringify(data), 'EX', ttlSeconds)
        .sadd(this.userKey(data.userId), id)
        // the latest write of any of them lives longest: the set follows it
        .expire(this.userKey(data.userId), ttlSeconds)
        .exec(),
    );
  }
  async update(id: string, data: SessionData, ttlSeconds: number) {
    await this.call(() =>
      this.redis
        .multi()
        // XX: written only if the key is there, in one command (another replica may end it meanwhile)
        .set(this.prefix + id, JSON.stringify(data), 'EX', ttlSeconds, 'XX')
        // the member's set lives as long as this session now does (destroyAllOf finds it)
        .expire(this.userKey(data.userId), ttlSeconds)
        .exec(),
    );
  }
  async destroyAllOf(userId: string, keepId?: string) {
    const ids = (await this.call(() => this.redis.smembers(this.userKey(userId)))).filter((id) => id !== keepId);
    if (ids.length === 0) return;
    await this.call(() =>
      this.redis
        .multi()
        .del(...ids.map((id) => this.prefix + id))
        .srem(this.userKey(userId), ...ids)
        .exec(),
    );
  }
  async destroy(id: string) {
    await this.call(() => this.redis.del(this.prefix + id));
  }
  async close() {
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
