/*
 * Fast paths of the in-memory read store for the filters and updates projectors and queries use
 * most (equality, ranges, $in, $exists, $and/$or; $set, $unset, $inc, $min, $max on plain paths).
 *
 * mingo rebuilds its operator tables for every Query and every update (a copy of every operator
 * per call): under load that was most of the projection cost. These compile a filter or apply an
 * update directly, for a subset whose MongoDB meaning is simple; anything outside it (arrays met
 * on the way down a dotted path, null, NaN, dates, mixed types, conflicting paths...) answers
 * FALLBACK and the caller does what it did before with mingo. A differential property test
 * (fast-paths.test.ts) checks both give the same answers over random documents.
 */

type PlainObject = Record<string, unknown>;

/** "The fast path cannot decide this one: ask mingo." */
export const FALLBACK: unique symbol = Symbol('fallback');
export type Fallback = typeof FALLBACK;

/** Matches a document, or FALLBACK when this document needs the general matcher. */
export type FastMatcher = (doc: PlainObject) => boolean | Fallback;

type Scalar = string | number | boolean;

const UNSAFE_PARTS = new Set(['__proto__', 'constructor', 'prototype']);

function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && !Number.isNaN(value));
}

/** Path parts, or undefined for a path the fast path leaves alone. */
function plainPath(path: string): string[] | undefined {
  if (path.length === 0 || path.startsWith('$')) return undefined;
  const parts = path.split('.');
  for (const part of parts) {
    if (part.length === 0 || part.includes('$') || UNSAFE_PARTS.has(part)) return undefined;
  }
  return parts;
}

const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/** The value at a path through plain objects; undefined when missing; FALLBACK through an array. */
function valueAt(doc: PlainObject, parts: readonly string[]): unknown {
  let node: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    if (Array.isArray(node)) return FALLBACK;
    if (!isPlainObject(node) || !hasOwn(node, parts[i])) return undefined;
    node = node[parts[i]];
  }
  return node;
}

type Test = (doc: PlainObject) => boolean | Fallback;

/** Equality with a scalar: the value itself, or an element of an array value (MongoDB's rule). */
function equals(value: unknown, s: Scalar): boolean {
  if (value === s) return true;
  return Array.isArray(value) && value.some((item) => item === s);
}

type RangeOp = '$gt' | '$gte' | '$lt' | '$lte';

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

/** Range on a number or a string: only values of the same type compare (MongoDB's type brackets). */
function inRange(op: RangeOp, value: unknown, bound: number | string): boolean | Fallback {
  const one = (v: unknown): boolean | Fallback => {
    if (typeof v === 'number' && Number.isNaN(v)) return FALLBACK;
    return typeof v === typeof bound ? rangeHolds(op, v as number | string, bound) : false;
  };
  if (!Array.isArray(value)) return one(value);
  let any = false;
  for (const item of value) {
    const r = one(item);
    if (r === FALLBACK) return FALLBACK;
    any ||= r;
  }
  return any;
}

function fieldTest(parts: string[], op: string, operand: unknown): Test | undefined {
  const at = (doc: PlainObject) => valueAt(doc, parts);
  switch (op) {
    case '$eq':
    case '$ne': {
      if (!isScalar(operand)) return undefined;
      const negate = op === '$ne';
      return (doc) => {
        const v = at(doc);
        return v === FALLBACK ? FALLBACK : equals(v, operand) !== negate;
      };
    }
    case '$in':
    case '$nin': {
      if (!Array.isArray(operand) || !operand.every(isScalar)) return undefined;
      const negate = op === '$nin';
      // a Set: feeds ask for the videos of a thousand followed members ($in of 1,000 ids)
      const set = new Set<unknown>(operand);
      const member = (v: unknown) => set.has(v) || (Array.isArray(v) && v.some((item) => set.has(item)));
      return (doc) => {
        const v = at(doc);
        return v === FALLBACK ? FALLBACK : member(v) !== negate;
      };
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      if (!((typeof operand === 'number' && !Number.isNaN(operand)) || typeof operand === 'string')) return undefined;
      return (doc) => {
        const v = at(doc);
        return v === FALLBACK ? FALLBACK : inRange(op, v, operand);
      };
    }
    case '$exists': {
      if (typeof operand !== 'boolean') return undefined;
      return (doc) => {
        const v = at(doc);
        return v === FALLBACK ? FALLBACK : (v !== undefined) === operand;
      };
    }
    default:
      return undefined;
  }
}

