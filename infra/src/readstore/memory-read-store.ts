import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  DuplicateKeyError,
  type BulkOp,
  type Doc,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type ReadCollection,
  type ReadStore,
  type Sort,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from './port';
import {
  applyUpdate as applyLanguageUpdate,
  checkReplacement,
  checkSort,
  checkUpdate,
  checkFilter,
  compileFilter as compileLanguageFilter,
  compileProjection,
  equalityFields,
  runBulkWrite,
} from './query-language';
import type { EncodedImage } from './memory-snapshot';
import type { ScratchStore } from './scratch-store';

/*
 * In-memory ReadStore: the port's query language (query-language.ts) with MongoDB's answers.
 *
 * Filters, updates and projections are evaluated by query-language.ts; ordering (MongoDB's type
 * order, arrays by their smallest element ascending and largest descending), index keys, upserts and
 * transactions are done here.
 *
 * Indexes: every collection keeps a Map on _id; each createIndex adds an ordered structure of
 * (index key values..., _id) entries, one per document (one per array element for multikey indexes).
 * A query with equality on a prefix of an index (and/or a range on the next field, and/or a sort the
 * index order gives) reads only that part of the structure. Index use only ever narrows the
 * candidates: every candidate is still tested against the whole filter, so the index path returns
 * exactly what a full scan returns.
 */

// ---------------------------------------------------------------------------------------------
// values: MongoDB comparison order, paths, copies
// ---------------------------------------------------------------------------------------------

/** Key of an empty array in indexes and sorts: MongoDB orders it before null. */
const EMPTY_ARRAY: unique symbol = Symbol('empty array');

type PlainObject = Record<string, unknown>;

function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** MongoDB's BSON type order for the port's JSON values (MinKey < null < numbers < strings < objects < arrays < booleans). */
function typeRank(value: unknown): number {
  if (value === EMPTY_ARRAY) return 0;
  if (value === undefined || value === null) return 1;
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return 2;
    case 'string':
      return 3;
    case 'boolean':
      return 8;
    case 'object':
      return Array.isArray(value) ? 5 : 4;
    default:
      return 12;
  }
}

