import { createHash } from 'node:crypto';
import type {
  MongoClient,
  AnyBulkWriteOperation,
  ClientSession,
  Collection,
  Db,
  Filter as MongoFilter,
  UpdateFilter,
} from 'mongodb';
import { mongodb } from '../distributed-clients';
import { CheckedCollection, TransactionStore, type CollectionEngine } from './checked-collection';
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
  type UpdateResult,
} from './port';
import { dispatch, equalityFields, replaceWrites, updateWrites, type Writes, type Written } from './query-language';
import { isPlainObject, newId, type PlainObject } from './values';

/*
 * ReadStore over the MongoDB wire protocol: MongoDB, or FerretDB v1 (the tests' server). FerretDB
 * (known by its buildInfo) differs in ways the port cannot let through; on it only:
 * - no transactions (probed with a real start/commit: `hello` cannot tell);
 * - its upserts seed only from top-level equalities and skip null and empty-array `$setOnInsert`
 *   values, and it loses concurrent writes to one document: writes run one at a time, and those
 *   it would get wrong are computed here with the language's updater and written by _id (exact
 *   with one writer, the projections runner);
 * - a missing field never collides in its unique indexes: such keys are checked here first;
 * - duplicate keys come back as InternalError with the backend's text; NaN drops the connection.
 */

interface ServerTraits {
  ferretDb: boolean;
  transactions: boolean;
}

const DUPLICATE_KEY = 11000;
const NAMESPACE_NOT_FOUND = 26;
/**
 * "This deployment has no transactions": IllegalOperation (a standalone MongoDB), CommandNotFound
 * (FerretDB), CommandNotSupported, FailedToParse, OperationNotSupportedInTransaction.
 */
const NO_TRANSACTIONS = new Set([20, 59, 115, 9, 263]);
/** FerretDB's unique violations: InternalError with the SQLite or PostgreSQL backend's text */
const BACKEND_UNIQUE_VIOLATION =
  /UNIQUE constraint failed|duplicate key value violates unique constraint|could not create unique index|SQLSTATE 23505/;

/** MongoDB's E11000 (an ordered bulkWrite's error carries its write error's code), or FerretDB's backend text. */
function isDuplicateKey(err: unknown): boolean {
  if (!(err instanceof mongodb().MongoServerError)) return false;
  return err.code === DUPLICATE_KEY || (err.code === 1 && BACKEND_UNIQUE_VIOLATION.test(err.message));
}

/** Runs a driver call, a duplicate key becoming the port's error. */
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

/** Whether an upsert inserts without an _id of its own: neither its filter nor its update names one. */
function needsUpsertId(filter: Filter, update: Update): boolean {
  const names = (op: string) => isPlainObject(update[op]) && Object.hasOwn(update[op], '_id');
  return !equalityFields(filter).some(([field]) => field === '_id') && !names('$setOnInsert') && !names('$set');
}

/**
 * The _id an upsert without one inserts under, from the filter's equalities: two concurrent upserts
 * of one filter collide on _id (the loser then updates the winner's document), never insert twice.
 */
function derivedUpsertId(filter: Filter): string {
  const equalities = equalityFields(filter).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return 'u' + createHash('sha256').update(JSON.stringify(equalities)).digest('hex').slice(0, 24);
}

/** An upsert FerretDB inserts as MongoDB does: seeded from the filter's _id alone, no null or [] in `$setOnInsert`. */
function seedsOnlyId(filter: Filter, update: Update): boolean {
  const seeds = equalityFields(filter);
  const onInsert = isPlainObject(update.$setOnInsert) ? Object.values(update.$setOnInsert) : [];
  return (
    seeds.length === 1 &&
    seeds[0][0] === '_id' &&
    filter._id === seeds[0][1] &&
    !onInsert.some((v) => v === null || (Array.isArray(v) && v.length === 0))
  );
}

function withSetOnInsert(update: Update, fields: PlainObject): Update {
  const onInsert = update.$setOnInsert;
  return { ...update, $setOnInsert: { ...(isPlainObject(onInsert) ? onInsert : {}), ...fields } };
}

