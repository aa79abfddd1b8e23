import { positionKey, type LogPosition } from '@evo/domain';
import type { Doc, ReadCollection } from '@evo/infra';

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
  const r = await coll.deleteOne({
    _id: id,
    $or: [{ _pos: { $exists: false } }, { _pos: { $lt: positionKey(position) } }],
  });
  return r.deletedCount > 0;
}
