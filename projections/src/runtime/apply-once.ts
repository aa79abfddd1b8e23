import { positionKey, type LogPosition } from '@evo/domain';
import { DuplicateKeyError, type ReadCollection, type Doc, type Update } from '@evo/infra';

/**
 * Apply `update` to document `id` unless an event at this position (or later) was already
 * applied to it: the document remembers the last position in a guard field (fixed-width string
 * so it compares the same in MongoDB and in memory). Makes `$inc`/`$push` safe under redelivery.
 * Each projector writing a shared document uses its own guard field (`guard`), and makes at
 * most one guarded write per document per event. Returns true when the update was applied.
 *
 * Never provokes a duplicate key (the port's rule for writes inside withTransaction: on MongoDB a
 * duplicate key aborts the transaction even when caught): a guarded update first; only when it
 * matched nothing and the document does not exist, the guarded upsert that inserts it.
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
  const guarded = { _id: id, $or: [{ [guard]: { $exists: false } }, { [guard]: { $lt: key } }] };
  const guardedUpdate = { ...update, $set: set };
  const applied = await coll.updateOne(guarded, guardedUpdate);
  if (applied.matchedCount > 0) return true;
  // matched nothing: already applied, or (for an upsert) not there yet
  if (!options.upsert || (await coll.findOne({ _id: id }, { projection: { _id: 1 } }))) return false;
  try {
    const inserted = await coll.updateOne(guarded, guardedUpdate, { upsert: true });
    return inserted.upsertedCount + inserted.matchedCount > 0;
  } catch (e) {
    // only without a transaction: another writer inserted it between the read and the upsert
    if (e instanceof DuplicateKeyError || (e as { code?: number }).code === 11000) return false;
    throw e;
  }
}