/** Ids are strings or numbers in this project: the server would otherwise invent an ObjectId. */
function withReplacementId(filter: Filter, replacement: Doc, upsert: boolean): Doc {
  if (!upsert || replacement._id !== undefined || equalityFields(filter).some(([f]) => f === '_id')) return replacement;
  return { ...replacement, _id: newId() };
}

function withDocId(doc: Doc): Doc {
  // a copy: the driver would otherwise write an _id into the caller's object
  return doc._id === undefined ? { ...doc, _id: newId() } : { ...doc };
}

function toResult(r: { matchedCount: number; modifiedCount: number; upsertedCount: number }): UpdateResult {
  return { matchedCount: r.matchedCount, modifiedCount: r.modifiedCount, upsertedCount: r.upsertedCount };
}

/** The port's loose filter/update shapes are what the driver sends as is. */
const asFilter = (filter: Filter) => filter as MongoFilter<Doc>;
const asUpdate = (update: Update) => update as UpdateFilter<Doc>;

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

/** bulkWrite's operations as the driver takes them (MongoDB). */
const bulkModels: Writes<AnyBulkWriteOperation<Doc>> = {
  insert: (doc) => ({ insertOne: { document: withDocId(doc) } }),
  update: (filter, update, upsert, one) => {
    const u = upsert && needsUpsertId(filter, update) ? withSetOnInsert(update, { _id: newId() }) : update;
    const model = { filter: asFilter(filter), update: asUpdate(u), upsert };
    return one ? { updateOne: model } : { updateMany: model };
  },
  delete: (filter, one) =>
    one ? { deleteOne: { filter: asFilter(filter) } } : { deleteMany: { filter: asFilter(filter) } },
  replace: (filter, replacement, upsert) => ({
    replaceOne: { filter: asFilter(filter), replacement: withReplacementId(filter, replacement, upsert), upsert },
  }),
};

class MongoCollection implements CollectionEngine {
  private readonly coll: Collection<Doc>;
  /** the writes as the server's own commands (MongoDB) */
  private readonly onServer: Writes<Promise<unknown>> = {
    insert: (doc) => mapErrors(() => this.coll.insertOne(withDocId(doc), { session: this.session })),
    update: async (filter, update, upsert, one) => {
      const run = (u: Update) =>
        mapErrors(() => {
          const options = { upsert, session: this.session };
          return one
            ? this.coll.updateOne(asFilter(filter), asUpdate(u), options)
            : this.coll.updateMany(asFilter(filter), asUpdate(u), options);
        });
      if (!upsert || !needsUpsertId(filter, update)) return toResult(await run(update));
      const id = await this.upsertId(filter);
      try {
        return toResult(await run(withSetOnInsert(update, { _id: id })));
      } catch (err) {
        // a concurrent upsert inserted it first: the filter now matches it (inside a MongoDB
        // transaction the duplicate has aborted it, and the caller's retry starts over)
        if (!(err instanceof DuplicateKeyError) || this.session || id !== derivedUpsertId(filter)) throw err;
        return toResult(await run(withSetOnInsert(update, { _id: id })));
      }
    },
    delete: async (filter, one) => {
      const options = { session: this.session };
      const result = one
        ? await this.coll.deleteOne(asFilter(filter), options)
        : await this.coll.deleteMany(asFilter(filter), options);
      return { deletedCount: result.deletedCount };
    },
    replace: async (filter, replacement, upsert) => {
      const sent = withReplacementId(filter, replacement, upsert);
      const options = { upsert, session: this.session };
      return toResult(await mapErrors(() => this.coll.replaceOne(asFilter(filter), sent, options)));
    },
  };
  /** the writes computed here, then written by _id (FerretDB) */
  private readonly here: Writes<Promise<unknown>> = {
    insert: (doc) =>
      this.writeHere({
        docs: [{ next: withDocId(doc) }],
        result: { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 },
      }),
    update: async (filter, update, upsert, one) => {
      if ((!upsert || seedsOnlyId(filter, update)) && (await this.store.uniqueKeys(this.name)).length === 0) {
        // no unique key to check, nothing inserted but under the filter's _id: its own command is exact
        assertStorable(update);
        return this.onServer.update(filter, update, upsert, one);
      }
      const targets = await this.matching(filter, one);
      const id = targets.length === 0 && upsert && needsUpsertId(filter, update) ? await this.upsertId(filter) : '';
      return this.writeHere(updateWrites(targets, filter, update, upsert, () => id));
    },
    delete: (filter, one) => this.onServer.delete(filter, one),
    replace: async (filter, replacement, upsert) => {
      const [target] = await this.matching(filter, true);
      return this.writeHere(replaceWrites(target, filter, replacement, upsert));
    },
  };

