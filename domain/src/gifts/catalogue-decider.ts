import { z } from 'zod/v4';
import type { Decider, DomainEvent } from '../shared/decider';
import { notFound } from '../shared/errors';

/**
 * The gift catalogue, one stream `gift-catalogue`: its events and the decider that writes them.
 * Gift ids are given by the catalogue itself (highest id ever used + 1), so a replay gives the same
 * ids. GiftUpdated carries the whole new description; GiftRemoved hides a gift from the catalogue
 * (gifts already sent keep their copy of its name, emoji and cost).
 */
export const GIFT_CATALOGUE_STREAM = 'gift-catalogue';

export const GIFT_NAME_MAX = 60;
export const GiftDescriptionSchema = z.object({
  name: z.string().trim().min(1).max(GIFT_NAME_MAX),
  emoji: z.string().max(16),
  imageUrl: z.string().max(500),
  /** in coins; 0 is allowed in the catalogue (the admin form's fallback) but such a gift cannot be sent */
  coinCost: z.number().int().nonnegative().max(1_000_000),
});
export const GiftAddedSchema = GiftDescriptionSchema.extend({ giftId: z.number().int().positive() });
export const GiftUpdatedSchema = GiftAddedSchema;
export const GiftRemovedSchema = z.object({ giftId: z.number().int().positive() });

export type GiftDescription = z.infer<typeof GiftDescriptionSchema>;
export type GiftAdded = DomainEvent<'GiftAdded', z.infer<typeof GiftAddedSchema>>;
export type GiftUpdated = DomainEvent<'GiftUpdated', z.infer<typeof GiftUpdatedSchema>>;
export type GiftRemoved = DomainEvent<'GiftRemoved', z.infer<typeof GiftRemovedSchema>>;
export type CatalogueEvent = GiftAdded | GiftUpdated | GiftRemoved;

export const giftEventSchemas = {
  GiftAdded: GiftAddedSchema,
  GiftUpdated: GiftUpdatedSchema,
  GiftRemoved: GiftRemovedSchema,
} as const;

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
