import { describe, expect, it } from 'vitest';
import { socialRoutes } from '@evo/contracts';
import { createQueryClient, routeKey } from '../api/queries';
import { socialPushes } from './live';

describe("the member's own counters in the cache", () => {
  const email = 'ana@example.com';
  const stats = { following: 1, followers: 2, total_likes: 3 };

  it.each(['follow:new', 'sync'] as const)("'%s' makes them stale, and not another member's", (event) => {
    const client = createQueryClient();
    const own = routeKey(socialRoutes.stats, { email });
    const other = routeKey(socialRoutes.stats, { email: 'bob@example.com' });
    client.setQueryData(own, stats);
    client.setQueryData(other, stats);
    const handler = socialPushes(client, email)[event] as (payload: unknown) => void;
    handler({});
    expect(client.getQueryState(own)?.isInvalidated).toBe(true);
    expect(client.getQueryState(other)?.isInvalidated).toBe(false);
  });
});
