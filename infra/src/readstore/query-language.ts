import {
  UnsupportedQueryError,
  type BulkOp,
  type Doc,
  type Filter,
  type Projection,
  type Sort,
  type Update,
} from './port';

/*
 * The ReadStore's query language: the part of MongoDB's that projectors and queries use, and no
 * more (see port.ts for the list). Both adapters check every filter, update, projection and sort
 * with `checkQuery` first and refuse the rest (UnsupportedQueryError), so a read model that works
 * on one store works on the other. SqliteReadStore evaluates the language with the functions
 * below; MongoReadStore hands it to the server. Within the language, the answers are MongoDB's
 * (the differential test `query-language.test.ts` holds them to mingo's, and the contract suite
 * runs on FerretDB).
 */

type PlainObject = Record<string, unknown>;
export type Scalar = string | number | boolean;

const FILTER_OPERATORS = new Set(['$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$exists', '$regex']);
const UPDATE_OPERATORS = new Set(['$set', '$setOnInsert', '$inc', '$min', '$max', '$addToSet', '$pull']);
type RangeOp = '$gt' | '$gte' | '$lt' | '$lte';

export function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function isScalar(value: unknown): value is Scalar {
  return (
    typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
  );
}

const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

function refuse(what: string): never {
  throw new UnsupportedQueryError(`${what} (outside the ReadStore's query language)`);
}

/** A top-level field name: no dotted path, no operator, nothing that reaches a prototype. */
function checkField(name: string): void {
  if (name.length === 0 || name.includes('.') || name.startsWith('$') || name === '__proto__')
    refuse(`field '${name}'`);
}

// ---------------------------------------------------------------------------------------------
// checks, shared by both adapters
// ---------------------------------------------------------------------------------------------

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
  // for…in throughout: checked at every query, so no arrays of keys
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
  // for…in throughout: checked at every write, so no arrays of keys
  let ops = 0;
  for (const op in update) if (hasOwn(update, op)) ops++;
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

export function checkReplacement(replacement: PlainObject): void {
  for (const key of Object.keys(replacement)) checkField(key);
}

export function checkProjection(projection: Projection | undefined): void {
  if (!projection) return;
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
}

