import { z } from 'zod';
import { getRoute } from '../api-route';
import { ReceivedGiftView } from '../views';

/** Answers of the gift routes (`/api/gifts/*`); a send or a claim answers a `CoinCommandAnswer`. */

/** A gift of the catalogue, GET /api/gifts/catalog (the product entities, "Gift in catalogue"). */
export const CatalogueGift = z.object({
  id: z.number(),
  name: z.string(),
  emoji: z.string(),
  image_url: z.string(),
  /** in coins */
  coin_cost: z.number(),
});
export type CatalogueGift = z.infer<typeof CatalogueGift>;

/** GET /api/gifts/balance/:email: the coins the member may spend, as the gift client reads them. */
export const GiftBalanceAnswer = z.object({ balance: z.number() });
export type GiftBalanceAnswer = z.infer<typeof GiftBalanceAnswer>;

/** The gift routes the web app reads (the catalogue; a member's received gifts, their balance as the gift client reads it). */
export const giftRoutes = {
  catalog: getRoute('/api/gifts/catalog', z.array(CatalogueGift)),
  received: getRoute('/api/gifts/received/:email', z.array(ReceivedGiftView)),
  balance: getRoute('/api/gifts/balance/:email', GiftBalanceAnswer),
};
