import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryReadStore } from './memory-read-store';
import type { Doc, Filter, FindOptions, ReadStore, Update } from './port';
import { ScratchStore } from './scratch-store';
import { GUARDED_WRITES, type GuardedWrites } from './write-behind';

/*
 * ScratchStore answers the projectors' operations as MemoryReadStore does: the same operations,
 * drawn at random, run on both; every answer (documents, counts, errors) and, at the end, every
 * document (fields in the same order) must be the same, after the scratch store's contents are
 * taken over by a MemoryReadStore with the same indexes.
 */

const COLLECTIONS = ['a', 'b'] as const;
const ids = fc.constantFrom<string | number>(1, 2, 3, 4, 5, 'x', 'y', 'z');
const users = fc.constantFrom('u1', 'u2', 'u3');
const small = fc.integer({ min: -3, max: 6 });
const position = fc.integer({ min: 1, max: 40 }).map((n) => String(n).padStart(6, '0'));
const scalar = fc.oneof(users, small, fc.boolean(), fc.constant(null));

const setFields = fc.record(
  {
    user: users,
    seen: fc.constantFrom(0, 1),
    n: small,
    label: fc.oneof(fc.string({ maxLength: 3 }), fc.constant(null)),
    tags: fc.array(users, { maxLength: 3 }),
    nested: fc.record({ k: users, v: small }),
  },
  { requiredKeys: [] },
);

/** updates that often change nothing (a matched document not modified) */
const noOp = fc.constantFrom<Update>(
  { $inc: { count: 0 } },
  { $set: { seen: 0 } },
  { $max: { top: -3 } },
  { $min: { low: 6 } },
  { $set: { tags: ['u1'] } },
);

const anyUpdate: fc.Arbitrary<Update> = fc
  .record(
    {
      $set: setFields,
      $inc: fc.record({ count: small, n2: small }, { requiredKeys: [] }),
      $max: fc.record({ top: small }, { requiredKeys: [] }),
      $min: fc.record({ low: fc.oneof(small, users) }, { requiredKeys: [] }),
      $addToSet: fc.record({ set: users }, { requiredKeys: [] }),
      $pull: fc.record({ tags: users }, { requiredKeys: [] }),
      $setOnInsert: fc.record({ born: position }, { requiredKeys: [] }),
    },
    { requiredKeys: [] },
  )
  .map((u) => {
    // the language: a field under one operator only, no empty update
    const out: Update = {};
    const seen = new Set<string>();
    for (const [op, fields] of Object.entries(u)) {
      const kept = Object.fromEntries(Object.entries(fields).filter(([f]) => !seen.has(f) && seen.add(f)));
      if (Object.keys(kept).length > 0) out[op] = kept;
    }
    return Object.keys(out).length > 0 ? out : { $set: { n: 0 } };
  });

const update = fc.oneof({ weight: 3, arbitrary: anyUpdate }, { weight: 1, arbitrary: noOp });

const filter: fc.Arbitrary<Filter> = fc.oneof(
  ids.map((id) => ({ _id: id })),
  fc.array(ids, { maxLength: 4 }).map((list) => ({ _id: { $in: list } })),
  users.map((user) => ({ user })),
  fc.tuple(users, fc.constantFrom(0, 1)).map(([user, seen]) => ({ user, seen })),
  fc.tuple(users, small).map(([user, n]) => ({ user, n: { $lte: n } })),
  users.map((u) => ({ tags: u })),
  fc.tuple(ids, users).map(([id, user]) => ({ _id: id, user })),
  fc.tuple(users, scalar).map(([user, label]) => ({ $or: [{ user }, { label }] })),
  fc.constant({ count: { $exists: true } }),
  fc.constant({}),
);

/**
 * For the writes to one document among the matches: which one the port leaves open (MemoryReadStore
 * takes the first in the order of the index it reads), so these filters name it.
 */
