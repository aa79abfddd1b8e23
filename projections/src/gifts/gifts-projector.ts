import {
  DELETED_MEMBER_LABEL,
  positionFromString,
  positionKey,
  positionToString,
  type GiftSent,
  type LogPosition,
  type RecordedEvent,
} from '@evo/domain';
import type { CatalogueGift, ReceivedGiftView } from '@evo/contracts';
import type { Doc, ReadStore } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { goneMember } from '../runtime/member-gone';
import { memberCopies, shownAs } from '../runtime/own-copies';
import { insertOnce } from '../runtime/write-once';
import { readCheckpointDoc } from '../runtime/checkpoint';

export const GIFT_CATALOG = 'gift_catalog';
export const GIFTS_RECEIVED = 'gifts_received';
/** Socket.IO room every connected client is in: 'catalogue:changed' { gift_id, removed?, position } */
export const CATALOGUE_ROOM = 'catalogue';

/** A gift of the catalogue (the product rule "Gift in catalogue"), as the catalogue lists it. */
export interface GiftCatalogDoc extends Doc, CatalogueGift {
  _id: number;
}

/**
 * A gift a member received (the product rule "Received gift" and "Received coin gift"): the row
 * the screens list (`coin_cost`: what the sender paid; `amount`: the coins credited to the
 * receiver), and what the credits and the claims need.
 */
export interface ReceivedGiftDoc extends Doc, ReceivedGiftView {
  _id: number;
  receiver_id: string;
  sender_id: string;
  catalog_gift_id: number;
  /** platform fee taken from the cost */
  fee: number;
  received_at: string;
  claimed_at: string | null;
  pos_key: string;
}

/** The received-gift row the screens and the `gift:received` push use. */
export const receivedGiftRow = (g: ReceivedGiftDoc): ReceivedGiftView => ({
  id: g.id,
  name: g.name,
  emoji: g.emoji,
  sender_pseudo: g.sender_pseudo,
  sender_email: g.sender_email,
  coin_cost: g.coin_cost,
  amount: g.amount,
  sent_at: g.sent_at,
  claimed: g.claimed,
});

/**
 * The catalogue and received gifts. Writes are idempotent (documents keyed by ids from the events,
 * a received gift inserted once, so a redelivery never resets `claimed`). Pushes `gift:received` to
 * the receiver and `catalogue:changed` to the 'catalogue' room on every catalogue edit.
 */
/** the senders of gifts (the projector's own copy: it never reads `users`) */
const senders = memberCopies('gift_senders', ['email', 'pseudo']);

