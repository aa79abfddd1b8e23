import { positionFromString, positionToString, type GiftSent, type LogPosition, type RecordedEvent } from '@evo/domain';
import type { Doc, ReadStore } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { readCheckpointDoc } from '../runtime/checkpoint';
import { insertOnce } from '../runtime/write-once';

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