function compareNumbers(a: number, b: number): number {
  // MongoDB orders NaN below every other number
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : -1;
  if (Number.isNaN(b)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareArrays(a: readonly unknown[], b: readonly unknown[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareValues(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function compareObjects(a: PlainObject, b: PlainObject): number {
  // field by field in stored order: value type, then field name, then value (as MongoDB does)
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const n = Math.min(ka.length, kb.length);
  for (let i = 0; i < n; i++) {
    const rank = typeRank(a[ka[i]]) - typeRank(b[kb[i]]);
    if (rank !== 0) return rank < 0 ? -1 : 1;
    if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    const c = compareValues(a[ka[i]], b[kb[i]]);
    if (c !== 0) return c;
  }
  return ka.length < kb.length ? -1 : ka.length > kb.length ? 1 : 0;
}

/**
 * Total order over stored values following MongoDB (numbers of any kind compare by value, null and
 * missing are equal). Strings compare by UTF-16 code units, like mingo's query operators, so that
 * index ranges agree with the filter.
 */
export function compareValues(a: unknown, b: unknown): number {
  // the common cases first (index keys are mostly strings and numbers)
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number' && !Number.isNaN(a) && !Number.isNaN(b))
    return a < b ? -1 : a > b ? 1 : 0;
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 2:
      return compareNumbers(Number(a), Number(b));
    case 3: {
      const x = a as string;
      const y = b as string;
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 4:
      return compareObjects(a as PlainObject, b as PlainObject);
    case 5:
      return compareArrays(a as unknown[], b as unknown[]);
    case 8:
      return a === b ? 0 : a === false ? -1 : 1;
    default:
      return 0;
  }
}

/** Strict structural equality (key order included), used to tell whether an update changed a document. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((value, i) => deepEqual(value, b[i]));
  }
  const x = a as PlainObject;
  const y = b as PlainObject;
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  if (kx.length !== ky.length) return false;
  return kx.every((key, i) => key === ky[i] && deepEqual(x[key], y[key]));
}

export function cloneValue<V>(value: V): V {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => cloneValue(item)) as V;
  if (isPlainObject(value)) {
    const out: PlainObject = {};
    // for…in: no array of keys per copy (stored documents are plain objects, nothing inherited)
    for (const key in value) {
      // a stored "__proto__" field must stay a field, not become the copy's prototype
      if (key === '__proto__') {
        Object.defineProperty(out, key, {
          value: cloneValue(value[key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else {
        out[key] = cloneValue(value[key]);
      }
    }
    return out as V;
  }
  return structuredClone(value);
}

/**
 * Map key of an _id: the id itself for numbers (0 and -0 the same) and strings (no copy of every
 * id as a key), a marked string for anything else. A Map never confuses 1 and '1'; ids starting
 * with NUL are marked too, so no string id meets an object id's key.
 */
export type IdKey = string | number;
export function idKeyOf(id: unknown): IdKey {
  if (typeof id === 'string') return id.charCodeAt(0) === 0 ? `\u0000s${id}` : id;
  if (typeof id === 'number') return id === 0 ? 0 : id;
  return `\u0000o${JSON.stringify(id)}`;
}

export function newId(): string {
  return randomBytes(12).toString('hex');
}

/**
 * The values a top-level field gives index keys and sorts (MongoDB's rule): an array gives each of
 * its elements (an empty one EMPTY_ARRAY), a missing field null. `sawArray` tells whether the
 * field holds an array (the document makes an index multikey).
 */
function pathValues(doc: PlainObject, field: string): { values: unknown[]; sawArray: boolean } {
  const value = Object.prototype.hasOwnProperty.call(doc, field) ? doc[field] : undefined;
  if (!Array.isArray(value)) return { values: [value === undefined ? null : value], sawArray: false };
  // a copy: index code sorts the values it is given
  return { values: value.length === 0 ? [EMPTY_ARRAY] : [...value], sawArray: true };
}

/** Sort key of one field: the smallest value ascending, the largest descending (MongoDB's rule for arrays). */
function sortKeyOf(doc: Doc, path: string, dir: 1 | -1): unknown {
  const { values } = pathValues(doc, path);
  let best = values[0];
  for (let i = 1; i < values.length; i++) {
    const c = compareValues(values[i], best);
    if (dir === 1 ? c < 0 : c > 0) best = values[i];
  }
  return best;
}

function sortEntries(sort: Sort): Array<[string, 1 | -1]> {
  const out: Array<[string, 1 | -1]> = [];
  for (const field in sort) {
    const dir = sort[field];
    if (dir !== 1 && dir !== -1) throw new Error(`Invalid sort direction for '${field}': ${String(dir)}`);
    out.push([field, dir]);
  }
  return out;
}

/** Stable sort: equal keys keep the order they came in (natural or index order). */
export function sortDocs(docs: Doc[], sort: Sort): Doc[] {
  const spec = sortEntries(sort);
  if (spec.length === 0) return docs;
  const keyed = docs.map((doc) => ({ doc, keys: spec.map(([field, dir]) => sortKeyOf(doc, field, dir)) }));
  keyed.sort((a, b) => {
    for (let j = 0; j < spec.length; j++) {
      const c = compareValues(a.keys[j], b.keys[j]);
      if (c !== 0) return c * spec[j][1];
    }
    return 0;
  });
  return keyed.map((k) => k.doc);
}

function isOperatorObject(value: unknown): value is PlainObject {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

// ---------------------------------------------------------------------------------------------
// filters, updates, projections: the port's query language (query-language.ts)
// ---------------------------------------------------------------------------------------------

type Matcher = (doc: Doc) => boolean;

const compileFilter = (filter: Filter, checked = false): Matcher => compileLanguageFilter(filter, checked) as Matcher;

/**
 * A filter of `_id` alone, equal to a value or `$in` a list: the documents an `_id` plan finds
 * are exactly its matches, so they need no test (reads by ids are the commonest queries).
 */
const matchesAll: Matcher = () => true;
function onlyIds(filter: Filter): boolean {
  let keys = 0;
  for (const key in filter) if (++keys > 1 || key !== '_id') return false;
  const value = filter._id;
  if (!isOperatorObject(value)) return true;
  for (const op in value) if (op !== '$in') return false;
  return true;
}

function sameId(a: unknown, b: unknown): boolean {
  return idKeyOf(a) === idKeyOf(b);
}

/**
 * The _id of a document a replacement upserts with `filter`: the replacement's own, else the
 * filter's equality on _id, else a new one; MongoDB's error when its own and the filter's differ.
 */
export function upsertedReplacementId(replacement: PlainObject, filter: Filter): unknown {
  const fromFilter = equalityFields(filter).find(([path]) => path === '_id')?.[1];
  if (replacement._id !== undefined && fromFilter !== undefined && !sameId(replacement._id, fromFilter)) {
    throw new Error("The _id field cannot be changed: the replacement's _id differs from the filter's");
  }
  return replacement._id ?? fromFilter ?? newId();
}

/** MongoDB's error when a replacement names an _id other than its target's (an _id never changes). */
export function checkReplacementKeepsId(replacement: PlainObject, targetId: unknown): void {
  if (replacement._id !== undefined && !sameId(replacement._id, targetId)) {
    throw new Error("After applying the update, the (immutable) field '_id' was found to have been altered");
  }
}

/** An update of the language applied to a copy of `doc`, or to `doc` itself when `inPlace` (on insert, $setOnInsert too). */
export function applyUpdate(doc: Doc | PlainObject, update: Update, isInsert: boolean, inPlace = false): Doc {
  return applyLanguageUpdate(doc, update, isInsert, compareValues, cloneValue, inPlace) as Doc;
}

/** The document an upsert starts from: the filter's equalities. */
export function buildUpsertFromFilter(filter: Filter): PlainObject {
  const doc: PlainObject = {};
  for (const [field, value] of equalityFields(filter)) doc[field] = value;
  return doc;
}

/** MongoDB stores _id first; keeps new documents shaped like the server's. */
export function withIdFirst(doc: PlainObject, id: unknown): Doc {
  for (const first in doc) {
    // already so (a replacement or an update of a stored document): no copy
    if (first === '_id' && doc._id === id) return doc as Doc;
    break;
  }
  const { _id: _ignored, ...rest } = doc;
  return { _id: id as Doc['_id'], ...rest };
}

// ---------------------------------------------------------------------------------------------
// ordered structure for indexes: a sorted array cut into chunks (B-tree-like, O(log n + chunk) writes)
// ---------------------------------------------------------------------------------------------

interface Pos {
  c: number;
  i: number;
}

const CHUNK = 256;

class SortedList<E> {
  private chunks: E[][] = [];
  private count = 0;
  /**
   * Chunks handed out by the last copyChunks and not changed since: copied before their first
   * change (copy on write), so that the copy keeps the instant it was taken.
   */
  private shared: Set<E[]> | undefined;

  constructor(private readonly cmp: (a: E, b: E) => number) {}

  get size(): number {
    return this.count;
  }

  /**
   * Every element in order, in chunks that stay as they are while the list moves on. Costs one
   * pointer per chunk (a capture holds the event loop): the chunks themselves are copied only when
   * the list next changes one of them.
   */
  copyChunks(): E[][] {
    this.shared = new Set(this.chunks);
    return this.chunks.slice();
  }

  /** chunk c, made the list's own before it changes in place */
  private own(c: number): E[] {
    const chunk = this.chunks[c];
    if (!this.shared?.delete(chunk)) return chunk;
    const copy = chunk.slice();
    this.chunks[c] = copy;
    return copy;
  }

  /** Replaces the contents with an already sorted array (index builds). */
  load(sorted: E[]): void {
    this.shared = undefined;
    this.chunks = [];
    for (let i = 0; i < sorted.length; i += CHUNK) this.chunks.push(sorted.slice(i, i + CHUNK));
    this.count = sorted.length;
  }

  /** First position whose element satisfies `pred`; `pred` must be false...false, true...true over the list. */
  lowerBound(pred: (e: E) => boolean): Pos {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid];
      if (pred(chunk[chunk.length - 1])) hi = mid;
      else lo = mid + 1;
    }
    if (lo === this.chunks.length) return { c: lo, i: 0 };
    const chunk = this.chunks[lo];
    let a = 0;
    let b = chunk.length - 1;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (pred(chunk[mid])) b = mid;
      else a = mid + 1;
    }
    return { c: lo, i: a };
  }

  insert(e: E): void {
    if (this.chunks.length === 0) {
      this.chunks.push([e]);
      this.count = 1;
      return;
    }
    // new entries mostly go at an end (ids and dates that grow): one comparison instead of a search
    const lastChunk = this.chunks[this.chunks.length - 1];
    let c: number;
    let i: number;
    if (this.cmp(lastChunk[lastChunk.length - 1], e) < 0) {
      c = this.chunks.length - 1;
      i = lastChunk.length;
    } else if (this.cmp(this.chunks[0][0], e) >= 0) {
      c = 0;
      i = 0;
    } else {
      ({ c, i } = this.lowerBound((x) => this.cmp(x, e) >= 0));
    }
    const chunk = this.own(c);
    chunk.splice(i, 0, e);
    this.count += 1;
    if (chunk.length > 2 * CHUNK) this.chunks.splice(c + 1, 0, chunk.splice(CHUNK));
  }

  /** Puts `next` where the element equal to `e` is (they must compare equal). */
  replace(e: E, next: E): boolean {
    const { c, i } = this.lowerBound((x) => this.cmp(x, e) >= 0);
    if (c === this.chunks.length || this.cmp(this.chunks[c][i], e) !== 0) return false;
    this.own(c)[i] = next;
    return true;
  }

  remove(e: E): boolean {
    const { c, i } = this.lowerBound((x) => this.cmp(x, e) >= 0);
    if (c === this.chunks.length || this.cmp(this.chunks[c][i], e) !== 0) return false;
    const chunk = this.own(c);
    chunk.splice(i, 1);
    this.count -= 1;
    if (chunk.length === 0) this.chunks.splice(c, 1);
    return true;
  }

  /** Replaces every element by `fresh(element)`, which must sort at the same place. */
  refresh(fresh: (e: E) => E): void {
    for (let c = 0; c < this.chunks.length; c++) {
      const chunk = this.own(c);
      for (let i = 0; i < chunk.length; i++) chunk[i] = fresh(chunk[i]);
    }
  }

  /** Elements in [from, to), forwards or backwards. */
  *range(from: Pos, to: Pos, reverse: boolean): Generator<E> {
    const before = (x: Pos, y: Pos): boolean => x.c < y.c || (x.c === y.c && x.i < y.i);
    if (!reverse) {
      const p = { ...from };
      while (before(p, to)) {
        yield this.chunks[p.c][p.i];
        p.i += 1;
        if (p.i >= this.chunks[p.c].length) {
          p.c += 1;
          p.i = 0;
        }
      }
      return;
    }
    const p = { ...to };
    while (before(from, p)) {
      if (p.i > 0) {
        p.i -= 1;
      } else {
        p.c -= 1;
        p.i = this.chunks[p.c].length - 1;
      }
      yield this.chunks[p.c][p.i];
    }
  }
}

// ---------------------------------------------------------------------------------------------
// indexes
// ---------------------------------------------------------------------------------------------

/**
 * One entry of an index for a document whose key fields hold an array: one per distinct element
 * (a multikey index). Every other document is its own entry: the index holds the stored object and
 * reads its key fields when it compares (stored documents never change in place), which costs one
 * reference per document and index.
 */
class MultiEntry {
  constructor(
    readonly keys: readonly unknown[],
    readonly id: unknown,
  ) {}
}

type IndexEntry = Doc | MultiEntry;

const entryId = (entry: IndexEntry): unknown => (entry instanceof MultiEntry ? entry.id : entry._id);

interface Bound {
  value: unknown;
  inclusive: boolean;
}

/** A range within one type bracket (MongoDB's $gt/$lt never cross types). */
interface RangePred {
  rank: number;
  lower?: Bound;
  upper?: Bound;
}

interface ScanRegion {
  prefix: unknown[];
  range?: RangePred;
}

function defaultIndexName(key: Record<string, 1 | -1>): string {
  return Object.entries(key)
    .map(([field, dir]) => `${field}_${dir}`)
    .join('_');
}

function describeKey(fields: readonly string[], keys: readonly unknown[]): string {
  const shown = fields.map((field, i) => {
    const v = keys[i];
    return `${field}: ${v === EMPTY_ARRAY ? '[]' : v instanceof Date ? v.toISOString() : JSON.stringify(v ?? null)}`;
  });
  return `{ ${shown.join(', ')} }`;
}

/** Each value's place among the distinct values of a key field, in index order (see MemIndex.buildByRank). */
interface Ranked {
  ranks: Uint32Array;
  /** distinct values (by compareValues) */
  count: number;
}

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `values` ranked (equal values by compareValues share a rank, ranks in compareValues' order), or
 * undefined when they hold more than `most` distinct values: a field of nearly unique values
 * (positions, dates) is cheaper to compare within the groups the fields before it make.
 */
function rankValues(values: readonly unknown[], most: number): Ranked | undefined {
  const places = new Map<unknown, number>();
  for (const v of values) {
    places.set(v, 0);
    if (places.size > most) return undefined;
  }
  const distinct = [...places.keys()];
  let strings = true;
  let numbers = true;
  for (const v of distinct) {
    if (typeof v !== 'string') strings = false;
    if (typeof v !== 'number' || Number.isNaN(v)) numbers = false;
  }
  // the Map already made equal strings and numbers one key; others may be equal and distinct keys (objects)
  const generic = !strings && !numbers;
  if (strings) (distinct as string[]).sort(compareStrings);
  else if (numbers) (distinct as number[]).sort((a, b) => a - b);
  else distinct.sort(compareValues);
  let rank = -1;
  for (let i = 0; i < distinct.length; i++) {
    if (!generic || i === 0 || compareValues(distinct[i - 1], distinct[i]) !== 0) rank++;
    places.set(distinct[i], rank);
  }
  const ranks = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) ranks[i] = places.get(values[i])!;
  return { ranks, count: rank + 1 };
}

/** `order` (positions) stably sorted by their ranks, descending when `dir` is -1: a counting sort. */
function sortByRank(order: Uint32Array, { ranks, count }: Ranked, dir: 1 | -1): Uint32Array {
  const starts = new Uint32Array(count + 1);
  const n = order.length;
  for (let i = 0; i < n; i++) starts[(dir === 1 ? ranks[i] : count - 1 - ranks[i]) + 1]++;
  for (let r = 1; r <= count; r++) starts[r] += starts[r - 1];
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const at = order[i];
    out[starts[dir === 1 ? ranks[at] : count - 1 - ranks[at]]++] = at;
  }
  return out;
}

/**
 * What the indexes of one collection built together share (MemoryReadStore.fillFromScratch): the
 * documents in one order, and per key field its values in that order and their ranks (null: too
 * many distinct values to rank). Valid while the documents do not change.
 */
class IndexBuildCache {
  docs: Doc[] | undefined;
  /** the documents' _ids, in the same order */
  ids: unknown[] | undefined;
  readonly columns = new Map<string, unknown[]>();
  readonly ranks = new Map<string, Ranked | null>();
}

class MemIndex {
  readonly name: string;
  readonly fields: readonly string[];
  /** fields Object.prototype does not have: read without an own-property check */
  private readonly plain: readonly boolean[];
  readonly dirs: ReadonlyArray<1 | -1>;
  readonly unique: boolean;
  private readonly list: SortedList<IndexEntry>;
  private multikeyDocs = 0;

  constructor(
    readonly spec: IndexSpec,
    private readonly collection: string,
  ) {
    const entries = Object.entries(spec.key);
    if (entries.length === 0) throw new Error('Index keys cannot be an empty object');
    for (const [field, dir] of entries) {
      if (dir !== 1 && dir !== -1)
        throw new Error(`Values in the index key pattern must be 1 or -1, got ${String(dir)} for '${field}'`);
    }
    this.name = spec.name ?? defaultIndexName(spec.key);
    this.fields = entries.map(([field]) => field);
    this.plain = this.fields.map((field) => !(field in Object.prototype));
    this.dirs = entries.map(([, dir]) => dir);
    this.unique = spec.unique === true;
    this.list = new SortedList((a, b) => this.compareEntries(a, b));
  }

  /** MongoDB marks an index multikey once a document puts an array in it; then one document has several entries. */
  get multikey(): boolean {
    return this.multikeyDocs > 0;
  }

  get size(): number {
    return this.list.size;
  }

  sameAs(spec: IndexSpec): boolean {
    return deepEqual(this.spec.key, spec.key) && this.unique === (spec.unique === true);
  }

  /** the document's value of key field i as stored (undefined when missing) */
  private raw(doc: Doc, i: number): unknown {
    const field = this.fields[i];
    if (this.plain[i]) return doc[field];
    return Object.prototype.hasOwnProperty.call(doc, field) ? doc[field] : undefined;
  }

  /** key i of an entry (a missing field is null) */
  keyOf(entry: IndexEntry, i: number): unknown {
    if (entry instanceof MultiEntry) return entry.keys[i];
    const value = this.raw(entry, i);
    return value === undefined ? null : value;
  }

  private keysOf(entry: IndexEntry): unknown[] {
    return this.fields.map((_, i) => this.keyOf(entry, i));
  }

  private compareKeys(a: IndexEntry, b: IndexEntry): number {
    for (let i = 0; i < this.fields.length; i++) {
      const c = compareValues(this.keyOf(a, i), this.keyOf(b, i));
      if (c !== 0) return c * this.dirs[i];
    }
    return 0;
  }

  /** Index order: the key fields in their directions, then _id ascending (so entries are unique). */
  private compareEntries(a: IndexEntry, b: IndexEntry): number {
    return this.compareKeys(a, b) || compareValues(entryId(a), entryId(b));
  }

  private hasArray(doc: Doc): boolean {
    for (let i = 0; i < this.fields.length; i++) if (Array.isArray(this.raw(doc, i))) return true;
    return false;
  }

  /** The entries a document gets (itself, unless a key field holds an array); throws like MongoDB when two indexed fields are arrays. */
  entriesOf(doc: Doc): IndexEntry[] {
    if (!this.hasArray(doc)) return [doc];
    const perField: unknown[][] = [];
    const arrayFields: string[] = [];
    for (const field of this.fields) {
      const { values, sawArray } = pathValues(doc, field);
      if (sawArray) arrayFields.push(field);
      // one entry per distinct value
      values.sort(compareValues);
      perField.push(values.filter((v, i) => i === 0 || compareValues(v, values[i - 1]) !== 0));
    }
    if (arrayFields.length > 1) {
      throw new Error(
        `cannot index parallel arrays [${arrayFields[1]}] [${arrayFields[0]}] (index ${this.name} of ${this.collection})`,
      );
    }
    let combos: unknown[][] = [[]];
    for (const values of perField) combos = combos.flatMap((prefix) => values.map((v) => [...prefix, v]));
    return combos.map((keys) => new MultiEntry(keys, doc._id));
  }

  /** Ids (other than `selfKey`) holding the same key as `entry`. */
  holdersOf(entry: IndexEntry, selfKey: IdKey): IdKey[] {
    const holders: IdKey[] = [];
    const start = this.list.lowerBound((x) => this.compareKeys(x, entry) >= 0);
    const end = this.list.lowerBound((x) => this.compareKeys(x, entry) > 0);
    for (const x of this.list.range(start, end, false)) {
      const key = idKeyOf(entryId(x));
      if (key !== selfKey) holders.push(key);
    }
    return holders;
  }

  duplicateError(entry: IndexEntry): DuplicateKeyError {
    return new DuplicateKeyError(
      `E11000 duplicate key error collection: ${this.collection} index: ${this.name} dup key: ${describeKey(this.fields, this.keysOf(entry))}`,
    );
  }

  /** Do the two versions of a document give this index the same entries? */
  sameKeys(prev: Doc, next: Doc): boolean {
    if (!this.hasArray(prev) && !this.hasArray(next)) {
      for (let i = 0; i < this.fields.length; i++) {
        const a = this.keyOf(prev, i);
        const b = this.keyOf(next, i);
        if (!Object.is(a, b) && !deepEqual(a, b)) return false;
      }
      return true;
    }
    const held = this.entriesOf(prev);
    const wanted = this.entriesOf(next);
    if (held.length !== wanted.length) return false;
    for (let e = 0; e < held.length; e++) {
      for (let i = 0; i < this.fields.length; i++) {
        const a = this.keyOf(held[e], i);
        const b = this.keyOf(wanted[e], i);
        if (!Object.is(a, b) && !deepEqual(a, b)) return false;
      }
    }
    return true;
  }

  /** Indexes a document (`entries`: its entriesOf, when already computed). */
  add(doc: Doc, entries: IndexEntry[] = this.entriesOf(doc)): void {
    for (const entry of entries) this.list.insert(entry);
    if (entries.length !== 1 || entries[0] !== doc) this.multikeyDocs += 1;
  }

  /** Takes out the entries of `doc`, the version of a document this index holds. */
  remove(doc: Doc): void {
    const entries = this.entriesOf(doc);
    for (const entry of entries) this.list.remove(entry);
    if (entries.length !== 1 || entries[0] !== doc) this.multikeyDocs -= 1;
  }

  /**
   * `next` replaces `prev`, with the same keys (sameKeys): the entry becomes the new object, so
   * that the index never keeps an old version alive.
   */
  swap(prev: Doc, next: Doc): void {
    if (!this.hasArray(prev)) this.list.replace(prev, next);
  }

  /**
   * Entries are made the documents' current versions again after swaps were left out (see
   * CollectionState.lazySwaps): each left-out swap kept an older version with the same keys.
   */
  refresh(docs: Map<IdKey, Doc>): void {
    this.list.refresh((entry) => (entry instanceof MultiEntry ? entry : (docs.get(idKeyOf(entry._id)) ?? entry)));
  }

  /** Builds the index over existing documents in one sort; fails on a unique violation. */
  build(docs: Map<IdKey, Doc>, cache: IndexBuildCache = new IndexBuildCache()): void {
    if (this.buildByRank(docs, cache)) return;
    // each entry's keys read once (the sort compares them many times)
    const decorated: Array<{ keys: unknown[]; id: unknown; entry: IndexEntry }> = [];
    let multikeyDocs = 0;
    for (const doc of docs.values()) {
      const entries = this.entriesOf(doc);
      if (entries.length !== 1 || entries[0] !== doc) multikeyDocs += 1;
      for (const entry of entries) decorated.push({ keys: this.keysOf(entry), id: entryId(entry), entry });
    }
    const n = this.fields.length;
    const dirs = this.dirs;
    decorated.sort((a, b) => {
      for (let i = 0; i < n; i++) {
        const x = a.keys[i];
        const y = b.keys[i];
        // the common case, two strings, compared inline
        if (typeof x === 'string' && typeof y === 'string') {
          if (x !== y) return x < y ? -dirs[i] : dirs[i];
        } else {
          const c = compareValues(x, y);
          if (c !== 0) return c * dirs[i];
        }
      }
      return compareValues(a.id, b.id);
    });
    if (this.unique) {
      for (let i = 1; i < decorated.length; i++) {
        const a = decorated[i - 1];
        const b = decorated[i];
        if (idKeyOf(a.id) !== idKeyOf(b.id) && this.compareKeys(a.entry, b.entry) === 0) {
          throw this.duplicateError(b.entry);
        }
      }
    }
    this.list.load(decorated.map((d) => d.entry));
    this.multikeyDocs = multikeyDocs;
  }

  /**
   * build() when no document holds an array in a key field (one entry per document, the common
   * case). The leading key fields with few distinct values (a member id, a flag) are ranked once
   * (a sort of their distinct values, shared by the collection's indexes) and the documents put in
   * their order by counting sorts, last of them first (each stable); then each group they leave
   * (a member's notifications) is sorted by the remaining fields and _id, by comparisons. False,
   * and nothing done, when a key field holds an array.
   */
  private buildByRank(map: Map<IdKey, Doc>, cache: IndexBuildCache): boolean {
    if (!cache.docs) {
      const all = new Array<Doc>(map.size);
      let i = 0;
      for (const doc of map.values()) all[i++] = doc;
      cache.docs = all;
    }
    const docs = cache.docs;
    const n = docs.length;
    for (let i = 0; i < n; i++) if (this.hasArray(docs[i])) return false;
    const f = this.fields.length;
    const columns = this.fields.map((field, k) => {
      let column = cache.columns.get(field);
      if (!column) {
        column = new Array<unknown>(n);
        for (let i = 0; i < n; i++) column[i] = this.keyOf(docs[i], k);
        cache.columns.set(field, column);
      }
      return column;
    });
    // the ranked prefix: fields of at most n / 8 distinct values, from the first
    const ranked: Ranked[] = [];
    for (let k = 0; k < f; k++) {
      let r = cache.ranks.get(this.fields[k]);
      if (r === undefined) {
        r = rankValues(columns[k], Math.max(16, n >>> 3)) ?? null;
        cache.ranks.set(this.fields[k], r);
      }
      if (!r) break;
      ranked.push(r);
    }
    let order: Uint32Array = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    for (let k = ranked.length - 1; k >= 0; k--) order = sortByRank(order, ranked[k], this.dirs[k]);
    // the rest of the key, then _id, within each group of equal ranked fields
    const p = ranked.length;
    const dirs = this.dirs;
    cache.ids ??= docs.map((doc) => doc._id);
    const ids = cache.ids;
    const compareRest = (a: number, b: number): number => {
      for (let k = p; k < f; k++) {
        const x = columns[k][a];
        const y = columns[k][b];
        if (typeof x === 'string' && typeof y === 'string') {
          if (x !== y) return x < y ? -dirs[k] : dirs[k];
        } else {
          const c = compareValues(x, y);
          if (c !== 0) return c * dirs[k];
        }
      }
      const x = ids[a];
      const y = ids[b];
      // distinct: never equal
      if (typeof x === 'string' && typeof y === 'string') return x < y ? -1 : 1;
      return compareValues(x, y);
    };
    for (let start = 0; start < n;) {
      let end = start + 1;
      const first = order[start];
      for (; end < n; end++) {
        const at = order[end];
        let same = true;
        for (let k = 0; k < p && same; k++) same = ranked[k].ranks[first] === ranked[k].ranks[at];
        if (!same) break;
      }
      if (end - start > 1) {
        const group = Array.from(order.subarray(start, end)).sort(compareRest);
        order.set(group, start);
      }
      start = end;
    }
    const entries = new Array<Doc>(n);
    for (let i = 0; i < n; i++) entries[i] = docs[order[i]];
    if (this.unique) {
      for (let i = 1; i < n; i++) {
        if (this.compareKeys(entries[i - 1], entries[i]) === 0) throw this.duplicateError(entries[i]);
      }
    }
    this.list.load(entries);
    this.multikeyDocs = 0;
    return true;
  }

  /**
   * The documents in index order, for a snapshot (see loadOrder); undefined for a multikey index
   * (its entries are not the documents: it is rebuilt by a sort when loaded).
   */
  captureOrder(): Doc[][] | undefined {
    return this.multikey ? undefined : (this.list.copyChunks() as Doc[][]);
  }

  /**
   * Fills the index from a saved order instead of sorting: `ordinals[i]` is the position in `docs`
   * of the i-th entry. Every document must appear once. `sameCode`: the order was saved by this
   * very code (indexOrderCode), which keeps every index sorted, so it is taken as is. Otherwise it
   * is taken only if it is exactly this index's order over `docs`: none with an array in a key
   * field (one entry per document), each entry strictly before the next by compareEntries, no two
   * equal keys in a unique index; n - 1 comparisons where a build sorts (n log n). Answers false,
   * leaving the index empty, when the order does not hold.
   */
  loadOrder(docs: readonly Doc[], ordinals: Uint32Array, sameCode: boolean): boolean {
    if (sameCode) {
      const n = docs.length;
      if (ordinals.length !== n) return false;
      const seen = new Uint8Array(n);
      const entries = new Array<Doc>(n);
      for (let i = 0; i < n; i++) {
        const o = ordinals[i];
        if (o >= n || seen[o] === 1) return false;
        seen[o] = 1;
        entries[i] = docs[o];
      }
      this.list.load(entries);
      this.multikeyDocs = 0;
      return true;
    }
    const n = docs.length;
    if (ordinals.length !== n) return false;
    const f = this.fields.length;
    const dirs = this.dirs;
    const seen = new Uint8Array(n);
    const entries = new Array<Doc>(n);
    // each document's keys read once, into two arrays used in turn (compareEntries, inlined)
    let prev: unknown[] = new Array<unknown>(f);
    let cur: unknown[] = new Array<unknown>(f);
    for (let i = 0; i < n; i++) {
      const o = ordinals[i];
      if (o >= n || seen[o] === 1) return false;
      seen[o] = 1;
      const doc = docs[o];
      for (let k = 0; k < f; k++) {
        const value = this.raw(doc, k);
        if (Array.isArray(value)) return false;
        cur[k] = value === undefined ? null : value;
      }
      if (i > 0) {
        let c = 0;
        for (let k = 0; k < f && c === 0; k++) {
          const x = prev[k];
          const y = cur[k];
          if (typeof x === 'string' && typeof y === 'string') c = x === y ? 0 : x < y ? -dirs[k] : dirs[k];
          else c = compareValues(x, y) * dirs[k];
        }
        if (c === 0) {
          if (this.unique) return false;
          c = compareValues(entries[i - 1]._id, doc._id);
        }
        if (c >= 0) return false;
      }
      entries[i] = doc;
      const swap = prev;
      prev = cur;
      cur = swap;
    }
    this.list.load(entries);
    this.multikeyDocs = 0;
    return true;
  }

  /** -1 before the region, 0 inside, 1 after, in index order (monotone over the list). */
  private regionPosition(entry: IndexEntry, region: ScanRegion): -1 | 0 | 1 {
    const p = region.prefix.length;
    for (let i = 0; i < p; i++) {
      const c = compareValues(this.keyOf(entry, i), region.prefix[i]) * this.dirs[i];
      if (c !== 0) return c < 0 ? -1 : 1;
    }
    const range = region.range;
    if (!range) return 0;
    const key = this.keyOf(entry, p);
    const rank = typeRank(key);
    let side: -1 | 0 | 1 = 0;
    if (rank !== range.rank) {
      side = rank < range.rank ? -1 : 1;
    } else {
      if (range.lower) {
        const c = compareValues(key, range.lower.value);
        if (c < 0 || (c === 0 && !range.lower.inclusive)) side = -1;
      }
      if (side === 0 && range.upper) {
        const c = compareValues(key, range.upper.value);
        if (c > 0 || (c === 0 && !range.upper.inclusive)) side = 1;
      }
    }
    return this.dirs[p] === 1 ? side : side === -1 ? 1 : side === 1 ? -1 : 0;
  }

  scan(region: ScanRegion, reverse: boolean): Generator<IndexEntry> {
    const start = this.list.lowerBound((e) => this.regionPosition(e, region) >= 0);
    const end = this.list.lowerBound((e) => this.regionPosition(e, region) > 0);
    return this.list.range(start, end, reverse);
  }
}

// ---------------------------------------------------------------------------------------------
// query planning
// ---------------------------------------------------------------------------------------------

interface FieldConstraint {
  points?: unknown[];
  range?: RangePred;
}

/** Values an index can seek to; others (null, arrays, objects, NaN) are left to the filter. */
function isSeekable(value: unknown): boolean {
  if (typeof value === 'string' || typeof value === 'boolean') return true;
  return typeof value === 'number' && !Number.isNaN(value);
}

function dedupeValues(values: unknown[]): unknown[] {
  const sorted = [...values].sort(compareValues);
  return sorted.filter((v, i) => i === 0 || compareValues(v, sorted[i - 1]) !== 0);
}

function constraintOf(value: unknown): FieldConstraint | undefined {
  if (isSeekable(value)) return { points: [value] };
  if (!isOperatorObject(value)) return undefined;
  const inList = value.$in;
  if (Array.isArray(inList) && inList.every(isSeekable)) return { points: dedupeValues(inList) };
  let lower: Bound | undefined;
  let upper: Bound | undefined;
  if (isSeekable(value.$gt)) lower = { value: value.$gt, inclusive: false };
  else if (isSeekable(value.$gte)) lower = { value: value.$gte, inclusive: true };
  if (isSeekable(value.$lt)) upper = { value: value.$lt, inclusive: false };
  else if (isSeekable(value.$lte)) upper = { value: value.$lte, inclusive: true };
  if (lower && upper && typeRank(lower.value) !== typeRank(upper.value)) upper = undefined;
  const rankOf = lower ?? upper;
  if (!rankOf) return undefined;
  return { range: { rank: typeRank(rankOf.value), lower, upper } };
}

/** Per-field constraints every matching document satisfies (its top-level fields). */
function constraintsOf(filter: Filter, out = new Map<string, FieldConstraint>()): Map<string, FieldConstraint> {
  for (const key in filter) {
    if (key.startsWith('$')) continue;
    const value = filter[key];
    const c = constraintOf(value);
    if (!c) continue;
    const known = out.get(key);
    if (!known || (!known.points && c.points)) out.set(key, c);
  }
  return out;
}

/** Cap on the equality combinations ($in × $in ...) one index scan expands to. */
const MAX_REGIONS = 512;

type Plan =
  | { kind: 'id'; ids: unknown[] }
  | { kind: 'index'; index: MemIndex; regions: ScanRegion[]; reverse: boolean; sorted: boolean; score: number }
  | { kind: 'scan' };

/** An index planned for a query: its regions are made only for the index chosen (regionsOf). */
type IndexCandidate =
  | {
      kind: 'index';
      index: MemIndex;
      /** fields[0..p) are fixed by equalities */
      p: number;
      range: RangePred | undefined;
      /** how many regions the equalities expand to */
      combos: number;
      reverse: boolean;
      sorted: boolean;
      score: number;
    }
  | { kind: 'scan' };

function planIndex(
  index: MemIndex,
  constraints: Map<string, FieldConstraint>,
  sort: Array<[string, 1 | -1]>,
): IndexCandidate {
  // planned for every index on every query: nothing is allocated until the index is chosen
  const { fields, dirs } = index;
  let p = 0;
  /** equality combinations of fields[0..p) (the cap counts an empty $in as one) */
  let combos = 1;
  let capped = 1;
  for (; p < fields.length; p++) {
    const points = constraints.get(fields[p])?.points;
    if (!points || capped * Math.max(points.length, 1) > MAX_REGIONS) break;
    capped *= Math.max(points.length, 1);
    combos *= points.length;
  }
  let range: RangePred | undefined;
  if (p < fields.length) {
    const c = constraints.get(fields[p]);
    if (c?.range) {
      // with several entries per document, "some element > a" and "some element < b" may hold for
      // different elements: only one bound is safe to seek on
      range = index.multikey && c.range.lower ? { rank: c.range.rank, lower: c.range.lower } : c.range;
    }
  }

  // does index order give the requested sort? equality-fixed fields drop out of the sort first;
  // the index's order after them is fields[p..], then _id ascending
  let sorted = sort.length === 0;
  let reverse = false;
  if (!sorted && !index.multikey && combos <= 1) {
    sorted = true;
    let next = p;
    let sign = 0;
    for (const [field, dir] of sort) {
      const at = fields.indexOf(field);
      if (at !== -1 && at < p) continue;
      const orderField = next < fields.length ? fields[next] : next === fields.length ? '_id' : undefined;
      const orderDir = next < fields.length ? dirs[next] : 1;
      const s = dir * orderDir;
      if (orderField !== field || (sign !== 0 && s !== sign)) {
        sorted = false;
        break;
      }
      sign = s;
      next += 1;
    }
    reverse = sorted && sign === -1;
  }
  const providesOrder = sorted && sort.length > 0;
  const score = p * 4 + (range ? 2 : 0) + (providesOrder ? 1 : 0);
  if (score === 0) return { kind: 'scan' };
  return { kind: 'index', index, p, range, combos, reverse, sorted, score };
}

/** The chosen index's scan regions: one per combination of the equalities' values. */
function regionsOf(
  candidate: Extract<IndexCandidate, { kind: 'index' }>,
  constraints: Map<string, FieldConstraint>,
): ScanRegion[] {
  const { index, p, range } = candidate;
  let prefixes: unknown[][] = [[]];
  for (let f = 0; f < p; f++) {
    const points = constraints.get(index.fields[f])?.points ?? [];
    prefixes = prefixes.flatMap((prefix) => points.map((point) => [...prefix, point]));
  }
  return prefixes.map((prefix) => ({ prefix, range }));
}

export interface QueryExplain {
  /** 'IDHACK': _id map; 'IXSCAN': an index; 'COLLSCAN': every document */
  plan: 'IDHACK' | 'IXSCAN' | 'COLLSCAN';
  indexName?: string;
  keysExamined: number;
  docsExamined: number;
  nReturned: number;
}

interface SelectResult {
  docs: Doc[];
  explain: QueryExplain;
}

// ---------------------------------------------------------------------------------------------
// collection state (committed data)
// ---------------------------------------------------------------------------------------------

interface Change {
  key: IdKey;
  next: Doc | undefined;
}

interface Counters {
  keysExamined: number;
  docsExamined: number;
  /** indexes built over existing documents (by sorting them, not from a saved order) */
  indexesBuilt: number;
}

/**
 * One copy of each short string the stored documents repeat. Every event brings its own copies of
 * member ids, emails, pseudos, statuses; a million follow edges would otherwise hold two million
 * copies of ten thousand ids. Bounded: two generations of at most `size` strings each, so strings
 * seen once (dates, positions) pass through without accumulating, and a string repeated within
 * the last `size` to 2×`size` new strings is found again.
 */
export class StringPool {
  private young = new Map<string, string>();
  private old = new Map<string, string>();
  /** strings interned that were not held (a caller can tell which of its values repeat) */
  misses = 0;

  constructor(
    private readonly size = 65_536,
    private readonly maxLength = 64,
  ) {}

  /** strings held now (at most twice the size) */
  get held(): number {
    return this.young.size + this.old.size;
  }

  intern(value: string): string {
    if (value.length > this.maxLength) return value;
    const young = this.young.get(value);
    if (young !== undefined) return young;
    const known = this.old.get(value);
    if (known !== undefined) {
      // seen again: into the young generation, if there is room
      if (this.young.size < this.size) this.young.set(known, known);
      return known;
    }
    this.misses += 1;
    if (this.young.size >= this.size) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(value, value);
    return value;
  }
}

type ShapeCopy = (doc: PlainObject, value: (v: unknown) => unknown) => Doc;

const keepValue = (v: unknown): unknown => v;

const deepCopy = (v: unknown): unknown => (typeof v === 'object' && v !== null ? cloneValue(v) : v);

interface ShapeNode {
  next: Map<string, ShapeNode>;
  copy?: ShapeCopy;
}

/**
 * The form documents are stored in. V8 turns an object built field by field (a copy, an update)
 * into a slow hash-table object once it has more than about 16 fields: several times the memory
 * and slower reads. A stored document is therefore copied once more by a function made for its
 * field names (an object literal: V8 lays its fields out inline), one per distinct list of names,
 * and its short strings are shared through the pool. Shallow: nested values are kept (the store
 * owns them), their strings pooled in arrays.
 */
export class StoredShapes {
  private readonly root: ShapeNode = { next: new Map() };
  private made = 0;

  constructor(
    private readonly strings: StringPool,
    /** distinct field-name lists given a copier; documents of other shapes are stored as they come */
    private readonly maxShapes = 4096,
    private readonly maxFields = 64,
  ) {}

  private readonly value = (v: unknown): unknown => {
    if (typeof v === 'string') return this.strings.intern(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (typeof item === 'string') v[i] = this.strings.intern(item);
      }
    }
    return v;
  };

  /** The copier made for `doc`'s field names, if it has one or can get one. */
  private copierFor(doc: Doc): ShapeCopy | undefined {
    let node = this.root;
    let fields = 0;
    for (const key in doc) {
      // "__proto__" in a literal would set the prototype, not a field
      if (key === '__proto__' || ++fields > this.maxFields) return undefined;
      let child = node.next.get(key);
      if (!child) {
        if (this.made >= this.maxShapes) return undefined;
        child = { next: new Map() };
        node.next.set(key, child);
      }
      node = child;
    }
    if (!node.copy) {
      if (this.made >= this.maxShapes) return undefined;
      const names = Object.keys(doc).map((key) => JSON.stringify(key));
      // names are JSON string literals, so no field name can be anything but a name here
      node.copy = new Function('d', 'v', `return {${names.map((n) => `${n}: v(d[${n}])`).join(', ')}};`) as ShapeCopy;
      this.made += 1;
    }
    return node.copy;
  }

  /** The object to store for `doc` (equal to it). */
  stored(doc: Doc): Doc {
    const copy = this.copierFor(doc);
    return copy ? copy(doc, this.value) : this.pooled(doc);
  }

  /** `doc` laid out like `stored` lays it out, its values as they are (the caller pools what it wants). */
  laidOut(doc: Doc): Doc {
    const copy = this.copierFor(doc);
    return copy ? copy(doc, keepValue) : doc;
  }

  /** A deep copy of a stored document to hand out (laid out like the stored one). */
  copy(doc: Doc): Doc {
    const copy = this.copierFor(doc);
    return copy ? copy(doc, deepCopy) : cloneValue(doc);
  }

  /** the document itself, its strings pooled (equal strings: nothing a reader sees changes) */
  pooled(doc: Doc): Doc {
    for (const key in doc) {
      const value = doc[key];
      const kept = this.value(value);
      if (kept !== value) doc[key] = kept;
    }
    return doc;
  }
}

class CollectionState {
  /** replaced only while the collection is empty and unindexed (MemoryReadStore.fillFromScratch) */
  docs = new Map<IdKey, Doc>();
  readonly indexes = new Map<string, MemIndex>();
  /** indexes created during a bulk load: built by the first query that is not by _id, or when the load ends */
  readonly deferred = new Map<string, IndexSpec>();
  /**
   * During a bulk load: a change that leaves an index's keys as they were does not put the new
   * version into the index (a search per index and write); the index keeps an older version with
   * the same keys, which orders and finds the document the same (queries read the document itself
   * by _id), and `endBulk` puts the current versions back in one pass.
   */
  lazySwaps = false;
  private swapsLeftOut = false;

  constructor(
    readonly name: string,
    private readonly counters: Counters,
    /** how the committed state stores documents (a transaction's overlay keeps them as given) */
    private readonly shapes?: StoredShapes,
  ) {}

  /**
   * Matching documents (stored objects: callers copy before handing out), sorted when `sort` is
   * given. With `needed`, may stop once that many are found in final order. `exclude` hides ids
   * (a transaction's overlay replaces them).
   */
  select(
    filter: Filter,
    sort: Sort | undefined,
    needed: number | undefined,
    exclude?: (idKey: IdKey) => boolean,
  ): SelectResult {
    checkFilter(filter);
    const sortSpec = sort ? sortEntries(sort) : [];
    const plan = this.plan(filter, sortSpec);
    const matches = plan.kind === 'id' && onlyIds(filter) ? matchesAll : compileFilter(filter, true);
    const out: Doc[] = [];
    const explain: QueryExplain = { plan: 'COLLSCAN', keysExamined: 0, docsExamined: 0, nReturned: 0 };
    let inOrder = false;

    if (plan.kind === 'id') {
      explain.plan = 'IDHACK';
      // the ids are distinct (constraintOf dedupes them; distinct values have distinct keys)
      for (const id of plan.ids) {
        const key = idKeyOf(id);
        if (exclude?.(key)) continue;
        explain.keysExamined += 1;
        const doc = this.docs.get(key);
        if (!doc) continue;
        explain.docsExamined += 1;
        if (matches(doc)) out.push(doc);
      }
    } else if (plan.kind === 'index') {
      explain.plan = 'IXSCAN';
      explain.indexName = plan.index.name;
      inOrder = plan.sorted;
      const stopAt = inOrder ? needed : undefined;
      const seen = plan.index.multikey || plan.regions.length > 1 ? new Set<IdKey>() : undefined;
      scan: for (const region of plan.regions) {
        for (const entry of plan.index.scan(region, plan.reverse)) {
          explain.keysExamined += 1;
          const key = idKeyOf(entryId(entry));
          if (seen) {
            if (seen.has(key)) continue;
            seen.add(key);
          }
          if (exclude?.(key)) continue;
          const doc = this.docs.get(key);
          if (!doc) continue;
          explain.docsExamined += 1;
          if (matches(doc)) {
            out.push(doc);
            if (stopAt !== undefined && out.length >= stopAt) break scan;
          }
        }
      }
    } else {
      inOrder = sortSpec.length === 0;
      const stopAt = inOrder ? needed : undefined;
      for (const [key, doc] of this.docs) {
        if (exclude?.(key)) continue;
        explain.docsExamined += 1;
        if (matches(doc)) {
          out.push(doc);
          if (stopAt !== undefined && out.length >= stopAt) break;
        }
      }
    }
    this.counters.keysExamined += explain.keysExamined;
    this.counters.docsExamined += explain.docsExamined;
    const docs = inOrder || !sort ? out : sortDocs(out, sort);
    explain.nReturned = docs.length;
    return { docs, explain };
  }

  private plan(filter: Filter, sort: Array<[string, 1 | -1]>): Plan {
    const constraints = constraintsOf(filter);
    const idPoints = constraints.get('_id')?.points;
    if (idPoints) return { kind: 'id', ids: idPoints };
    if (this.deferred.size > 0) this.buildDeferred();
    let best: IndexCandidate = { kind: 'scan' };
    for (const index of this.indexes.values()) {
      const candidate = planIndex(index, constraints, sort);
      if (candidate.kind !== 'index') continue;
      if (
        best.kind !== 'index' ||
        candidate.score > best.score ||
        (candidate.score === best.score && candidate.combos < best.combos)
      ) {
        best = candidate;
      }
    }
    if (best.kind !== 'index') return best;
    const { index, reverse, sorted, score } = best;
    return { kind: 'index', index, regions: regionsOf(best, constraints), reverse, sorted, score };
  }

  /**
   * Applies several document changes at once (`next` undefined deletes): old index entries of all of
   * them go first, so swapping unique values inside one batch is fine. All or nothing: on a
   * violation every index is put back and the error is thrown. Returns the inverse changes.
   * _id uniqueness is the caller's check (it knows whether it inserts or replaces).
   */
  applyBatch(changes: readonly Change[]): Change[] {
    // no index (a bulk load defers them): nothing to prepare or undo but the documents
    if (this.indexes.size === 0) {
      const inverse: Change[] = [];
      for (const { key, next } of changes) {
        const prev = this.docs.get(key);
        inverse.push({ key, next: prev });
        if (next) this.docs.set(key, this.shapes ? this.shapes.stored(next) : next);
        else this.docs.delete(key);
      }
      return inverse.reverse();
    }
    const indexes = [...this.indexes.values()];
    const prepared = changes.map((change) => {
      const prev = this.docs.get(change.key);
      // the object stored (and indexed) is the store's own compact copy
      const next = change.next && this.shapes ? this.shapes.stored(change.next) : change.next;
      // computed first: a document two indexed arrays would make unindexable is refused before any change
      const entries = next ? indexes.map((index) => index.entriesOf(next)) : undefined;
      return {
        change,
        prev,
        next,
        entries,
        // an index whose key fields the change leaves as they were keeps the document's entries
        kept: indexes.map((index) => prev !== undefined && next !== undefined && index.sameKeys(prev, next)),
      };
    });
    for (const p of prepared) {
      if (p.prev) indexes.forEach((index, i) => p.kept[i] || index.remove(p.prev as Doc));
    }
    const added: typeof prepared = [];
    try {
      for (const p of prepared) {
        if (!p.entries || !p.next) continue;
        indexes.forEach((index, i) => {
          if (!index.unique || p.kept[i]) return;
          for (const entry of p.entries?.[i] ?? []) {
            if (index.holdersOf(entry, p.change.key).length > 0) throw index.duplicateError(entry);
          }
        });
        indexes.forEach((index, i) => {
          if (!p.kept[i]) index.add(p.next as Doc, (p.entries ?? [])[i]);
        });
        added.push(p);
      }
    } catch (err) {
      for (const p of added) indexes.forEach((index, i) => p.kept[i] || index.remove(p.next as Doc));
      for (const p of prepared) {
        if (p.prev) indexes.forEach((index, i) => p.kept[i] || index.add(p.prev as Doc));
      }
      throw err;
    }
    const inverse: Change[] = [];
    for (const p of prepared) {
      inverse.push({ key: p.change.key, next: p.prev });
      if (p.next) {
        // the kept entries now point at the new version
        if (p.prev && this.lazySwaps) this.swapsLeftOut ||= p.kept.some(Boolean);
        else if (p.prev) indexes.forEach((index, i) => p.kept[i] && index.swap(p.prev as Doc, p.next as Doc));
        this.docs.set(p.change.key, p.next);
      } else this.docs.delete(p.change.key);
    }
    return inverse.reverse();
  }

  /**
   * Returns whether an index was added (false: the same index exists). `defer`: only recorded, built
   * later by buildDeferred (a bulk load: one sort at the end instead of one insertion per write).
   */
  createIndex(spec: IndexSpec, defer = false, cache?: IndexBuildCache): boolean {
    const index = new MemIndex(spec, this.name);
    if (Object.keys(spec.key).length === 1 && spec.key._id === 1) return false; // the built-in _id index
    const deferred = this.deferred.get(index.name);
    const sameName = this.indexes.get(index.name) ?? (deferred && new MemIndex(deferred, this.name));
    if (sameName) {
      if (sameName.sameAs(spec)) return false;
      throw new Error(`An existing index has the same name as the requested index: ${index.name}`);
    }
    const existing = [...this.indexes.values(), ...[...this.deferred.values()].map((d) => new MemIndex(d, this.name))];
    for (const other of existing) {
      if (deepEqual(other.spec.key, spec.key)) {
        throw new Error(`Index already exists with a different name or options: ${other.name}`);
      }
    }
    if (defer) {
      this.deferred.set(index.name, { ...spec, name: index.name });
      return true;
    }
    index.build(this.docs, cache);
    this.counters.indexesBuilt += 1;
    this.indexes.set(index.name, index);
    return true;
  }

  /** The end of a bulk load: indexes hold the current versions again, the deferred ones are built. */
  endBulk(): void {
    if (this.swapsLeftOut) for (const index of this.indexes.values()) index.refresh(this.docs);
    this.swapsLeftOut = false;
    this.lazySwaps = false;
    this.buildDeferred();
  }

  /** Builds the deferred indexes over the documents as they are now (fails on a unique violation). */
  buildDeferred(): void {
    const cache = new IndexBuildCache();
    for (const [name, spec] of this.deferred) {
      const index = new MemIndex(spec, this.name);
      index.build(this.docs, cache);
      this.counters.indexesBuilt += 1;
      this.indexes.set(name, index);
      this.deferred.delete(name);
    }
  }

  /**
   * loadImage: an index from its saved order (`docs` the documents in the order the ordinals refer
   * to) when that order holds for this code, else built by one sort like createIndex.
   */
  restoreIndex(spec: IndexSpec, docs: readonly Doc[], ordinals: Uint32Array | undefined, sameCode: boolean): void {
    const index = new MemIndex(spec, this.name);
    if (
      ordinals &&
      this.docs.size === docs.length &&
      !this.indexes.has(index.name) &&
      index.loadOrder(docs, ordinals, sameCode)
    )
      this.indexes.set(index.name, index);
    else this.createIndex(spec);
  }

  dropIndex(name: string): void {
    this.indexes.delete(name);
    this.deferred.delete(name);
  }
}

// ---------------------------------------------------------------------------------------------
// views: committed data, or a transaction's overlay on it
// ---------------------------------------------------------------------------------------------

interface CollectionView {
  select(filter: Filter, sort: Sort | undefined, needed: number | undefined): SelectResult;
  get(idKey: IdKey): Doc | undefined;
  /** get() counted as a read by _id (the counters of an IDHACK plan) */
  lookup(idKey: IdKey): Doc | undefined;
  /** insert (`replacing` false: the _id must be free) or replace; DuplicateKeyError on conflicts */
  put(doc: Doc, replacing: boolean): void;
  remove(idKey: IdKey): void;
  createIndex(spec: IndexSpec): void;
  drop(): void;
  /** documents a find handed out: a transaction remembers the versions it read */
  noteRead(docs: readonly Doc[]): void;
  /** replaces (or deletes: undefined) documents by _id, the caller's objects stored as they are */
  adopt(changes: readonly Change[]): void;
}

/**
 * The collections of an encoded snapshot that are not stored yet (MemoryReadStore.loadEncoded):
 * decoded in the file's order, one chunk at a time, each collection stored once all its documents
 * and indexes are in (never half of one).
 */
class PendingLoad {
  /** the collections not stored yet (and not dropped since the load) */
  readonly names: Set<string>;
  private building: CollectionState | undefined;
  private failure: unknown;

  constructor(
    private readonly image: EncodedImage,
    private readonly makeState: (name: string) => CollectionState,
    private readonly store: (state: CollectionState) => void,
    private readonly sameCode: boolean,
  ) {
    this.names = new Set(image.collections.map((c) => c.name));
  }

  /** nothing left to make (a load that failed is never finished: what it did not make is not there) */
  get finished(): boolean {
    return this.failure === undefined && (this.names.size === 0 || this.image.done);
  }

  /**
   * Decodes one chunk of documents (a collection is stored when its last chunk is in). Any failure
   * is for good: what was not stored is never answered as missing or empty, every later use of it
   * fails the same way.
   */
  step(): void {
    if (this.failure !== undefined) throw this.failure;
    try {
      this.decodeNext();
    } catch (err) {
      this.failure = err;
      throw err;
    }
  }

  private decodeNext(): void {
    const part = this.image.next();
    if (!part) return;
    const { name, indexes } = this.image.collections[part.collection];
    const wanted = this.names.has(name);
    const state = (this.building ??= this.makeState(name));
    if (wanted) for (const doc of part.chunk) state.docs.set(idKeyOf(doc._id), doc);
    if (!part.complete) return;
    this.building = undefined;
    if (!wanted) return;
    const { docs, orders } = part.complete;
    for (const spec of indexes) {
      const indexName = spec.name ?? defaultIndexName(spec.key);
      state.restoreIndex(spec, docs, orders.find((o) => o.name === indexName)?.ordinals, this.sameCode);
    }
    this.names.delete(name);
    this.store(state);
  }

  /** lets go of the file (nothing more is made from it) */
  close(): void {
    this.image.close();
  }

  /** decodes until `name` is stored */
  await(name: string): void {
    while (this.names.has(name) && (this.failure !== undefined || !this.image.done)) this.step();
  }

  /** the collection will have this index once stored (so creating it need not store it now) */
  willHaveIndex(name: string, spec: IndexSpec): boolean {
    if (!this.names.has(name)) return false;
    if (Object.keys(spec.key).length === 1 && spec.key._id === 1) return true; // the built-in _id index
    const wanted = new MemIndex(spec, name);
    const saved = this.image.collections.find((c) => c.name === name)?.indexes ?? [];
    return saved.some((s) => new MemIndex(s, name).name === wanted.name && wanted.sameAs(s));
  }
}

/**
 * The store's collections by name. After MemoryReadStore.loadEncoded, those of the snapshot that
 * are not made yet are named here too and made on first use (decoding the file up to them):
 * whoever asks for a collection gets all of it, as if it had been loaded at start.
 */
class CollectionStates {
  private readonly stored = new Map<string, CollectionState>();
  pending: PendingLoad | undefined;

  load(pending: PendingLoad): void {
    this.clear();
    this.pending = pending;
  }

  /** stores a collection the pending load finished */
  adopt(state: CollectionState): void {
    this.stored.set(state.name, state);
  }

  /** decodes one more chunk of the pending load; answers whether some is left */
  step(): boolean {
    const pending = this.pending;
    if (pending === undefined) return false;
    pending.step();
    this.forget(pending);
    return this.pending !== undefined;
  }

  /** the pending load is let go once it has nothing left to make */
  private forget(pending: PendingLoad): void {
    if (!pending.finished || this.pending !== pending) return;
    this.pending = undefined;
    pending.close();
  }

  get(name: string): CollectionState | undefined {
    const pending = this.pending;
    if (pending !== undefined && pending.names.has(name)) {
      pending.await(name);
      this.forget(pending);
    }
    return this.stored.get(name);
  }

  set(name: string, state: CollectionState): void {
    this.notPending(name);
    this.stored.set(name, state);
  }

  delete(name: string): boolean {
    const wasPending = this.notPending(name);
    return this.stored.delete(name) || wasPending;
  }

  /** `name` is not to be made from the pending load any more (which lets go of its file once none is left) */
  private notPending(name: string): boolean {
    const pending = this.pending;
    if (!pending?.names.delete(name)) return false;
    this.forget(pending);
    return true;
  }

  clear(): void {
    this.pending?.close();
    this.pending = undefined;
    this.stored.clear();
  }

  get size(): number {
    return this.stored.size + (this.pending?.names.size ?? 0);
  }

  /** every name, made or not (a copy: making a collection while iterating is fine) */
  keys(): IterableIterator<string> {
    return (this.pending ? [...this.stored.keys(), ...this.pending.names] : [...this.stored.keys()]).values();
  }

  /** every collection, the pending ones made first */
  values(): IterableIterator<CollectionState> {
    this.makeAll();
    return this.stored.values();
  }

  [Symbol.iterator](): IterableIterator<[string, CollectionState]> {
    this.makeAll();
    return this.stored.entries();
  }

  private makeAll(): void {
    while (this.step());
  }
}

class StoreCore {
  readonly states = new CollectionStates();
  readonly counters: Counters = { keysExamined: 0, docsExamined: 0, indexesBuilt: 0 };
  /** replaced only while the store is empty (MemoryReadStore.fillFromScratch) */
  strings = new StringPool();
  shapes = new StoredShapes(this.strings);
  /** inside bulkLoad: new indexes are deferred */
  deferIndexes = false;

  newState(name: string): CollectionState {
    const state = new CollectionState(name, this.counters, this.shapes);
    state.lazySwaps = this.deferIndexes;
    return state;
  }

  state(name: string): CollectionState {
    let state = this.states.get(name);
    if (!state) {
      state = this.newState(name);
      this.states.set(name, state);
    }
    return state;
  }

  /**
   * Applies a transaction's overlay in one synchronous step (no reader runs in between). Refuses
   * with WriteConflictError when a document it wrote was changed by someone else since it read it.
   */
  commit(tx: TxState): void {
    for (const [name, overlay] of tx.overlays) {
      if (overlay.dropped) continue;
      const state = this.states.get(name);
      for (const [key, baseRef] of overlay.writes) {
        if (state?.docs.get(key) !== baseRef) throw new WriteConflictError(name);
      }
    }
    const undo: Array<() => void> = [];
    try {
      for (const [name, overlay] of tx.overlays) {
        if (overlay.dropped) {
          const old = this.states.get(name);
          this.states.delete(name);
          undo.push(() => {
            if (old) this.states.set(name, old);
          });
        }
        if (!overlay.created) continue;
        const existed = this.states.get(name);
        const state = this.state(name);
        if (!existed) undo.push(() => this.states.delete(name));
        const changes = [...overlay.writes.keys()].map((key) => ({ key, next: overlay.view.docs.get(key) }));
        const inverse = state.applyBatch(changes);
        undo.push(() => state.applyBatch(inverse));
        for (const spec of overlay.pendingIndexes) {
          if (state.createIndex(spec, this.deferIndexes))
            undo.push(() => state.dropIndex(spec.name ?? defaultIndexName(spec.key)));
        }
      }
    } catch (err) {
      for (const step of undo.reverse()) step();
      throw err;
    }
  }
}

class BaseView implements CollectionView {
  constructor(
    protected readonly core: StoreCore,
    protected readonly name: string,
  ) {}

  select(filter: Filter, sort: Sort | undefined, needed: number | undefined): SelectResult {
    const state = this.core.states.get(this.name);
    if (state) return state.select(filter, sort, needed);
    compileFilter(filter); // an invalid filter fails even on a missing collection, as on the server
    return { docs: [], explain: { plan: 'COLLSCAN', keysExamined: 0, docsExamined: 0, nReturned: 0 } };
  }

  get(idKey: IdKey): Doc | undefined {
    return this.core.states.get(this.name)?.docs.get(idKey);
  }

  lookup(idKey: IdKey): Doc | undefined {
    const doc = this.get(idKey);
    this.core.counters.keysExamined += 1;
    if (doc) this.core.counters.docsExamined += 1;
    return doc;
  }

  put(doc: Doc, replacing: boolean): void {
    const state = this.core.state(this.name);
    const key = idKeyOf(doc._id);
    if (!replacing && state.docs.has(key)) {
      throw new DuplicateKeyError(
        `E11000 duplicate key error collection: ${this.name} index: _id_ dup key: { _id: ${JSON.stringify(doc._id)} }`,
      );
    }
    state.applyBatch([{ key, next: doc }]);
  }

  remove(idKey: IdKey): void {
    this.core.states.get(this.name)?.applyBatch([{ key: idKey, next: undefined }]);
  }

  createIndex(spec: IndexSpec): void {
    // a collection still encoded that will have it: not made for that (a start ensures every index)
    if (this.core.states.pending?.willHaveIndex(this.name, spec)) return;
    this.core.state(this.name).createIndex(spec, this.core.deferIndexes);
  }

  drop(): void {
    this.core.states.delete(this.name);
  }

  noteRead(): void {}

  adopt(changes: readonly Change[]): void {
    for (const { key, next } of changes) {
      if (next) this.put(next, true);
      else this.remove(key);
    }
  }
}

/**
 * A transaction during a bulk load (see MemoryReadStore.bulkLoad): writes go straight to the
 * committed data, each one remembering what it replaced, and are undone if the transaction fails.
 * No overlay: nobody reads a store while it is being loaded, so nobody can see the middle of it.
 */
class UndoView extends BaseView {
  constructor(
    core: StoreCore,
    name: string,
    private readonly undo: Array<() => void>,
  ) {
    super(core, name);
  }

  private remember(idKey: IdKey): void {
    const state = this.core.states.get(this.name);
    const existed = state !== undefined;
    const prev = state?.docs.get(idKey);
    this.undo.push(() => {
      const now = this.core.states.get(this.name);
      if (!now) return;
      now.applyBatch([{ key: idKey, next: prev }]);
      if (!existed && now.docs.size === 0) this.core.states.delete(this.name);
    });
  }

  override put(doc: Doc, replacing: boolean): void {
    this.remember(idKeyOf(doc._id));
    try {
      super.put(doc, replacing);
    } catch (err) {
      this.undo.pop();
      throw err;
    }
  }

  override remove(idKey: IdKey): void {
    this.remember(idKey);
    super.remove(idKey);
  }

  /** one change of the collection for the whole lot, undone as one */
  override adopt(changes: readonly Change[]): void {
    const existed = this.core.states.get(this.name);
    if (!existed && !changes.some((c) => c.next)) return;
    const state = existed ?? this.core.state(this.name);
    const inverse = state.applyBatch(changes);
    this.undo.push(() => {
      const now = this.core.states.get(this.name);
      if (!now) return;
      now.applyBatch(inverse);
      if (!existed && now.docs.size === 0) this.core.states.delete(this.name);
    });
  }

  override createIndex(spec: IndexSpec): void {
    const state = this.core.state(this.name);
    if (state.createIndex(spec, this.core.deferIndexes))
      this.undo.push(() => state.dropIndex(spec.name ?? defaultIndexName(spec.key)));
  }

  override drop(): void {
    const old = this.core.states.get(this.name);
    super.drop();
    this.undo.push(() => {
      if (old) this.core.states.set(this.name, old);
    });
  }
}

/**
 * What one transaction changed in one collection. `view` is a collection of its own (indexed like
 * the committed one, without uniqueness) holding the documents the transaction sees instead of the
 * committed versions: those it wrote and those it read (see TxView.noteRead).
 */
interface Overlay {
  /** the committed collection is invisible (dropped inside the transaction) */
  dropped: boolean;
  /** the transaction wrote to it (or created an index) since, so it exists */
  created: boolean;
  view: CollectionState;
  /** every key the transaction wrote (absent from `view` when deleted) -> committed version it replaces */
  readonly writes: Map<IdKey, Doc | undefined>;
  /** indexes created inside the transaction, built on commit */
  readonly pendingIndexes: IndexSpec[];
}

class TxState {
  readonly overlays = new Map<string, Overlay>();
  finished = false;

  constructor(private readonly counters: Counters) {}

  overlay(name: string): Overlay {
    let overlay = this.overlays.get(name);
    if (!overlay) {
      overlay = { dropped: false, created: false, view: this.emptyView(name), writes: new Map(), pendingIndexes: [] };
      this.overlays.set(name, overlay);
    }
    return overlay;
  }

  emptyView(name: string): CollectionState {
    return new CollectionState(name, this.counters);
  }
}

class WriteConflictError extends Error {
  constructor(collection: string) {
    super(`WriteConflict: a document of ${collection} written by this transaction changed meanwhile`);
    this.name = 'WriteConflictError';
  }
}

class TxView implements CollectionView {
  constructor(
    private readonly core: StoreCore,
    private readonly tx: TxState,
    private readonly name: string,
  ) {}

  private assertOpen(): void {
    if (this.tx.finished) {
      throw new Error('Transaction already finished: use the store passed to withTransaction only inside it');
    }
  }

  private base(): CollectionState | undefined {
    this.assertOpen();
    return this.tx.overlays.get(this.name)?.dropped ? undefined : this.core.states.get(this.name);
  }

  /**
   * The overlay, its view indexed like the committed collection (indexes may appear meanwhile).
   * Only the unique indexes are kept up to date at each write (put() checks them); the others are
   * for queries inside the transaction and are built by the first one that plans (most
   * transactions, a projection batch's, write and read by _id only).
   */
  private overlay(): Overlay {
    const overlay = this.tx.overlay(this.name);
    const base = this.base();
    if (base) for (const index of base.indexes.values()) this.mirror(overlay, index.name, index.spec);
    for (const spec of overlay.pendingIndexes) this.mirror(overlay, spec.name ?? defaultIndexName(spec.key), spec);
    return overlay;
  }

  private mirror(overlay: Overlay, name: string, spec: IndexSpec): void {
    const view = overlay.view;
    if (view.indexes.has(name) || view.deferred.has(name)) return;
    // lookups only: uniqueness is checked against committed and own documents together in put()
    view.createIndex({ key: spec.key, name }, !spec.unique);
  }

  /** keys whose committed version this transaction does not see */
  private hides(overlay: Overlay, key: IdKey): boolean {
    return overlay.writes.has(key) || overlay.view.docs.has(key);
  }

  /**
   * Committed documents, except those the transaction wrote (its own version counts) or already
   * read (the version it read keeps counting, like a snapshot: a read-modify-write then works on
   * what it read, and the commit detects that someone changed it since).
   */
  select(filter: Filter, sort: Sort | undefined, needed: number | undefined): SelectResult {
    const base = this.base();
    const existing = this.tx.overlays.get(this.name);
    if (!existing || (existing.writes.size === 0 && existing.view.docs.size === 0)) {
      if (base) return base.select(filter, sort, needed);
      compileFilter(filter); // an invalid filter fails even on a missing collection, as on the server
      return { docs: [], explain: { plan: 'COLLSCAN', keysExamined: 0, docsExamined: 0, nReturned: 0 } };
    }
    const overlay = this.overlay();
    const own = overlay.view.select(filter, sort, needed);
    if (!base) return own;
    const committed = base.select(filter, sort, needed, (key) => this.hides(overlay, key));
    if (own.docs.length === 0) return committed;
    const merged = committed.docs.concat(own.docs);
    const docs = sort ? sortDocs(merged, sort) : merged;
    const explain: QueryExplain = {
      ...committed.explain,
      keysExamined: committed.explain.keysExamined + own.explain.keysExamined,
      docsExamined: committed.explain.docsExamined + own.explain.docsExamined,
      nReturned: docs.length,
    };
    return { docs, explain };
  }

  get(idKey: IdKey): Doc | undefined {
    const base = this.base();
    const overlay = this.tx.overlays.get(this.name);
    if (overlay && this.hides(overlay, idKey)) return overlay.view.docs.get(idKey);
    return base?.docs.get(idKey);
  }

  lookup(idKey: IdKey): Doc | undefined {
    const doc = this.get(idKey);
    this.core.counters.keysExamined += 1;
    if (doc) this.core.counters.docsExamined += 1;
    return doc;
  }

  put(doc: Doc, replacing: boolean): void {
    const key = idKeyOf(doc._id);
    if (!replacing && this.get(key)) {
      throw new DuplicateKeyError(
        `E11000 duplicate key error collection: ${this.name} index: _id_ dup key: { _id: ${JSON.stringify(doc._id)} }`,
      );
    }
    const base = this.base();
    const overlay = this.overlay();
    for (const mirror of overlay.view.indexes.values()) {
      const committed = base?.indexes.get(mirror.name);
      const unique = committed
        ? committed.unique
        : overlay.pendingIndexes.some((s) => s.unique && (s.name ?? defaultIndexName(s.key)) === mirror.name);
      // (parallel arrays are refused below, when the overlay indexes the document)
      if (!unique) continue;
      for (const entry of mirror.entriesOf(doc)) {
        const clash =
          mirror.holdersOf(entry, key).length > 0 ||
          (committed?.holdersOf(entry, key).some((holder) => !this.hides(overlay, holder)) ?? false);
        if (clash) throw (committed ?? mirror).duplicateError(entry);
      }
    }
    this.record(overlay, key, doc);
  }

  private record(overlay: Overlay, key: IdKey, doc: Doc | undefined): void {
    if (!overlay.writes.has(key)) {
      // the version the transaction read, if it did, else the committed one now
      overlay.writes.set(key, overlay.view.docs.has(key) ? overlay.view.docs.get(key) : this.base()?.docs.get(key));
    }
    overlay.view.applyBatch([{ key, next: doc }]);
    overlay.created = true;
  }

  remove(idKey: IdKey): void {
    this.assertOpen();
    this.record(this.overlay(), idKey, undefined);
  }

  /**
   * A read-modify-write across awaits must not lose a concurrent update: the versions read stay
   * what this transaction sees, and a later write to them conflicts if they changed meanwhile
   * (MongoDB: snapshot reads + WriteConflict).
   */
  adopt(changes: readonly Change[]): void {
    for (const { key, next } of changes) {
      if (next) this.put(next, true);
      else this.remove(key);
    }
  }

  noteRead(docs: readonly Doc[]): void {
    const base = this.base();
    if (!base || docs.length === 0) return;
    const overlay = this.overlay();
    const pinned: Change[] = [];
    for (const doc of docs) {
      const key = idKeyOf(doc._id);
      if (!this.hides(overlay, key) && base.docs.get(key) === doc) pinned.push({ key, next: doc });
    }
    if (pinned.length > 0) overlay.view.applyBatch(pinned);
  }

  createIndex(spec: IndexSpec): void {
    const index = new MemIndex(spec, this.name); // validates the spec
    const base = this.base();
    const overlay = this.overlay();
    overlay.created = true;
    if (Object.keys(spec.key).length === 1 && spec.key._id === 1) return;
    const committed = base?.indexes.get(index.name);
    const pending = overlay.pendingIndexes.find((s) => (s.name ?? defaultIndexName(s.key)) === index.name);
    if (committed?.sameAs(spec) || (pending && new MemIndex(pending, this.name).sameAs(spec))) return;
    if (committed || pending) {
      throw new Error(`An existing index has the same name as the requested index: ${index.name}`);
    }
    overlay.pendingIndexes.push({ ...spec, name: index.name });
    overlay.view.createIndex({ key: spec.key, name: index.name });
  }

  drop(): void {
    this.assertOpen();
    const overlay = this.tx.overlay(this.name);
    overlay.dropped = true;
    overlay.created = false;
    overlay.view = this.tx.emptyView(this.name);
    overlay.writes.clear();
    overlay.pendingIndexes.length = 0;
  }
}

// ---------------------------------------------------------------------------------------------
// the port
// ---------------------------------------------------------------------------------------------

/** `{ _id: <string or number> }` and nothing else: a lookup, no planning */
function isIdPoint(filter: Filter): filter is { _id: string | number } {
  const id = filter._id;
  return (
    (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) && Object.keys(filter).length === 1
  );
}

export function checkFindOptions(options: FindOptions): { skip: number; limit: number | undefined } {
  const skip = options.skip ?? 0;
  if (!Number.isInteger(skip) || skip < 0) throw new Error(`skip must be a non-negative integer, got ${skip}`);
  const raw = options.limit ?? 0;
  if (!Number.isInteger(raw)) throw new Error(`limit must be an integer, got ${raw}`);
  // MongoDB: 0 means no limit, a negative limit is its absolute value
  return { skip, limit: raw === 0 ? undefined : Math.abs(raw) };
}

/**
 * For WriteBehindStore only (same package, not part of the port): a collection that can lend its
 * stored documents and adopt the caller's, without a deep copy or the checks of a replaceOne (the
 * store only lays each out in its stored shape, see StoredShapes). Safe because neither side
 * changes the values of a document the other holds: the store stores a new object at each write
 * (see captureImage), and the unit of work makes a new one at each update of a document it did
 * not make in the same batch.
 */
export const OWNED_DOCUMENTS: unique symbol = Symbol('owned documents');
export interface OwnedDocuments {
  /** the stored document itself (read like findOne({ _id }) reads it): never change it */
  peek(id: Doc['_id']): Doc | null;
  /**
   * Store each document (`null` deletes), in order, like replaceOne upserts and deleteOnes by _id,
   * without copying its values: the caller hands them over, _id first, checked against the query
   * language, and never changes them again.
   */
  adopt(writes: Iterable<{ id: Doc['_id']; doc: Doc | null }>): void;
}

class MemoryCollection<T extends Doc> implements ReadCollection<T> {
  constructor(
    readonly name: string,
    private readonly view: CollectionView,
    private readonly shapes: StoredShapes,
  ) {}

  readonly [OWNED_DOCUMENTS]: OwnedDocuments = {
    peek: (id) => {
      const doc = this.view.lookup(idKeyOf(id));
      if (!doc) return null;
      this.view.noteRead([doc]);
      return doc;
    },
    adopt: (writes) => {
      const changes: Change[] = [];
      for (const { id, doc } of writes) changes.push({ key: idKeyOf(id), next: doc ?? undefined });
      this.view.adopt(changes);
    },
  };

  /** runs the query and returns stored documents (not copies) plus how it ran */
  run(filter: Filter, options: FindOptions = {}): SelectResult {
    checkSort(options.sort);
    const { skip, limit } = checkFindOptions(options);
    const result = this.view.select(filter, options.sort, limit === undefined ? undefined : skip + limit);
    const docs = result.docs.slice(skip, limit === undefined ? undefined : skip + limit);
    return { docs, explain: { ...result.explain, nReturned: docs.length } };
  }

  async findOne(filter: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<T | null> {
    if (isIdPoint(filter) && !options.skip && !options.sort) {
      // the commonest read, one document by _id: no planning
      const doc = this.view.lookup(idKeyOf(filter._id));
      const project =
        options.projection && Object.keys(options.projection).length > 0
          ? compileProjection(options.projection)
          : undefined;
      if (!doc) return null;
      this.view.noteRead([doc]);
      return (project ? project(doc, cloneValue) : this.shapes.copy(doc)) as T;
    }
    const [doc] = await this.find(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const { docs } = this.run(filter, options);
    this.view.noteRead(docs);
    // a projection copies only the fields it keeps
    if (!options.projection || Object.keys(options.projection).length === 0)
      return docs.map((doc) => this.shapes.copy(doc)) as T[];
    const project = compileProjection(options.projection);
    return docs.map((doc) => project(doc, cloneValue)) as T[];
  }

  /** The documents a write applies to (stored objects); `{ _id: value }` is looked up without planning. */
  private targets(filter: Filter, one: boolean): Doc[] {
    if (isIdPoint(filter)) {
      const doc = this.view.lookup(idKeyOf(filter._id));
      return doc ? [doc] : [];
    }
    return this.view.select(filter, undefined, one ? 1 : undefined).docs.slice(0, one ? 1 : undefined);
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    return this.view.select(filter, undefined, undefined).docs.length;
  }

  async insertOne(doc: T): Promise<void> {
    this.insert(doc);
  }

  private insert(doc: Doc): void {
    if (!isPlainObject(doc)) throw new Error('insertOne expects a document');
    const copy = cloneValue(doc) as PlainObject;
    this.view.put(copy._id === undefined ? withIdFirst(copy, newId()) : (copy as Doc), false);
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.update(filter, update, options.upsert === true, true);
  }

  async updateMany(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.update(filter, update, options.upsert === true, false);
  }

  private update(filter: Filter, update: Update, upsert: boolean, one: boolean): UpdateResult {
    checkUpdate(update);
    const targets = this.targets(filter, one);
    if (targets.length === 0) {
      if (!upsert) return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
      const created = applyUpdate(buildUpsertFromFilter(filter), update, true) as PlainObject;
      this.view.put(withIdFirst(created, created._id ?? newId()), false);
      return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
    }
    // computed against the state before the first write, like one server-side pass
    const updated = targets.map((doc) => ({ doc, next: applyUpdate(doc, update, false) }));
    let modifiedCount = 0;
    for (const { doc, next } of updated) {
      if (deepEqual(doc, next)) continue;
      this.view.put(next, true);
      modifiedCount += 1;
    }
    return { matchedCount: targets.length, modifiedCount, upsertedCount: 0 };
  }

  async replaceOne(filter: Filter, replacement: T, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.replace(filter, replacement, options.upsert === true);
  }

  /** `counted` false (bulkWrite, which answers no counts): an unchanged document is written again, not compared */
  private replace(filter: Filter, replacement: Doc, upsert: boolean, counted = true): UpdateResult {
    checkReplacement(replacement);
    const [target] = this.targets(filter, true);
    const copy = cloneValue(replacement) as PlainObject;
    if (!target) {
      if (!upsert) return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
      this.view.put(withIdFirst(copy, upsertedReplacementId(copy, filter)), false);
      return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
    }
    checkReplacementKeepsId(copy, target._id);
    const next = withIdFirst(copy, target._id);
    if (counted && deepEqual(target, next)) return { matchedCount: 1, modifiedCount: 0, upsertedCount: 0 };
    this.view.put(next, true);
    return { matchedCount: 1, modifiedCount: 1, upsertedCount: 0 };
  }

  async deleteOne(filter: Filter): Promise<{ deletedCount: number }> {
    return this.delete(filter, true);
  }

  async deleteMany(filter: Filter = {}): Promise<{ deletedCount: number }> {
    return this.delete(filter, false);
  }

  private delete(filter: Filter, one: boolean): { deletedCount: number } {
    const targets = this.targets(filter, one);
    for (const doc of targets) this.view.remove(idKeyOf(doc._id));
    return { deletedCount: targets.length };
  }

  async bulkWrite(ops: BulkOp[]): Promise<void> {
    runBulkWrite(ops, {
      insert: (d) => this.insert(d),
      update: (f, u, upsert, one) => this.update(f, u, upsert, one),
      delete: (f, one) => this.delete(f, one),
      replace: (f, r, upsert) => this.replace(f, r, upsert, false),
    });
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    checkSort(spec.key);
    this.view.createIndex(spec);
  }

  async drop(): Promise<void> {
    this.view.drop();
  }
}

/** Attempts of a transaction that keeps meeting write conflicts (MongoDB's driver retries too). */
const MAX_TX_ATTEMPTS = 10;

/**
 * Transactions write into an overlay (an indexed collection of their own) that only the
 * transaction's store reads, merged over the committed data; on success the overlay is applied in
 * one synchronous step, so readers outside never see part of it, even while `fn` awaits between
 * writes (an undo log applied in place would show them the middle of it). If `fn` throws, the
 * overlay is dropped. If another writer changed a document since the transaction read or wrote it,
 * and the transaction wrote it, `fn` is run again (like MongoDB's withTransaction on a
 * WriteConflict), up to 10 times; DDL inside (createIndex, drop) is applied on commit too.
 */
export class MemoryReadStore implements ReadStore {
  readonly supportsTransactions = true;
  private readonly core = new StoreCore();
  private closed = false;

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new MemoryCollection<T>(name, new BaseView(this.core, name), this.core.shapes);
  }

  async listCollections(): Promise<string[]> {
    return [...this.core.states.keys()].sort();
  }

  async withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    if (this.core.deferIndexes) {
      // bulk load: in place, undone on failure (see UndoView)
      const undo: Array<() => void> = [];
      const tx = new BulkTxStore(this.core, undo);
      try {
        return await fn(tx);
      } catch (err) {
        for (const step of undo.reverse()) step();
        throw err;
      } finally {
        tx.finished = true;
      }
    }
    for (let attempt = 1; ; attempt++) {
      const tx = new TxState(this.core.counters);
      let result: R;
      try {
        result = await fn(new MemoryTxStore(this.core, tx));
      } finally {
        tx.finished = true;
      }
      try {
        this.core.commit(tx);
        return result;
      } catch (err) {
        if (!(err instanceof WriteConflictError) || attempt >= MAX_TX_ATTEMPTS) throw err;
      }
    }
  }

  async dropAll(): Promise<void> {
    this.core.states.clear();
  }

  /**
   * Indexes created while `fn` runs are built once, when it ends (one sort each), or when a query
   * that is not by _id first reads their collection, instead of taking every write one by one
   * meanwhile; transactions write in place (undone if they fail) instead of through an overlay.
   * For a store nobody reads yet (a rebuild): see ReadStore.bulkLoad.
   */
  async bulkLoad<R>(fn: () => Promise<R>): Promise<R> {
    if (this.core.deferIndexes) return fn();
    const states = [...this.core.states.values()];
    this.core.deferIndexes = true;
    for (const state of states) state.lazySwaps = true;
    try {
      return await fn();
    } finally {
      this.core.deferIndexes = false;
      for (const state of this.core.states.values()) state.endBulk();
    }
  }

  /**
   * See ReadStore.fillFromScratch: each document is stored in its stored shape (StoredShapes, one
   * copy), then each index the scratch store recorded is built by one sort over the documents.
   */
  fillFromScratch(scratch: ScratchStore): void {
    if (this.core.states.size > 0) throw new Error('fillFromScratch: the store is not empty');
    const contents = scratch.takeContents();
    // its documents share its strings and are laid out by its copiers: both go on from here
    this.core.strings = scratch.strings;
    this.core.shapes = scratch.shapes;
    try {
      for (const { name, docs, grown, indexes } of contents) {
        const state = this.core.state(name);
        for (const key of grown) {
          const doc = docs.get(key);
          if (doc) docs.set(key, this.core.shapes.stored(doc));
        }
        state.docs = docs;
        const cache = new IndexBuildCache();
        for (const spec of indexes) state.createIndex(spec, false, cache);
      }
    } catch (err) {
      this.core.states.clear();
      throw err;
    }
  }

  /**
   * Stops finishLoading (a store let go after a rebuild is not made in the background for nobody);
   * nothing else to release: the data stays readable, a collection still encoded is made when used.
   */
  async close(): Promise<void> {
    this.closed = true;
  }

  /** How a find would run (same code path as find): the plan and how many keys/documents it read. */
  explain(collection: string, filter: Filter, options: FindOptions = {}): QueryExplain {
    return new MemoryCollection(collection, new BaseView(this.core, collection), this.core.shapes).run(filter, options)
      .explain;
  }

  /** Index keys and documents read by every operation so far (finds, counts, updates, deletes). */
  counters(): Readonly<Counters> {
    return { ...this.core.counters };
  }

  /**
   * Replace the contents with a snapshot opened but not decoded (openMemorySnapshot): every
   * collection of it exists at once, each one made when first used (the file decoded up to it, in
   * order: the smallest collections come first) or by finishLoading. A start thus answers before
   * every document is made.
   */
  loadEncoded(image: EncodedImage): void {
    const sameCode = image.orderCode === indexOrderCode();
    const states = this.core.states;
    states.load(
      new PendingLoad(
        image,
        (name) => this.core.newState(name),
        (state) => states.adopt(state),
        sameCode,
      ),
    );
  }

  /** The collections loadEncoded left encoded that nobody used yet (not made). */
  encodedCollections(): string[] {
    return [...(this.core.states.pending?.names ?? [])];
  }

  /**
   * Makes what loadEncoded left encoded, a slice of at most about `sliceMs` at a time with a turn of
   * the event loop between slices (requests go on meanwhile; one that needs a collection not made
   * yet makes it at once). Resolves when nothing is left, with how long that took and the longest
   * slice (one collection's indexes are filled in one go).
   */
  async finishLoading(options: { sliceMs?: number } = {}): Promise<{ ms: number; maxBlockMs: number }> {
    const sliceMs = options.sliceMs ?? 10;
    const started = performance.now();
    let maxBlockMs = 0;
    for (let more = this.core.states.pending !== undefined; more && !this.closed;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.closed) break;
      const t = performance.now();
      do more = this.core.states.step();
      while (more && performance.now() - t < sliceMs);
      maxBlockMs = Math.max(maxBlockMs, performance.now() - t);
    }
    return { ms: performance.now() - started, maxBlockMs };
  }

  /** Names of a collection's indexes (the built-in _id index is not listed). */
  indexNames(collection: string): string[] {
    const state = this.core.states.get(collection);
    return state ? [...state.indexes.keys(), ...state.deferred.keys()] : [];
  }

  /**
   * The committed contents at this instant, in one synchronous step (no transaction commits in
   * between): every collection with its index specs and its documents. The documents are the stored
   * objects, not copies: a write never changes a stored document in place (it stores a new object,
   * see commit()'s conflict check by reference), so the image stays exactly this instant's state
   * while the store moves on, and serialising it can take as many event-loop turns as it needs.
   * Treat it as read-only.
   */
  captureImage(): MemoryStoreImage {
    const collections: MemoryStoreImage['collections'] = [];
    for (const [name, state] of this.core.states) {
      const orders: IndexOrderImage[] = [];
      for (const index of state.indexes.values()) {
        // a copy of the index's entries: its chunks change in place on later writes
        const entries = index.captureOrder();
        if (entries) orders.push({ name: index.name, entries });
      }
      collections.push({
        name,
        indexes: [
          ...[...state.indexes.values()].map((index) => ({ ...index.spec, name: index.name })),
          ...state.deferred.values(),
        ],
        docs: [...state.docs.values()],
        orders,
      });
    }
    return { collections, orderCode: indexOrderCode() };
  }

  /**
   * Replace the contents with an image (from captureImage, usually through a snapshot file). The
   * documents are stored as they come: a snapshot file makes them as StoredShapes stores written
   * ones (object literals, their short strings shared: see snapshot-chunk.ts). An index whose
   * saved order (`ordinals`) holds is filled from it, any other is built once, after the
   * documents are in (a sort per index, not one insertion per document).
   */
  loadImage(image: MemoryStoreImage): void {
    this.core.states.clear();
    const sameCode = image.orderCode === indexOrderCode();
    for (const { name, indexes, docs, orders } of image.collections) {
      const state = this.core.state(name);
      // in the image's order: the saved index orders are positions in it
      for (const doc of docs) state.docs.set(idKeyOf(doc._id), doc);
      for (const spec of indexes) {
        const indexName = spec.name ?? defaultIndexName(spec.key);
        state.restoreIndex(spec, docs, orders?.find((o) => o.name === indexName)?.ordinals, sameCode);
      }
    }
  }
}

