/**
 * The read models' store: the part of MongoDB's collection API that projectors and queries use.
 * Both adapters accept exactly this language, refuse the rest with UnsupportedQueryError, and
 * answer as MongoDB does.
 *
 * - Values: JSON's (strings, finite numbers, booleans, null, arrays, plain objects); no dates,
 *   binaries or regular expressions are stored.
 * - Field names: top level only (no dotted paths), not starting with `$`.
 * - Filters: `{ field: value }` (a string, finite number, boolean or null; an array field matches
 *   when one element is equal; null matches a missing field), `{ field: { $ne, $gt, $gte, $lt,
 *   $lte, $in, $exists, $regex } }` (ranges on strings or numbers; $in of such values; $regex a
 *   pattern string), several fields (all must hold) and a top-level `$or` of such filters.
 * - Updates: `$set` and `$setOnInsert` (any value), `$inc` (finite numbers), `$min`, `$max`
 *   (finite numbers or strings), `$addToSet` and `$pull` (one scalar); a field under one operator.
 * - Projections: inclusion or exclusion of top-level fields; `_id` kept unless `{ _id: 0 }`. An
 *   inclusion that an index answers alone may list its fields in the projection's order.
 * - Sorts and index keys: top-level fields, 1 or -1.
 */
export type Doc = { _id: string | number; [key: string]: unknown };
export type Filter = Record<string, unknown>;
export type Update = Record<string, unknown>;
export type Sort = Record<string, 1 | -1>;
export type Projection = Record<string, 0 | 1>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
  projection?: Projection;
}

export interface UpdateOptions {
  upsert?: boolean;
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedCount: number;
}

export type BulkOp =
  | { insertOne: { document: Doc } }
  | { updateOne: { filter: Filter; update: Update; upsert?: boolean } }
  | { updateMany: { filter: Filter; update: Update; upsert?: boolean } }
  | { deleteOne: { filter: Filter } }
  | { deleteMany: { filter: Filter } }
  | { replaceOne: { filter: Filter; replacement: Doc; upsert?: boolean } };

export interface IndexSpec {
  key: Record<string, 1 | -1>;
  unique?: boolean;
  name?: string;
}

/** Raised by insertOne / upserts / bulkWrite on a duplicate _id or unique-index key. */
export class DuplicateKeyError extends Error {
  readonly code = 11000;
  constructor(message = 'duplicate key') {
    super(message);
    this.name = 'DuplicateKeyError';
  }
}

/** A filter, update, projection or sort outside the port's language (a programming error). */
export class UnsupportedQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedQueryError';
  }
}

export interface ReadCollection<T extends Doc = Doc> {
  readonly name: string;
  findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  countDocuments(filter?: Filter): Promise<number>;
  insertOne(doc: T): Promise<void>;
  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  replaceOne(filter: Filter, replacement: T, options?: UpdateOptions): Promise<UpdateResult>;
  deleteOne(filter: Filter): Promise<{ deletedCount: number }>;
  deleteMany(filter?: Filter): Promise<{ deletedCount: number }>;
  /** ordered; stops at the first error (like MongoDB's ordered bulkWrite) */
  bulkWrite(ops: BulkOp[]): Promise<void>;
  createIndex(spec: IndexSpec): Promise<void>;
  drop(): Promise<void>;
}

export interface ReadStore {
  collection<T extends Doc = Doc>(name: string): ReadCollection<T>;
  listCollections(): Promise<string[]>;
  /**
   * Runs `fn` so that its writes become visible together, or directly where the store cannot
   * (FerretDB, a standalone MongoDB: projectors stay idempotent for that case). Rules for `fn`:
   * - never rely on catching DuplicateKeyError: on MongoDB a duplicate key aborts the whole
   *   transaction even when caught (every later write fails, and the driver retries `fn` for up to
   *   120 s). Write so that it cannot happen: upsert on the unique key (`_id`), or read first.
   * - no createIndex / drop / dropAll on the store handed to `fn` (refused: MongoDB would run them
   *   outside the session, waiting on the transaction's own locks).
   * - an upsert whose filter does not fix `_id` needs a unique index on the filter's fields to be
   *   safe against a concurrent one (MongoReadStore derives the new `_id` from the filter's
   *   equalities, so two concurrent ones collide on `_id` instead of inserting twice).
   */
  withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R>;
  /**
   * Optional, for filling a store nobody reads yet (a rebuild from empty): indexes created while
   * `fn` runs may be built once at its end, or when a query first needs them, instead of write by
   * write (a unique violation then shows at that point), and a transaction's writes may be seen
   * before it ends (a failed one is still undone). Stores without it run `fn` as it is.
   */
  bulkLoad?<R>(fn: () => Promise<R>): Promise<R>;
  /** drop every collection */
  dropAll(): Promise<void>;
  close(): Promise<void>;
}
