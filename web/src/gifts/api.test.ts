import { describe, expect, it } from 'vitest';
import { giftRoutes, type CatalogueGift, type ReceivedGiftView } from '@evo/contracts';
import { createQueryClient, routeKey } from '../api/queries';
import { walletPush } from '../coins/testWallet';
import { giftPushes, refreshGifts } from './api';

const gift = (id: number): ReceivedGiftView => ({
  id,
  name: 'Rose',
  emoji: '🌹',
  sender_pseudo: 'sam',
  sender_email: 's@x.fr',
  coin_cost: 10,
  amount: 9,
  sent_at: '2026-01-01T00:00:00.000Z',
  claimed: false,
});

describe('gift pushes in the cache', () => {
  const receivedKey = (email: string) => routeKey(giftRoutes.received, { email });

  it("'gift:received' puts the new gift on top of the member's list at once, once", () => {
    const client = createQueryClient();
    client.setQueryData(receivedKey('a@x.fr'), [gift(1)]);
    const pushes = giftPushes(client, 'a@x.fr');
    pushes['gift:received']?.({ gift: gift(2) });
    pushes['gift:received']?.({ gift: gift(2) });
    expect(client.getQueryData<ReceivedGiftView[]>(receivedKey('a@x.fr'))?.map((g) => g.id)).toEqual([2, 1]);
  });

  it("'wallet:changed' asks the received gifts again; 'catalogue:changed' the catalogue", async () => {
    const client = createQueryClient();
    client.setQueryData(receivedKey('a@x.fr'), [gift(1)]);
    client.setQueryData(routeKey(giftRoutes.catalog, {}), [] as CatalogueGift[]);
    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    const pushes = giftPushes(client, 'a@x.fr');
    pushes['wallet:changed']?.(walletPush({ position: '3' }));
    expect(stale(receivedKey('a@x.fr'))).toBe(true);
    expect(stale(routeKey(giftRoutes.catalog, {}))).toBe(false);
    pushes['catalogue:changed']?.({ gift_id: 4, position: '4' });
    expect(stale(routeKey(giftRoutes.catalog, {}))).toBe(true);
  });

  it('once listening, asks again what its pushes keep fresh: a push sent before the handlers loaded is in the answers', () => {
    const client = createQueryClient();
    client.setQueryData(receivedKey('a@x.fr'), [gift(1)]);
    client.setQueryData(receivedKey('b@x.fr'), [gift(5)]);
    client.setQueryData(routeKey(giftRoutes.catalog, {}), [] as CatalogueGift[]);
    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    refreshGifts(client, 'a@x.fr');
    expect(stale(receivedKey('a@x.fr'))).toBe(true);
    expect(stale(routeKey(giftRoutes.catalog, {}))).toBe(true);
    // another member's answers (a cache not yet emptied) are left alone
    expect(stale(receivedKey('b@x.fr'))).toBe(false);
  });
});
