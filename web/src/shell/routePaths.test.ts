import { describe, expect, it } from 'vitest';
import { APP_ROUTE_PATHS, isAppRoute } from '@evo/contracts';
import { BARE_ROUTES, LAYOUT_ROUTES } from './routes';

describe('the route table the server knows', () => {
  it('is exactly what the client-side router routes', () => {
    const routed = [...BARE_ROUTES, ...LAYOUT_ROUTES].map((r) => r.path).sort();
    expect(routed).toEqual([...APP_ROUTE_PATHS].sort());
  });

  it.each([
    '/',
    '/feed',
    '/feed/',
    '/FEED',
    '/video/12',
    '/user/l%C3%A9a',
    '/admin/stats/advanced',
    '/admin/transactions/a@b.fr',
  ])('%s is a screen', (path) => expect(isAppRoute(path)).toBe(true));

  it.each([
    '/nimporte-quoi',
    '/video',
    '/video/12/extra',
    '/user/',
    '/admin/stats/unknown',
    '//feed',
    '/feed//x',
    'feed',
  ])('%s is not', (path) => expect(isAppRoute(path)).toBe(false));
});
