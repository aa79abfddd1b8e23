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
  checkFindOptions,
  checkReplacementKeepsId,
  cloneValue,
  compareValues,
  deepEqual,
  idKeyOf,
  newId,
  sortDocs,
  StoredShapes,
  StringPool,
  upsertedReplacementId,
  withIdFirst,
  type IdKey,
} from './memory-read-store';
import {
  checkFilter,
  checkProjection,
  checkReplacement,
  checkSort,
  checkUpdate,
  compileFilter,
  isPlainObject,
  projectOnce,
  UPDATE_ADDED,
  runBulkWrite,
  updateInPlace,
  updatesInPlaceSafely,
  type Matcher,
} from './query-language';
import { GUARDED_WRITES, guardAllows, quickMatch, type GuardedWrites } from './write-behind';

/**
 * What a rebuild from empty folds the log into before a MemoryReadStore takes it over
 * (MemoryReadStore.fillFromScratch): per collection, a Map of plain documents by _id, changed in
 * place. No transaction (withTransaction runs `fn` as it is: a failed rebuild is thrown away
 * whole), no copy of a stored document at each write, no index kept up to date while loading
 * (the indexes asked for are only recorded, and built once, by the store that takes the documents
 * over). The projectors run against it unchanged: the same port, the same query language and the
 * same answers as MemoryReadStore (documents, counts, errors; the order of an unsorted find may
 * differ, which the port leaves open).
 *
 * Reads by _id are a Map look-up. A query on other fields is answered from a Map of the values of
 * one of its equality fields, made when a query first needs it and kept up to date by every later
 * write of the collection (a projector asks the same few questions many times: a member's
 * followers, a member's unread notifications); anything else is a scan.
 *
 * Documents are kept in the form a MemoryReadStore stores them in (StoredShapes: laid out by a
 * copier made for their field names, short strings shared), made when a document is created,
 * while it is still in the processor's caches; those that gained fields since are laid out again
 * when taken over. Documents handed out are copies (a projector may change what it reads); the
 * store owns the ones it holds, until `takeContents` hands them over.
 */
export class ScratchStore implements ReadStore {
  private readonly collections = new Map<string, ScratchCollection<Doc>>();
  /** shared strings and document layouts, taken over with the documents (see takeContents) */
  readonly strings = new StringPool();
  readonly shapes = new StoredShapes(this.strings);

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    let c = this.collections.get(name);
    if (!c) {
      c = new ScratchCollection(name, this.shapes, this.strings);
      this.collections.set(name, c);
    }
    return c as unknown as ReadCollection<T>;
  }

  async listCollections(): Promise<string[]> {
    return [...this.collections.values()]
      .filter((c) => c.exists)
      .map((c) => c.name)
      .sort();
  }

  /** Nothing to isolate: nobody else reads this store, and a failed load is thrown away. */
  async withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    return fn(this);
  }

  async dropAll(): Promise<void> {
    for (const c of this.collections.values()) c.clear();
  }

  async close(): Promise<void> {}

  /**
   * Every collection that exists, with its documents (the store's own objects, _id first, checked
   * against the query language, laid out by `shapes`, except those of `grown`: they gained fields
   * since) and the indexes asked for; the store is left empty: the caller owns the documents from
   * now on.
   */
  takeContents(): ScratchContents[] {
    const out: ScratchContents[] = [];
    for (const c of this.collections.values()) {
      if (c.exists) out.push({ name: c.name, docs: c.docs, grown: c.grown, indexes: [...c.indexes] });
      c.clear();
    }
    return out;
  }
}

export interface ScratchContents {
  name: string;
  docs: Map<IdKey, Doc>;
  /** the keys of documents that gained fields after they were laid out */
  grown: Set<IdKey>;
  indexes: IndexSpec[];
}

const NO_CHANGE: UpdateResult = Object.freeze({ matchedCount: 0, modifiedCount: 0, upsertedCount: 0 });

/** `{ _id: <string or finite number> }` and nothing else */
function idPoint(filter: Filter): string | number | undefined {
  const id = filter._id;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) return undefined;
  for (const key in filter) if (key !== '_id') return undefined;
  return id;
}

