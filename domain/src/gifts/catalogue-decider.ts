import type { Decider } from '../shared/decider';
import { notFound } from '../shared/errors';
import type { CatalogueEvent, GiftDescription } from './events';

export const GIFT_CATALOGUE_STREAM = 'gift-catalogue';

export const CATALOGUE_MESSAGES = {
  notFound: 'Cadeau introuvable.',
} as const;

/** A gift of the catalogue as commands see it. */
export interface CatalogueGift extends GiftDescription {
  id: number;
}

export type CatalogueCommand =
  | { type: 'AddGift'; gift: GiftDescription }
  /** add these gifts only if the catalogue never had any (idempotent start-up seed) */
  | { type: 'SeedCatalogue'; gifts: GiftDescription[] }
  | { type: 'UpdateGift'; giftId: number; gift: GiftDescription }
  | { type: 'RemoveGift'; giftId: number };

export interface CatalogueState {
  /** highest id ever given (removed ids are never reused) */
  lastId: number;
  gifts: Readonly<Record<number, CatalogueGift>>;
}

export const catalogueDecider: Decider<CatalogueCommand, CatalogueEvent, CatalogueState> = {
  initialState: () => ({ lastId: 0, gifts: {} }),
  evolve(state, event) {
    switch (event.type) {
      case 'GiftAdded':
      case 'GiftUpdated': {
        const { giftId, ...gift } = event.data;
        return { lastId: Math.max(state.lastId, giftId), gifts: { ...state.gifts, [giftId]: { id: giftId, ...gift } } };
      }
      case 'GiftRemoved': {
        const { [event.data.giftId]: _removed, ...gifts } = state.gifts;
        return { ...state, gifts };
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'AddGift':
        return [{ type: 'GiftAdded', data: { giftId: state.lastId + 1, ...command.gift } }];
      case 'SeedCatalogue':
        if (state.lastId > 0) return [];
        return command.gifts.map((gift, i) => ({ type: 'GiftAdded' as const, data: { giftId: i + 1, ...gift } }));
      case 'UpdateGift': {
        const current = state.gifts[command.giftId];
        if (!current) throw notFound(CATALOGUE_MESSAGES.notFound);
        const { name, emoji, imageUrl, coinCost } = command.gift;
        // saving a gift unchanged is not a change: no event
        if (
          current.name === name &&
          current.emoji === emoji &&
          current.imageUrl === imageUrl &&
          current.coinCost === coinCost
        )
          return [];
        return [{ type: 'GiftUpdated', data: { giftId: command.giftId, name, emoji, imageUrl, coinCost } }];
      }
      case 'RemoveGift':
        if (!state.gifts[command.giftId]) throw notFound(CATALOGUE_MESSAGES.notFound);
        return [{ type: 'GiftRemoved', data: { giftId: command.giftId } }];
    }
  },
};

/**
 * The catalogue seeded at start on an empty `gift-catalogue` stream. Gift 1 is the rose that video
 * cards always send. Images are optional (the emoji is shown when image_url is empty).
 */
export const DEFAULT_GIFT_CATALOGUE: readonly GiftDescription[] = Object.freeze([
  { name: 'Rose', emoji: '🌹', imageUrl: '', coinCost: 1 },
  { name: 'Cœur', emoji: '❤️', imageUrl: '', coinCost: 5 },
  { name: 'Croissant', emoji: '🥐', imageUrl: '', coinCost: 10 },
  { name: 'Ballon', emoji: '🎈', imageUrl: '', coinCost: 25 },
  { name: 'Trophée', emoji: '🏆', imageUrl: '', coinCost: 50 },
  { name: 'Couronne', emoji: '👑', imageUrl: '', coinCost: 100 },
  { name: 'Fusée', emoji: '🚀', imageUrl: '', coinCost: 250 },
  { name: 'Licorne', emoji: '🦄', imageUrl: '', coinCost: 500 },
]);
