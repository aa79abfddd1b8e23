import fc from 'fast-check';
import { Query, update as mingoUpdate } from 'mingo';
import { describe, expect, it } from 'vitest';
import { FALLBACK, applyFastUpdate, compileFastFilter, compileFastProjection } from './fast-paths';

/*
 * Differential tests: wherever the fast paths answer (not FALLBACK), they answer what mingo (the
 * general path of MemoryReadStore, which follows MongoDB) answers, over random documents.
 */

const scalar = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('a', 'b', 'B', 'é', ''), fc.boolean());
const leaf = fc.oneof(
  { weight: 5, arbitrary: scalar },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant(Number.NaN) },
  { weight: 1, arbitrary: fc.double({ min: -3, max: 3, noNaN: true }) },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 3 }) },
);
const nested = fc.record({ x: leaf, y: leaf }, { requiredKeys: [], noNullPrototype: true });
const value = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 2, arbitrary: nested },
  { weight: 1, arbitrary: fc.array(nested, { maxLength: 2 }) },
);
const doc = fc
  .record({ a: value, b: value, c: value }, { requiredKeys: [], noNullPrototype: true })
  .map((d) => ({ _id: 'd', ...d }));

const path = fc.constantFrom('a', 'b', 'c', 'a.x', 'b.y', 'c.x', 'a.x.y');
const operand = fc.oneof(
  { weight: 12, arbitrary: scalar },
  fc.constant(null),
  fc.constant(Number.NaN),
  fc.constant({ x: 1 }),
);
const condition = fc.oneof(
  operand,
  fc.record({ $eq: operand }),
  fc.record({ $ne: operand }),
  fc.record({ $gt: operand }),
  fc.record({ $gte: operand }),
  fc.record({ $lt: operand }),
  fc.record({ $lte: operand }),
  fc.record({ $in: fc.array(operand, { maxLength: 3 }) }),
  fc.record({ $nin: fc.array(operand, { maxLength: 3 }) }),
  fc.record({ $exists: fc.oneof(fc.boolean(), fc.constant(1)) }),
  fc.record({ $gte: scalar, $lt: scalar }),
);
const clause = fc.dictionary(path, condition, { minKeys: 1, maxKeys: 2 });
const filter: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 4, arbitrary: clause },
  { weight: 1, arbitrary: fc.record({ $or: fc.array(clause, { minLength: 1, maxLength: 3 }) }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(clause, fc.array(clause, { minLength: 1, maxLength: 2 }))
      .map(([c, and]) => ({ ...c, $and: and })),
  },
);

const clone = <V>(v: V): V => structuredClone(v);

describe('fast filters', () => {
  it('match exactly what mingo matches, or hand over', () => {
    let decided = 0;
    fc.assert(
      fc.property(filter, fc.array(doc, { minLength: 1, maxLength: 5 }), (f, docs) => {
        const fast = compileFastFilter(f);
        let query: Query;
        try {
          query = new Query(f);
        } catch {
          // an invalid filter for mingo must not be one the fast path takes
          expect(fast).toBeUndefined();
          return;
        }
        if (!fast) return;
        for (const d of docs) {
          const r = fast(d);
          if (r === FALLBACK) continue;
          decided++;
          expect(r, JSON.stringify({ filter: f, doc: d })).toBe(query.test(d));
        }
      }),
      { numRuns: 3000 },
    );
    // the subset must actually be exercised
    expect(decided).toBeGreaterThan(3000);
  });

  it('takes the shapes projectors use', () => {
    expect(
      compileFastFilter({ _id: 'x', $or: [{ _pos: { $exists: false } }, { _pos: { $lt: '0001' } }] }),
    ).toBeDefined();
    expect(compileFastFilter({ user_id: 'u', read: false })).toBeDefined();
    expect(compileFastFilter({ tags: { $in: ['a', 'b'] } })).toBeDefined();
    expect(compileFastFilter({})?.({})).toBe(true);
    // outside the subset: mingo decides
    expect(compileFastFilter({ a: null })).toBeUndefined();
    expect(compileFastFilter({ a: { $regex: 'x' } })).toBeUndefined();
    expect(compileFastFilter({ 'a.$': 1 })).toBeUndefined();
    expect(compileFastFilter({ __proto__: 1 } as never)).toBeDefined();
    expect(compileFastFilter({ 'a.__proto__': 1 })).toBeUndefined();
  });

  it('hands over a document whose path crosses an array', () => {
    const m = compileFastFilter({ 'a.x': 1 });
    expect(m?.({ a: [{ x: 1 }] })).toBe(FALLBACK);
    expect(m?.({ a: { x: 1 } })).toBe(true);
    expect(m?.({ a: { x: [2, 1] } })).toBe(true);
    expect(m?.({ a: 'x' })).toBe(false);
  });
});