/**
 * $and (all must hold: false decides) or $or (one must hold: true decides); an undecided part
 * makes the whole undecided unless another part decides.
 */
function combine(tests: Test[], decisive: boolean): Test {
  return (doc) => {
    let fallback = false;
    for (const t of tests) {
      const r = t(doc);
      if (r === decisive) return decisive;
      if (r === FALLBACK) fallback = true;
    }
    return fallback ? FALLBACK : !decisive;
  };
}

const allOf = (tests: Test[]) => combine(tests, false);
const anyOf = (tests: Test[]) => combine(tests, true);

function compileClauses(filter: PlainObject): Test | undefined {
  const tests: Test[] = [];
  for (const key of Object.keys(filter)) {
    const value = filter[key];
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0 || !value.every(isPlainObject)) return undefined;
      const subs: Test[] = [];
      for (const clause of value) {
        const sub = compileClauses(clause);
        if (!sub) return undefined;
        subs.push(sub);
      }
      tests.push(key === '$and' ? allOf(subs) : anyOf(subs));
      continue;
    }
    const parts = plainPath(key);
    if (!parts) return undefined;
    if (isScalar(value)) {
      const test = fieldTest(parts, '$eq', value);
      if (!test) return undefined;
      tests.push(test);
      continue;
    }
    if (!isPlainObject(value)) return undefined;
    const ops = Object.keys(value);
    if (ops.length === 0 || !ops.every((op) => op.startsWith('$'))) return undefined;
    for (const op of ops) {
      const test = fieldTest(parts, op, value[op]);
      if (!test) return undefined;
      tests.push(test);
    }
  }
  return tests.length === 1 ? tests[0] : allOf(tests);
}

/** A matcher for a filter of the simple subset, or undefined when the filter is outside it. */
export function compileFastFilter(filter: PlainObject): FastMatcher | undefined {
  if (!isPlainObject(filter)) return undefined;
  if (Object.keys(filter).length === 0) return () => true;
  return compileClauses(filter);
}

// ---------------------------------------------------------------------------------------------
// updates
// ---------------------------------------------------------------------------------------------

const FAST_UPDATE_OPERATORS = new Set(['$set', '$unset', '$inc', '$min', '$max']);

/** The paths of an update, when every operator and path is of the simple subset and no two conflict. */
function updatePaths(ops: PlainObject): Array<[op: string, parts: string[], operand: unknown]> | undefined {
  const out: Array<[string, string[], unknown]> = [];
  const paths: string[] = [];
  for (const op of Object.keys(ops)) {
    if (!FAST_UPDATE_OPERATORS.has(op)) return undefined;
    const fields = ops[op];
    if (!isPlainObject(fields)) return undefined;
    for (const path of Object.keys(fields)) {
      const parts = plainPath(path);
      // _id is immutable: let the general path give MongoDB's error
      if (!parts || parts[0] === '_id') return undefined;
      const operand = fields[path];
      if (
        (op === '$inc' || op === '$min' || op === '$max') &&
        !(typeof operand === 'number' && Number.isFinite(operand))
      )
        return undefined;
      if (op === '$set' && operand === undefined) return undefined;
      paths.push(path);
      out.push([op, parts, operand]);
    }
  }
  // the same path twice, or a path inside another one: MongoDB refuses it, mingo says how
  const sorted = [...paths].sort();
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1] || sorted[i].startsWith(`${sorted[i - 1]}.`)) return undefined;
  }
  return out;
}

