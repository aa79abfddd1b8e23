import { positionFromString, type LogPosition } from '@evo/domain';
import type { ReadStore } from '@evo/infra';

export const CHECKPOINTS = '_checkpoints';
export const CHECKPOINT_ID = 'projections';

/** Where the read models are in the log, written in the same transaction as each batch. */
export type CheckpointDoc = {
  _id: string;
  position: string;
  /** the event at `position`: read models of another log (a restored or replaced one) are told apart */
  event_id?: string;
  /** projectorFingerprint of the code that built them */
  fingerprint?: string;
  updated_at: string;
};

export interface Checkpoint {
  position: LogPosition;
  eventId: string | undefined;
  fingerprint: string | undefined;
}

export async function readCheckpointDoc(read: ReadStore): Promise<Checkpoint | undefined> {
  const doc = await read.collection<CheckpointDoc>(CHECKPOINTS).findOne({ _id: CHECKPOINT_ID });
  return doc
    ? { position: positionFromString(doc.position), eventId: doc.event_id, fingerprint: doc.fingerprint }
    : undefined;
}

export async function readCheckpoint(read: ReadStore): Promise<LogPosition | undefined> {
  return (await readCheckpointDoc(read))?.position;
}

export async function writeCheckpoint(
  read: ReadStore,
  position: LogPosition,
  at?: { eventId: string; fingerprint: string | undefined },
): Promise<void> {
  await read.collection<CheckpointDoc>(CHECKPOINTS).updateOne(
    { _id: CHECKPOINT_ID },
    {
      $set: {
        position: position.toString(),
        ...(at ? { event_id: at.eventId, ...(at.fingerprint ? { fingerprint: at.fingerprint } : {}) } : {}),
        updated_at: new Date().toISOString(),
      },
    },
    { upsert: true },
  );
}