const oneFilter: fc.Arbitrary<Filter> = fc.oneof(
  ids.map((id) => ({ _id: id })),
  fc.tuple(ids, users).map(([id, user]) => ({ _id: id, user })),
  fc.tuple(ids, small).map(([id, n]) => ({ _id: id, n: { $gte: n } })),
);

const projection = fc.option(
  fc.constantFrom<FindOptions['projection']>({ user: 1 }, { user: 1, n: 1, _id: 0 }, { tags: 0 }, { _id: 1 }),
  { nil: undefined },
);

const doc: fc.Arbitrary<Doc> = fc.tuple(ids, setFields).map(([id, fields]) => ({ _id: id, ...fields }));

type Op =
  | { kind: 'applyOnce'; c: string; id: string | number; pos: string; update: Update; upsert: boolean; guard: string }
  | { kind: 'replaceIfNewer'; c: string; doc: Doc; pos: string }
  | { kind: 'updateOne' | 'updateMany'; c: string; filter: Filter; update: Update; upsert: boolean }
  | { kind: 'deleteOne'; c: string; filter: Filter }
  | { kind: 'replaceOne'; c: string; filter: Filter; doc: Doc; upsert: boolean }
  | { kind: 'insertOne'; c: string; doc: Doc }
  | { kind: 'deleteMany' | 'countDocuments'; c: string; filter: Filter }
  | { kind: 'find'; c: string; filter: Filter; projection: FindOptions['projection']; sorted: boolean; limit: number }
  | { kind: 'findOne'; c: string; filter: Filter; projection: FindOptions['projection'] }
  | { kind: 'bulkWrite'; c: string; docs: Doc[]; filter: Filter }
  | { kind: 'drop'; c: string };

const coll = fc.constantFrom(...COLLECTIONS);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('applyOnce' as const),
      c: coll,
      id: ids,
      pos: position,
      update,
      upsert: fc.boolean(),
      guard: fc.constantFrom('', 'g'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('replaceIfNewer' as const), c: coll, doc, pos: position }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('updateMany' as const), c: coll, filter, update, upsert: fc.boolean() }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('updateOne' as const),
      c: coll,
      filter: oneFilter,
      update,
      upsert: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('replaceOne' as const),
      c: coll,
      filter: oneFilter,
      doc,
      upsert: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('insertOne' as const), c: coll, doc }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom('deleteMany' as const, 'countDocuments' as const),
      c: coll,
      filter,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteOne' as const), c: coll, filter: oneFilter }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('find' as const),
      c: coll,
      filter,
      projection,
      sorted: fc.boolean(),
      limit: fc.constantFrom(0, 1, 2),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('findOne' as const), c: coll, filter, projection }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('bulkWrite' as const),
      c: coll,
      docs: fc.array(doc, { maxLength: 3 }),
      filter,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), c: coll }) },
);