/** The object holding the last part of a path, created on the way; FALLBACK across anything but plain objects. */
function parentOf(doc: PlainObject, parts: readonly string[], create: boolean): PlainObject | undefined | Fallback {
  let node = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i];
    const child = hasOwn(node, part) ? node[part] : undefined;
    if (child === undefined) {
      if (!create) return undefined;
      const created: PlainObject = {};
      node[part] = created;
      node = created;
    } else if (isPlainObject(child)) {
      node = child;
    } else {
      return FALLBACK;
    }
  }
  return node;
}

/**
 * Applies `ops` ($set / $unset / $inc / $min / $max) to `doc` in place. Returns FALLBACK, having
 * possibly changed `doc` half-way, when the update is outside the subset: the caller then starts
 * again from an untouched copy with the general updater. `clone` copies $set values.
 */
export function applyFastUpdate(doc: PlainObject, ops: PlainObject, clone: <V>(v: V) => V): true | Fallback {
  const paths = updatePaths(ops);
  if (!paths) return FALLBACK;
  for (const [op, parts, operand] of paths) {
    const last = parts[parts.length - 1];
    const parent = parentOf(doc, parts, op !== '$unset');
    if (parent === FALLBACK) return FALLBACK;
    if (parent === undefined) continue; // $unset of a missing path
    const current = hasOwn(parent, last) ? parent[last] : undefined;
    switch (op) {
      case '$set':
        parent[last] = clone(operand);
        break;
      case '$unset':
        delete parent[last];
        break;
      case '$inc':
        // 0 + operand: a missing field counts as 0 (so -0 comes out 0, as the general path gives it)
        if (current === undefined) parent[last] = 0 + (operand as number);
        else if (typeof current === 'number') parent[last] = current + (operand as number);
        else return FALLBACK;
        break;
      case '$min':
      case '$max': {
        if (current === undefined) {
          parent[last] = operand;
          break;
        }
        if (typeof current !== 'number' || Number.isNaN(current)) return FALLBACK;
        const n = operand as number;
        if (op === '$min' ? n < current : n > current) parent[last] = n;
        break;
      }
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// projections
// ---------------------------------------------------------------------------------------------

/** Projects a stored document (not modified), copying the values it keeps with `clone`. */
export type FastProjection = (doc: PlainObject, clone: <V>(v: V) => V) => PlainObject;

/**
 * Inclusion ({ a: 1, b: 1 }) or exclusion ({ a: 0 }) of top-level fields, with _id kept unless
 * { _id: 0 }; fields come out in the document's order, as MongoDB gives them. Undefined otherwise
 * (dotted paths, operators, mixed inclusion and exclusion): mingo projects those.
 */
export function compileFastProjection(projection: PlainObject): FastProjection | undefined {
  const keys = Object.keys(projection);
  if (keys.length === 0) return undefined;
  let include: boolean | undefined;
  let keepId = true;
  const fields = new Set<string>();
  for (const key of keys) {
    const v = projection[key];
    const on = v === 1 || v === true;
    if (!on && v !== 0 && v !== false) return undefined;
    if (key === '_id') {
      keepId = on;
      continue;
    }
    if (key.includes('.') || !plainPath(key)) return undefined;
    if (include === undefined) include = on;
    else if (include !== on) return undefined;
    fields.add(key);
  }
  // only _id named: { _id: 1 } keeps it alone, { _id: 0 } drops it
  if (include === undefined) include = keepId;
  // { _id: 1, b: 0 }: refused as a mixed projection, which the general path says
  else if (!include && projection._id !== undefined && keepId) return undefined;
  const keeps = include
    ? (key: string) => (key === '_id' ? keepId : fields.has(key))
    : (key: string) => (key === '_id' ? keepId : !fields.has(key));
  return (doc, clone) => {
    const out: PlainObject = {};
    for (const key of Object.keys(doc)) {
      if (doc[key] !== undefined && keeps(key)) out[key] = clone(doc[key]);
    }
    return out;
  };
}
