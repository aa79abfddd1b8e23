import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { LimitRule, RateLimitStore } from './port';

/**
 * What every RateLimitStore does, run against each adapter (rate-limit-store.test.ts): the
 * in-process counters and Redis. `share` makes a second store on the same counters when the
 * adapter has such a thing (two API processes on one Redis), to hold that they share one budget.
 */
export function rateLimitStoreContract(
  name: string,
  make: () => RateLimitStore,
  share?: (first: RateLimitStore) => RateLimitStore,
) {
  describe(`RateLimitStore contract: ${name}`, () => {
    const store = make();
    const others: RateLimitStore[] = [];
    afterAll(async () => {
      for (const o of others) await o.close();
      await store.close();
    });
    /** a rule of its own per test, so that tests never share a counter */
    const rule = (limit: number, windowMs = 60_000): LimitRule => ({ name: `r${randomUUID()}`, limit, windowMs });

    it('takes places up to the limit, then refuses, and says when the window ends', async () => {
      const r = rule(3);
      for (let i = 1; i <= 3; i++) expect(await store.take(r, 'k')).toMatchObject({ taken: true, count: i });
      const refused = await store.take(r, 'k');
      expect(refused).toMatchObject({ taken: false, count: 3 });
      expect(refused.resetInMs).toBeGreaterThan(55_000);
      expect(refused.resetInMs).toBeLessThanOrEqual(60_000);
      // other keys and other rules are apart
      expect(await store.take(r, 'autre')).toMatchObject({ taken: true, count: 1 });
      expect(await store.take(rule(3), 'k')).toMatchObject({ taken: true, count: 1 });
    });

    it('lets exactly the limit through when takes arrive all at once', async () => {
      const r = rule(5);
      const results = await Promise.all(Array.from({ length: 40 }, () => store.take(r, 'k')));
      expect(results.filter((t) => t.taken)).toHaveLength(5);
      expect(await store.count(r, 'k')).toMatchObject({ count: 5 });
    });

    it('adds up costs (bytes), refusing one that would pass the limit', async () => {
      const r = rule(1000);
      expect(await store.take(r, 'k', 600)).toMatchObject({ taken: true, count: 600 });
      expect(await store.take(r, 'k', 500)).toMatchObject({ taken: false, count: 600 });
      expect(await store.take(r, 'k', 400)).toMatchObject({ taken: true, count: 1000 });
    });

    it('counts without a limit', async () => {
      const r = rule(Number.POSITIVE_INFINITY);
      for (let i = 0; i < 50; i++) await store.take(r, 'k');
      expect(await store.count(r, 'k')).toMatchObject({ count: 50 });
    });

    it('gives back places, never below 0; resets a key, or every key of a prefix', async () => {
      const r = rule(2);
      await store.take(r, 'k');
      await store.take(r, 'k');
      await store.giveBack(r, 'k');
      expect(await store.take(r, 'k')).toMatchObject({ taken: true, count: 2 });
      await store.giveBack(r, 'k', 10);
      expect(await store.count(r, 'k')).toMatchObject({ count: 0 });
      await store.giveBack(r, 'absent');
      expect(await store.count(r, 'absent')).toEqual({ count: 0, resetInMs: 0 });
      await store.take(r, 'k');
      await store.reset(r, 'k');
      expect(await store.count(r, 'k')).toEqual({ count: 0, resetInMs: 0 });
      for (const k of ['lea@evo.fr 10.0.0.1', 'lea@evo.fr 10.0.0.2', 'lea@evo.fr* 10.0.0.3', 'hugo@evo.fr 10.0.0.1'])
        await store.take(r, k);
      await store.resetPrefix(r, 'lea@evo.fr ');
      expect((await store.count(r, 'lea@evo.fr 10.0.0.1')).count).toBe(0);
      expect((await store.count(r, 'lea@evo.fr 10.0.0.2')).count).toBe(0);
      expect((await store.count(r, 'lea@evo.fr* 10.0.0.3')).count).toBe(1);
      expect((await store.count(r, 'hugo@evo.fr 10.0.0.1')).count).toBe(1);
    });

    it('starts afresh once the window is over', async () => {
      const r = rule(1, 300);
      expect((await store.take(r, 'k')).taken).toBe(true);
      expect((await store.take(r, 'k')).taken).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 450));
      expect(await store.count(r, 'k')).toEqual({ count: 0, resetInMs: 0 });
      expect(await store.take(r, 'k')).toMatchObject({ taken: true, count: 1 });
    });

    if (share)
      it('shares one budget between two processes on the same counters', async () => {
        const second = share(store);
        others.push(second);
        const r = rule(6);
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? second : store).take(r, 'k')));
        expect(results.filter((t) => t.taken)).toHaveLength(6);
        expect((await second.count(r, 'k')).count).toBe(6);
      });
  });
}
