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
import {
  applyUpdate,
  buildUpsertFromFilter,
  cloneValue,
  deepEqual,
  idKeyOf,
  OWNED_DOCUMENTS,
  type IdKey,
  type OwnedDocuments,
} from './memory-read-store';
import {
  checkFilter,
  checkProjection,
  checkReplacement,
  checkUpdate,
  compileFilter,
  compileProjection,
  updatesInPlaceSafely,
} from './query-language';

/** A document as this unit of work sees it: null when it does not exist. */
interface Entry {
  id: Doc['_id'];
  doc: Doc | null;
  /** changed since the last flush: `doc` is then a version made here, which nobody else holds */
  dirty: boolean;
}

/** The _ids of `{ _id: { $in: [...] } }` and nothing else, when they are all strings or numbers. */
function inIds(filter: Filter): Array<Doc['_id']> | undefined {
  const id = filter._id;
  if (Object.keys(filter).length !== 1 || typeof id !== 'object' || id === null) return undefined;
  const ops = Object.keys(id);
  const list = (id as { $in?: unknown }).$in;
  if (ops.length !== 1 || !Array.isArray(list)) return undefined;
  return list.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))
    ? (list as Array<Doc['_id']>)
    : undefined;
}

const onlyId = (filter: Filter) => Object.keys(filter).length === 1;

/** A point filter's other conditions are checked even when there is no document to test them on. */
function pointId(filter: Filter): Doc['_id'] | undefined {
  const id = filter._id;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) return undefined;
  if (!onlyId(filter)) checkFilter(filter);
  return id;
}

const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v));

/**
 * The filters projectors write with (`applyOnce`'s guard: equalities, `$or`, `$exists`, ranges on
 * top-level fields holding scalars), decided without compiling anything; undefined for anything
 * else (arrays, null, dotted paths, other operators): then the query language's matcher decides.
 */
export function quickMatch(doc: Doc, filter: Filter): boolean | undefined {
  for (const key in filter) {
    const cond = filter[key];
    if (key === '$or') {
      if (!Array.isArray(cond) || cond.length === 0) return undefined;
      let any = false;
      for (const clause of cond) {
        const r = quickMatch(doc, clause as Filter);
        if (r === undefined) return undefined;
        any ||= r;
      }
      if (!any) return false;
      continue;
    }
    if (key.startsWith('$') || key.includes('.')) return undefined;
    const present = Object.prototype.hasOwnProperty.call(doc, key);
    const value = present ? doc[key] : undefined;
    if (value !== undefined && !isScalar(value)) return undefined;
    if (isScalar(cond)) {
      if (value !== cond) return false;
      continue;
    }
    if (typeof cond !== 'object' || cond === null || Array.isArray(cond)) return undefined;
    for (const op in cond) {
      const operand = (cond as Record<string, unknown>)[op];
      switch (op) {
        case '$exists':
          if (typeof operand !== 'boolean') return undefined;
          if (present !== operand) return false;
          break;
        case '$lt':
        case '$lte':
        case '$gt':
        case '$gte': {
          if (!(typeof operand === 'string' || (typeof operand === 'number' && !Number.isNaN(operand))))
            return undefined;
          // only values of the same type compare (MongoDB's type brackets)
          if (typeof value !== typeof operand) return false;
          const v = value as string | number;
          const o = operand;
          const ok = op === '$lt' ? v < o : op === '$lte' ? v <= o : op === '$gt' ? v > o : v >= o;
          if (!ok) return false;
          break;
        }
        default:
          return undefined;
      }
    }
  }
  return true;
}
/** MongoDB stores _id first; `doc` is ours (a copy), kept as it is when it already is so */
const withIdFirst = (id: Doc['_id'], doc: Doc): Doc => {
  for (const first in doc) {
    if (first === '_id' && doc._id === id) return doc;
    break;
  }
  const { _id: _ignored, ...rest } = doc;
  return { _id: id, ...rest };
};

/**
 * The guarded writes of the projections (`applyOnce` and `replaceIfNewer` in
 * projections/src/runtime/write-once.ts) in one step on a unit of work's collection: what their
 * calls (a write guarded by `$or: [{ <guard>: { $exists: false } }, { <guard>: { $lt: key } }]`,
 * then a read by _id and the guarded upsert when it matched nothing) do to the documents here,
 * without building, checking and matching their filters at each write. The _id is a string or a
 * finite number.
 */