export function checkSort(sort: Sort | undefined): void {
  if (!sort) return;
  for (const [field, dir] of Object.entries(sort)) {
    checkField(field);
    if (dir !== 1 && dir !== -1) refuse(`sort ${field}: ${String(dir)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// evaluation, for SqliteReadStore (MongoReadStore hands queries to the server)
// ---------------------------------------------------------------------------------------------

export type Matcher = (doc: PlainObject) => boolean;

/** Equality with a scalar or null, MongoDB's way: an array matches when one of its elements does; null matches a missing field. */
function equals(value: unknown, operand: Scalar | null): boolean {
  if (operand === null) return value === null || value === undefined || (Array.isArray(value) && value.includes(null));
  return value === operand || (Array.isArray(value) && value.includes(operand));
}

function rangeHolds(op: RangeOp, a: number | string, b: number | string): boolean {
  switch (op) {
    case '$gt':
      return a > b;
    case '$gte':
      return a >= b;
    case '$lt':
      return a < b;
    case '$lte':
      return a <= b;
  }
}

/** Only values of the bound's type compare (MongoDB's type brackets); an array through any element. */
function inRange(op: RangeOp, value: unknown, bound: number | string): boolean {
  // loops, not value.some(v => …): no closure per document tested
  if (!Array.isArray(value)) return typeof value === typeof bound && rangeHolds(op, value as number | string, bound);
  for (const v of value) if (typeof v === typeof bound && rangeHolds(op, v as number | string, bound)) return true;
  return false;
}

function conditionMatcher(field: string, op: string, operand: unknown): Matcher {
  switch (op) {
    case '$ne':
      return (doc) => !equals(doc[field], operand as Scalar | null);
    case '$in': {
      const list = operand as Array<Scalar | null>;
      if (list.includes(null)) return (doc) => list.some((v) => equals(doc[field], v));
      // scalars only (finite numbers: Set's SameValueZero is ===): one look-up per value instead
      // of a pass over the list, and no closure per document
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
    default:
      return (doc) => inRange(op as RangeOp, doc[field], operand as number | string);
  }
}

/**
 * A matcher for a filter of the language (checked first, once: the $or clauses are inside it;
 * `checked`: the caller has run checkFilter on it already).
 */
export function compileFilter(filter: Filter, checked = false): Matcher {
  if (!checked) checkFilter(filter);
  return compileChecked(filter);
}

function compileChecked(filter: Filter): Matcher {
  const tests: Matcher[] = [];
  for (const key of Object.keys(filter)) {
    const value = filter[key];
    if (key === '$or') {
      const clauses = (value as Filter[]).map(compileChecked);
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
  // a loop, not tests.every(t => t(doc)): that would make a closure per document tested
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

export class UpdateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpdateError';
  }
}

/**
 * Applies an update of the language to a copy of `doc` (values copied with `clone`). On insert
 * (an upsert), $setOnInsert joins $set and may name the new document's _id; elsewhere _id never
 * changes (MongoDB's error otherwise). The caller has run `checkUpdate` once for the call (an
 * updateMany applies one update to many documents).
 */
export function applyUpdate(
  doc: PlainObject,
  update: Update,
  isInsert: boolean,
  compare: (a: unknown, b: unknown) => number,
  clone: <V>(v: V) => V,
): PlainObject {
  const next: PlainObject = { ...doc };
  for (const op in update) {
    if (op === '$setOnInsert' && !isInsert) continue;
    const fields = update[op] as PlainObject;
    for (const field in fields) {
      const operand = fields[field];
      const current = hasOwn(next, field) ? next[field] : undefined;
      if (field === '_id') {
        if (op !== '$set' && op !== '$setOnInsert') throw new UpdateError(`Cannot apply ${op} to _id`);
        if (current !== undefined && current !== operand)
          throw new UpdateError("Performing an update on the path '_id' would modify the immutable field '_id'");
        next._id = operand;
        continue;
      }
      switch (op) {
        case '$set':
        case '$setOnInsert':
          next[field] = clone(operand);
          break;
        case '$inc':
          if (current !== undefined && typeof current !== 'number')
            throw new UpdateError(`Cannot apply $inc to a value of non-numeric type (field '${field}')`);
          next[field] = (current ?? 0) + (operand as number);
          break;
        case '$min':
        case '$max': {
          const c = current === undefined ? 0 : compare(operand, current);
          if (current === undefined || (op === '$min' ? c < 0 : c > 0)) next[field] = operand;
          break;
        }
        case '$addToSet':
          if (current === undefined) next[field] = [operand];
          else if (!Array.isArray(current))
            throw new UpdateError(`Cannot apply $addToSet to a non-array field '${field}'`);
          else if (!current.includes(operand)) next[field] = [...current, operand];
          break;
        case '$pull':
          if (current === undefined) break;
          if (!Array.isArray(current)) throw new UpdateError(`Cannot apply $pull to a non-array value '${field}'`);
          if (current.includes(operand)) next[field] = current.filter((v) => v !== operand);
          break;
      }
    }
  }
  return next;
}

export type ProjectionFn = (doc: PlainObject, clone: <V>(v: V) => V) => PlainObject;

/**
 * Inclusion ({ a: 1, b: 1 }) or exclusion ({ a: 0 }) of top-level fields, _id kept unless
 * { _id: 0 }; fields come out in the document's order, as MongoDB gives them.
 */
export function compileProjection(projection: Projection): ProjectionFn {
  checkProjection(projection);
  const named = Object.keys(projection).filter((f) => f !== '_id');
  const keepId = projection._id !== 0;
  // only _id named: { _id: 1 } keeps it alone, { _id: 0 } drops it
  const include = named.length === 0 ? projection._id === 1 : projection[named[0]] === 1;
  const fields = new Set(named);
  const keeps = include
    ? (key: string) => (key === '_id' ? keepId : fields.has(key))
    : (key: string) => (key === '_id' ? keepId : !fields.has(key));
  return (doc, clone) => {
    const out: PlainObject = {};
    // for…in: no array of keys per document (stored documents are plain objects, nothing inherited)
    for (const key in doc) if (doc[key] !== undefined && keeps(key)) out[key] = clone(doc[key]);
    return out;
  };
}

/** The writes of a collection that `bulkWrite` dispatches to (see runBulkWrite). */
export interface BulkWriter {
  insert(doc: Doc): void;
  update(filter: Filter, update: Update, upsert: boolean, one: boolean): void;
  delete(filter: Filter, one: boolean): void;
  replace(filter: Filter, replacement: Doc, upsert: boolean): void;
}

/** `bulkWrite`'s operations, ordered: each runs after the previous one; the first error ends the batch, earlier writes stay. */
export function runBulkWrite(ops: readonly BulkOp[], to: BulkWriter): void {
  for (const op of ops) {
    if ('insertOne' in op) to.insert(op.insertOne.document);
    else if ('updateOne' in op) to.update(op.updateOne.filter, op.updateOne.update, op.updateOne.upsert === true, true);
    else if ('updateMany' in op)
      to.update(op.updateMany.filter, op.updateMany.update, op.updateMany.upsert === true, false);
    else if ('deleteOne' in op) to.delete(op.deleteOne.filter, true);
    else if ('deleteMany' in op) to.delete(op.deleteMany.filter, false);
    else if ('replaceOne' in op)
      to.replace(op.replaceOne.filter, op.replaceOne.replacement, op.replaceOne.upsert === true);
    else throw new Error(`Unknown bulkWrite operation: ${Object.keys(op).join(', ')}`);
  }
}