const updatePath = fc.constantFrom('a', 'b', 'c', 'b.y', 'c.x', 'c.y', 'd.z');
const updateValue = fc.oneof(scalar, fc.constant(null), fc.constant({ z: 1 }), fc.array(scalar, { maxLength: 2 }));
const number = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -5, max: 5, noNaN: true }));
const updateDoc = fc
  .record(
    {
      $set: fc.dictionary(updatePath, updateValue, { maxKeys: 2 }),
      $unset: fc.dictionary(updatePath, fc.constant(''), { maxKeys: 2 }),
      $inc: fc.dictionary(updatePath, number, { maxKeys: 2 }),
      $min: fc.dictionary(updatePath, number, { maxKeys: 1 }),
      $max: fc.dictionary(updatePath, number, { maxKeys: 1 }),
    },
    { requiredKeys: [], noNullPrototype: true },
  )
  .filter((u) => Object.values(u).some((ops) => Object.keys(ops).length > 0))
  // mingo wants every operator it is given to name at least one field
  .map((u) => Object.fromEntries(Object.entries(u).filter(([, ops]) => Object.keys(ops).length > 0)));

describe('fast updates', () => {
  it('leave the document exactly as mingo does, or hand over', () => {
    let decided = 0;
    fc.assert(
      fc.property(doc, updateDoc, (d, u) => {
        const fast = clone(d);
        const r = applyFastUpdate(fast, u, clone);
        if (r === FALLBACK) return;
        decided++;
        const general = clone(d);
        mingoUpdate(general, clone(u), [], undefined, { cloneMode: 'deep' });
        expect(JSON.stringify(fast), JSON.stringify({ doc: d, update: u })).toBe(JSON.stringify(general));
        expect(fast).toEqual(general);
      }),
      { numRuns: 6000 },
    );
    expect(decided).toBeGreaterThan(500);
  });

  it('hands over what it does not do', () => {
    expect(applyFastUpdate({ a: 1 }, { $push: { b: 1 } }, clone)).toBe(FALLBACK);
    expect(applyFastUpdate({ a: 1 }, { $set: { _id: 2 } }, clone)).toBe(FALLBACK);
    expect(applyFastUpdate({ a: 1 }, { $set: { a: 2 }, $inc: { a: 1 } }, clone)).toBe(FALLBACK);
    expect(applyFastUpdate({ a: 1 }, { $set: { a: 2, 'a.b': 1 } }, clone)).toBe(FALLBACK);
    expect(applyFastUpdate({ a: 'x' }, { $inc: { a: 1 } }, clone)).toBe(FALLBACK);
    expect(applyFastUpdate({ a: [1] }, { $set: { 'a.0': 2 } }, clone)).toBe(FALLBACK);
  });

  it('creates missing objects on the way and copies what it sets', () => {
    const value = { deep: [1] };
    const d: Record<string, unknown> = { _id: 1 };
    expect(applyFastUpdate(d, { $set: { 'p.q': value }, $inc: { 'p.n': 2 }, $max: { m: 3 } }, clone)).toBe(true);
    expect(d).toEqual({ _id: 1, p: { q: { deep: [1] }, n: 2 }, m: 3 });
    value.deep.push(2);
    expect(d).toEqual({ _id: 1, p: { q: { deep: [1] }, n: 2 }, m: 3 });
  });
});

const projectionValue = fc.constantFrom<number | boolean | string>(1, 0, true, false, 1, 0, 'x');
const projection = fc.dictionary(fc.constantFrom('_id', 'a', 'b', 'c', 'a.x', '$x'), projectionValue, {
  minKeys: 1,
  maxKeys: 3,
});

describe('fast projections', () => {
  it('keep exactly the fields mingo keeps, or hand over', () => {
    let decided = 0;
    fc.assert(
      fc.property(doc, projection, (d, p) => {
        const fast = compileFastProjection(p);
        let expected: unknown;
        try {
          expected = new Query({}).find([clone(d)], p).all()[0];
        } catch {
          // a projection mingo refuses is not one the fast path takes
          expect(fast).toBeUndefined();
          return;
        }
        if (!fast) return;
        decided++;
        const stored = clone(d);
        const projected = fast(stored, clone);
        expect(projected, JSON.stringify({ doc: d, projection: p })).toEqual(expected);
        // a copy: changing it leaves the stored document alone
        expect(stored).toEqual(d);
      }),
      { numRuns: 3000 },
    );
    expect(decided).toBeGreaterThan(500);
  });

  it('gives the fields in the document order, _id where the document has it', () => {
    const project = compileFastProjection({ b: 1, a: 1 })!;
    expect(Object.keys(project({ _id: 1, a: 1, c: 3, b: 2 }, clone))).toEqual(['_id', 'a', 'b']);
    expect(compileFastProjection({ 'a.x': 1 })).toBeUndefined();
    expect(compileFastProjection({ a: 1, b: 0 })).toBeUndefined();
    expect(compileFastProjection({ a: { $slice: 1 } })).toBeUndefined();
    expect(compileFastProjection({ _id: 0 })!({ _id: 1, a: 2 }, clone)).toEqual({ a: 2 });
    expect(compileFastProjection({ _id: 1 })!({ _id: 1, a: 2 }, clone)).toEqual({ _id: 1 });
  });
});