export const GUARDED_WRITES: unique symbol = Symbol('guarded writes');
export interface GuardedWrites {
  /** `guardedUpdate` sets `guard` to `key`; true when applied (or upserted) */
  applyOnce(id: string | number, guard: string, key: string, guardedUpdate: Update, upsert: boolean): Promise<boolean>;
  /** the guard is `_pos`; true when written */
  replaceIfNewer(doc: Doc & { _pos: string }): Promise<boolean>;
}

/** Does `doc` pass the guard filter of `key` (see GuardedWrites)? */
export function guardAllows(doc: Doc, guard: string, key: string): boolean {
  if (!Object.prototype.hasOwnProperty.call(doc, guard)) return true;
  const value = doc[guard];
  if (typeof value === 'string') return value < key;
  // not written by a guarded write: the query language decides
  return compileFilter({ $or: [{ [guard]: { $exists: false } }, { [guard]: { $lt: key } }] })(doc);
}

/**
 * A unit of work over another store (a projection batch's transaction): the documents read or
 * written by _id are kept here, reads and writes of them are answered from here with MongoDB's
 * semantics (the query language's matcher and updater, as MemoryReadStore answers them), and each
 * changed document is written once, by `flush()`, however many times the batch changed it.
 * Unsorted queries on other fields merge the documents changed here with the inner store's answer;
 * anything else (sorted queries, counts, multi-document writes) first flushes the collection it
 * reads or writes, then goes to the inner store, so it sees every earlier write.
 *
 * Meant for one writer at a time on the inner store's documents (the projection runner inside its
 * transaction): a document is read once, so a concurrent change to it would be overwritten at flush.
 */
export class WriteBehindStore implements ReadStore {
  private readonly collections = new Map<string, WriteBehindCollection<Doc>>();

  constructor(private readonly inner: ReadStore) {}

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    let c = this.collections.get(name);
    if (!c) {
      c = new WriteBehindCollection(name, this.inner.collection(name));
      this.collections.set(name, c);
    }
    return c as unknown as ReadCollection<T>;
  }

  /** Write every changed document to the inner store (one bulkWrite per collection). */
  async flush(): Promise<void> {
    for (const c of this.collections.values()) await c.flush();
  }

  async listCollections(): Promise<string[]> {
    await this.flush();
    return this.inner.listCollections();
  }

  /** Already a unit of work: `fn` joins it. */
  async withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    return fn(this);
  }

  async dropAll(): Promise<void> {
    this.collections.clear();
    await this.inner.dropAll();
  }

  async close(): Promise<void> {
    await this.flush();
  }
}

class WriteBehindCollection<T extends Doc> implements ReadCollection<T>, GuardedWrites {
  private readonly entries = new Map<IdKey, Entry>();
  /** the entries changed since the last flush */
  private readonly dirty = new Set<Entry>();
  /** a MemoryReadStore collection: its documents are borrowed and ours adopted, without copies */
  private readonly owned: OwnedDocuments | undefined;

  constructor(
    readonly name: string,
    private readonly inner: ReadCollection<T>,
  ) {
    this.owned = (inner as { [OWNED_DOCUMENTS]?: OwnedDocuments })[OWNED_DOCUMENTS];
  }

  /**
   * The entry of `id`, at once when known or when the inner store lends its documents (no await,
   * no copy); undefined when it must be read from the inner store (`fetch`). An entry's document
   * is changed in place only while dirty (a version made here, see applyOnce), and never handed
   * out (copies are).
   */
  private known(id: Doc['_id']): Entry | undefined {
    const key = idKeyOf(id);
    let entry = this.entries.get(key);
    if (!entry && this.owned) {
      entry = { id, doc: this.owned.peek(id), dirty: false };
      this.entries.set(key, entry);
    }
    return entry;
  }

