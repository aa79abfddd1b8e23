import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type {
  MongoClient,
  AnyBulkWriteOperation,
  ClientSession,
  Collection,
  Db,
  Filter as MongoFilter,
  MongoClientOptions,
  UpdateFilter,
} from 'mongodb';
import { mongodb } from '../distributed-clients';
import { applyUpdate, buildUpsertFromFilter } from './values';
import {
  checkFilter,
  checkProjection,
  checkReplacement,
  checkSort,
  checkUpdate,
  equalityFields,
} from './query-language';
import {
  DuplicateKeyError,
  type BulkOp,
  type Doc,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type ReadCollection,
  type ReadStore,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from './port';

/*
 * ReadStore over the MongoDB wire protocol: MongoDB itself, or FerretDB v1 (SQLite / PostgreSQL).
 *
 * FerretDB v1.24 differs from MongoDB in ways the port cannot let through (found by running the
 * contract and the projections on it). The store asks the server once (`buildInfo.ferretdbVersion`)
 * and, on FerretDB only, routes around each difference here:
 * - no transactions: probed with a real start/commit, never inferred from `hello`;
 * - upserts: the equalities inside a one-clause `$or` seed the new document through `$setOnInsert`;
 *   `$setOnInsert` skips null and empty-array values there, so such an upsert is emulated;
 * - unique indexes: a missing field is SQL NULL there and never collides, so a write leaving a key
 *   with a missing or null part is checked against the collection first;
 * - duplicate keys in updates and index builds come back as InternalError: mapped to 11000;
 * - bulkWrite runs its operations one by one (FerretDB's update command ignores `ordered`);
 * - NaN and ±Infinity are refused before they reach the server (it drops the connection on NaN).
 * Not routed around, since no read model has them: `-0` stored as 0, nested arrays and NUL refused.
 * Concurrent updates of one document may lose one there (no lock): writes of a store are queued.
 * Emulated writes read first and write by _id; they are exact with one writer per collection (the
 * projections runner), which is how the read models are written. Every filter, update, projection
 * and sort is first checked against the port's language (query-language.ts), as in SqliteReadStore.
 */

export interface MongoReadStoreOptions {
  /** database name; defaults to the one in the URL (the driver's default, "test", when the URL has none) */
  dbName?: string;
  client?: MongoClientOptions;
}

/** What the server behind the URL can do, asked once. */
interface ServerTraits {
  /** FerretDB (its buildInfo says so): route around its differences */
  ferretDb: boolean;
  /** a real startTransaction/commit succeeded */
  transactions: boolean;
}

/** What the store shares with its collections. */
interface StoreContext {
  readonly db: Db;
  traits(): Promise<ServerTraits>;
  /** the unique indexes' key paths of a collection (FerretDB only needs them), cached */
  uniqueKeys(collection: string): Promise<string[][]>;
  forgetIndexes(collection?: string): void;
  /** runs `write` after every write queued before it (FerretDB: see MongoCollection.serialized) */
  exclusive<R>(write: () => Promise<R>): Promise<R>;
}

type PlainObject = Record<string, unknown>;

const DUPLICATE_KEY = 11000;
const NAMESPACE_NOT_FOUND = 26;
/**
 * Answers to a transaction meaning "this deployment has none": IllegalOperation (standalone
 * MongoDB: "Transaction numbers are only allowed on a replica set member or mongos"),
 * CommandNotFound (FerretDB: no commitTransaction), CommandNotSupported, FailedToParse (a server
 * refusing the session fields), OperationNotSupportedInTransaction.
 */
const NO_TRANSACTIONS = new Set([20, 59, 115, 9, 263]);
/** FerretDB reports unique violations of updates and index builds as InternalError with the backend's text (SQLite: "UNIQUE constraint failed"; PostgreSQL: SQLSTATE 23505) */
const BACKEND_UNIQUE_VIOLATION =
  /UNIQUE constraint failed|duplicate key value violates unique constraint|could not create unique index|SQLSTATE 23505/;

function isDuplicateKey(err: unknown): boolean {
  if (err instanceof DuplicateKeyError) return true;
  if (err instanceof mongodb().MongoBulkWriteError) {
    const writeErrors = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
    return err.code === DUPLICATE_KEY || writeErrors.some((e) => e.code === DUPLICATE_KEY);
  }
  if (!(err instanceof mongodb().MongoServerError)) return false;
  return err.code === DUPLICATE_KEY || (err.code === 1 && BACKEND_UNIQUE_VIOLATION.test(err.message));
}

/** Runs a driver call and turns a duplicate key (MongoDB's E11000, FerretDB's backend text) into the port's error. */
async function mapErrors<R>(op: () => Promise<R>): Promise<R> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof DuplicateKeyError || !isDuplicateKey(err)) throw err;
    const mapped = new DuplicateKeyError(err instanceof Error ? err.message : 'duplicate key');
    mapped.cause = err;
    throw mapped;
  }
}

