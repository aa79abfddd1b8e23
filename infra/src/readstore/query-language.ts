import {
  UnsupportedQueryError,
  type BulkOp,
  type Doc,
  type Filter,
  type FindOptions,
  type Projection,
  type Sort,
  type Update,
  type UpdateResult,
} from './port';
import {
  cloneValue,
  compareValues,
  deepEqual,
  isPlainObject,
  isScalar,
  newId,
  type PlainObject,
  type Scalar,
} from './values';

/*
 * The ReadStore's query language (listed in port.ts): the checks both adapters run on every call
 * (CheckedCollection), and the evaluation SqliteReadStore runs and MongoReadStore computes its
 * writes with on FerretDB. Its answers are MongoDB's (query-language.test.ts holds them to mingo's).
 */

const FILTER_OPERATORS = new Set(['$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$exists', '$regex']);
const UPDATE_OPERATORS = new Set(['$set', '$setOnInsert', '$inc', '$min', '$max', '$addToSet', '$pull']);
type Bound = number | string;
const RANGES: Record<string, (a: Bound, b: Bound) => boolean> = {
  $gt: (a, b) => a > b,
  $gte: (a, b) => a >= b,
  $lt: (a, b) => a < b,
  $lte: (a, b) => a <= b,
};

function refuse(what: string): never {
  throw new UnsupportedQueryError(`${what} (outside the ReadStore's query language)`);
}

/** A top-level field name: no dotted path, no operator, nothing that reaches a prototype. */
function checkField(name: string): void {
  if (name.length === 0 || name.includes('.') || name.startsWith('$') || name === '__proto__')
    refuse(`field '${name}'`);
}

function checkCondition(field: string, op: string, operand: unknown): void {
  switch (op) {
    case '$ne':
      if (operand !== null && !isScalar(operand)) refuse(`${field}: $ne of ${JSON.stringify(operand)}`);
      return;
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      if (typeof operand !== 'string' && !(typeof operand === 'number' && Number.isFinite(operand)))
        refuse(`${field}: ${op} of ${JSON.stringify(operand)}`);
      return;
    case '$in':
      if (!Array.isArray(operand) || !operand.every((v) => v === null || isScalar(v)))
        refuse(`${field}: $in of ${JSON.stringify(operand)}`);
      return;
    case '$exists':
      if (typeof operand !== 'boolean') refuse(`${field}: $exists of ${JSON.stringify(operand)}`);
      return;
    case '$regex':
      if (typeof operand !== 'string') refuse(`${field}: $regex of ${String(operand)}`);
      return;
    default:
      refuse(`${field}: operator ${op}`);
  }
}

export function checkFilter(filter: Filter): void {
  if (!isPlainObject(filter)) refuse('a filter that is not an object');
  // for…in throughout: no arrays of keys at every call
  for (const key in filter) {
    const value = filter[key];
    if (key === '$or') {
      if (!Array.isArray(value) || value.length === 0) refuse('$or without clauses');
      for (const clause of value) checkFilter(clause as Filter);
      continue;
    }
    checkField(key);
    if (value === null || isScalar(value)) continue;
    if (!isPlainObject(value)) refuse(`${key}: ${JSON.stringify(value)}`);
    let ops = 0;
    for (const op in value) {
      ops++;
      if (!FILTER_OPERATORS.has(op)) refuse(`${key}: operator ${op}`);
      checkCondition(key, op, value[op]);
    }
    if (ops === 0) refuse(`${key}: ${JSON.stringify(value)}`);
  }
}

