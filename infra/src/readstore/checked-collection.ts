import {
  UnsupportedQueryError,
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
import {
  checkDocument,
  checkFilter,
  checkProjection,
  checkSort,
  checkUpdate,
  dispatch,
  type Writes,
} from './query-language';

/** What an adapter does for one collection, with input the language has accepted. */
export interface CollectionEngine {
  find(filter: Filter, options: FindOptions): Promise<Doc[]>;
  count(filter: Filter): Promise<number>;
  /** one write: an UpdateResult for updates and replacements, `{ deletedCount }` for deletes */
  write(op: BulkOp): Promise<unknown>;
  /** operations in order, the first error ending the batch (earlier writes stay) */
  bulkWrite(ops: BulkOp[]): Promise<void>;
  createIndex(spec: IndexSpec): Promise<void>;
  drop(): Promise<void>;
}

/** The language's checks of each write (a bulkWrite's operations are all checked before the first runs). */
const checks: Writes<void> = {
  insert: (doc) => checkDocument(doc),
  update: (filter, update) => {
    checkFilter(filter);
    checkUpdate(update);
  },
  delete: (filter) => checkFilter(filter),
  replace: (filter, replacement) => {
    checkFilter(filter);
    checkDocument(replacement);
  },
};

const refuseInTransaction = (what: string) =>
  // MongoDB would run DDL outside the session, where it can wait on the transaction's own locks
  Promise.reject(new UnsupportedQueryError(`${what} is not allowed inside withTransaction`));

/** The port's collection over an adapter's engine: both stores refuse the same calls, before touching anything. */
export class CheckedCollection<T extends Doc = Doc> implements ReadCollection<T> {
  constructor(
    readonly name: string,
    private readonly engine: CollectionEngine,
    /** the collection of a store handed to withTransaction: no DDL */
    private readonly inTransaction = false,
  ) {}

  async findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    const [doc] = await this.find(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    checkFilter(filter);
    checkSort(options.sort);
    checkProjection(options.projection);
    return (await this.engine.find(filter, options)) as T[];
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    checkFilter(filter);
    return this.engine.count(filter);
  }

  async insertOne(document: T): Promise<void> {
    await this.write({ insertOne: { document } });
  }

  updateOne(filter: Filter, update: Update, { upsert }: UpdateOptions = {}): Promise<UpdateResult> {
    return this.write({ updateOne: { filter, update, upsert } });
  }

  updateMany(filter: Filter, update: Update, { upsert }: UpdateOptions = {}): Promise<UpdateResult> {
    return this.write({ updateMany: { filter, update, upsert } });
  }

  replaceOne(filter: Filter, replacement: T, { upsert }: UpdateOptions = {}): Promise<UpdateResult> {
    return this.write({ replaceOne: { filter, replacement, upsert } });
  }

  deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    return this.write({ deleteOne: { filter } });
  }

  deleteMany(filter: Filter = {}): Promise<{ deletedCount: number }> {
    return this.write({ deleteMany: { filter } });
  }

  private async write<R>(op: BulkOp): Promise<R> {
    dispatch(op, checks);
    return (await this.engine.write(op)) as R;
  }

  async bulkWrite(ops: BulkOp[]): Promise<void> {
    for (const op of ops) dispatch(op, checks);
    if (ops.length > 0) await this.engine.bulkWrite(ops);
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    checkSort(spec.key);
    return this.inTransaction ? refuseInTransaction('createIndex') : this.engine.createIndex(spec);
  }

  async drop(): Promise<void> {
    return this.inTransaction ? refuseInTransaction('drop') : this.engine.drop();
  }
}

/** The store handed to withTransaction's `fn`: a nested withTransaction joins it; DDL and close are refused. */
export class TransactionStore implements ReadStore {
  constructor(
    private readonly engineOf: (name: string) => CollectionEngine,
    private readonly outer: ReadStore,
  ) {}

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new CheckedCollection<T>(name, this.engineOf(name), true);
  }

  listCollections(): Promise<string[]> {
    return this.outer.listCollections();
  }

  withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    return fn(this);
  }

  dropAll(): Promise<void> {
    return refuseInTransaction('dropAll');
  }

  close(): Promise<void> {
    return refuseInTransaction('close');
  }
}
