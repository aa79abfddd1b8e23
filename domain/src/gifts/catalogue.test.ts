import { describe, it, expect } from 'vitest';
import { given } from '../shared/given-when-then';
import { fold } from '../shared/decider';
import { catalogueDecider, CATALOGUE_MESSAGES, DEFAULT_GIFT_CATALOGUE, type CatalogueEvent } from './catalogue-decider';
import { AdminGiftBody, GIFT_ADMIN_MESSAGES, giftPrice } from './admin-rules';

const rose = { name: 'Rose', emoji: '🌹', imageUrl: '', coinCost: 1 };
const added = (giftId: number, g = rose): CatalogueEvent => ({ type: 'GiftAdded', data: { giftId, ...g } });

describe('gift catalogue', () => {
  it('seeds once, rose first', () => {
    const events = catalogueDecider.decide(
      { type: 'SeedCatalogue', gifts: [...DEFAULT_GIFT_CATALOGUE] },
      catalogueDecider.initialState(),
    );
    expect(events).toHaveLength(8);
    expect(events[0]).toEqual(added(1));
    given(catalogueDecider, events)
      .when({ type: 'SeedCatalogue', gifts: [...DEFAULT_GIFT_CATALOGUE] })
      .then([]);
    expect(new Set(DEFAULT_GIFT_CATALOGUE.map((g) => g.name)).size).toBe(8);
  });
  it('adds with the next id, never reusing a removed one', () => {
    given(catalogueDecider, [added(1), added(2)])
      .when({ type: 'AddGift', gift: rose })
      .then([added(3)]);
    given(catalogueDecider, [added(1), added(2), { type: 'GiftRemoved', data: { giftId: 2 } }])
      .when({ type: 'AddGift', gift: rose })
      .then([added(3)]);
  });
  it('updates and removes existing gifts only', () => {
    const changed = { ...rose, coinCost: 2 };
    given(catalogueDecider, [added(1)])
      .when({ type: 'UpdateGift', giftId: 1, gift: changed })
      .then([{ type: 'GiftUpdated', data: { giftId: 1, ...changed } }]);
    given(catalogueDecider, [added(1)])
      .when({ type: 'UpdateGift', giftId: 2, gift: changed })
      .thenThrows(CATALOGUE_MESSAGES.notFound, 'not_found');
    given(catalogueDecider, [added(1)])
      .when({ type: 'RemoveGift', giftId: 1 })
      .then([{ type: 'GiftRemoved', data: { giftId: 1 } }]);
    given(catalogueDecider, [added(1), { type: 'GiftRemoved', data: { giftId: 1 } }])
      .when({ type: 'RemoveGift', giftId: 1 })
      .thenThrows(CATALOGUE_MESSAGES.notFound, 'not_found');
    const state = fold(catalogueDecider, [
      added(1),
      added(2),
      { type: 'GiftUpdated', data: { giftId: 2, ...changed } },
      { type: 'GiftRemoved', data: { giftId: 1 } },
    ]);
    expect(state).toEqual({ lastId: 2, gifts: { 2: { id: 2, ...changed } } });
  });
});

describe('admin gift form', () => {
  const parse = (body: unknown) => AdminGiftBody.safeParse(body);
  it('trims, defaults the emoji and the image, converts the price', () => {
    expect(parse({ name: '  Rose ', price: '3' }).data).toEqual({ name: 'Rose', emoji: '', imageUrl: '', coinCost: 3 });
    expect(parse({ name: 'Rose', emoji: ' 🌹 ', price: 2, image_url: ' /uploads/gifts/a.png ' }).data).toEqual({
      name: 'Rose',
      emoji: '🌹',
      imageUrl: '/uploads/gifts/a.png',
      coinCost: 2,
    });
  });
  it('requires a name', () => {
    for (const name of [undefined, '', '   ', 12, null])
      expect(parse({ name, price: 1 }).error?.issues[0].message).toBe(GIFT_ADMIN_MESSAGES.nameRequired);
    expect(parse({ name: 'x'.repeat(61), price: 1 }).error?.issues[0].message).toBe(GIFT_ADMIN_MESSAGES.nameTooLong);
  });
  it('ends every price a whole number of coins between 0 and 1 000 000', () => {
    expect([
      giftPrice('abc'),
      giftPrice(''),
      giftPrice(undefined),
      giftPrice(null),
      giftPrice({}),
      giftPrice(true),
    ]).toEqual([0, 0, 0, 0, 0, 0]);
    expect([
      giftPrice(-5),
      giftPrice('-5'),
      giftPrice(12.6),
      giftPrice('12.4'),
      giftPrice(1e9),
      giftPrice('Infinity'),
      giftPrice(Number.NaN),
    ]).toEqual([0, 0, 13, 12, 1_000_000, 0, 0]);
    expect(parse({ name: 'Rose', price: 'abc' }).data?.coinCost).toBe(0);
  });
  it('refuses an emoji that is not a short text and an image address that is neither a path nor http(s)', () => {
    expect(parse({ name: 'Rose', price: 1, emoji: 5 }).error?.issues[0].message).toBe(GIFT_ADMIN_MESSAGES.emojiInvalid);
    expect(parse({ name: 'Rose', price: 1, emoji: 'x'.repeat(17) }).error?.issues[0].message).toBe(
      GIFT_ADMIN_MESSAGES.emojiInvalid,
    );
    for (const image_url of [
      'javascript:alert(1)',
      '//evil.example/x.png',
      'data:image/png;base64,xx',
      '/a b.png',
      7,
    ]) {
      expect(parse({ name: 'Rose', price: 1, image_url }).error?.issues[0].message).toBe(
        GIFT_ADMIN_MESSAGES.imageUrlInvalid,
      );
    }
    expect(parse({ name: 'Rose', price: 1, image_url: 'https://cdn.example/r.png' }).success).toBe(true);
  });
});