export function checkUpdate(update: Update): void {
  let ops = 0;
  for (const op in update) if (Object.hasOwn(update, op)) ops++;
  if (ops === 0) refuse('an empty update');
  // a field under two operators: MongoDB refuses it as a conflict (one operator cannot repeat one)
  const seen = ops > 1 ? new Set<string>() : undefined;
  for (const op in update) {
    if (!UPDATE_OPERATORS.has(op)) refuse(`update operator ${op}`);
    const fields = update[op];
    if (!isPlainObject(fields)) refuse(`${op} of ${JSON.stringify(fields)}`);
    for (const field in fields) {
      const operand = fields[field];
      checkField(field);
      if (seen) {
        if (seen.has(field)) refuse(`field '${field}' under two operators`);
        seen.add(field);
      }
      if (operand === undefined) refuse(`${op}: ${field} undefined`);
      if (op === '$set' || op === '$setOnInsert') continue;
      const finite = typeof operand === 'number' && Number.isFinite(operand);
      if (op === '$inc' && !finite) refuse(`${op}: ${field} of ${JSON.stringify(operand)}`);
      // $min / $max keep the earliest / latest of ISO dates as well as the least / most of numbers
      if ((op === '$min' || op === '$max') && !finite && typeof operand !== 'string')
        refuse(`${op}: ${field} of ${JSON.stringify(operand)}`);
      if ((op === '$addToSet' || op === '$pull') && !isScalar(operand))
        refuse(`${op}: ${field} of ${JSON.stringify(operand)}`);
    }
  }
}

/** A document to insert or replace with: a plain object of top-level fields. */
export function checkDocument(doc: unknown): void {
  if (!isPlainObject(doc)) refuse('a document that is not an object');
  for (const key of Object.keys(doc)) checkField(key);
}

export function checkFindOptions(options: FindOptions): { skip: number; limit: number | undefined } {
  const skip = options.skip ?? 0;
  if (!Number.isInteger(skip) || skip < 0) throw new Error(`skip must be a non-negative integer, got ${skip}`);
  const raw = options.limit ?? 0;
  if (!Number.isInteger(raw)) throw new Error(`limit must be an integer, got ${raw}`);
  // MongoDB: 0 means no limit, a negative limit is its absolute value
  return { skip, limit: raw === 0 ? undefined : Math.abs(raw) };
}

/** Checks a projection: whether it includes fields (else it excludes them). */
export function checkProjection(projection: Projection = {}): boolean {
  let include: boolean | undefined;
  for (const field in projection) {
    const v = projection[field];
    checkField(field);
    if (v !== 0 && v !== 1) refuse(`projection ${field}: ${String(v)}`);
    if (field === '_id') continue;
    if (include !== undefined && include !== (v === 1)) refuse('a projection that both includes and excludes');
    include = v === 1;
  }
  if (include === false && projection._id === 1) refuse('a projection that both includes and excludes');
  // only _id named: { _id: 1 } keeps it alone, { _id: 0 } drops it
  return include ?? projection._id === 1;
}

export function checkSort(sort: Sort | undefined): void {
  if (!sort) return;
  for (const [field, dir] of Object.entries(sort)) {
    checkField(field);
    if (dir !== 1 && dir !== -1) refuse(`sort ${field}: ${String(dir)}`);
  }
}

export type Matcher = (doc: PlainObject) => boolean;

/** Equality with a scalar or null, MongoDB's way: an array matches when one of its elements does; null matches a missing field. */
function equals(value: unknown, operand: Scalar | null): boolean {
  if (operand === null) return value === null || value === undefined || (Array.isArray(value) && value.includes(null));
  return value === operand || (Array.isArray(value) && value.includes(operand));
}

/** Only values of the bound's type compare (MongoDB's type brackets); an array through any element. */
function inRange(holds: (a: Bound, b: Bound) => boolean, value: unknown, bound: Bound): boolean {
  // loops here and in the matchers: no closure per document tested
  if (!Array.isArray(value)) return typeof value === typeof bound && holds(value as Bound, bound);
  for (const v of value) if (typeof v === typeof bound && holds(v as Bound, bound)) return true;
  return false;
}

function conditionMatcher(field: string, op: string, operand: unknown): Matcher {
  switch (op) {
    case '$ne':
      return (doc) => !equals(doc[field], operand as Scalar | null);
    case '$in': {
      const list = operand as Array<Scalar | null>;
      if (list.includes(null)) return (doc) => list.some((v) => equals(doc[field], v));
      // scalars only, where Set's SameValueZero is ===
      const members = new Set(list);
      return (doc) => {
        const v = doc[field];
        if (!Array.isArray(v)) return members.has(v as Scalar);
        for (const item of v) if (members.has(item as Scalar)) return true;
        return false;
      };
    }
    case '$exists':
      return (doc) => (doc[field] !== undefined) === operand;
    case '$regex': {
      const re = new RegExp(operand as string);
      const one = (v: unknown) => typeof v === 'string' && re.test(v);
      return (doc) => {
        const v = doc[field];
        return Array.isArray(v) ? v.some(one) : one(v);
      };
    }
    default: {
      const holds = RANGES[op];
      return (doc) => inRange(holds, doc[field], operand as Bound);
    }
  }
}