const isKeyValue = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v));

/** The ids an `_id` condition names (an equality or `$in` of such values), sorted like MemoryReadStore's plan; else undefined. */
function idsOf(filter: Filter): unknown[] | undefined {
  const cond = filter._id;
  if (isKeyValue(cond)) return [cond];
  if (!isPlainObject(cond)) return undefined;
  const list = cond.$in;
  if (!Array.isArray(list) || !list.every(isKeyValue)) return undefined;
  const sorted = [...list].sort(compareValues);
  return sorted.filter((v, i) => i === 0 || compareValues(v, sorted[i - 1]) !== 0);
}

/**
 * What a read hands out: a copy, through the projection (checked) when there is one, else laid out
 * like the stored document (StoredShapes.copy: the generated copier, not a copy field by field).
 */
function copyOf(doc: Doc, projection: FindOptions['projection'], shapes: StoredShapes): Doc {
  if (projection) for (const _ in projection) return projectOnce(doc, projection, cloneValue) as Doc;
  return shapes.copy(doc);
}

const duplicateId = (name: string, id: unknown) =>
  new DuplicateKeyError(
    `E11000 duplicate key error collection: ${name} index: _id_ dup key: { _id: ${JSON.stringify(id)} }`,
  );

/**
 * Whether the strings of a field are worth pooling: after the first POOL_WINDOW values of a field,
 * each next POOL_WINDOW tell how often a value was new to the pool; a field whose values are new
 * more than half the time (ids made of a position, positions, dates) is no longer pooled: a
 * look-up that finds nothing costs more than one that finds, fills the pool with strings seen once,
 * and saves no memory.
 */
const POOL_WINDOW = 2000;
const POOL_MAX_NEW = 0.5;

interface FieldPooling {
  /** values and new values in the current window */
  tries: number;
  misses: number;
  pooled: boolean;
  /** past the first window */
  warm: boolean;
}

/** Ids of the documents holding each value of one field (an array field: each of its elements). */
type FieldMap = Map<unknown, Set<IdKey>>;

class ScratchCollection<T extends Doc> implements ReadCollection<T>, GuardedWrites {
  docs = new Map<IdKey, Doc>();
  grown = new Set<IdKey>();
  readonly indexes: IndexSpec[] = [];
  /** written to, or given an index, since created or dropped (MemoryReadStore's rule) */
  exists = false;
  /** field -> its FieldMap, made by the first query that can use it */
  private readonly fieldMaps = new Map<string, FieldMap>();

  /** per field: are its strings pooled (see POOL_WINDOW) */
  private readonly pooling = new Map<string, FieldPooling>();

  constructor(
    readonly name: string,
    private readonly shapes: StoredShapes,
    private readonly strings: StringPool,
  ) {}

  readonly [GUARDED_WRITES]: GuardedWrites = this;

  clear(): void {
    this.pooling.clear();
    this.docs = new Map();
    this.grown = new Set();
    this.indexes.length = 0;
    this.fieldMaps.clear();
    this.exists = false;
  }

  // -------------------------------------------------------------------------------------------
  // field maps
  // -------------------------------------------------------------------------------------------

