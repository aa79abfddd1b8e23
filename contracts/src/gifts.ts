import { z } from 'zod';
import { getRoute, pure } from './api-route';
import { LEDGER_MESSAGES, memberEmail, wholeNumber } from './coins';

/**
 * The gifts' contract (the catalogue, sending, receiving, claiming): the request bodies, the
 * answers and the `gift:received` push. A send, a claim or a conversion answers a
 * `CoinCommandAnswer` and pushes `wallet:changed` (coins.ts).
 */

/**
 * POST /api/gifts/send. The receiver is named by `receiver_pseudo` (what members see of each
 * other) or, as the product specification lists it, by `receiver_email`; at least one, and both
 * must then name the same member.
 */
export const SendGiftBody = pure(() =>
  z
    .object({
      sender_email: memberEmail(),
      receiver_email: memberEmail(LEDGER_MESSAGES.receiverRequired).optional(),
      receiver_pseudo: z
        .string({ invalid_type_error: LEDGER_MESSAGES.receiverRequired })
        .trim()
        .min(1, LEDGER_MESSAGES.receiverRequired)
        .max(100, LEDGER_MESSAGES.receiverNotFound)
        .optional(),
      gift_id: wholeNumber(LEDGER_MESSAGES.giftInvalid),
    })
    .refine((b) => b.receiver_email !== undefined || b.receiver_pseudo !== undefined, {
      message: LEDGER_MESSAGES.receiverRequired,
      path: ['receiver_email'],
    }),
);
export type SendGiftBody = z.infer<typeof SendGiftBody>;

/** POST /api/gifts/claim */
export const ClaimBody = pure(() => z.object({ gift_id: wholeNumber(LEDGER_MESSAGES.giftInvalid) }));
export type ClaimBody = z.infer<typeof ClaimBody>;

/** A gift a member received, as their received-gifts table lists it. */
export const ReceivedGiftView = z.object({
  id: z.number(),
  name: z.string(),
  emoji: z.string(),
  sender_pseudo: z.string(),
  sender_email: z.string(),
  coin_cost: z.number(),
  /** coins credited to the receiver (the cost less the platform's fee) */
  amount: z.number(),
  sent_at: z.string(),
  claimed: z.boolean(),
});
export type ReceivedGiftView = z.infer<typeof ReceivedGiftView>;

/** The `gift:received` push (to the receiver's `user:<id>`): a gift they received. */
export const GiftReceivedPush = z.object({ gift: ReceivedGiftView });
export type GiftReceivedPush = z.infer<typeof GiftReceivedPush>;

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
