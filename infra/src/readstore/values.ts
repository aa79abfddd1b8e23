import { randomBytes } from 'node:crypto';
import type { Doc, Sort } from './port';

/* MongoDB's order, equality and copies of the port's JSON values. */

export type PlainObject = Record<string, unknown>;
export type Scalar = string | number | boolean;

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

/** MongoDB's BSON type order for the port's JSON values (null < numbers < strings < objects < arrays < booleans). */
function typeRank(value: unknown): number {
  if (value === undefined || value === null) return 1;
  if (typeof value === 'number') return 2;
  if (typeof value === 'string') return 3;
  if (typeof value === 'boolean') return 8;
  return typeof value === 'object' ? (Array.isArray(value) ? 5 : 4) : 12;
}

function compareObjects(a: PlainObject, b: PlainObject): number {
  // field by field in stored order: value type, then field name, then value (as MongoDB does; an
  // array is the object of its indexes)
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

/** Total order over stored values following MongoDB (null and missing equal; strings by UTF-16 code units). */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 2:
    case 3: {
      const x = a as number | string;
      const y = b as number | string;
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 4:
    case 5:
      return compareObjects(a as PlainObject, b as PlainObject);
    case 8:
      return a === b ? 0 : a === false ? -1 : 1;
    default:
      return 0;
  }
}

/** Strict structural equality (key order included): did an update change a document? */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((value, i) => deepEqual(value, b[i]));
  }
  const kx = Object.keys(a);
  const ky = Object.keys(b);
  if (kx.length !== ky.length) return false;
  return kx.every((key, i) => key === ky[i] && deepEqual((a as PlainObject)[key], (b as PlainObject)[key]));
}

export function cloneValue<V>(value: V): V {
  return typeof value === 'object' && value !== null ? (structuredClone(value) as V) : value;
}

export function newId(): string {
  return randomBytes(12).toString('hex');
}

/** Key of an empty array in sorts: MongoDB orders it before null. */
const EMPTY_ARRAY: unique symbol = Symbol('empty array');

/** Sort key of one field: an array by its smallest element ascending, its largest descending; missing is null. */
function sortKeyOf(doc: Doc, field: string, dir: 1 | -1): unknown {
  const value = doc[field];
  if (!Array.isArray(value)) return value ?? null;
  if (value.length === 0) return EMPTY_ARRAY;
  let best: unknown = value[0];
  for (const v of value) {
    const c = compareValues(v, best);
    if (dir === 1 ? c < 0 : c > 0) best = v;
  }
  return best;
}

/** Stable sort with MongoDB's rules: equal keys keep the order they came in. */
export function sortDocs<T extends Doc>(docs: T[], sort: Sort): T[] {
  const spec = Object.entries(sort);
  if (spec.length === 0) return docs;
  const keyed = docs.map((doc) => ({ doc, keys: spec.map(([field, dir]) => sortKeyOf(doc, field, dir)) }));
  keyed.sort((a, b) => {
    for (let j = 0; j < spec.length; j++) {
      const x = a.keys[j];
      const y = b.keys[j];
      const c =
        x === EMPTY_ARRAY || y === EMPTY_ARRAY
          ? Number(y === EMPTY_ARRAY) - Number(x === EMPTY_ARRAY)
          : compareValues(x, y);
      if (c !== 0) return c * spec[j][1];
    }
    return 0;
  });
  return keyed.map((k) => k.doc);
}
