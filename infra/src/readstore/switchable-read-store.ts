import type {
  BulkOp,
  Doc,
  Filter,
  FindOptions,
  IndexSpec,
  ReadCollection,
  ReadStore,
  Update,
  UpdateOptions,
} from './port';

/**
 * A ReadStore that forwards every call to its current target and can be switched to another
 * target at once: the product keeps serving from the old read models while new ones are rebuilt
 * beside them, then switches.
 */
export class SwitchableReadStore implements ReadStore {
  constructor(private target: ReadStore) {}

  get current(): ReadStore {
    return this.target;
  }

  /** Serve from `next` from now on; answers the previous target (to be closed by the caller). */
  switchTo(next: ReadStore): ReadStore {
    const previous = this.target;
    this.target = next;
    return previous;
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new SwitchableCollection<T>(name, () => this.target.collection<T>(name));
  }
  listCollections() {
    return this.target.listCollections();
  }
  withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    return this.target.withTransaction(fn);
  }
  dropAll() {
    return this.target.dropAll();
  }
  close() {
    return this.target.close();
  }
}

class SwitchableCollection<T extends Doc> implements ReadCollection<T> {
  constructor(
    readonly name: string,
    private readonly c: () => ReadCollection<T>,
  ) {}
  findOne(filter: Filter, options?: Omit<FindOptions, 'limit'>) {
    return this.c().findOne(filter, options);
  }
  find(filter: Filter, options?: FindOptions) {
    return this.c().find(filter, options);
  }
  countDocuments(filter?: Filter) {
    return this.c().countDocuments(filter);
  }
  insertOne(doc: T) {
    return this.c().insertOne(doc);
  }
  updateOne(filter: Filter, update: Update, options?: UpdateOptions) {
    return this.c().updateOne(filter, update, options);
  }
  updateMany(filter: Filter, update: Update, options?: UpdateOptions) {
    return this.c().updateMany(filter, update, options);
  }
  replaceOne(filter: Filter, replacement: T, options?: UpdateOptions) {
    return this.c().replaceOne(filter, replacement, options);
  }
  deleteOne(filter: Filter) {
    return this.c().deleteOne(filter);
  }
  deleteMany(filter?: Filter) {
    return this.c().deleteMany(filter);
  }
  bulkWrite(ops: BulkOp[]) {
    return this.c().bulkWrite(ops);
  }
  createIndex(spec: IndexSpec) {
    return this.c().createIndex(spec);
  }
  drop() {
    return this.c().drop();
  }
}
