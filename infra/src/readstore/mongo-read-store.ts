import {
  MongoBulkWriteError,
  MongoClient,
  MongoServerError,
  ObjectId,
  type AnyBulkWriteOperation,
  type ClientSession,
  type Collection,
  type Db,
  type Filter as MongoFilter,
  type MongoClientOptions,
  type UpdateFilter,
} from 'mongodb';
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

export interface MongoReadStoreOptions {
  /** database name; defaults to the one in the URL (the driver's default, "test", when the URL has none) */
  dbName?: string;
  client?: MongoClientOptions;
}

const DUPLICATE_KEY = 11000;
const NAMESPACE_NOT_FOUND = 26;

function isDuplicateKey(err: unknown): boolean {
  if (err instanceof MongoBulkWriteError) {
    const writeErrors = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
    return err.code === DUPLICATE_KEY || writeErrors.some((e) => e.code === DUPLICATE_KEY);
  }
  return err instanceof MongoServerError && err.code === DUPLICATE_KEY;
}

/** Runs a driver call and turns MongoDB's E11000 into the port's DuplicateKeyError. */
async function mapErrors<R>(op: () => Promise<R>): Promise<R> {
  try {
    return await op();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const mapped = new DuplicateKeyError(err instanceof Error ? err.message : 'duplicate key');
    mapped.cause = err;
    throw mapped;
  }
}

/** Ids are strings or numbers in this project: the server would otherwise invent an ObjectId. */
function newId(): string {
  return new ObjectId().toHexString();
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof RegExp) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

/** Whether the filter fixes _id by equality (then an upsert takes its _id from the filter, as MongoDB does). */
function filterNamesId(filter: Filter): boolean {
  if (Object.prototype.hasOwnProperty.call(filter, '_id')) {
    const id = filter._id;
    if (!(id instanceof RegExp) && (!isOperatorObject(id) || Object.prototype.hasOwnProperty.call(id, '$eq')))
      return true;
  }
  const and = filter.$and;
  return (
    Array.isArray(and) &&
    and.some((clause: unknown) => typeof clause === 'object' && clause !== null && filterNamesId(clause as Filter))
  );
}

function operandNamesId(update: Update, op: string): boolean {
  const operand = update[op];
  return typeof operand === 'object' && operand !== null && Object.prototype.hasOwnProperty.call(operand, '_id');
}

