import { positionFromString, type LogPosition } from '@evo/domain';
import type { ReadStore } from '@evo/infra';

export const CHECKPOINTS = '_checkpoints';
export const CHECKPOINT_ID = 'projections';

type CheckpointDoc = { _id: string; position: string; updated_at: string };

export async function readCheckpoint(read: ReadStore): Promise<LogPosition | undefined> {
  const doc = await read.collection<CheckpointDoc>(CHECKPOINTS).findOne({ _id: CHECKPOINT_ID });
  return doc ? positionFromString(doc.position) : undefined;
}

export async function writeCheckpoint(read: ReadStore, position: LogPosition): Promise<void> {
  await read
    .collection<CheckpointDoc>(CHECKPOINTS)
    .updateOne(
      { _id: CHECKPOINT_ID },
      { $set: { position: position.toString(), updated_at: new Date().toISOString() } },
      { upsert: true },
    );
}
