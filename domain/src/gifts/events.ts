import { z } from 'zod/v4';
import type { DomainEvent } from '../shared/decider';

/**
 * The gift catalogue, one stream `gift-catalogue`. Gift ids are given by the catalogue itself
 * (highest id ever used + 1), so a replay gives the same ids. GiftUpdated carries the whole new
 * description; GiftRemoved hides a gift from the catalogue (gifts already sent keep their copy of
 * its name, emoji and cost).
 */
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
