import type { CatalogueGift, CoinGift, ReceivedGiftView } from '@evo/contracts';
import type { ReadStore } from '@evo/infra';
import {
  GIFT_CATALOG,
  GIFTS_RECEIVED,
  receivedGiftRow,
  type GiftCatalogDoc,
  type ReceivedGiftDoc,
} from './gifts-projector';

export function giftsQueries(read: ReadStore) {
  const catalog = read.collection<GiftCatalogDoc>(GIFT_CATALOG);
  const received = read.collection<ReceivedGiftDoc>(GIFTS_RECEIVED);
  return {
    /** [{ id, name, emoji, image_url, coin_cost }] by id */
    async catalog(): Promise<CatalogueGift[]> {
      const docs = await catalog.find({}, { sort: { _id: 1 } });
      return docs.map((g) => ({
        id: g.id,
        name: g.name,
        emoji: g.emoji,
        image_url: g.image_url,
        coin_cost: g.coin_cost,
      }));
    },
    /** gifts a member received, newest first */
    async received(receiverId: string, limit = 500): Promise<ReceivedGiftView[]> {
      const docs = await received.find({ receiver_id: receiverId }, { sort: { pos_key: -1 }, limit });
      return docs.map(receivedGiftRow);
    },
    /** the same gifts as coin amounts (the product rule "Received coin gift") */
    async coinGifts(receiverId: string, limit = 500): Promise<CoinGift[]> {
      const docs = await received.find({ receiver_id: receiverId }, { sort: { pos_key: -1 }, limit });
      return docs.map((g) => ({
        sender_email: g.sender_email,
        sender_pseudo: g.sender_pseudo,
        gift_value: g.coin_cost,
        amount: g.amount,
        name: g.name,
        emoji: g.emoji,
        created_at: g.received_at,
      }));
    },
    receivedGift: (giftId: number) => received.findOne({ _id: giftId }),
  };
}
