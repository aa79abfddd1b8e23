import fc from 'fast-check';
import { Query, update as mingoUpdate } from 'mingo';
import { describe, expect, it } from 'vitest';
import { SqliteReadStore } from './sqlite-read-store';
import { UnsupportedQueryError } from './port';
import { applyUpdate, checkFilter, checkUpdate, compileFilter, compileProjection } from './query-language';

/*
 * Differential tests: over random documents, the language's own evaluation (what SqliteReadStore runs)
 * answers what mingo (which follows MongoDB) answers. mingo is only a test oracle here; the
 * contract suite runs the same language on FerretDB.
 */

const scalar = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.double({ min: -3, max: 3, noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('a', 'b', 'B', 'é', '', 'ab'),
  fc.boolean(),
);
const value = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.array(fc.oneof(scalar, fc.constant(null)), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.record({ x: scalar }, { noNullPrototype: true }) },
);
const doc = fc
  .record({ a: value, b: value, c: value }, { requiredKeys: [], noNullPrototype: true })
  .map((d) => ({ _id: 'd', ...d }));

const field = fc.constantFrom('a', 'b', 'c');
const bound = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('a', 'b', 'B', ''));
const eqOperand = fc.oneof({ weight: 6, arbitrary: scalar }, { weight: 1, arbitrary: fc.constant(null) });
const condition = fc.oneof(
  eqOperand,
  fc.record({ $ne: eqOperand }),
  fc.record({ $gt: bound }),
  fc.record({ $gte: bound }),
  fc.record({ $lt: bound }),
  fc.record({ $lte: bound }),
  fc.record({ $gte: bound, $lt: bound }),
  fc.record({ $in: fc.array(eqOperand, { maxLength: 3 }) }),
  fc.record({ $exists: fc.boolean() }),
  fc.record({ $regex: fc.constantFrom('^a', 'b', 'é$', '^$') }),
);
const clause = fc.dictionary(field, condition, { minKeys: 1, maxKeys: 2 });
const filter: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 4, arbitrary: clause },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.dictionary(field, condition, { maxKeys: 1 }), fc.array(clause, { minLength: 1, maxLength: 3 }))
      .map(([c, or]) => ({ ...c, $or: or })),
  },
);

const clone = <V>(v: V): V => structuredClone(v);

describe('filters of the language', () => {
  it('match exactly what mingo matches', () => {
    fc.assert(
      fc.property(filter, fc.array(doc, { minLength: 1, maxLength: 5 }), (f, docs) => {
        const matches = compileFilter(f);
        const query = new Query(f);
        for (const d of docs) expect(matches(d), JSON.stringify({ filter: f, doc: d })).toBe(query.test(d));
      }),
      { numRuns: 4000 },
    );
  });

  it('take the shapes projectors and queries use', () => {
    const guarded = compileFilter({ _id: 'x', $or: [{ _pos: { $exists: false } }, { _pos: { $lt: '0002' } }] });
    expect(guarded({ _id: 'x' })).toBe(true);
    expect(guarded({ _id: 'x', _pos: '0001' })).toBe(true);
    expect(guarded({ _id: 'x', _pos: '0002' })).toBe(false);
    expect(compileFilter({ ids: 'u' })({ ids: ['v', 'u'] })).toBe(true);
    expect(compileFilter({ parent_id: null })({})).toBe(true);
    expect(compileFilter({ email_lc: { $regex: 'lea\\.' } })({ email_lc: 'lea.b@x' })).toBe(true);
    expect(compileFilter({})({ a: 1 })).toBe(true);
  });

  it('refuse what is outside the language', () => {
    const refused = [
      { 'a.x': 1 },
      { a: { $nin: [1] } },
      { a: { $elemMatch: { x: 1 } } },
      { a: { $size: 1 } },
      { $and: [{ a: 1 }] },
      { a: { $not: { $gt: 1 } } },
      { a: { x: 1 } },
      { a: [1, 2] },
      { a: { $gt: null } },
      { a: { $gt: Number.NaN } },
      { a: { $regex: /x/ } },
      { a: { $exists: 1 } },
      { $or: [] },
      { $where: 'true' },
    ];
    for (const f of refused) expect(() => checkFilter(f as never), JSON.stringify(f)).toThrow(UnsupportedQueryError);
  });
});