  constructor(
    private readonly store: MongoReadStore,
    private readonly name: string,
    /** set inside withTransaction on a deployment with transactions: every operation joins it */
    private readonly session: ClientSession | undefined,
  ) {
    this.coll = store.db.collection<Doc>(name);
  }

  /** On FerretDB, `here` after every write queued before it; on MongoDB, `onServer`. */
  private async routed<R>(here: () => Promise<R>, onServer: () => Promise<R>): Promise<R> {
    return (await this.store.traits()).ferretDb ? this.store.exclusive(here) : onServer();
  }

  find(filter: Filter, { sort, skip, limit, projection }: FindOptions): Promise<Doc[]> {
    return this.coll.find(asFilter(filter), { sort, skip, limit, projection, session: this.session }).toArray();
  }

  count(filter: Filter): Promise<number> {
    return this.coll.countDocuments(asFilter(filter), { session: this.session });
  }

  write(op: BulkOp): Promise<unknown> {
    return this.routed(
      () => dispatch(op, this.here),
      () => dispatch(op, this.onServer),
    );
  }

  async bulkWrite(ops: BulkOp[]): Promise<void> {
    await this.routed<unknown>(
      // one at a time, each computed here (FerretDB's update command ignores `ordered` too)
      async () => {
        for (const op of ops) await dispatch(op, this.here);
      },
      () => {
        const models = ops.map((op) => dispatch(op, bulkModels));
        return mapErrors(() => this.coll.bulkWrite(models, { ordered: true, session: this.session }));
      },
    );
  }

  /** The derived _id, unless a document holds it without matching the filter any more. */
  private async upsertId(filter: Filter): Promise<string> {
    const derived = derivedUpsertId(filter);
    const holder = await this.coll.findOne({ _id: derived }, { projection: { _id: 1 }, session: this.session });
    return holder ? newId() : derived;
  }

  /** Whole documents matching `filter`, for the writes computed here. */
  private matching(filter: Filter, one: boolean): Promise<Doc[]> {
    return this.coll.find(asFilter(filter), { limit: one ? 1 : 0, session: this.session }).toArray();
  }

  /** FerretDB: the documents a write computed here, checked, then written by _id. */
  private async writeHere({ docs, result }: Written): Promise<UpdateResult> {
    const keys = await this.store.uniqueKeys(this.name);
    const options = { session: this.session };
    for (const { next, previous } of docs) {
      assertStorable(next);
      await this.checkNullKeys(next, previous?._id, keys);
      await mapErrors<unknown>(() =>
        previous ? this.coll.replaceOne({ _id: previous._id }, next, options) : this.coll.insertOne(next, options),
      );
    }
    return result;
  }