  private async fetch(id: Doc['_id']): Promise<Entry> {
    const doc = await this.inner.findOne({ _id: id });
    // another call may have loaded it meanwhile: the first one stays
    const key = idKeyOf(id);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { id, doc, dirty: false };
      this.entries.set(key, entry);
    }
    return entry;
  }

  readonly [GUARDED_WRITES]: GuardedWrites = this;

  async applyOnce(
    id: string | number,
    guard: string,
    key: string,
    guardedUpdate: Update,
    upsert: boolean,
  ): Promise<boolean> {
    checkUpdate(guardedUpdate);
    const entry = this.known(id) ?? (await this.fetch(id));
    if (entry.doc) {
      if (!guardAllows(entry.doc, guard, key)) return false;
      if (entry.dirty && updatesInPlaceSafely(entry.doc, guardedUpdate)) {
        // a version made in this batch, held by nobody else until flush() hands it over (and
        // clears `dirty`): changed in place instead of copied at each write (a counter of a
        // popular document changes many times in a batch)
        applyUpdate(entry.doc, guardedUpdate, false, true);
        return true;
      }
      const next = applyUpdate(entry.doc, guardedUpdate, false);
      if (!deepEqual(entry.doc, next)) this.set(entry, next);
      return true;
    }
    if (!upsert) return false;
    // the upsert's document starts from the filter's equalities: the _id alone
    const created = applyUpdate({ _id: id }, guardedUpdate, true);
    this.set(entry, withIdFirst(created._id ?? id, created));
    return true;
  }

  async replaceIfNewer(doc: Doc & { _pos: string }): Promise<boolean> {
    checkReplacement(doc);
    const entry = this.known(doc._id) ?? (await this.fetch(doc._id));
    if (entry.doc && !guardAllows(entry.doc, '_pos', doc._pos)) return false;
    const next = withIdFirst(doc._id, cloneValue(doc));
    if (!entry.doc || !deepEqual(entry.doc, next)) this.set(entry, next);
    return true;
  }

  private set(entry: Entry, doc: Doc | null): void {
    entry.doc = doc;
    entry.dirty = true;
    this.dirty.add(entry);
  }

  private static matches(doc: Doc, filter: Filter): boolean {
    return onlyId(filter) || (quickMatch(doc, filter) ?? compileFilter(filter)(doc));
  }

  private static copy(doc: Doc, projection: FindOptions['projection']): Doc {
    if (!projection || Object.keys(projection).length === 0) return cloneValue(doc);
    return compileProjection(projection)(doc, cloneValue) as Doc;
  }

  /** find options this collection answers itself: no sort, skip or limit (the projection checked) */
  private static servable(options: FindOptions): boolean {
    checkProjection(options.projection);
    return options.sort === undefined && !options.skip;
  }

  async flush(): Promise<void> {
    if (this.dirty.size === 0) return;
    if (this.owned) {
      // the documents were built here from checked updates: handed over as they are
      const writes = [...this.dirty];
      for (const entry of writes) entry.dirty = false;
      this.dirty.clear();
      this.owned.adopt(writes);
      return;
    }
    const ops: BulkOp[] = [];
    for (const entry of this.dirty) {
      entry.dirty = false;
      ops.push(
        entry.doc
          ? { replaceOne: { filter: { _id: entry.id }, replacement: entry.doc, upsert: true } }
          : { deleteOne: { filter: { _id: entry.id } } },
      );
    }
    this.dirty.clear();
    await this.inner.bulkWrite(ops);
  }

  /** after a write this collection did not follow: what it holds may be stale */
  private forget(): void {
    this.entries.clear();
    this.dirty.clear();
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    const id = pointId(filter);
    if (id !== undefined && WriteBehindCollection.servable(options)) {
      const { doc } = this.known(id) ?? (await this.fetch(id));
      return doc && WriteBehindCollection.matches(doc, filter)
        ? (WriteBehindCollection.copy(doc, options.projection) as T)
        : null;
    }
    await this.flush();
    return this.inner.findOne(filter, options);
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const point = pointId(filter);
    const ids = point !== undefined ? [point] : inIds(filter);
    if (ids && !options.limit && WriteBehindCollection.servable(options)) {
      const out: T[] = [];
      const seen = new Set<IdKey>();
      for (const id of ids) {
        const key = idKeyOf(id);
        if (seen.has(key)) continue;
        seen.add(key);
        const { doc } = this.known(id) ?? (await this.fetch(id));
        if (doc && (point === undefined || WriteBehindCollection.matches(doc, filter)))
          out.push(WriteBehindCollection.copy(doc, options.projection) as T);
      }
      return out;
    }
    const projection = options.projection;
    if (
      this.dirty.size > 0 &&
      !options.limit &&
      WriteBehindCollection.servable(options) &&
      (projection === undefined || (projection._id as number | undefined) !== 0)
    ) {
      // in no particular order (none was asked): the inner store's documents, with those changed
      // here in their version from here, without writing them first
      const matches = compileFilter(filter);
      const out: T[] = [];
      for (const doc of await this.inner.find(filter, options)) {
        if (!this.entries.get(idKeyOf(doc._id))?.dirty) out.push(doc);
      }
      for (const entry of this.dirty) {
        if (entry.doc && matches(entry.doc)) out.push(WriteBehindCollection.copy(entry.doc, projection) as T);
      }
      return out;
    }
    await this.flush();
    return this.inner.find(filter, options);
  }

  async countDocuments(filter?: Filter): Promise<number> {
    await this.flush();
    return this.inner.countDocuments(filter);
  }

  async insertOne(doc: T): Promise<void> {
    if (typeof doc._id !== 'string' && typeof doc._id !== 'number') {
      await this.flush();
      return this.inner.insertOne(doc);
    }
    const entry = this.known(doc._id) ?? (await this.fetch(doc._id));
    if (entry.doc) {
      throw new DuplicateKeyError(
        `E11000 duplicate key error collection: ${this.name} index: _id_ dup key: { _id: ${JSON.stringify(doc._id)} }`,
      );
    }
    this.set(entry, withIdFirst(doc._id, cloneValue(doc)));
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    checkUpdate(update);
    const id = pointId(filter);
    if (id === undefined) {
      await this.flush();
      const r = await this.inner.updateOne(filter, update, options);
      this.forget();
      return r;
    }
    const entry = this.known(id) ?? (await this.fetch(id));
    if (entry.doc && WriteBehindCollection.matches(entry.doc, filter)) {
      const next = applyUpdate(entry.doc, update, false);
      if (deepEqual(entry.doc, next)) return { matchedCount: 1, modifiedCount: 0, upsertedCount: 0 };
      this.set(entry, next);
      return { matchedCount: 1, modifiedCount: 1, upsertedCount: 0 };
    }
    if (!options.upsert) return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
    // the upsert inserts a document with the filter's _id: a duplicate key if one is there already
    if (entry.doc) throw new DuplicateKeyError(`E11000 duplicate key error collection: ${this.name} index: _id_`);
    const created = applyUpdate(buildUpsertFromFilter(filter), update, true);
    this.set(entry, withIdFirst(created._id ?? id, created));
    return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
  }

  async updateMany(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult> {
    await this.flush();
    const r = await this.inner.updateMany(filter, update, options);
    this.forget();
    return r;
  }

  async replaceOne(filter: Filter, replacement: T, options: UpdateOptions = {}): Promise<UpdateResult> {
    checkReplacement(replacement);
    const id = pointId(filter);
    const sameId = replacement._id === undefined || idKeyOf(replacement._id) === idKeyOf(id);
    if (id === undefined || !sameId || Object.keys(replacement).some((k) => k.startsWith('$'))) {
      // the inner store gives MongoDB's answer (and errors) for anything unusual
      await this.flush();
      const r = await this.inner.replaceOne(filter, replacement, options);
      this.forget();
      return r;
    }
    const entry = this.known(id) ?? (await this.fetch(id));
    const next = withIdFirst(id, cloneValue(replacement));
    if (entry.doc && WriteBehindCollection.matches(entry.doc, filter)) {
      if (deepEqual(entry.doc, next)) return { matchedCount: 1, modifiedCount: 0, upsertedCount: 0 };
      this.set(entry, next);
      return { matchedCount: 1, modifiedCount: 1, upsertedCount: 0 };
    }
    if (!options.upsert) return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
    if (entry.doc) throw new DuplicateKeyError(`E11000 duplicate key error collection: ${this.name} index: _id_`);
    this.set(entry, next);
    return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    const id = pointId(filter);
    if (id === undefined) {
      await this.flush();
      const r = await this.inner.deleteOne(filter);
      this.forget();
      return r;
    }
    const entry = this.known(id) ?? (await this.fetch(id));
    if (!entry.doc || !WriteBehindCollection.matches(entry.doc, filter)) return { deletedCount: 0 };
    this.set(entry, null);
    return { deletedCount: 1 };
  }

  async deleteMany(filter?: Filter): Promise<{ deletedCount: number }> {
    await this.flush();
    const r = await this.inner.deleteMany(filter);
    this.forget();
    return r;
  }

  async bulkWrite(ops: BulkOp[]): Promise<void> {
    await this.flush();
    this.forget();
    await this.inner.bulkWrite(ops);
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    await this.flush();
    await this.inner.createIndex(spec);
  }

  async drop(): Promise<void> {
    this.forget();
    await this.inner.drop();
  }
}