  private static mapAdd(map: FieldMap, value: unknown, key: IdKey): void {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      for (const v of value) ScratchCollection.mapAdd(map, v, key);
      return;
    }
    if (!isKeyValue(value)) return;
    let ids = map.get(value);
    if (!ids) map.set(value, (ids = new Set()));
    ids.add(key);
  }

  private static mapRemove(map: FieldMap, value: unknown, key: IdKey): void {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      for (const v of value) ScratchCollection.mapRemove(map, v, key);
      return;
    }
    const ids = map.get(value);
    if (!ids) return;
    ids.delete(key);
    if (ids.size === 0) map.delete(value);
  }

  private indexDoc(key: IdKey, doc: Doc): void {
    for (const [field, map] of this.fieldMaps) ScratchCollection.mapAdd(map, doc[field], key);
  }

  private unindexDoc(key: IdKey, doc: Doc): void {
    for (const [field, map] of this.fieldMaps) ScratchCollection.mapRemove(map, doc[field], key);
  }

  /** The field maps an update of `doc` changes: their entries for `doc` go now, and come back after (`reindex`). */
  private unindexFor(key: IdKey, doc: Doc, update: Update): string[] | undefined {
    if (this.fieldMaps.size === 0) return undefined;
    let touched: string[] | undefined;
    for (const op in update) {
      const fields = update[op] as Record<string, unknown>;
      for (const field in fields) {
        const map = this.fieldMaps.get(field);
        if (!map) continue;
        ScratchCollection.mapRemove(map, doc[field], key);
        (touched ??= []).push(field);
      }
    }
    return touched;
  }

  private reindex(key: IdKey, doc: Doc, fields: string[] | undefined): void {
    if (fields) for (const field of fields) ScratchCollection.mapAdd(this.fieldMaps.get(field)!, doc[field], key);
  }

  private fieldMap(field: string): FieldMap {
    let map = this.fieldMaps.get(field);
    if (!map) {
      map = new Map();
      for (const [key, doc] of this.docs) ScratchCollection.mapAdd(map, doc[field], key);
      this.fieldMaps.set(field, map);
    }
    return map;
  }

  // -------------------------------------------------------------------------------------------
  // writes: every change of `docs` goes through these
  // -------------------------------------------------------------------------------------------

  /** The strings of `doc` (laid out here: its own) shared through the pool, field by field (see POOL_WINDOW). */
  private pool(doc: Doc): Doc {
    const strings = this.strings;
    for (const field in doc) {
      const value = doc[field];
      const isArray = Array.isArray(value);
      if (typeof value !== 'string' && !isArray) continue;
      let p = this.pooling.get(field);
      if (!p) this.pooling.set(field, (p = { tries: 0, misses: 0, pooled: true, warm: false }));
      if (!p.pooled) continue;
      const before = strings.misses;
      if (isArray) {
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (typeof item === 'string') value[i] = strings.intern(item);
        }
      } else doc[field] = strings.intern(value as string);
      p.tries += 1;
      if (strings.misses !== before) p.misses += 1;
      if (p.tries < POOL_WINDOW) continue;
      // the first window warms the pool up; each later one decides
      if (p.warm && p.misses > POOL_MAX_NEW * POOL_WINDOW) p.pooled = false;
      p.warm = true;
      p.tries = 0;
      p.misses = 0;
    }
    return doc;
  }

  /** `doc` is the store's (a copy, or made here): laid out in its stored form */
  private insertDoc(key: IdKey, doc: Doc): void {
    this.exists = true;
    const stored = this.pool(this.shapes.laidOut(doc));
    this.docs.set(key, stored);
    if (this.fieldMaps.size > 0) this.indexDoc(key, stored);
  }

  private replaceDoc(key: IdKey, prev: Doc, next: Doc): void {
    if (this.fieldMaps.size > 0) this.unindexDoc(key, prev);
    const stored = this.pool(this.shapes.laidOut(next));
    this.docs.set(key, stored);
    this.grown.delete(key);
    if (this.fieldMaps.size > 0) this.indexDoc(key, stored);
  }

  private deleteDoc(key: IdKey, doc: Doc): void {
    if (this.fieldMaps.size > 0) this.unindexDoc(key, doc);
    this.docs.delete(key);
    this.grown.delete(key);
  }

  /**
   * `update` (checked) applied to the stored `doc`; answers whether it changed (always true
   * without `counted`: the caller has no use for it, and in place nothing is compared then).
   */
  private updateDoc(key: IdKey, doc: Doc, update: Update, counted = true): boolean {
    if (updatesInPlaceSafely(doc, update)) {
      const touched = this.unindexFor(key, doc, update);
      try {
        const done = updateInPlace(doc, update, false, compareValues, cloneValue, counted ? deepEqual : undefined);
        if (done & UPDATE_ADDED) this.grown.add(key);
        return done !== 0;
      } finally {
        this.reindex(key, doc, touched);
      }
    }
    const next = applyUpdate(doc, update, false);
    if (deepEqual(doc, next)) return false;
    this.replaceDoc(key, doc, next);
    return true;
  }

  /** A new document from an upsert: the filter's equalities (`seed`), then the update as an insert. */
  private upsert(seed: Record<string, unknown>, update: Update, id: unknown): void {
    const created = applyUpdate(seed, update, true, true) as Record<string, unknown>;
    const doc = withIdFirst(created, created._id ?? id ?? newId());
    const key = idKeyOf(doc._id);
    if (this.docs.has(key)) throw duplicateId(this.name, doc._id);
    this.insertDoc(key, doc);
  }

  // -------------------------------------------------------------------------------------------
  // queries
  // -------------------------------------------------------------------------------------------

  /** The stored documents matching `filter` (checked here), in no particular order. */
  private select(filter: Filter, one: boolean): Doc[] {
    checkFilter(filter);
    const out: Doc[] = [];
    const ids = idsOf(filter);
    let matches: Matcher | undefined;
    const test = (doc: Doc) => {
      const quick = quickMatch(doc, filter);
      if (quick !== undefined) return quick;
      matches ??= compileFilter(filter, true);
      return matches(doc);
    };
    if (ids) {
      for (const id of ids) {
        const doc = this.docs.get(idKeyOf(id));
        if (doc && test(doc)) {
          out.push(doc);
          if (one) break;
        }
      }
      return out;
    }
    const keys = this.candidates(filter);
    if (keys) {
      for (const key of keys) {
        const doc = this.docs.get(key);
        if (doc && test(doc)) {
          out.push(doc);
          if (one) break;
        }
      }
      return out;
    }
    for (const doc of this.docs.values()) {
      if (test(doc)) {
        out.push(doc);
        if (one) break;
      }
    }
    return out;
  }

  /**
   * The ids that may match, from the field map of an equality of the filter (one already made
   * first); undefined when the filter has no equality on a value a map holds.
   */
  private candidates(filter: Filter): Iterable<IdKey> | undefined {
    let field: string | undefined;
    for (const key in filter) {
      if (key === '$or' || !isKeyValue(filter[key])) continue;
      if (this.fieldMaps.has(key)) {
        field = key;
        break;
      }
      field ??= key;
    }
    if (field === undefined) return undefined;
    return this.fieldMap(field).get(filter[field]) ?? [];
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    const id = idPoint(filter);
    if (id !== undefined && !options.skip && !options.sort) {
      checkProjection(options.projection);
      const doc = this.docs.get(idKeyOf(id));
      return doc ? (copyOf(doc, options.projection, this.shapes) as T) : null;
    }
    const [doc] = await this.find(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    checkSort(options.sort);
    checkProjection(options.projection);
    const { skip, limit } = checkFindOptions(options);
    let docs = this.select(filter, false);
    if (options.sort) docs = sortDocs(docs, options.sort);
    if (skip > 0 || limit !== undefined) docs = docs.slice(skip, limit === undefined ? undefined : skip + limit);
    return docs.map((doc) => copyOf(doc, options.projection, this.shapes) as T);
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    return this.select(filter, false).length;
  }

  // -------------------------------------------------------------------------------------------
  // the port's writes
  // -------------------------------------------------------------------------------------------

  async insertOne(doc: T): Promise<void> {
    this.insert(doc);
  }

  private insert(doc: Doc): void {
    if (!isPlainObject(doc)) throw new Error('insertOne expects a document');
    const copy = cloneValue(doc) as Record<string, unknown>;
    const stored = copy._id === undefined ? withIdFirst(copy, newId()) : (copy as Doc);
    const key = idKeyOf(stored._id);
    if (this.docs.has(key)) throw duplicateId(this.name, stored._id);
    this.insertDoc(key, stored);
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.update(filter, update, options.upsert === true, true);
  }

  async updateMany(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.update(filter, update, options.upsert === true, false);
  }

  private update(filter: Filter, update: Update, upsert: boolean, one: boolean): UpdateResult {
    checkUpdate(update);
    const id = idPoint(filter);
    let targets: Doc[];
    if (id !== undefined) {
      const doc = this.docs.get(idKeyOf(id));
      targets = doc ? [doc] : [];
    } else targets = this.select(filter, one);
    if (targets.length === 0) {
      if (!upsert) return { ...NO_CHANGE };
      this.upsert(buildUpsertFromFilter(filter), update, undefined);
      return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
    }
    if (targets.length > 1) {
      // like one server-side pass (MemoryReadStore computes every new version first): an update
      // that fails on one document changes none
      for (const doc of targets) if (!updatesInPlaceSafely(doc, update)) applyUpdate(doc, update, false);
    }
    let modifiedCount = 0;
    for (const doc of targets) if (this.updateDoc(idKeyOf(doc._id), doc, update)) modifiedCount += 1;
    return { matchedCount: targets.length, modifiedCount, upsertedCount: 0 };
  }

  async replaceOne(filter: Filter, replacement: T, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.replace(filter, replacement, options.upsert === true);
  }

  private replace(filter: Filter, replacement: Doc, upsert: boolean): UpdateResult {
    checkReplacement(replacement);
    const id = idPoint(filter);
    let target: Doc | undefined;
    if (id !== undefined) target = this.docs.get(idKeyOf(id));
    else [target] = this.select(filter, true);
    const copy = cloneValue(replacement) as Record<string, unknown>;
    if (!target) {
      if (!upsert) return { ...NO_CHANGE };
      const doc = withIdFirst(copy, upsertedReplacementId(copy, filter));
      const key = idKeyOf(doc._id);
      if (this.docs.has(key)) throw duplicateId(this.name, doc._id);
      this.insertDoc(key, doc);
      return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
    }
    checkReplacementKeepsId(copy, target._id);
    const next = withIdFirst(copy, target._id);
    if (deepEqual(target, next)) return { matchedCount: 1, modifiedCount: 0, upsertedCount: 0 };
    this.replaceDoc(idKeyOf(target._id), target, next);
    return { matchedCount: 1, modifiedCount: 1, upsertedCount: 0 };
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    return this.delete(filter, true);
  }

  async deleteMany(filter: Filter = {}): Promise<{ deletedCount: number }> {
    return this.delete(filter, false);
  }

  private delete(filter: Filter, one: boolean): { deletedCount: number } {
    const targets = this.select(filter, one);
    for (const doc of targets) this.deleteDoc(idKeyOf(doc._id), doc);
    return { deletedCount: targets.length };
  }

  async bulkWrite(ops: BulkOp[]): Promise<void> {
    runBulkWrite(ops, {
      insert: (d) => this.insert(d),
      update: (f, u, upsert, one) => this.update(f, u, upsert, one),
      delete: (f, one) => this.delete(f, one),
      replace: (f, r, upsert) => this.replace(f, r, upsert),
    });
  }

  /** Recorded, built by the store that takes the documents over (which refuses a conflicting one then). */
  async createIndex(spec: IndexSpec): Promise<void> {
    checkSort(spec.key);
    this.exists = true;
    if (!this.indexes.some((s) => deepEqual(s, spec))) this.indexes.push({ ...spec });
  }

  async drop(): Promise<void> {
    this.clear();
  }

  // -------------------------------------------------------------------------------------------
  // the projections' guarded writes in one step (see GuardedWrites)
  // -------------------------------------------------------------------------------------------

  async applyOnce(
    id: string | number,
    guard: string,
    key: string,
    guardedUpdate: Update,
    upsert: boolean,
  ): Promise<boolean> {
    checkUpdate(guardedUpdate);
    const idKey = idKeyOf(id);
    const doc = this.docs.get(idKey);
    if (doc) {
      if (!guardAllows(doc, guard, key)) return false;
      this.updateDoc(idKey, doc, guardedUpdate, false);
      return true;
    }
    if (!upsert) return false;
    this.upsert({ _id: id }, guardedUpdate, id);
    return true;
  }

  async replaceIfNewer(doc: Doc & { _pos: string }): Promise<boolean> {
    checkReplacement(doc);
    const idKey = idKeyOf(doc._id);
    const prev = this.docs.get(idKey);
    if (prev && !guardAllows(prev, '_pos', doc._pos)) return false;
    const next = withIdFirst(cloneValue(doc), doc._id);
    if (!prev) this.insertDoc(idKey, next);
    else if (!deepEqual(prev, next)) this.replaceDoc(idKey, prev, next);
    return true;
  }
}
