import { positionKey, type LogPosition } from '@evo/domain';
import { DuplicateKeyError, type ReadCollection, type Doc, type Update } from '@evo/infra';

/**
 * Apply `update` to document `id` unless an event at this position (or later) was already
 * applied to it: the document remembers the last position in a guard field (fixed-width string
 * so it compares the same in MongoDB and in memory). Makes `$inc`/`$push` safe under redelivery.
 * Each projector writing a shared document uses its own guard field (`guard`), and makes at
 * most one guarded write per document per event. Returns true when the update was applied.
 */
export async function applyOnce(
  coll: ReadCollection<Doc>,
  id: string | number,
  position: LogPosition,
  update: Update,
  options: { upsert?: boolean; guard?: string } = {},
): Promise<boolean> {
  const key = positionKey(position);
  const guard = options.guard ? `_pos_${options.guard}` : '_pos';
  const set = { ...((update.$set as Record<string, unknown> | undefined) ?? {}), [guard]: key };
  try {
    const r = await coll.updateOne(
      { _id: id, $or: [{ [guard]: { $exists: false } }, { [guard]: { $lt: key } }] },
      { ...update, $set: set },
      { upsert: options.upsert ?? false },
    );
    return r.matchedCount + r.upsertedCount > 0;
  } catch (e) {
    // upsert of an _id that exists with a later _pos: already applied
    if (e instanceof DuplicateKeyError || (e as { code?: number }).code === 11000) return false;
    throw e;
  }
}