/**
 * The order of one index that holds one entry per document (not multikey), so that loading an
 * image fills it without sorting: as captured, the documents themselves in index order, in chunks
 * (the same objects as the image's `docs`); in a snapshot file, their positions in `docs`.
 */
export interface IndexOrderImage {
  name: string;
  entries?: ReadonlyArray<readonly Doc[]>;
  ordinals?: Uint32Array;
}

/** What a MemoryReadStore holds: see MemoryReadStore.captureImage. */
export interface MemoryStoreImage {
  collections: Array<{ name: string; indexes: IndexSpec[]; docs: Doc[]; orders?: IndexOrderImage[] }>;
  /** indexOrderCode() of the code that captured the orders */
  orderCode?: string;
}

/**
 * Identifies the code that orders indexes (this file: compareValues, MemIndex): a hash of its
 * source text, so that a saved index order is taken without a check only by the same code. Read
 * when this module is evaluated, not when a snapshot is first written or read: a server started
 * before this file was edited must not write its orders under the edited file's hash (the next
 * start, built from the edited file, would take them unchecked). When the source cannot be read,
 * a value of this process alone (orders from elsewhere are then checked).
 */
const ORDER_CODE = (() => {
  try {
    // this source file, found through the package (the same from the sources and from the server bundle)
    const source = path.join(
      path.dirname(createRequire(import.meta.url).resolve('@evo/infra')),
      'readstore/memory-read-store.ts',
    );
    return createHash('sha256').update(readFileSync(source)).digest('hex').slice(0, 32);
  } catch {
    return `process-${randomBytes(8).toString('hex')}`;
  }
})();