const number = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -5, max: 5, noNaN: true }));
const updateDoc = fc
  .tuple(
    fc.dictionary(field, fc.oneof(scalar, fc.constant(null), fc.array(scalar, { maxLength: 2 })), { maxKeys: 1 }),
    fc.dictionary(field, number, { maxKeys: 1 }),
    fc.dictionary(field, number, { maxKeys: 1 }),
    fc.dictionary(field, number, { maxKeys: 1 }),
    fc.dictionary(field, scalar, { maxKeys: 1 }),
    fc.dictionary(field, scalar, { maxKeys: 1 }),
  )
  .map(([$set, $inc, $min, $max, $addToSet, $pull]) =>
    Object.fromEntries(
      Object.entries({ $set, $inc, $min, $max, $addToSet, $pull }).filter(([, ops]) => Object.keys(ops).length > 0),
    ),
  )
  // one operator per field (the language refuses two), and at least one
  .filter((u) => {
    const fields = Object.values(u).flatMap((ops) => Object.keys(ops));
    return fields.length > 0 && new Set(fields).size === fields.length;
  });

/** Arrays as read models keep them with $addToSet / $pull: sets (mingo mishandles duplicates). */
const set = fc.uniqueArray(scalar, { maxLength: 3, selector: (v) => JSON.stringify(v) });
/** Documents whose fields the updates can apply to (numbers for $inc/$min/$max, arrays for sets). */
const updatable = fc
  .record(
    {
      a: fc.oneof(number, set),
      b: fc.oneof(number, set),
    },
    { requiredKeys: [], noNullPrototype: true },
  )
  .map((d) => ({ _id: 'd', ...d }));

/** $inc of a non-number, $addToSet or $pull of a non-array field: MongoDB's errors. */
function mongoRefuses(d: Record<string, unknown>, u: Record<string, unknown>): boolean {
  const on = (op: string, bad: (v: unknown) => boolean) =>
    Object.keys((u[op] as Record<string, unknown> | undefined) ?? {}).some((f) => d[f] !== undefined && bad(d[f]));
  const notArray = (v: unknown) => !Array.isArray(v);
  return on('$inc', (v) => typeof v !== 'number') || on('$addToSet', notArray) || on('$pull', notArray);
}

function crossTypeMinMax(d: Record<string, unknown>, u: Record<string, unknown>): boolean {
  return ['$min', '$max'].some((op) =>
    Object.keys((u[op] as Record<string, unknown> | undefined) ?? {}).some(
      (f) => d[f] !== undefined && typeof d[f] !== 'number',
    ),
  );
}

function mingoOutcome(d: Record<string, unknown>, u: Record<string, unknown>): unknown {
  const general = clone(d);
  try {
    mingoUpdate(general, clone(u), [], undefined, { cloneMode: 'deep' });
  } catch {
    return 'error';
  }
  return general;
}