/** Ids are strings or numbers in this project: the server would otherwise invent an ObjectId. */
function newId(): string {
  return new (mongodb().ObjectId)().toHexString();
}

function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function has(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** Whether the filter fixes _id by equality (then an upsert takes its _id from the filter, as MongoDB does). */
function filterNamesId(filter: Filter): boolean {
  return equalityFields(filter).some(([field]) => field === '_id');
}

function operandNamesId(update: Update, op: string): boolean {
  const operand = update[op];
  return isPlainObject(operand) && has(operand, '_id');
}

function needsUpsertId(filter: Filter, update: Update): boolean {
  return !filterNamesId(filter) && !operandNamesId(update, '$setOnInsert') && !operandNamesId(update, '$set');
}

/**
 * The _id an upsert without one in its filter inserts under: derived from the filter's equalities,
 * so that two concurrent upserts of the same filter collide on _id (the loser then updates the
 * winner's document) instead of inserting twice. A document holding that id but no longer matching
 * the filter makes the upsert fall back to a fresh id (see MongoCollection.update).
 */
function derivedUpsertId(filter: Filter): string {
  const equalities = equalityFields(filter)
    .map(([path, value]) => [path, value] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return 'u' + createHash('sha256').update(JSON.stringify(equalities)).digest('hex').slice(0, 24);
}

function withSetOnInsert(update: Update, fields: PlainObject): Update {
  const onInsert = update.$setOnInsert;
  const base = isPlainObject(onInsert) ? onInsert : {};
  return { ...update, $setOnInsert: { ...base, ...fields } };
}

function withReplacementId<T extends Doc>(filter: Filter, replacement: T, upsert: boolean): T {
  if (!upsert || replacement._id !== undefined || filterNamesId(filter)) return replacement;
  return { ...replacement, _id: newId() };
}

function withDocId<T extends Doc>(doc: T): T {
  // a copy: the driver would otherwise write an _id into the caller's object
  return doc._id === undefined ? { ...doc, _id: newId() } : { ...doc };
}

function toResult(r: { matchedCount: number; modifiedCount: number; upsertedCount: number }): UpdateResult {
  return { matchedCount: r.matchedCount, modifiedCount: r.modifiedCount, upsertedCount: r.upsertedCount };
}

/** The port's loose filter/update shapes are what the driver sends as is. */
function asFilter(filter: Filter): MongoFilter<Doc> {
  return filter as MongoFilter<Doc>;
}

function asUpdate(update: Update): UpdateFilter<Doc> {
  return update as UpdateFilter<Doc>;
}

/** Every field an update's operators write. */
function updatePaths(update: Update): string[] {
  return Object.values(update).flatMap((operand) => (isPlainObject(operand) ? Object.keys(operand) : []));
}

// ---- FerretDB ----

/** FerretDB drops the connection on NaN and refuses ±Infinity: say so before sending. */
function assertStorable(value: unknown, path = ''): void {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new Error(`FerretDB cannot store ${value} (at "${path || '(value)'}"): NaN and ±Infinity are refused`);
  }
  if (Array.isArray(value)) value.forEach((item, i) => assertStorable(item, `${path}.${i}`));
  else if (isPlainObject(value)) {
    for (const [key, inner] of Object.entries(value)) assertStorable(inner, path ? `${path}.${key}` : key);
  }
}

/** FerretDB's $setOnInsert skips null and empty-array values: such an upsert is emulated. */
function insertDropsValues(update: Update): boolean {
  const onInsert = update.$setOnInsert;
  return (
    isPlainObject(onInsert) &&
    Object.values(onInsert).some(
      (value) => value === null || value === undefined || (Array.isArray(value) && value.length === 0),
    )
  );
}

/** Whether every field of every unique key is certainly set to a non-null scalar by this update. */
function setsEveryKey(update: Update, keys: string[][], upsert: boolean): boolean {
  const set = isPlainObject(update.$set) ? update.$set : {};
  const onInsert = upsert && isPlainObject(update.$setOnInsert) ? update.$setOnInsert : {};
  const paths = updatePaths(update);
  return keys.every((key) =>
    key.every((field) => {
      const value = has(set, field) ? set[field] : onInsert[field];
      if (value !== undefined && value !== null && !Array.isArray(value) && !isPlainObject(value)) return true;
      // an update of an existing document that leaves the field alone does not change its key
      return !upsert && !paths.includes(field);
    }),
  );
}

function checkBulkOp(op: BulkOp): void {
  if ('insertOne' in op) return checkReplacement(op.insertOne.document);
  if ('updateOne' in op || 'updateMany' in op) {
    const { filter, update } = 'updateOne' in op ? op.updateOne : op.updateMany;
    checkFilter(filter);
    return checkUpdate(update);
  }
  if ('replaceOne' in op) {
    checkFilter(op.replaceOne.filter);
    return checkReplacement(op.replaceOne.replacement);
  }
  checkFilter('deleteOne' in op ? op.deleteOne.filter : op.deleteMany.filter);
}

function checkQuery(filter: Filter, options: FindOptions): void {
  checkFilter(filter);
  checkProjection(options.projection);
  checkSort(options.sort);
}

class MongoCollection<T extends Doc> implements ReadCollection<T> {
  private readonly coll: Collection<Doc>;

  constructor(
    private readonly ctx: StoreContext,
    readonly name: string,
    /** set inside withTransaction on a deployment with transactions: every operation joins it */
    private readonly session: ClientSession | undefined,
    /** the store handed to withTransaction: DDL is refused there */
    private readonly inTransaction: boolean,
  ) {
    this.coll = ctx.db.collection<Doc>(name);
  }

  private async ferretDb(): Promise<boolean> {
    return (await this.ctx.traits()).ferretDb;
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    checkQuery(filter, options);
    const doc = await this.coll.findOne(asFilter(filter), {
      sort: options.sort,
      skip: options.skip,
      projection: options.projection,
      session: this.session,
    });
    return doc as unknown as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    checkQuery(filter, options);
    const docs = await this.coll
      .find(asFilter(filter), {
        sort: options.sort,
        skip: options.skip,
        limit: options.limit,
        projection: options.projection,
        session: this.session,
      })
      .toArray();
    return docs as unknown as T[];
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    checkFilter(filter);
    return this.coll.countDocuments(asFilter(filter), { session: this.session });
  }

  /** Whole documents matching `filter` (for the writes computed here on FerretDB). */
  private matching(filter: Filter): Promise<Doc[]> {
    return this.coll.find(asFilter(filter), { session: this.session }).toArray();
  }

  private async insertNow(doc: T): Promise<void> {
    const copy = withDocId(doc);
    if (await this.ferretDb()) {
      assertStorable(copy);
      await this.checkNullKeys(copy, undefined);
    }
    await mapErrors(() => this.coll.insertOne(copy, { session: this.session }));
  }

  /**
   * Writes. FerretDB v1 updates a document by reading it, computing and writing it back with no
   * lock in between, so concurrent writes to one document lose some (20 concurrent $inc of one
   * counter left 3 on SQLite, 7 on PostgreSQL): on FerretDB this store runs its writes one at a
   * time. Across processes nothing can make that safe: one process writes the read models.
   */
  private async serialized<R>(write: () => Promise<R>): Promise<R> {
    return (await this.ferretDb()) ? this.ctx.exclusive(write) : write();
  }

  async insertOne(doc: T): Promise<void> {
    checkReplacement(doc);
    return this.serialized(() => this.insertNow(doc));
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    checkFilter(filter);
    checkUpdate(update);
    return this.serialized(() => this.update(filter, update, options.upsert === true, false));
  }

  async updateMany(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    checkFilter(filter);
    checkUpdate(update);
    return this.serialized(() => this.update(filter, update, options.upsert === true, true));
  }

  async replaceOne(filter: Filter, replacement: T, options: UpdateOptions = {}): Promise<UpdateResult> {
    checkFilter(filter);
    checkReplacement(replacement);
    return this.serialized(() => this.replaceNow(filter, replacement, options.upsert === true));
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    checkFilter(filter);
    return this.serialized(() => this.deleteNow(filter, false));
  }

  async deleteMany(filter: Filter = {}): Promise<{ deletedCount: number }> {
    checkFilter(filter);
    return this.serialized(() => this.deleteNow(filter, true));
  }

  private async update(filter: Filter, update: Update, upsert: boolean, many: boolean): Promise<UpdateResult> {
    let sent = update;
    if (await this.ferretDb()) {
      assertStorable(update);
      const seeds = upsert ? this.upsertSeeds(filter, update) : {};
      if (
        seeds === undefined ||
        (upsert && insertDropsValues(withSetOnInsert(update, seeds))) ||
        !(await this.keysStaySafe(update, upsert))
      ) {
        return this.updateEmulated(filter, update, upsert, many);
      }
      if (Object.keys(seeds).length > 0) sent = withSetOnInsert(update, seeds);
    }
    const run = (u: Update) =>
      mapErrors(() =>
        many
          ? this.coll.updateMany(asFilter(filter), asUpdate(u), { upsert, session: this.session })
          : this.coll.updateOne(asFilter(filter), asUpdate(u), { upsert, session: this.session }),
      );
    if (!upsert || !needsUpsertId(filter, sent)) return toResult(await run(sent));
    return this.upsertWithoutId(filter, sent, run);
  }

  /**
   * An upsert whose filter names no _id inserts under an id derived from the filter, so concurrent
   * ones cannot both insert (the second meets the first's _id, then updates it). A duplicate on
   * that id outside a transaction is retried once (the filter now matches the winner); a document
   * that holds the derived id without matching the filter makes the insert take a fresh id.
   */
  private async upsertWithoutId(
    filter: Filter,
    update: Update,
    run: (u: Update) => Promise<{ matchedCount: number; modifiedCount: number; upsertedCount: number }>,
  ): Promise<UpdateResult> {
    const derived = derivedUpsertId(filter);
    const holder = await this.coll.findOne({ _id: derived }, { projection: { _id: 1 }, session: this.session });
    const id = holder ? newId() : derived;
    try {
      return toResult(await run(withSetOnInsert(update, { _id: id })));
    } catch (err) {
      // inside a MongoDB transaction a duplicate key has aborted it: the caller's retry starts over
      if (!(err instanceof DuplicateKeyError) || this.session || id !== derived) throw err;
      return toResult(await run(withSetOnInsert(update, { _id: derived })));
    }
  }

  /**
   * FerretDB seeds an upsert only from top-level equalities: the ones inside a one-clause `$or` go
   * into `$setOnInsert`. undefined when a seed is a field the update writes (MongoDB applies the
   * operator on top of the seed): then the write is emulated.
   */
  private upsertSeeds(filter: Filter, update: Update): PlainObject | undefined {
    const fields = updatePaths(update);
    const seeds: PlainObject = {};
    for (const [field, value] of equalityFields(filter)) {
      if (fields.includes(field)) return undefined;
      seeds[field] = value;
    }
    return seeds;
  }

  /** false when the write could leave a unique key with a missing or null part (FerretDB never refuses those) */
  private async keysStaySafe(update: Update, upsert: boolean): Promise<boolean> {
    const keys = await this.ctx.uniqueKeys(this.name);
    return keys.length === 0 || setsEveryKey(update, keys, upsert);
  }

  /**
   * FerretDB: the update computed here (the memory store's operators, MongoDB's semantics) for each
   * matching document, so its unique keys can be checked, then written by _id.
   */
  private async updateEmulated(filter: Filter, update: Update, upsert: boolean, many: boolean): Promise<UpdateResult> {
    const found = await this.matching(filter);
    const targets = many ? found : found.slice(0, 1);
    const keys = await this.ctx.uniqueKeys(this.name);
    let matchedCount = 0;
    let modifiedCount = 0;
    for (const doc of targets) {
      const next = applyUpdate(doc, update, false);
      assertStorable(next);
      await this.checkNullKeys(next, doc._id, keys);
      const r = await mapErrors(() =>
        this.coll.updateOne({ _id: doc._id }, asUpdate(update), { session: this.session }),
      );
      if (r.matchedCount === 0) continue; // deleted meanwhile
      matchedCount += 1;
      if (!isDeepStrictEqual(next, doc)) modifiedCount += 1;
    }
    if (targets.length > 0 || !upsert) return { matchedCount, modifiedCount, upsertedCount: 0 };
    const seed = buildUpsertFromFilter(filter);
    const inserted = applyUpdate(seed, update, true);
    const { _id: id, ...rest } = inserted;
    const doc = { _id: id ?? (needsUpsertId(filter, update) ? derivedUpsertId(filter) : newId()), ...rest } as Doc;
    assertStorable(doc);
    await this.checkNullKeys(doc, undefined, keys);
    await mapErrors(() => this.coll.insertOne(doc, { session: this.session }));
    return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
  }

  /**
   * FerretDB stores a missing field as SQL NULL, which never collides in a unique index (and a
   * missing one never collides with null). MongoDB indexes both as null: when `doc`'s key for a
   * unique index has a missing or null part, look for another document with the same key first.
   */
  private async checkNullKeys(doc: Doc, ownId: Doc['_id'] | undefined, known?: string[][]): Promise<void> {
    const keys = known ?? (await this.ctx.uniqueKeys(this.name));
    for (const key of keys) {
      const values = key.map((field) => (doc as PlainObject)[field]);
      if (values.some((v) => Array.isArray(v)) || !values.some((v) => v === undefined || v === null)) continue;
      const same: PlainObject = Object.fromEntries(key.map((field, i) => [field, values[i] ?? null]));
      if (ownId !== undefined) same._id = { $ne: ownId };
      if ((await this.coll.countDocuments(same, { session: this.session, limit: 1 })) > 0) {
        throw new DuplicateKeyError(
          `E11000 duplicate key error collection: ${this.coll.namespace} index: ${key.join('_')} dup key (missing or null; checked by MongoReadStore on FerretDB)`,
        );
      }
    }
  }

  private async replaceNow(filter: Filter, replacement: T, upsert: boolean): Promise<UpdateResult> {
    if (await this.ferretDb()) {
      assertStorable(replacement);
      const keys = await this.ctx.uniqueKeys(this.name);
      if (keys.length > 0) {
        const [target] = await this.matching(filter);
        if (!target && !upsert) return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
        const id = target?._id ?? withReplacementId(filter, replacement, true)._id ?? buildUpsertFromFilter(filter)._id;
        const { _id: _ignored, ...fields } = replacement;
        const doc = { _id: id, ...fields } as Doc;
        await this.checkNullKeys(doc, target?._id, keys);
        if (!target) {
          await mapErrors(() => this.coll.insertOne(doc, { session: this.session }));
          return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
        }
        const r = await mapErrors(() => this.coll.replaceOne({ _id: target._id }, doc, { session: this.session }));
        return toResult(r);
      }
    }
    const result = await mapErrors(() =>
      this.coll.replaceOne(asFilter(filter), withReplacementId(filter, replacement, upsert), {
        upsert,
        session: this.session,
      }),
    );
    return toResult(result);
  }

  private async deleteNow(filter: Filter, many: boolean): Promise<{ deletedCount: number }> {
    const options = { session: this.session };
    const result = many
      ? await this.coll.deleteMany(asFilter(filter), options)
      : await this.coll.deleteOne(asFilter(filter), options);
    return { deletedCount: result.deletedCount };
  }

  async bulkWrite(ops: BulkOp[]): Promise<void> {
    for (const op of ops) checkBulkOp(op);
    if (ops.length === 0) return; // the driver rejects an empty batch
    if (await this.ferretDb()) {
      // one at a time, each with the work-arounds above (and FerretDB's update command ignores `ordered`)
      await this.ctx.exclusive(async () => {
        for (const op of ops) await this.runOne(op);
      });
      return;
    }
    const models = ops.map((op): AnyBulkWriteOperation<Doc> => {
      if ('insertOne' in op) return { insertOne: { document: withDocId(op.insertOne.document) } };
      if ('updateOne' in op) {
        const { filter, update, upsert = false } = op.updateOne;
        const u = upsert && needsUpsertId(filter, update) ? withSetOnInsert(update, { _id: newId() }) : update;
        return { updateOne: { filter: asFilter(filter), update: asUpdate(u), upsert } };
      }
      if ('updateMany' in op) {
        const { filter, update, upsert = false } = op.updateMany;
        const u = upsert && needsUpsertId(filter, update) ? withSetOnInsert(update, { _id: newId() }) : update;
        return { updateMany: { filter: asFilter(filter), update: asUpdate(u), upsert } };
      }
      if ('deleteOne' in op) return { deleteOne: { filter: asFilter(op.deleteOne.filter) } };
      if ('deleteMany' in op) return { deleteMany: { filter: asFilter(op.deleteMany.filter) } };
      const { filter, replacement, upsert = false } = op.replaceOne;
      return {
        replaceOne: { filter: asFilter(filter), replacement: withReplacementId(filter, replacement, upsert), upsert },
      };
    });
    await mapErrors(() => this.coll.bulkWrite(models, { ordered: true, session: this.session }));
  }

  private async runOne(op: BulkOp): Promise<void> {
    if ('insertOne' in op) await this.insertNow(op.insertOne.document as T);
    else if ('updateOne' in op)
      await this.update(op.updateOne.filter, op.updateOne.update, op.updateOne.upsert === true, false);
    else if ('updateMany' in op)
      await this.update(op.updateMany.filter, op.updateMany.update, op.updateMany.upsert === true, true);
    else if ('deleteOne' in op) await this.deleteNow(op.deleteOne.filter, false);
    else if ('deleteMany' in op) await this.deleteNow(op.deleteMany.filter, true);
    else await this.replaceNow(op.replaceOne.filter, op.replaceOne.replacement as T, op.replaceOne.upsert === true);
  }

  private refuseInTransaction(what: string): void {
    // MongoDB would run DDL outside the session, where it can wait on the transaction's own locks
    if (this.inTransaction) throw new Error(`${what} is not allowed inside withTransaction (collection ${this.name})`);
  }

  /** Index builds and drops are DDL: refused inside withTransaction (see refuseInTransaction). */
  async createIndex(spec: IndexSpec): Promise<void> {
    checkSort(spec.key);
    this.refuseInTransaction('createIndex');
    // options only when set: an explicit unique:false would not match an index created without it on older servers
    await mapErrors(() =>
      this.coll.createIndex(spec.key, {
        ...(spec.unique ? { unique: true } : {}),
        ...(spec.name ? { name: spec.name } : {}),
      }),
    );
    if (spec.unique) this.ctx.forgetIndexes(this.name);
  }

  async drop(): Promise<void> {
    this.refuseInTransaction('drop');
    await dropCollection(this.coll);
    this.ctx.forgetIndexes(this.name);
  }
}

async function dropCollection(coll: Collection<Doc>): Promise<void> {
  try {
    await coll.drop();
  } catch (err) {
    // servers before 7.0 report dropping a missing collection; the port treats it as done
    if (!(err instanceof mongodb().MongoServerError && err.code === NAMESPACE_NOT_FOUND)) throw err;
  }
}

async function collectionNames(db: Db): Promise<string[]> {
  const infos = await db.listCollections({}, { nameOnly: true }).toArray();
  return infos
    .filter((info) => info.type !== 'view')
    .map((info) => info.name)
    .filter((name) => !name.startsWith('system.'))
    .sort();
}

/**
 * ReadStore on MongoDB or FerretDB. The client connects on first use; the first operation (or
 * connect()) asks the server what it is (buildInfo) and whether it runs transactions: a real
 * startTransaction/commit, since `hello` cannot tell (FerretDB started with --repl-set-name reports
 * a setName yet has none). Where there are none, withTransaction runs `fn` directly (projectors are
 * idempotent for that case). A failed detection is forgotten, so the next call asks again.
 */
export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  /** the database itself (read-model generations keep their pointer beside the read models) */
  readonly db: Db;
  private detected: ServerTraits | undefined;
  private detecting: Promise<ServerTraits> | undefined;
  private readonly uniqueKeyCache = new Map<string, Promise<string[][]>>();
  private readonly ctx: StoreContext;
  /** the end of the queue of writes (FerretDB) */
  private lastWrite: Promise<unknown> = Promise.resolve();

  constructor(url: string, options: MongoReadStoreOptions = {}) {
    this.client = new (mongodb().MongoClient)(url, options.client);
    this.db = this.client.db(options.dbName);
    this.ctx = {
      db: this.db,
      traits: () => this.traits(),
      uniqueKeys: (name) => this.uniqueKeys(name),
      forgetIndexes: (name) => (name === undefined ? this.uniqueKeyCache.clear() : this.uniqueKeyCache.delete(name)),
      exclusive: (write) => {
        const result = this.lastWrite.then(write);
        this.lastWrite = result.catch(() => undefined);
        return result;
      },
    };
  }

  /** Known after connect() or the first operation; false until then. */
  get supportsTransactions(): boolean {
    return this.detected?.transactions === true;
  }

  /** Whether the server is FerretDB (known after connect() or the first operation). */
  get isFerretDb(): boolean {
    return this.detected?.ferretDb === true;
  }

  get databaseName(): string {
    return this.db.databaseName;
  }

  /** Connects now (instead of on first use) and finds out what the deployment is and can do. */
  async connect(): Promise<void> {
    await this.client.connect();
    await this.traits();
  }

  private traits(): Promise<ServerTraits> {
    if (this.detected) return Promise.resolve(this.detected);
    this.detecting ??= this.detect().then(
      (traits) => {
        this.detected = traits;
        return traits;
      },
      (err: unknown) => {
        // not cached: a server that was down at the first call is asked again at the next
        this.detecting = undefined;
        throw err;
      },
    );
    return this.detecting;
  }

  private async detect(): Promise<ServerTraits> {
    // explicitly: after a failed first connection the driver keeps a closed topology, on which
    // implicit connects fail for ever ("Topology is closed"); connect() builds a new one
    await this.client.connect();
    const info = await this.db.admin().command({ buildInfo: 1 });
    const ferretDb = typeof info.ferretdbVersion === 'string';
    return { ferretDb, transactions: await this.probeTransactions() };
  }

  /** A read-only transaction on a collection that need not exist, committed: it works or it does not. */
  private async probeTransactions(): Promise<boolean> {
    const session = this.client.startSession();
    try {
      session.startTransaction();
      await this.db.collection('_transaction_probe').findOne({}, { session });
      await session.commitTransaction();
      return true;
    } catch (err) {
      if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
      if (err instanceof mongodb().MongoServerError && typeof err.code === 'number' && NO_TRANSACTIONS.has(err.code))
        return false;
      throw err;
    } finally {
      await session.endSession();
    }
  }

  private uniqueKeys(name: string): Promise<string[][]> {
    let keys = this.uniqueKeyCache.get(name);
    if (!keys) {
      keys = this.listUniqueKeys(name);
      keys.catch(() => this.uniqueKeyCache.delete(name));
      this.uniqueKeyCache.set(name, keys);
    }
    return keys;
  }

  private async listUniqueKeys(name: string): Promise<string[][]> {
    try {
      const indexes = await this.db.collection(name).listIndexes().toArray();
      return indexes
        .filter((index) => index.unique === true && index.name !== '_id_')
        .map((index) => Object.keys(index.key as PlainObject));
    } catch (err) {
      if (err instanceof mongodb().MongoServerError && err.code === NAMESPACE_NOT_FOUND) return [];
      throw err;
    }
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new MongoCollection<T>(this.ctx, name, undefined, false);
  }

  async listCollections(): Promise<string[]> {
    return collectionNames(this.db);
  }

  async withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    if (!(await this.traits()).transactions) return fn(new MongoTransactionStore(this.ctx, undefined));
    const session = this.client.startSession();
    try {
      // the driver retries fn on transient errors (write conflicts) and retries the commit
      return await session.withTransaction(() => fn(new MongoTransactionStore(this.ctx, session)));
    } finally {
      await session.endSession();
    }
  }

  async dropAll(): Promise<void> {
    for (const name of await collectionNames(this.db)) await dropCollection(this.db.collection<Doc>(name));
    this.ctx.forgetIndexes();
  }

  /** The whole database gone (a read-model generation no longer in use). */
  async dropDatabase(): Promise<void> {
    await this.db.dropDatabase();
    this.ctx.forgetIndexes();
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/**
 * The store withTransaction hands to `fn`: the same database, every operation in the session
 * (none where the deployment has no transactions). DDL is refused here.
 */
class MongoTransactionStore implements ReadStore {
  constructor(
    private readonly ctx: StoreContext,
    private readonly session: ClientSession | undefined,
  ) {}

  get supportsTransactions(): boolean {
    return this.session !== undefined;
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new MongoCollection<T>(this.ctx, name, this.session, true);
  }

  async listCollections(): Promise<string[]> {
    return collectionNames(this.ctx.db);
  }

  /** MongoDB has no nested transactions: `fn` joins the running one. */
  async withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    return fn(this);
  }

  async dropAll(): Promise<void> {
    throw new Error('dropAll is not allowed inside withTransaction');
  }

  /** The client belongs to the outer store. */
  async close(): Promise<void> {}
}
