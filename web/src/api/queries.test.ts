import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { coinRoutes, getRoute, socialRoutes } from '@evo/contracts';
import { InvalidAnswerError } from './http';
import { createQueryClient, fetchRoute, refreshRoute, routeKey, routeQuery, routeUrl, updateRoute } from './queries';

const answer = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('a route gives its URL', () => {
  it('puts each path parameter in place, encoded', () => {
    expect(routeUrl(coinRoutes.wallet, { email: 'léa+1@x.fr' })).toBe('/api/coins/balance/l%C3%A9a%2B1%40x.fr');
    expect(routeUrl(socialRoutes.isFollowing, { followerEmail: 'a@x.fr', pseudo: 'b/c' })).toBe(
      '/api/users/follows/is-following/a%40x.fr/b%2Fc',
    );
  });
  it('appends the query string, leaving out what is not given', () => {
    const route = getRoute('/api/admin/users', z.unknown());
    expect(routeUrl(route, {}, { q: 'é t', page: 2, limit: undefined, asOf: null, x: '' })).toBe(
      '/api/admin/users?q=%C3%A9+t&page=2',
    );
    expect(routeUrl(route, {}, { asOf: null })).toBe('/api/admin/users');
  });
  it('refuses a call without one of its parameters', () => {
    expect(() => routeUrl(coinRoutes.wallet, {} as { email: string })).toThrow(/email/);
  });
});

describe('a route gives its cache key', () => {
  it('is the path, then the params, then the query string given', () => {
    expect(routeKey(coinRoutes.wallet)).toEqual(['/api/coins/balance/:email']);
    expect(routeKey(coinRoutes.wallet, { email: 'a@x.fr' })).toEqual([
      '/api/coins/balance/:email',
      { email: 'a@x.fr' },
    ]);
    expect(routeKey(coinRoutes.packs, {}, { page: 1, q: undefined })).toEqual(['/api/coins/packs', {}, { page: '1' }]);
    expect(routeKey(coinRoutes.packs, {}, { q: '' })).toEqual(['/api/coins/packs', {}]);
  });
});

describe('a route fetches and decodes its answer', () => {
  it('answers the contract type', async () => {
    const fetch = vi.fn(async () => answer([{ id: 1, name: 'Mini', coins_amount: 100, price_euros: 1 }]));
    vi.stubGlobal('fetch', fetch);
    await expect(fetchRoute(coinRoutes.packs, {})).resolves.toEqual([
      { id: 1, name: 'Mini', coins_amount: 100, price_euros: 1 },
    ]);
    expect(fetch).toHaveBeenCalledWith('/api/coins/packs', expect.objectContaining({ method: 'GET' }));
  });
  it('fails with InvalidAnswerError on an answer of another shape', async () => {
    vi.stubGlobal('fetch', async () => answer([{ id: 'one' }]));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(fetchRoute(coinRoutes.packs, {})).rejects.toBeInstanceOf(InvalidAnswerError);
  });
  it('fills the cache under its key (routeQuery)', async () => {
    vi.stubGlobal('fetch', async () => answer({ isFollowing: true }));
    const client = createQueryClient();
    const params = { followerEmail: 'a@x.fr', pseudo: 'bob' };
    await client.fetchQuery(routeQuery(socialRoutes.isFollowing, params));
    expect(client.getQueryData(routeKey(socialRoutes.isFollowing, params))).toEqual({ isFollowing: true });
  });
});

describe('updating and refreshing a route in the cache', () => {
  const stats = (n: number) => ({ following: n, followers: 0, total_likes: 0 });

  it('edits the answers of these params only, and leaves one not loaded alone', () => {
    const client = createQueryClient();
    client.setQueryData(routeKey(socialRoutes.stats, { email: 'a@x.fr' }), stats(1));
    client.setQueryData(routeKey(socialRoutes.stats, { email: 'b@x.fr' }), stats(5));
    updateRoute(client, socialRoutes.stats, { email: 'a@x.fr' }, (s) => ({ ...s, following: s.following + 1 }));
    updateRoute(client, socialRoutes.stats, { email: 'c@x.fr' }, () => stats(9));
    expect(client.getQueryData(routeKey(socialRoutes.stats, { email: 'a@x.fr' }))).toEqual(stats(2));
    expect(client.getQueryData(routeKey(socialRoutes.stats, { email: 'b@x.fr' }))).toEqual(stats(5));
    expect(client.getQueryData(routeKey(socialRoutes.stats, { email: 'c@x.fr' }))).toBeUndefined();
  });

  it('marks every answer of a route stale, or those of one set of params', async () => {
    const client = createQueryClient();
    client.setQueryData(routeKey(socialRoutes.stats, { email: 'a@x.fr' }), stats(1));
    client.setQueryData(routeKey(socialRoutes.stats, { email: 'b@x.fr' }), stats(1));
    client.setQueryData(routeKey(coinRoutes.packs, {}), []);
    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    await refreshRoute(client, socialRoutes.stats, { email: 'a@x.fr' });
    expect(stale(routeKey(socialRoutes.stats, { email: 'a@x.fr' }))).toBe(true);
    expect(stale(routeKey(socialRoutes.stats, { email: 'b@x.fr' }))).toBe(false);
    await refreshRoute(client, socialRoutes.stats);
    expect(stale(routeKey(socialRoutes.stats, { email: 'b@x.fr' }))).toBe(true);
    expect(stale(routeKey(coinRoutes.packs, {}))).toBe(false);
  });
});