/** A matcher for a filter of the language (checked already: its $or clauses are inside it). */
export function compileFilter(filter: Filter): Matcher {
  const tests: Matcher[] = [];
  for (const key of Object.keys(filter)) {
    const value = filter[key];
    if (key === '$or') {
      const clauses = (value as Filter[]).map(compileFilter);
      tests.push((doc) => {
        for (const clause of clauses) if (clause(doc)) return true;
        return false;
      });
    } else if (value === null || isScalar(value)) {
      tests.push((doc) => equals(doc[key], value));
    } else {
      for (const [op, operand] of Object.entries(value as PlainObject)) tests.push(conditionMatcher(key, op, operand));
    }
  }
  if (tests.length === 0) return () => true;
  if (tests.length === 1) return tests[0];
  return (doc) => {
    for (const test of tests) if (!test(doc)) return false;
    return true;
  };
}

/** The fields an upsert seeds its new document with: the filter's equalities (MongoDB's rule). */
export function equalityFields(filter: Filter): Array<[string, Scalar | null]> {
  const out: Array<[string, Scalar | null]> = [];
  for (const key in filter) {
    const value = filter[key];
    if (key === '$or') {
      const clauses = value as Filter[];
      if (clauses.length === 1) out.push(...equalityFields(clauses[0]));
    } else if (value === null || isScalar(value)) {
      out.push([key, value]);
    }
  }
  return out;
}

/**
 * A checked update applied to a copy of `doc` (the values it sets copied). On insert (an upsert),
 * $setOnInsert joins $set and may name the new _id; elsewhere _id never changes.
 */
export function applyUpdate(doc: PlainObject, update: Update, isInsert: boolean): PlainObject {
  const next: PlainObject = { ...doc };
  for (const op in update) {
    if (op === '$setOnInsert' && !isInsert) continue;
    const fields = update[op] as PlainObject;
    for (const field in fields) {
      const operand = fields[field];
      const current = Object.hasOwn(next, field) ? next[field] : undefined;
      if (field === '_id') {
        if (op !== '$set' && op !== '$setOnInsert') throw new Error(`Cannot apply ${op} to _id`);
        if (current !== undefined && current !== operand)
          throw new Error("Performing an update on the path '_id' would modify the immutable field '_id'");
        next._id = operand;
        continue;
      }
      switch (op) {
        case '$set':
        case '$setOnInsert':
          next[field] = cloneValue(operand);
          break;
        case '$inc':
          if (current !== undefined && typeof current !== 'number')
            throw new Error(`Cannot apply $inc to a value of non-numeric type (field '${field}')`);
          next[field] = (current ?? 0) + (operand as number);
          break;
        case '$min':
        case '$max': {
          const c = current === undefined ? 0 : compareValues(operand, current);
          if (current === undefined || (op === '$min' ? c < 0 : c > 0)) next[field] = operand;
          break;
        }
        case '$addToSet':
          if (current === undefined) next[field] = [operand];
          else if (!Array.isArray(current)) throw new Error(`Cannot apply $addToSet to a non-array field '${field}'`);
          else if (!current.includes(operand)) next[field] = [...current, operand];
          break;
        case '$pull':
          if (current === undefined) break;
          if (!Array.isArray(current)) throw new Error(`Cannot apply $pull to a non-array value '${field}'`);
          if (current.includes(operand)) next[field] = current.filter((v) => v !== operand);
          break;
      }
    }
  }
  return next;
}

/** Inclusion or exclusion of top-level fields, _id kept unless { _id: 0 }, in the document's order (MongoDB's). */
export function compileProjection(projection: Projection): (doc: PlainObject) => PlainObject {
  const include = checkProjection(projection);
  const keepId = projection._id !== 0;
  const named = new Set(Object.keys(projection));
  const keeps = (key: string) => (key === '_id' ? keepId : named.has(key) === include);
  return (doc) => {
    const out: PlainObject = {};
    // stored documents are plain objects: for…in sees nothing inherited
    for (const key in doc) if (doc[key] !== undefined && keeps(key)) out[key] = doc[key];
    return out;
  };
}