  /**
   * FerretDB stores a missing field as SQL NULL, which never collides in a unique index; MongoDB
   * indexes missing and null alike: a key with a missing or null part is looked for first.
   */
  private async checkNullKeys(doc: Doc, ownId: Doc['_id'] | undefined, keys: string[][]): Promise<void> {
    for (const key of keys) {
      const values = key.map((field) => doc[field]);
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

  async createIndex(spec: IndexSpec): Promise<void> {
    // options only when set: on older servers an explicit unique:false differs from none
    await mapErrors(() =>
      this.coll.createIndex(spec.key, {
        ...(spec.unique ? { unique: true } : {}),
        ...(spec.name ? { name: spec.name } : {}),
      }),
    );
    if (spec.unique) this.store.forgetIndexes();
  }

  async drop(): Promise<void> {
    await dropCollection(this.coll);
    this.store.forgetIndexes();
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
    .filter((info) => info.type !== 'view' && !info.name.startsWith('system.'))
    .map((info) => info.name)
    .sort();
}

/**
 * ReadStore on MongoDB or FerretDB. The client connects on first use, and the first operation (or
 * connect()) asks the server what it is and whether it runs transactions (FerretDB started with
 * --repl-set-name reports a setName yet has none).
 */
export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  /** the database itself (read-model generations keep their pointer beside the read models) */
  readonly db: Db;
  private detected: ServerTraits | undefined;
  private detecting: Promise<ServerTraits> | undefined;
  private readonly uniqueKeyCache = new Map<string, Promise<string[][]>>();
  /** the end of the queue of writes (FerretDB) */
  private lastWrite: Promise<unknown> = Promise.resolve();

  /** `dbName` defaults to the URL's database (the driver's "test" when it names none) */
  constructor(url: string, { dbName }: { dbName?: string } = {}) {
    this.client = new (mongodb().MongoClient)(url);
    this.db = this.client.db(dbName);
  }

  /** Known after connect() or the first operation, as isFerretDb is. */
  get supportsTransactions(): boolean {
    return this.detected?.transactions === true;
  }

  get isFerretDb(): boolean {
    return this.detected?.ferretDb === true;
  }

  get databaseName(): string {
    return this.db.databaseName;
  }

  /** Connects now, instead of on first use, and asks the server what it is. */
  async connect(): Promise<void> {
    await this.client.connect();
    await this.traits();
  }

  /** What the server is and can do, asked once (for its collections too). */
  traits(): Promise<ServerTraits> {
    if (!this.detecting) {
      this.detecting = this.detect();
      // not kept when it fails: a server that was down at the first call is asked again at the next
      this.detecting.catch(() => (this.detecting = undefined));
    }
    return this.detecting;
  }

  private async detect(): Promise<ServerTraits> {
    // explicitly: after a failed first connection the driver keeps a closed topology, on which
    // implicit connects fail for ever ("Topology is closed"); connect() builds a new one
    await this.client.connect();
    const info = await this.db.admin().command({ buildInfo: 1 });
    const ferretDb = typeof info.ferretdbVersion === 'string';
    this.detected = { ferretDb, transactions: await this.probeTransactions() };
    return this.detected;
  }

  /** A read-only transaction, committed: it works or it does not. */
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

  /** Runs `write` after every write queued before it: FerretDB loses concurrent writes to a document. */
  exclusive<R>(write: () => Promise<R>): Promise<R> {
    const result = this.lastWrite.then(write);
    this.lastWrite = result.catch(() => undefined);
    return result;
  }

  /** The key fields of a collection's unique indexes, cached (FerretDB's writes check them). */
  uniqueKeys(name: string): Promise<string[][]> {
    let keys = this.uniqueKeyCache.get(name);
    if (!keys) {
      keys = this.listUniqueKeys(name);
      keys.catch(() => this.uniqueKeyCache.delete(name));
      this.uniqueKeyCache.set(name, keys);
    }
    return keys;
  }

  forgetIndexes(): void {
    this.uniqueKeyCache.clear();
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
    return new CheckedCollection<T>(name, new MongoCollection(this, name, undefined));
  }

  async listCollections(): Promise<string[]> {
    return collectionNames(this.db);
  }

  async withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    const joined = (session?: ClientSession) =>
      new TransactionStore((name) => new MongoCollection(this, name, session), this);
    if (!(await this.traits()).transactions) return fn(joined());
    const session = this.client.startSession();
    try {
      // the driver retries fn on transient errors (write conflicts) and retries the commit
      return await session.withTransaction(() => fn(joined(session)));
    } finally {
      await session.endSession();
    }
  }

  async dropAll(): Promise<void> {
    for (const name of await collectionNames(this.db)) await dropCollection(this.db.collection<Doc>(name));
    this.forgetIndexes();
  }

  /** The whole database gone (a read-model generation no longer in use). */
  async dropDatabase(): Promise<void> {
    await this.db.dropDatabase();
    this.forgetIndexes();
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