/** ORDER_CODE: who saved a snapshot's index orders */
export function indexOrderCode(): string {
  return ORDER_CODE;
}

/** The store handed to a transaction's function during a bulk load: writes in place, undone if it fails. */
class BulkTxStore implements ReadStore {
  readonly supportsTransactions = true;
  finished = false;

  constructor(
    private readonly core: StoreCore,
    private readonly undo: Array<() => void>,
  ) {}

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    if (this.finished)
      throw new Error('Transaction already finished: use the store passed to withTransaction only inside it');
    return new MemoryCollection<T>(name, new UndoView(this.core, name, this.undo), this.core.shapes);
  }

  async listCollections(): Promise<string[]> {
    return [...this.core.states.keys()].sort();
  }

  async withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    return fn(this);
  }

  async dropAll(): Promise<void> {
    for (const name of [...this.core.states.keys()]) new UndoView(this.core, name, this.undo).drop();
  }

  async close(): Promise<void> {}
}

/** The store handed to a transaction's function: reads see its own writes, nothing is shared until commit. */
class MemoryTxStore implements ReadStore {
  readonly supportsTransactions = true;

  constructor(
    private readonly core: StoreCore,
    private readonly tx: TxState,
  ) {}

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new MemoryCollection<T>(name, new TxView(this.core, this.tx, name), this.core.shapes);
  }

  async listCollections(): Promise<string[]> {
    const names = new Set<string>();
    for (const name of this.core.states.keys()) if (!this.tx.overlays.get(name)?.dropped) names.add(name);
    for (const [name, overlay] of this.tx.overlays) if (overlay.created) names.add(name);
    return [...names].sort();
  }

  /** Already inside a transaction: MongoDB has no nested ones, so `fn` joins this one. */
  async withTransaction<R>(fn: (tx: ReadStore) => Promise<R>): Promise<R> {
    return fn(this);
  }

  async dropAll(): Promise<void> {
    const names = new Set([...this.core.states.keys(), ...this.tx.overlays.keys()]);
    for (const name of names) new TxView(this.core, this.tx, name).drop();
  }

  async close(): Promise<void> {}
}