/** What an operation answered, as text: unordered results sorted by their text, an error by its class. */
async function run(store: ReadStore, o: Op): Promise<string> {
  const c = store.collection(o.c);
  const text = (v: unknown) => JSON.stringify(v) ?? 'undefined';
  // by the whole document's text, not by _id: a projection may leave the _id out
  const unordered = (docs: Doc[]) => text(docs.map(text).sort());
  // an upsert whose filter does not fix _id makes a random one
  const fixesId = 'filter' in o && (typeof o.filter._id === 'string' || typeof o.filter._id === 'number');
  const upsert = 'upsert' in o && o.upsert && (o.kind === 'replaceOne' || fixesId);
  try {
    switch (o.kind) {
      case 'applyOnce': {
        // the projections' guarded write, as write-once.ts makes it: one step where the collection
        // offers it (ScratchStore), the filters otherwise (MemoryReadStore's collection)
        const guard = o.guard ? `_pos_${o.guard}` : '_pos';
        const guarded = { ...o.update, $set: { ...(o.update.$set as object), [guard]: o.pos } };
        const oneStep = (c as unknown as { [GUARDED_WRITES]?: GuardedWrites })[GUARDED_WRITES];
        if (oneStep) return text(await oneStep.applyOnce(o.id, guard, o.pos, guarded, o.upsert));
        const f = { _id: o.id, $or: [{ [guard]: { $exists: false } }, { [guard]: { $lt: o.pos } }] };
        if ((await c.updateOne(f, guarded)).matchedCount > 0) return text(true);
        if (!o.upsert || (await c.findOne({ _id: o.id }))) return text(false);
        await c.updateOne(f, guarded, { upsert: true });
        return text(true);
      }
      case 'replaceIfNewer': {
        const d = { ...o.doc, _pos: o.pos };
        const oneStep = (c as unknown as { [GUARDED_WRITES]?: GuardedWrites })[GUARDED_WRITES];
        if (oneStep) return text(await oneStep.replaceIfNewer(d));
        const f = { _id: d._id, $or: [{ _pos: { $exists: false } }, { _pos: { $lt: d._pos } }] };
        if ((await c.replaceOne(f, d)).matchedCount > 0) return text(true);
        if (await c.findOne({ _id: d._id })) return text(false);
        await c.replaceOne(f, d, { upsert: true });
        return text(true);
      }
      case 'updateOne':
        return text(await c.updateOne(o.filter, o.update, { upsert }));
      case 'updateMany':
        return text(await c.updateMany(o.filter, o.update, { upsert }));
      case 'replaceOne':
        return text(await c.replaceOne(o.filter, o.doc, { upsert: o.upsert }));
      case 'insertOne':
        return text(await c.insertOne(o.doc));
      case 'deleteOne':
        return text(await c.deleteOne(o.filter));
      case 'deleteMany':
        return text(await c.deleteMany(o.filter));
      case 'countDocuments':
        return text(await c.countDocuments(o.filter));
      case 'find':
        if (o.sorted)
          return text(await c.find(o.filter, { projection: o.projection, sort: { n: -1, _id: 1 }, limit: o.limit }));
        return unordered(await c.find(o.filter, { projection: o.projection }));
      case 'findOne': {
        // which document among several is not defined: only by _id, or its presence
        const found = await c.findOne(o.filter, { projection: o.projection });
        return '_id' in o.filter ? text(found) : text(found !== null);
      }
      case 'bulkWrite':
        return text(
          await c.bulkWrite([
            ...o.docs.map((d) => ({ replaceOne: { filter: { _id: d._id }, replacement: d, upsert: true } })),
            { updateMany: { filter: o.filter, update: { $inc: { count: 1 } } } },
            ...o.docs.slice(0, 1).map((d) => ({ insertOne: { document: d } })),
          ]),
        );
      case 'drop':
        return text(await c.drop());
    }
  } catch (e) {
    return `error ${(e as Error).name}`;
  }
}

/** Every document of every collection, sorted by _id, fields in stored order. */
async function dump(store: ReadStore): Promise<string> {
  const out: Record<string, Doc[]> = {};
  for (const name of await store.listCollections())
    out[name] = await store.collection(name).find({}, { sort: { _id: 1 } });
  return JSON.stringify(out);
}