describe('updates of the language', () => {
  it('leave the document exactly as mingo does, or both refuse it (through SqliteReadStore)', async () => {
    const store = SqliteReadStore.temporary();
    let applied = 0;
    await fc.assert(
      fc.asyncProperty(updatable, updateDoc, async (d, u) => {
        const expected = mingoOutcome(d, u);
        const c = store.collection('c');
        await c.deleteMany({});
        await c.insertOne(clone(d));
        let actual: unknown;
        try {
          await c.updateOne({ _id: 'd' }, clone(u));
          actual = await c.findOne({ _id: 'd' });
          applied++;
        } catch (e) {
          if (e instanceof UnsupportedQueryError) throw e;
          actual = 'error';
        }
        const where = JSON.stringify({ doc: d, update: u });
        // MongoDB refuses these where mingo silently does nothing: the refusal is checked, not mingo
        if (mongoRefuses(d, u)) expect(actual, where).toBe('error');
        // $min/$max across types follow BSON's type order, which mingo does not: the language uses
        // them on numbers (contract suite: FerretDB)
        else if (crossTypeMinMax(d, u)) return;
        else expect(JSON.stringify(actual), where).toBe(JSON.stringify(expected));
      }),
      { numRuns: 3000 },
    );
    await store.close();
    expect(applied).toBeGreaterThan(1000);
  });

  it('never change the document they are given, and copy what they set', () => {
    const value = [1];
    const d = { _id: 1, n: 1 };
    const next = applyUpdate(d, { $set: { v: value }, $inc: { n: 2 }, $addToSet: { s: 'x' } }, false);
    value.push(2);
    expect(d).toEqual({ _id: 1, n: 1 });
    expect(next).toEqual({ _id: 1, n: 3, v: [1], s: ['x'] });
  });

  it('apply $setOnInsert only when inserting', () => {
    const u = { $setOnInsert: { a: 1 }, $set: { b: 2 } };
    expect(applyUpdate({ _id: 1 }, u, true)).toEqual({ _id: 1, a: 1, b: 2 });
    expect(applyUpdate({ _id: 1 }, u, false)).toEqual({ _id: 1, b: 2 });
  });

  it('refuse what is outside the language', () => {
    const refused = [
      { $unset: { a: '' } },
      { $push: { a: 1 } },
      { $set: { 'a.b': 1 } },
      { $inc: { a: '1' } },
      { $addToSet: { a: { $each: [1] } } },
      { $pull: { a: { $gt: 1 } } },
      { $set: { a: 1 }, $inc: { a: 1 } },
      {},
    ];
    for (const u of refused) expect(() => checkUpdate(u as never), JSON.stringify(u)).toThrow(UnsupportedQueryError);
  });
});

describe('projections of the language', () => {
  it('keep exactly the fields mingo keeps, in the document order', () => {
    const projection = fc.dictionary(fc.constantFrom('_id', 'a', 'b', 'c'), fc.constantFrom<0 | 1>(0, 1), {
      minKeys: 1,
      maxKeys: 3,
    });
    fc.assert(
      fc.property(doc, projection, (d, p) => {
        let project;
        try {
          project = compileProjection(p);
        } catch (e) {
          expect(e).toBeInstanceOf(UnsupportedQueryError);
          return;
        }
        const expected = new Query({}).find([clone(d)], p).all()[0];
        // same fields and values (mingo's key order differs from MongoDB's, which keeps the
        // document's: checked below)
        expect(project(d), JSON.stringify({ doc: d, projection: p })).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('projections keep the document order', () => {
  it('as MongoDB gives them', () => {
    expect(Object.keys(compileProjection({ b: 1, a: 1 })({ _id: 1, a: 1, c: 3, b: 2 }))).toEqual(['_id', 'a', 'b']);
  });
});

describe('both adapters refuse the same', () => {
  it('SqliteReadStore refuses a query outside the language before touching anything', async () => {
    const store = SqliteReadStore.temporary();
    const c = store.collection('c');
    await c.insertOne({ _id: 1, a: [1] });
    await expect(c.find({ 'a.0': 1 })).rejects.toThrow(UnsupportedQueryError);
    await expect(c.updateOne({ _id: 2 }, { $push: { a: 2 } })).rejects.toThrow(UnsupportedQueryError);
    await expect(c.find({}, { sort: { 'a.0': 1 } })).rejects.toThrow(UnsupportedQueryError);
    await expect(c.find({}, { projection: { a: 1, b: 0 } })).rejects.toThrow(UnsupportedQueryError);
    expect(await c.find({})).toEqual([{ _id: 1, a: [1] }]);
  });
});
