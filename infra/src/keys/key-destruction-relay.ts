import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { childLogger } from '../logger';
import { requestRedisClient } from '../redis-request-client';
import type { KeyDestructions } from './cached-key-store';

const log = childLogger('keys');

/**
 * Key destroys told to the other processes of a topology through Redis: each process publishes its
 * own on one channel, and moves its KeyDestructions count for each of the others'. So every
 * CachedKeyStore of every process forgets its keys as soon as the message comes (milliseconds),
 * not once they expire: a projections service, a rebuild or a replay elsewhere stops decrypting an
 * erased member's events at once. A message lost while Redis is away leaves the caches' expiry as
 * the bound, as before.
 */
export class KeyDestructionRelay {
  private readonly origin = randomUUID();

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channel: string,
  ) {}

  /** Subscribed once this resolves: a destroy published elsewhere after it is seen here. */
  static async start(redisUrl: string, channel: string, destructions: KeyDestructions): Promise<KeyDestructionRelay> {
    const publisher = requestRedisClient(redisUrl, log, 'key destroys relay');
    const subscriber = requestRedisClient(redisUrl, log, 'key destroys relay');
    const relay = new KeyDestructionRelay(publisher, subscriber, channel);
    subscriber.on('message', (from: string, origin: string) => {
      if (from === channel && origin !== relay.origin) destructions.noteOne();
    });
    try {
      await subscriber.subscribe(channel);
    } catch (err) {
      await relay.close();
      throw err;
    }
    return relay;
  }

  /** Tells the other processes that this one destroyed a key (their caches forget theirs). */
  async announce(): Promise<void> {
    try {
      await this.publisher.publish(this.channel, this.origin);
    } catch (err) {
      log.warn({ err }, 'key destroy not told to the other processes: their cached keys expire within seconds');
    }
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}