describe('ScratchStore', () => {
  it('answers the operations projectors use as MemoryReadStore does, and leaves the same documents', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 60 }), async (ops) => {
        const memory = new MemoryReadStore();
        const scratch = new ScratchStore();
        for (const store of [memory, scratch] as ReadStore[]) {
          await store.collection('a').createIndex({ key: { user: 1, n: -1 } });
          await store.collection('b').createIndex({ key: { tags: 1 } });
        }
        for (const o of ops) expect(await run(scratch, o), JSON.stringify(o)).toBe(await run(memory, o));
        expect(await scratch.listCollections()).toEqual(await memory.listCollections());
        const filled = new MemoryReadStore();
        const before = await dump(scratch);
        filled.fillFromScratch(scratch);
        expect(await dump(filled)).toBe(await dump(memory));
        expect(await dump(filled)).toBe(before);
        for (const name of await memory.listCollections())
          expect(filled.indexNames(name)).toEqual(memory.indexNames(name));
        // taken over: the scratch store is empty, the filled store answers through its indexes
        expect(await scratch.listCollections()).toEqual([]);
        if (filled.indexNames('a').length > 0) expect(filled.explain('a', { user: 'u1' }).plan).toBe('IXSCAN');
      }),
      { numRuns: 1000 },
    );
  }, 120_000);

  it('hands out copies, and keeps copies of what it is given', async () => {
    const scratch = new ScratchStore();
    const c = scratch.collection('c');
    const given = { _id: 1, tags: ['a'], nested: { k: 1 } };
    await c.insertOne(given);
    given.tags.push('b');
    given.nested.k = 2;
    const read = (await c.findOne({ _id: 1 }))!;
    expect(read).toEqual({ _id: 1, tags: ['a'], nested: { k: 1 } });
    (read.tags as string[]).push('c');
    const set = { v: ['x'] };
    await c.updateOne({ _id: 1 }, { $set: { list: set.v } });
    set.v.push('y');
    expect(await c.find({ tags: 'a' })).toEqual([{ _id: 1, tags: ['a'], nested: { k: 1 }, list: ['x'] }]);
  });

  it('finds by a field through a map it keeps up to date, and a refused query changes nothing', async () => {
    const scratch = new ScratchStore();
    const c = scratch.collection('c');
    for (let i = 0; i < 20; i++) await c.insertOne({ _id: i, user: `u${i % 3}`, n: i });
    expect((await c.find({ user: 'u1' })).map((d) => d._id)).toEqual([1, 4, 7, 10, 13, 16, 19]);
    await c.updateOne({ _id: 4 }, { $set: { user: 'u2' } });
    await c.updateMany({ user: 'u1', n: { $gt: 10 } }, { $set: { user: 'u0' } });
    await c.deleteOne({ _id: 7 });
    await c.replaceOne({ _id: 1 }, { _id: 1, user: 'u1', n: 100 });
    expect((await c.find({ user: 'u1' })).map((d) => d._id).sort((a, b) => Number(a) - Number(b))).toEqual([1, 10]);
    expect(await c.countDocuments({ user: 'u0' })).toBe(10);
    await expect(c.updateMany({ user: 'u2' }, { $inc: { user: 1 } })).rejects.toThrow();
    expect(await c.countDocuments({ user: 'u2' })).toBe(7);
    await expect(c.find({ user: { $where: 1 } })).rejects.toThrow('outside');
  });

  it('refuses a replacement that changes an _id, as MemoryReadStore does (the rules both share)', async () => {
    const c = new ScratchStore().collection('c');
    await c.insertOne({ _id: 1, v: 1 });
    await expect(c.replaceOne({ _id: 1 }, { _id: 2, v: 2 })).rejects.toThrow('altered');
    await expect(c.replaceOne({ _id: 'a' }, { _id: 'b', v: 3 }, { upsert: true })).rejects.toThrow('cannot be changed');
    expect(await c.find({})).toEqual([{ _id: 1, v: 1 }]);
    await c.replaceOne({ _id: 'a' }, { v: 4 } as unknown as Doc, { upsert: true });
    expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', v: 4 });
  });

  it('counts an update that leaves a document as it was as matched, not modified', async () => {
    const c = new ScratchStore().collection('c');
    await c.insertOne({ _id: 1, count: 2, top: 5, tags: ['a'], nested: { k: 1 } });
    const unchanged = { matchedCount: 1, modifiedCount: 0, upsertedCount: 0 };
    for (const update of [
      { $inc: { count: 0 } },
      { $max: { top: 4 } },
      { $min: { top: 5 } },
      { $set: { tags: ['a'], nested: { k: 1 } } },
      { $addToSet: { tags: 'a' } },
      { $pull: { tags: 'b' } },
      { $setOnInsert: { born: 1 } },
    ])
      expect(await c.updateOne({ _id: 1 }, update)).toEqual(unchanged);
    expect(await c.updateOne({ _id: 1 }, { $inc: { count: 1 } })).toEqual({ ...unchanged, modifiedCount: 1 });
  });
});
