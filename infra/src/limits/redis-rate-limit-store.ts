import type { Redis } from 'ioredis';
import { requestRedisClient, unavailableOnFailure } from '../redis-request-client';
import { childLogger } from '../logger';
import type { LimitCount, LimitRule, RateLimitStore, TakeResult } from './port';

const log = childLogger('limits');

/**
 * KEYS[1] the window's key; ARGV cost, limit (-1: none), window in ms. The check and the increment
 * in one script: Redis runs it whole, so concurrent takes from every API process each see the
 * others' counts. Answers { taken (1/0), count, ms left }.
 */
const TAKE = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local cost = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
if limit >= 0 and count + cost > limit then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then ttl = 0 end
  return {0, count, ttl}
end
count = redis.call('INCRBY', KEYS[1], cost)
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  ttl = tonumber(ARGV[3])
end
return {1, count, ttl}
`;

/** KEYS[1]; ARGV cost. Never below 0, and never outlives the window it gives back to. */
const GIVE_BACK = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count <= 0 then return 0 end
local cost = tonumber(ARGV[1])
if cost > count then cost = count end
return redis.call('DECRBY', KEYS[1], cost)
`;

type Scripted = Redis & {
  evoLimitTake(key: string, cost: number, limit: number, windowMs: number): Promise<[number, number, number]>;
  evoLimitGiveBack(key: string, cost: number): Promise<number>;
};

/** glob characters of SCAN's MATCH, escaped */
const globEscape = (s: string) => s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

/**
 * Counters shared by every process of a deployment, in Redis (`<REDIS_PREFIX>:limit:<rule>:<key>`,
 * each expiring with its window). While Redis is away a call fails with ServiceUnavailableError
 * (answered 503): a limit is never skipped.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Scripted;

  constructor(
    redisUrl: string,
    private readonly prefix = 'evo',
  ) {
    this.redis = requestRedisClient(redisUrl, log, 'rate limits') as Scripted;
    this.redis.defineCommand('evoLimitTake', { numberOfKeys: 1, lua: TAKE });
    this.redis.defineCommand('evoLimitGiveBack', { numberOfKeys: 1, lua: GIVE_BACK });
  }

  private key(rule: LimitRule, key: string) {
    return `${this.prefix}:limit:${rule.name}:${key}`;
  }

  private call<R>(op: () => Promise<R>): Promise<R> {
    return unavailableOnFailure('Redis (limites)', op);
  }

  async take(rule: LimitRule, key: string, cost = 1): Promise<TakeResult> {
    const limit = Number.isFinite(rule.limit) ? rule.limit : -1;
    const [taken, count, ttl] = await this.call(() =>
      this.redis.evoLimitTake(this.key(rule, key), cost, limit, rule.windowMs),
    );
    return { taken: taken === 1, count: Number(count), resetInMs: Number(ttl) };
  }

  async count(rule: LimitRule, key: string): Promise<LimitCount> {
    const k = this.key(rule, key);
    const [[, value], [, ttl]] = (await this.call(() => this.redis.multi().get(k).pttl(k).exec())) as [
      [unknown, string | null],
      [unknown, number],
    ];
    return { count: Number(value ?? 0), resetInMs: value === null ? 0 : Math.max(0, Number(ttl)) };
  }

  async giveBack(rule: LimitRule, key: string, cost = 1): Promise<void> {
    await this.call(() => this.redis.evoLimitGiveBack(this.key(rule, key), cost));
  }

  async reset(rule: LimitRule, key: string): Promise<void> {
    await this.call(() => this.redis.del(this.key(rule, key)));
  }

  async resetPrefix(rule: LimitRule, prefix: string): Promise<void> {
    const match = `${globEscape(this.key(rule, prefix))}*`;
    await this.call(async () => {
      let cursor = '0';
      do {
        const [next, keys] = await this.redis.scan(cursor, 'MATCH', match, 'COUNT', 500);
        if (keys.length > 0) await this.redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    });
  }

  async close(): Promise<void> {
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
