import { describe, it, expect } from 'vitest';
import { given } from '../shared/given-when-then';
import { fold } from '../shared/decider';
import { catalogueDecider, CATALOGUE_MESSAGES, DEFAULT_GIFT_CATALOGUE } from './catalogue-decider';
import type { CatalogueEvent } from './events';

const rose = { name: 'Rose', emoji: '🌹', imageUrl: '', coinCost: 1 };
const added = (giftId: number, g = rose): CatalogueEvent => ({ type: 'GiftAdded', data: { giftId, ...g } });

describe('gift catalogue', () => {
  it('seeds once, rose first', () => {
    const events = catalogueDecider.decide({ type: 'SeedCatalogue', gifts: [...DEFAULT_GIFT_CATALOGUE] }, catalogueDecider.initialState());
    expect(events).toHaveLength(8);
    expect(events[0]).toEqual(added(1));
    given(catalogueDecider, events).when({ type: 'SeedCatalogue', gifts: [...DEFAULT_GIFT_CATALOGUE] }).then([]);
    expect(new Set(DEFAULT_GIFT_CATALOGUE.map((g) => g.name)).size).toBe(8);
  });
  it('adds with the next id, never reusing a removed one', () => {
    given(catalogueDecider, [added(1), added(2)]).when({ type: 'AddGift', gift: rose }).then([added(3)]);
    given(catalogueDecider, [added(1), added(2), { type: 'GiftRemoved', data: { giftId: 2 } }]).when({ type: 'AddGift', gift: rose }).then([added(3)]);
  });
  it('updates and removes existing gifts only', () => {
    const changed = { ...rose, coinCost: 2 };
    given(catalogueDecider, [added(1)]).when({ type: 'UpdateGift', giftId: 1, gift: changed }).then([{ type: 'GiftUpdated', data: { giftId: 1, ...changed } }]);
    given(catalogueDecider, [added(1)]).when({ type: 'UpdateGift', giftId: 2, gift: changed }).thenThrows(CATALOGUE_MESSAGES.notFound, 404);
    given(catalogueDecider, [added(1)]).when({ type: 'RemoveGift', giftId: 1 }).then([{ type: 'GiftRemoved', data: { giftId: 1 } }]);
    given(catalogueDecider, [added(1), { type: 'GiftRemoved', data: { giftId: 1 } }]).when({ type: 'RemoveGift', giftId: 1 }).thenThrows(CATALOGUE_MESSAGES.notFound, 404);
    const state = fold(catalogueDecider, [added(1), added(2), { type: 'GiftUpdated', data: { giftId: 2, ...changed } }, { type: 'GiftRemoved', data: { giftId: 1 } }]);
    expect(state).toEqual({ lastId: 2, gifts: { 2: { id: 2, ...changed } } });
  });
});
