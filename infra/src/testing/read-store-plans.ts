// How SqliteReadStore answers, for tests: SQLite's plan of a find or count, and the indexes a
// collection declares, read through the store's reader connection.
import type { FindOptions, Filter } from '../readstore/port';
import type { SqliteReadStore } from '../readstore/sqlite-read-store';

export interface QueryExplain {
  plan: 'IXSCAN' | 'COLLSCAN';
  details: string[];
  /** SQL answers the whole filter (else the language checks each row it gives) */
  exact: boolean;
  /** the language sorts the documents (SQL does not give them in the sort's order) */
  sortedHere: boolean;
  /** SQLite sorts in a temporary B-tree */
  tempSort: boolean;
}

/** The plan of the SQL that `find` (or `countDocuments`, with `count`) sends for this filter and sort. */
export function explain(
  store: SqliteReadStore,
  collection: string,
  filter: Filter,
  options: FindOptions & { count?: boolean } = {},
): QueryExplain {
  let plan = store.plan(collection, filter, options.sort, { count: options.count, projection: options.projection });
  // a count that SQL cannot answer whole reads the documents, as countDocuments does
  if (!plan.exact) plan = store.plan(collection, filter, options.sort);
  const rows = store.reader.prepare(`EXPLAIN QUERY PLAN ${plan.sql}`).all(...plan.params) as Array<{ detail: string }>;
  const details = rows.map((r) => r.detail);
  return {
    plan: details.some((d) => /^SCAN c:/.test(d) && !/USING/.test(d)) ? 'COLLSCAN' : 'IXSCAN',
    details,
    exact: plan.exact,
    sortedHere: plan.sortsHere,
    tempSort: details.some((d) => d.includes('TEMP B-TREE')),
  };
}

/** The names of a collection's indexes as the file has them (committed), sorted. */
export function indexNames(store: SqliteReadStore, collection: string): string[] {
  const sql = `SELECT name FROM _evo_indexes WHERE collection = ? ORDER BY name`;
  return store.reader.prepare(sql).pluck().all(collection) as string[];
}