/** An upsert that would insert without an _id gets a string one, like the in-memory store. */
function withUpsertId(filter: Filter, update: Update, upsert: boolean): Update {
  if (!upsert || filterNamesId(filter) || operandNamesId(update, '$setOnInsert') || operandNamesId(update, '$set'))
    return update;
  const onInsert = update.$setOnInsert;
  const base = typeof onInsert === 'object' && onInsert !== null ? (onInsert as Record<string, unknown>) : {};
  return { ...update, $setOnInsert: { ...base, _id: newId() } };
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

class MongoCollection<T extends Doc> implements ReadCollection<T> {
  private readonly coll: Collection<Doc>;

  constructor(
    db: Db,
    readonly name: string,
    /** set inside withTransaction: every operation joins the transaction */
    private readonly session: ClientSession | undefined,
  ) {
    this.coll = db.collection<Doc>(name);
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    const doc = await this.coll.findOne(asFilter(filter), {
      sort: options.sort,
      skip: options.skip,
      projection: options.projection,
      session: this.session,
    });
    return doc as unknown as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
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
    return this.coll.countDocuments(asFilter(filter), { session: this.session });
  }

  async insertOne(doc: T): Promise<void> {
    await mapErrors(() => this.coll.insertOne(withDocId(doc), { session: this.session }));
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    const upsert = options.upsert === true;
    const result = await mapErrors(() =>
      this.coll.updateOne(asFilter(filter), asUpdate(withUpsertId(filter, update, upsert)), {
        upsert,
        session: this.session,
      }),
    );
    return toResult(result);
  }

  async updateMany(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    const upsert = options.upsert === true;
    const result = await mapErrors(() =>
      this.coll.updateMany(asFilter(filter), asUpdate(withUpsertId(filter, update, upsert)), {
        upsert,
        session: this.session,
      }),
    );
    return toResult(result);
  }

  async replaceOne(filter: Filter, replacement: T, options: UpdateOptions = {}): Promise<UpdateResult> {
    const upsert = options.upsert === true;
    const result = await mapErrors(() =>
      this.coll.replaceOne(asFilter(filter), withReplacementId(filter, replacement, upsert), {
        upsert,
        session: this.session,
      }),
    );
    return toResult(result);
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    const result = await this.coll.deleteOne(asFilter(filter), { session: this.session });
    return { deletedCount: result.deletedCount };
  }

  async deleteMany(filter: Filter = {}): Promise<{ deletedCount: number }> {
    const result = await this.coll.deleteMany(asFilter(filter), { session: this.session });
    return { deletedCount: result.deletedCount };
  }

  async bulkWrite(ops: BulkOp[]): Promise<void> {
    if (ops.length === 0) return; // the driver rejects an empty batch
    const models = ops.map((op): AnyBulkWriteOperation<Doc> => {
      if ('insertOne' in op) return { insertOne: { document: withDocId(op.insertOne.document) } };
      if ('updateOne' in op) {
        const { filter, update, upsert = false } = op.updateOne;
        return {
          updateOne: { filter: asFilter(filter), update: asUpdate(withUpsertId(filter, update, upsert)), upsert },
        };
      }
      if ('updateMany' in op) {
        const { filter, update, upsert = false } = op.updateMany;
        return {
          updateMany: { filter: asFilter(filter), update: asUpdate(withUpsertId(filter, update, upsert)), upsert },
        };
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

  /**
   * Index builds and drops are DDL: MongoDB refuses most of them inside a transaction, so they run
   * outside it, immediately, even when called on the store withTransaction passes.
   */
  async createIndex(spec: IndexSpec): Promise<void> {
    // options only when set: an explicit unique:false would not match an index created without it on older servers
    await mapErrors(() =>
      this.coll.createIndex(spec.key, {
        ...(spec.unique ? { unique: true } : {}),
        ...(spec.name ? { name: spec.name } : {}),
      }),
    );
  }

  async drop(): Promise<void> {
    await dropCollection(this.coll);
  }
}

async function dropCollection(coll: Collection<Doc>): Promise<void> {
  try {
    await coll.drop();
  } catch (err) {
    // servers before 7.0 report dropping a missing collection; the port treats it as done
    if (!(err instanceof MongoServerError && err.code === NAMESPACE_NOT_FOUND)) throw err;
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

async function dropEveryCollection(db: Db): Promise<void> {
  for (const name of await collectionNames(db)) await dropCollection(db.collection<Doc>(name));
}

/**
 * ReadStore on MongoDB. The client connects on first use. Transactions need a replica set or a
 * sharded cluster; the first withTransaction (or connect()) asks the server with `hello`, and on a
 * standalone server withTransaction runs `fn` directly (projectors are idempotent for that case).
 */
export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private detected: boolean | undefined;
  private detecting: Promise<boolean> | undefined;

  constructor(url: string, options: MongoReadStoreOptions = {}) {
    this.client = new MongoClient(url, options.client);
    this.db = this.client.db(options.dbName);
  }

  /** Known after connect() or the first withTransaction; false until then. */
  get supportsTransactions(): boolean {
    return this.detected === true;
  }

  get databaseName(): string {
    return this.db.databaseName;
  }

  /** Connects now (instead of on first use) and finds out whether the deployment has transactions. */
  async connect(): Promise<void> {
    await this.client.connect();
    await this.detectTransactions();
  }

  private detectTransactions(): Promise<boolean> {
    this.detecting ??= (async () => {
      const hello = await this.db.admin().command({ hello: 1 });
      // replica set members report setName, mongos reports msg "isdbgrid"; both run transactions
      const supported = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
      this.detected = supported;
      return supported;
    })();
    return this.detecting;
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new MongoCollection<T>(this.db, name, undefined);
  }

  async listCollections(): Promise<string[]> {
    return collectionNames(this.db);
  }

  async withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    if (!(await this.detectTransactions())) return fn(this);
    const session = this.client.startSession();
    try {
      // the driver retries fn on transient errors (write conflicts) and retries the commit
      return await session.withTransaction(() => fn(new MongoSessionStore(this.db, session)));
    } finally {
      await session.endSession();
    }
  }

  async dropAll(): Promise<void> {
    await dropEveryCollection(this.db);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** The store withTransaction hands to `fn`: the same database, every operation in the session. */
class MongoSessionStore implements ReadStore {
  readonly supportsTransactions = true;

  constructor(
    private readonly db: Db,
    private readonly session: ClientSession,
  ) {}

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new MongoCollection<T>(this.db, name, this.session);
  }

  async listCollections(): Promise<string[]> {
    return collectionNames(this.db);
  }

  /** MongoDB has no nested transactions: `fn` joins the running one. */
  async withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    return fn(this);
  }

  /** DDL, outside the transaction (see createIndex). */
  async dropAll(): Promise<void> {
    await dropEveryCollection(this.db);
  }

  /** The client belongs to the outer store. */
  async close(): Promise<void> {}
}