export const giftsProjector: Projector = {
  name: 'gifts',
  collections: [GIFT_CATALOG, GIFTS_RECEIVED, senders.collection],
  eventTypes: [
    'GiftAdded',
    'GiftUpdated',
    'GiftRemoved',
    'GiftReceived',
    'GiftClaimed',
    'GiftsConverted',
    ...senders.eventTypes,
  ],
  indexes: {
    [GIFTS_RECEIVED]: [{ key: { receiver_id: 1, pos_key: -1 } }, { key: { sender_id: 1 } }],
  },
  async project(event, store, ctx) {
    await senders.project(event, store);
    const catalog = store.collection<GiftCatalogDoc>(GIFT_CATALOG);
    const received = store.collection<ReceivedGiftDoc>(GIFTS_RECEIVED);
    const gone = goneMember(event);
    if (gone) {
      // a deleted member's received gifts go; those they sent stay with their receivers, from nobody
      await received.deleteMany({ receiver_id: gone });
      await received.updateMany(
        { sender_id: gone },
        { $set: { sender_id: '', sender_pseudo: DELETED_MEMBER_LABEL, sender_email: '' } },
      );
      return;
    }
    switch (event.type) {
      case 'GiftAdded':
      case 'GiftUpdated': {
        const d = event.data;
        await catalog.replaceOne(
          { _id: d.giftId },
          { _id: d.giftId, id: d.giftId, name: d.name, emoji: d.emoji, image_url: d.imageUrl, coin_cost: d.coinCost },
          { upsert: true },
        );
        ctx.push(CATALOGUE_ROOM, 'catalogue:changed', {
          gift_id: d.giftId,
          position: positionToString(event.position),
        });
        return;
      }
      case 'GiftRemoved':
        await catalog.deleteOne({ _id: event.data.giftId });
        ctx.push(CATALOGUE_ROOM, 'catalogue:changed', {
          gift_id: event.data.giftId,
          removed: true,
          position: positionToString(event.position),
        });
        return;
      case 'GiftReceived': {
        const d = event.data;
        const sender = await senders.find(store, d.senderId);
        const doc: ReceivedGiftDoc = {
          _id: d.giftId,
          id: d.giftId,
          receiver_id: d.userId,
          sender_id: d.senderId,
          ...shownAs('sender', sender, ['pseudo', 'email']),
          catalog_gift_id: d.catalogGiftId,
          name: d.name,
          emoji: d.emoji,
          coin_cost: d.coinCost,
          fee: d.fee,
          amount: d.amount,
          sent_at: d.sentAt,
          received_at: event.metadata.at,
          claimed: false,
          claimed_at: null,
          pos_key: positionKey(event.position),
        };
        // written once: a redelivery (maybe after a claim) finds it and changes nothing
        if (await insertOnce(received, doc))
          ctx.push(`user:${d.userId}`, 'gift:received', { gift: receivedGiftRow(doc) });
        return;
      }
      case 'GiftClaimed':
        await received.updateOne(
          { _id: event.data.giftId, claimed: false },
          { $set: { claimed: true, claimed_at: event.metadata.at } },
        );
        return;
      case 'GiftsConverted':
        if (event.data.giftIds.length === 0) return;
        await received.updateMany(
          { _id: { $in: event.data.giftIds }, claimed: false },
          { $set: { claimed: true, claimed_at: event.metadata.at } },
        );
        return;
      default:
        return;
    }
  },
};

/* The gifts in transit: the gift credits' restart point (gift-credits.ts in command-api). */

export const GIFTS_IN_TRANSIT = 'gifts_in_transit';

/** A gift sent and not yet credited to its receiver: its GiftSent event as the log holds it. */
interface GiftInTransitDoc extends Doc {
  _id: number;
  event: Omit<RecordedEvent, 'position'> & { position: string };
}

/**
 * The gift-credit process manager's state as a read model: every `GiftSent` without its
 * `GiftReceived` yet. It is committed with the read models' checkpoint, so a start of the gift
 * credits reads it (giftsInTransit) and folds only the log after that checkpoint.
 */
export const giftsInTransitProjector: Projector = {
  name: 'gifts-in-transit',
  collections: [GIFTS_IN_TRANSIT],
  eventTypes: ['GiftSent', 'GiftReceived', 'GiftForfeited'],
  async project(event, store) {
    const transit = store.collection<GiftInTransitDoc>(GIFTS_IN_TRANSIT);
    if (event.type === 'GiftSent') {
      const { position, ...rest } = event as RecordedEvent;
      await insertOnce(transit, { _id: event.data.giftId, event: { ...rest, position: positionToString(position) } });
    } else if (event.type === 'GiftReceived' || event.type === 'GiftForfeited') {
      // the log puts a gift's GiftReceived after its GiftSent: a redelivered suffix deletes it again
      await transit.deleteOne({ _id: event.data.giftId });
    }
  },
};

export interface GiftsInTransit {
  position: LogPosition;
  eventId: string;
  transit: Array<RecordedEvent<'GiftSent', GiftSent['data']>>;
}

/**
 * The gifts in transit as the read models hold them, with the position they are at (undefined
 * before the read models have any). Read between two reads of the checkpoint that agree, so the
 * list is the one of that position even while the runner commits batches.
 */
export async function giftsInTransit(read: ReadStore): Promise<GiftsInTransit | undefined> {
  for (;;) {
    const before = await readCheckpointDoc(read);
    if (!before?.eventId) return undefined;
    const docs = await read.collection<GiftInTransitDoc>(GIFTS_IN_TRANSIT).find({}, { sort: { _id: 1 } });
    const after = await readCheckpointDoc(read);
    if (after?.position !== before.position) continue;
    return {
      position: before.position,
      eventId: before.eventId,
      transit: docs.map(
        (d) => ({ ...d.event, position: positionFromString(d.event.position) }) as GiftsInTransit['transit'][number],
      ),
    };
  }
}
