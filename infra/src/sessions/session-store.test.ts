import { describe, it, expect, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { SessionStore } from './port';
import { MemorySessionStore } from './memory-session-store';
import { RedisSessionStore } from './redis-session-store';

function sessionStoreContract(name: string, make: () => SessionStore) {
  describe(`SessionStore contract: ${name}`, () => {
    const store = make();
    afterAll(() => store.close());
    it('stores, reads and destroys a session', async () => {
      const id = randomUUID();
      expect(await store.get(id)).toBeUndefined();
      await store.set(id, { userId: 'u1', createdAt: 1, lastPosition: '42' }, 60);
      expect(await store.get(id)).toEqual({ userId: 'u1', createdAt: 1, lastPosition: '42' });
      await store.destroy(id);
      expect(await store.get(id)).toBeUndefined();
    });
    it('expires a session after its time to live', async () => {
      const id = randomUUID();
      await store.set(id, { userId: 'u2', createdAt: 1 }, 1);
      await new Promise((r) => setTimeout(r, 1100));
      expect(await store.get(id)).toBeUndefined();
    });
  });
}

sessionStoreContract('memory', () => new MemorySessionStore());
if (process.env.REDIS_URL) {
  sessionStoreContract('redis', () => new RedisSessionStore(process.env.REDIS_URL!, `evo-test:${randomUUID()}:`));
} else {
  console.warn('RedisSessionStore tests skipped: REDIS_URL is not set');
  describe.skip('SessionStore contract: redis (REDIS_URL not set)', () => {
    it('runs against Redis', () => {});
  });
}
