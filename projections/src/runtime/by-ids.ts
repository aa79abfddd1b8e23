import type { Doc, FindOptions, ReadCollection } from '@evo/infra';

/**
 * Documents by _id, in the order of `ids` (missing ones left out): one `$in` query, answered by
 * the primary key (SQLite looks each id up; MongoDB uses the _id index).
 */
export async function findByIds<T extends Doc>(
  coll: ReadCollection<T>,
  ids: ReadonlyArray<T['_id']>,
  options: FindOptions = {},
): Promise<T[]> {
  const found = ids.length === 0 ? [] : await coll.find({ _id: { $in: [...ids] } }, options);
  const byId = new Map(found.map((d) => [d._id, d]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
