import { positionKey, type LogPosition } from '@evo/domain';
import {
  DuplicateKeyError,
  type Doc,
  type ReadCollection,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from '@evo/infra';

/*
 * The idempotent writes every projector uses, so that a redelivered event (a crash between a
 * write and its checkpoint, or a store without transactions) changes nothing twice:
 * - applyOnce: an update guarded by the last applied position (counters, arrays);
 * - insertOnce: a document that never changes once written;
 * - replaceIfNewer: a document whose whole content follows from one event;
 * - deleteOnce: an edge removed unless a later event wrote it again.
 * None of them ever provokes a duplicate key (the ReadStore port's rule inside withTransaction).
 */

/** `update` that also sets the guard field to the event's position key. */
const withGuard = (update: Update, guard: string, key: string): Update => ({
  ...update,
  $set: { ...(update.$set as Record<string, unknown> | undefined), [guard]: key },
});

/** A duplicate key, from the port (SQLite, memory) or from the MongoDB driver (code 11000). */
const isDuplicate = (e: unknown) => e instanceof DuplicateKeyError || (e as { code?: number }).code === 11000;

/** A document not written at this position or later by this guard's writer. */
const notYet = (guard: string, key: string) => ({ $or: [{ [guard]: { $exists: false } }, { [guard]: { $lt: key } }] });

/**
 * Apply `update` to document `id` unless an event at this position (or later) was already
 * applied to it: the document remembers the last position in a guard field (fixed-width string
 * so it compares the same in MongoDB and in memory). Makes `$inc`/`$addToSet` safe under redelivery.
 * A document has one writer (its projector, see projector.ts), which makes at most one guarded
 * write per document per event; a second one in the same event names another guard (`guard`,
 * stored as `_pos_<guard>`). Returns true when the update was applied.
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
  const guardedUpdate = withGuard(update, guard, key);
  const guarded = { _id: id, ...notYet(guard, key) };
  return writeGuarded(coll, id, options.upsert === true, (o) => coll.updateOne(guarded, guardedUpdate, o));
}

/**
 * A write whose filter carries a position guard (`write`, given its options): first as it is; when
 * that matched nothing (already written, or not there yet) and `upsert` asks for it, an upsert only
 * if document `id` does not exist: a read before the insert instead of a duplicate key caught.
 * Returns true when written.
 */
async function writeGuarded<T extends Doc>(
  coll: ReadCollection<T>,
  id: string | number,
  upsert: boolean,
  write: (options: UpdateOptions) => Promise<UpdateResult>,
): Promise<boolean> {
  if ((await write({})).matchedCount > 0) return true;
  if (!upsert || (await coll.findOne({ _id: id }, { projection: { _id: 1 } }))) return false;
  try {
    const inserted = await write({ upsert: true });
    return inserted.upsertedCount + inserted.matchedCount > 0;
  } catch (e) {
    // only without a transaction: another writer inserted it between the read and the upsert
    if (isDuplicate(e)) return false;
    throw e;
  }
}

/**
 * Insert a document that never changes once written; a redelivery finds it there and does nothing.
 * An upsert on its _id that only sets on insert: it cannot meet a duplicate key (the port's rule
 * inside withTransaction), and a redelivery matches the document and changes nothing.
 */
export async function insertOnce<T extends Doc>(coll: ReadCollection<T>, doc: T): Promise<boolean> {
  const { _id: id, ...fields } = doc;
  const r = await coll.updateOne({ _id: id }, { $setOnInsert: fields }, { upsert: true });
  return r.upsertedCount > 0;
}

/**
 * Replace a document whose whole content follows from one event, unless a later (or the same)
 * event already wrote it: like `applyOnce`, guarded by the `_pos` field, but a plain replacement
 * (no update operators to interpret). Returns true when written. Like `applyOnce`, it checks
 * before inserting instead of catching a duplicate key.
 */
export async function replaceIfNewer<T extends Doc>(
  coll: ReadCollection<T>,
  doc: T & { _pos: string },
): Promise<boolean> {
  const guarded = { _id: doc._id, ...notYet('_pos', doc._pos) };
  return writeGuarded(coll, doc._id, true, (o) => coll.replaceOne(guarded, doc, o));
}

/**
 * Delete an edge document (follow, like, favourite) unless it was (re)written at this position
 * or later: a redelivered "unfollow" never removes the edge of a later "follow" again. The
 * edge's own writes use `applyOnce` without a guard name, so its position is in `_pos`.
 */
export async function deleteOnce(
  coll: ReadCollection<Doc>,
  id: string | number,
  position: LogPosition,
): Promise<boolean> {
  const r = await coll.deleteOne({ _id: id, ...notYet('_pos', positionKey(position)) });
  return r.deletedCount > 0;
}

/**
 * An edge (a follow, a like, a favourite) as its events leave it: written with `fields` by the
 * event that makes it, removed by the one that undoes it (`fields` null). Both are guarded by the
 * edge's `_pos`: a redelivery, or an event older than the edge's last one, changes nothing.
 */
export async function writeEdge(
  coll: ReadCollection<Doc>,
  id: string,
  position: LogPosition,
  fields: Record<string, unknown> | null,
): Promise<void> {
  if (fields) await applyOnce(coll, id, position, { $set: fields }, { upsert: true });
  else await deleteOnce(coll, id, position);
}