/** The writes of a collection, as bulkWrite's operations name them. */
export interface Writes<R> {
  insert(doc: Doc): R;
  update(filter: Filter, update: Update, upsert: boolean, one: boolean): R;
  delete(filter: Filter, one: boolean): R;
  replace(filter: Filter, replacement: Doc, upsert: boolean): R;
}

/** One of bulkWrite's operations, handed to the write it names. */
export function dispatch<R>(op: BulkOp, to: Writes<R>): R {
  if ('insertOne' in op) return to.insert(op.insertOne.document);
  if ('updateOne' in op) return to.update(op.updateOne.filter, op.updateOne.update, !!op.updateOne.upsert, true);
  if ('updateMany' in op) return to.update(op.updateMany.filter, op.updateMany.update, !!op.updateMany.upsert, false);
  if ('deleteOne' in op) return to.delete(op.deleteOne.filter, true);
  if ('deleteMany' in op) return to.delete(op.deleteMany.filter, false);
  if ('replaceOne' in op) return to.replace(op.replaceOne.filter, op.replaceOne.replacement, !!op.replaceOne.upsert);
  refuse(`bulkWrite operation ${Object.keys(op as object).join(', ')}`);
}

/** A write a store computes (SqliteReadStore; on FerretDB): the documents it writes, the one each replaces, its counts. */
export interface Written {
  docs: Array<{ next: Doc; previous?: Doc }>;
  result: UpdateResult;
}

const counts = (matchedCount: number, modifiedCount: number, upsertedCount: number): UpdateResult => ({
  matchedCount,
  modifiedCount,
  upsertedCount,
});

/**
 * An update of the documents it matched (`targets`, left as they are). No match and `upsert`: the
 * filter's equalities and the update make the new document, its _id from them or `newDocId()`.
 */
export function updateWrites(
  targets: Doc[],
  filter: Filter,
  update: Update,
  upsert: boolean,
  newDocId: () => Doc['_id'],
): Written {
  if (targets.length === 0) {
    if (!upsert) return { docs: [], result: counts(0, 0, 0) };
    const seed: PlainObject = {};
    for (const [field, value] of equalityFields(filter)) seed[field] = value;
    const created = applyUpdate(seed, update, true);
    return { docs: [{ next: withIdFirst(created, created._id ?? newDocId()) }], result: counts(0, 0, 1) };
  }
  const docs = targets
    .map((previous) => ({ previous, next: applyUpdate(previous, update, false) as Doc }))
    .filter(({ previous, next }) => !deepEqual(previous, next));
  return { docs, result: counts(targets.length, docs.length, 0) };
}

/** A replacement of `target`, whose _id never changes; an upsert takes the replacement's _id, the filter's or a new one. */
export function replaceWrites(target: Doc | undefined, filter: Filter, replacement: Doc, upsert: boolean): Written {
  const own = replacement._id;
  if (!target) {
    if (!upsert) return { docs: [], result: counts(0, 0, 0) };
    const fromFilter = equalityFields(filter).find(([field]) => field === '_id')?.[1];
    if (own !== undefined && fromFilter !== undefined && !deepEqual(own, fromFilter))
      throw new Error("The _id field cannot be changed: the replacement's _id differs from the filter's");
    return { docs: [{ next: withIdFirst(replacement, own ?? fromFilter ?? newId()) }], result: counts(0, 0, 1) };
  }
  if (own !== undefined && !deepEqual(own, target._id))
    throw new Error("After applying the update, the (immutable) field '_id' was found to have been altered");
  const next = withIdFirst(replacement, target._id);
  const docs = deepEqual(target, next) ? [] : [{ previous: target, next }];
  return { docs, result: counts(1, docs.length, 0) };
}

/** MongoDB stores _id first; new documents are shaped like the server's. */
export function withIdFirst(doc: PlainObject, id: unknown): Doc {
  for (const first in doc) {
    if (first === '_id' && doc._id === id) return doc as Doc;
    break;
  }
  const { _id: _ignored, ...rest } = doc;
  return { _id: id as Doc['_id'], ...rest };
}
