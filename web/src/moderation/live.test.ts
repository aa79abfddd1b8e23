import { describe, expect, it } from 'vitest';
import { moderationRoutes, type MyModerationAnswer } from '@evo/contracts';
import { createQueryClient, routeKey } from '../api/queries';
import { moderationPushes, myModerationQuery, untilFirstEnd } from './live';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const mine = (...ends: (string | null)[]): MyModerationAnswer => ({
  decisions: [],
  restrictions: ends.map((ends_at, i) => ({ id: `r${i}`, scopes: ['comment'], ends_at, reason: 'Propos' })),
  blocked: ends.length > 0 ? { comment: 'Tu ne peux pas commenter.' } : {},
});

describe("the member's moderation state in the cache", () => {
  it("'moderation:changed' asks it again", () => {
    const client = createQueryClient();
    const key = routeKey(moderationRoutes.mine, {});
    client.setQueryData(key, mine());
    moderationPushes(client)['moderation:changed']?.({ position: '5' });
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
  });

  it('is asked again half a second after the first restriction ends, not before', () => {
    const data = mine('2026-03-01T14:00:00.000Z', null, '2026-03-01T13:00:00.000Z');
    expect(untilFirstEnd(data, NOW)).toBe(3_600_000 + 500);
    expect(untilFirstEnd(mine(null), NOW)).toBeUndefined();
    expect(untilFirstEnd(undefined, NOW)).toBeUndefined();
    // already over (the server has not caught up yet): at once
    expect(untilFirstEnd(mine('2026-03-01T11:00:00.000Z'), NOW)).toBe(500);
    // a timer cannot wait years: it checks again after about 23 days
    expect(untilFirstEnd(mine('2030-01-01T00:00:00.000Z'), NOW)).toBe(2_000_000_000);
  });

  it('stays fresh (one call for every panel) until its first restriction ends', () => {
    const client = createQueryClient();
    const options = myModerationQuery();
    client.setQueryData(options.queryKey, mine('2026-03-01T13:00:00.000Z'), { updatedAt: NOW });
    const query = client.getQueryCache().find({ queryKey: options.queryKey })!;
    const staleTime = options.staleTime as (q: typeof query) => number;
    expect(staleTime(query)).toBe(3_600_000 + 500);
    client.setQueryData(options.queryKey, mine(null), { updatedAt: NOW });
    expect(staleTime(query)).toBe(Infinity);
  });
});
