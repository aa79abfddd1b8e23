import fc from 'fast-check';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DuplicateKeyError,
  UnsupportedQueryError,
  type Doc,
  type Filter,
  type FindOptions,
  type ReadCollection,
  type ReadStore,
  type Sort,
  type Update,
} from './port';

export interface ReadStoreContractOptions {
  /** fast-check runs of the index-vs-scan property (each run is a few dozen operations) */
  propertyRuns?: number;
}

/** Adapters expose this (not part of the port): whether withTransaction really isolates and rolls back. */
function supportsTransactions(store: ReadStore): boolean {
  return (store as { supportsTransactions?: unknown }).supportsTransactions === true;
}

/** ids in a fixed order, for results whose order the query does not define */
function idSet(docs: Doc[]): Array<string | number> {
  return docs.map((d) => d._id).sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
}

function ids(docs: Doc[]): Array<string | number> {
  return docs.map((d) => d._id);
}

const PEOPLE: Doc[] = [
  {
    _id: 1,
    name: 'alice',
    age: 30,
    tags: ['a', 'b'],
    score: 10,
    profile: { city: 'Paris', langs: ['fr', 'en'] },
    items: [
      { k: 'x', v: 1 },
      { k: 'y', v: 6 },
    ],
  },
  {
    _id: 2,
    name: 'bob',
    age: 25,
    tags: ['b'],
    score: null,
    profile: { city: 'Lyon', langs: ['fr'] },
    items: [{ k: 'x', v: 7 }],
  },
  { _id: 3, name: 'Carol', age: 35, tags: [], profile: { city: 'Paris' }, items: [] },
  { _id: 4, name: 'dave', tags: ['c', 'a', 'd'], score: 3 },
];

/**
 * Every ReadStore adapter must pass this suite. `make` gives a fresh, empty store; `cleanup` closes
 * it and removes what it wrote.
 */
export function readStoreContract(
  name: string,
  make: () => Promise<{ store: ReadStore; cleanup: () => Promise<void> }>,
  options: ReadStoreContractOptions = {},
): void {
  describe(`ReadStore contract: ${name}`, () => {
    let store: ReadStore;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await make());
    });

    afterEach(async () => {
      await cleanup();
    });

    async function people(): Promise<ReadCollection> {
      const coll = store.collection('people');
      for (const doc of PEOPLE) await coll.insertOne(structuredClone(doc));
      return coll;
    }

    describe('filters', () => {
      const cases: Array<[string, Filter, Array<string | number>]> = [
        ['empty filter', {}, [1, 2, 3, 4]],
        ['implicit equality', { name: 'bob' }, [2]],
        ['$ne (missing fields match)', { age: { $ne: 30 } }, [2, 3, 4]],
        ['$gt', { age: { $gt: 25 } }, [1, 3]],
        ['$gte with $lt', { age: { $gte: 25, $lt: 35 } }, [1, 2]],
        ['$lte', { age: { $lte: 30 } }, [1, 2]],
        ['ranges do not cross types', { name: { $gt: 5 } }, []],
        ['$in', { name: { $in: ['bob', 'dave', 'zed'] } }, [2, 4]],
        ['$in on an array field', { tags: { $in: ['d', 'x'] } }, [4]],
        ['$in with nothing', { name: { $in: [] } }, []],
        ['$exists false', { age: { $exists: false } }, [4]],
        ['$exists true counts null', { score: { $exists: true } }, [1, 2, 4]],
        ['null matches null and missing', { score: null }, [2, 3]],
        ['$ne null: present and not null', { score: { $ne: null } }, [1, 4]],
        ['$or', { $or: [{ age: { $lt: 26 } }, { name: 'dave' }] }, [2, 4]],
        ['$or next to other fields', { tags: 'a', $or: [{ score: { $gt: 5 } }, { age: { $exists: false } }] }, [1, 4]],
        ['$regex (case matters)', { name: { $regex: '^c' } }, []],
        ['$regex on a string field', { name: { $regex: 'o' } }, [2, 3]],
        ['$regex on an array of strings', { tags: { $regex: '^d' } }, [4]],
        ['array membership', { tags: 'a' }, [1, 4]],
        ['ranges on array elements', { tags: { $gt: 'c' } }, [4]],
        ['several conditions on one document', { name: { $in: ['alice', 'bob'] }, age: { $gte: 30 }, tags: 'b' }, [1]],
      ];
      for (const [title, filter, expected] of cases) {
        it(title, async () => {
          const coll = await people();
          expect(idSet(await coll.find(filter))).toEqual(idSet(expected.map((_id) => ({ _id }))));
          expect(await coll.countDocuments(filter)).toBe(expected.length);
        });
      }

      it("refuses what is outside the port's language, on a collection or a missing one", async () => {
        const coll = await people();
        const refused: Filter[] = [
          { age: { $eq: 30 } },
          { name: { $nin: ['bob'] } },
          { $and: [{ tags: 'a' }] },
          { age: { $not: { $gt: 26 } } },
          { name: { $regex: '^c', $options: 'i' } },
          { name: /^[ab]/ },
          { items: { $elemMatch: { k: 'x' } } },
          { tags: { $size: 1 } },
          { 'profile.city': 'Paris' },
          { 'tags.0': 'c' },
          { tags: ['a', 'b'] },
          { profile: { city: 'Paris' } },
        ];
        for (const filter of refused) {
          await expect(coll.find(filter), JSON.stringify(filter)).rejects.toThrow(UnsupportedQueryError);
          await expect(coll.countDocuments(filter)).rejects.toThrow(UnsupportedQueryError);
          await expect(coll.deleteOne(filter)).rejects.toThrow(UnsupportedQueryError);
          await expect(store.collection('missing').findOne(filter)).rejects.toThrow(UnsupportedQueryError);
        }
        expect(await coll.countDocuments()).toBe(PEOPLE.length);
      });

      it('findOne returns null when nothing matches, or on a missing collection', async () => {
        const coll = await people();
        expect(await coll.findOne({ name: 'nobody' })).toBeNull();
        expect(await store.collection('nothing-here').findOne({})).toBeNull();
        expect(await store.collection('nothing-here').find({})).toEqual([]);
        expect(await store.collection('nothing-here').countDocuments()).toBe(0);
      });

      it('numbers and strings are different ids', async () => {
        const coll = store.collection('ids');
        await coll.insertOne({ _id: 1, v: 'number' });
        await coll.insertOne({ _id: '1', v: 'string' });
        expect((await coll.findOne({ _id: 1 }))?.v).toBe('number');
        expect((await coll.findOne({ _id: '1' }))?.v).toBe('string');
        expect(idSet(await coll.find({ _id: { $in: [1, '1', 2] } }))).toEqual(idSet([{ _id: 1 }, { _id: '1' }]));
      });
    });

    describe('update operators', () => {
      async function updated(doc: Doc, update: Update): Promise<Doc | null> {
        const coll = store.collection('u');
        await coll.insertOne(doc);
        const result = await coll.updateOne({ _id: doc._id }, update);
        expect(result.matchedCount).toBe(1);
        return coll.findOne({ _id: doc._id });
      }

      it('$set replaces or adds top-level fields, with any value', async () => {
        expect(
          await updated(
            { _id: 'a', n: 1, profile: { city: 'Lyon', zip: '69' } },
            { $set: { n: 2, profile: { city: 'Nice' }, list: [1, { x: null }], none: null } },
          ),
        ).toEqual({ _id: 'a', n: 2, profile: { city: 'Nice' }, list: [1, { x: null }], none: null });
      });

      it('$inc adds, and sets a missing field to the amount', async () => {
        expect(await updated({ _id: 'a', likes: 5 }, { $inc: { likes: -2, views: 3 } })).toEqual({
          _id: 'a',
          likes: 3,
          views: 3,
        });
      });

      it('$pull removes every element equal to the value', async () => {
        expect(await updated({ _id: 'a', tags: ['a', 'b', 'a'] }, { $pull: { tags: 'a' } })).toEqual({
          _id: 'a',
          tags: ['b'],
        });
        expect(await updated({ _id: 'b', n: [1, 5, 2] }, { $pull: { n: 9, missing: 1 } })).toEqual({
          _id: 'b',
          n: [1, 5, 2],
        });
      });

      it('$addToSet adds only what is absent, and creates the array', async () => {
        expect(await updated({ _id: 'a', tags: ['a'] }, { $addToSet: { tags: 'a' } })).toEqual({
          _id: 'a',
          tags: ['a'],
        });
        expect(await updated({ _id: 'b', tags: ['a'] }, { $addToSet: { tags: 'b' } })).toEqual({
          _id: 'b',
          tags: ['a', 'b'],
        });
        expect(await updated({ _id: 'c' }, { $addToSet: { tags: 7 } })).toEqual({ _id: 'c', tags: [7] });
      });

      it('refuses update operators and shapes outside the language, changing nothing', async () => {
        const coll = store.collection('u');
        await coll.insertOne({ _id: 'a', n: 1, list: [1], profile: { city: 'Lyon' } });
        const refused: Update[] = [
          { $unset: { n: '' } },
          { $push: { list: 2 } },
          { $pullAll: { list: [1] } },
          { $rename: { n: 'm' } },
          { $mul: { n: 2 } },
          { $set: { 'profile.city': 'Nice' } },
          { $inc: { n: '1' } },
          { $addToSet: { list: { $each: [2, 3] } } },
          { $pull: { list: { $gte: 1 } } },
          { $set: { n: 2 }, $inc: { n: 1 } },
          {},
        ];
        for (const update of refused) {
          await expect(coll.updateOne({ _id: 'a' }, update), JSON.stringify(update)).rejects.toThrow(
            UnsupportedQueryError,
          );
          await expect(coll.updateMany({}, update, { upsert: true })).rejects.toThrow(UnsupportedQueryError);
        }
        expect(await coll.find({})).toEqual([{ _id: 'a', n: 1, list: [1], profile: { city: 'Lyon' } }]);
      });

      it('$min and $max replace only when lower / higher (numbers or strings), and set missing fields', async () => {
        expect(
          await updated({ _id: 'a', lo: 5, hi: 5 }, { $min: { lo: 3, missingLo: 9 }, $max: { hi: 4, missingHi: 1 } }),
        ).toEqual({
          _id: 'a',
          lo: 3,
          hi: 5,
          missingLo: 9,
          missingHi: 1,
        });
        expect(await updated({ _id: 'b', lo: 5, hi: 5 }, { $min: { lo: 8 }, $max: { hi: 8 } })).toEqual({
          _id: 'b',
          lo: 5,
          hi: 8,
        });
        // ISO dates are strings: the earliest and the latest
        expect(
          await updated(
            { _id: 'c', first: '2026-02-01T00:00:00.000Z', last: '2026-02-01T00:00:00.000Z' },
            { $min: { first: '2026-01-15T00:00:00.000Z' }, $max: { last: '2026-01-15T00:00:00.000Z' } },
          ),
        ).toEqual({ _id: 'c', first: '2026-01-15T00:00:00.000Z', last: '2026-02-01T00:00:00.000Z' });
      });

      it('$setOnInsert does nothing when the document exists', async () => {
        expect(await updated({ _id: 'a', n: 1 }, { $set: { n: 2 }, $setOnInsert: { created: true } })).toEqual({
          _id: 'a',
          n: 2,
        });
      });

      it('counts a no-op update as matched, not modified', async () => {
        const coll = store.collection('u');
        await coll.insertOne({ _id: 'a', n: 1 });
        expect(await coll.updateOne({ _id: 'a' }, { $set: { n: 1 } })).toEqual({
          matchedCount: 1,
          modifiedCount: 0,
          upsertedCount: 0,
        });
        expect(await coll.updateOne({ _id: 'zzz' }, { $set: { n: 1 } })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedCount: 0,
        });
      });

      it('updateOne changes a single document among several matches', async () => {
        const coll = await people();
        const result = await coll.updateOne({ tags: 'a' }, { $set: { picked: true } });
        expect(result).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
        expect(await coll.countDocuments({ picked: true })).toBe(1);
      });
    });

    describe('upsert', () => {
      it('creates the document from the filter equalities plus the update, $setOnInsert only the first time', async () => {
        const coll = store.collection('counters');
        const update = { $inc: { n: 1 }, $setOnInsert: { created_at: 100 }, $set: { last: 'x' } };
        expect(await coll.updateOne({ _id: 'c1', user_id: 'u1' }, update, { upsert: true })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedCount: 1,
        });
        expect(await coll.findOne({ _id: 'c1' })).toEqual({
          _id: 'c1',
          user_id: 'u1',
          n: 1,
          created_at: 100,
          last: 'x',
        });
        expect(
          await coll.updateOne(
            { _id: 'c1', user_id: 'u1' },
            { ...update, $setOnInsert: { created_at: 200 } },
            { upsert: true },
          ),
        ).toEqual({
          matchedCount: 1,
          modifiedCount: 1,
          upsertedCount: 0,
        });
        expect(await coll.findOne({ _id: 'c1' })).toEqual({
          _id: 'c1',
          user_id: 'u1',
          n: 2,
          created_at: 100,
          last: 'x',
        });
      });

      it('$setOnInsert sets null and empty-array values too', async () => {
        const coll = store.collection('counters');
        await coll.updateOne(
          { _id: 'n' },
          { $setOnInsert: { none: null, empty: [], nested: { none: null }, list: [null] }, $set: { v: 1 } },
          { upsert: true },
        );
        await coll.updateOne({ _id: 'm', $or: [{ k: null }] }, { $set: { v: 1 } }, { upsert: true });
        expect(await coll.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'm', k: null, v: 1 },
          { _id: 'n', none: null, empty: [], nested: { none: null }, list: [null], v: 1 },
        ]);
      });

      it('takes the equalities from the filter (and from a one-clause $or), not ranges', async () => {
        const coll = store.collection('counters');
        await coll.updateOne(
          { _id: 'k', $or: [{ owner: 7 }], kind: 'z', age: { $gt: 5 } },
          { $set: { c: 1 } },
          { upsert: true },
        );
        expect(await coll.findOne({ _id: 'k' })).toEqual({ _id: 'k', owner: 7, kind: 'z', c: 1 });
      });

      it('gives the new document a string _id when the filter has none', async () => {
        const coll = store.collection('counters');
        expect(
          (await coll.updateMany({ user_id: 'u9' }, { $set: { seen: true } }, { upsert: true })).upsertedCount,
        ).toBe(1);
        const doc = await coll.findOne({ user_id: 'u9' });
        expect(doc).toMatchObject({ user_id: 'u9', seen: true });
        expect(typeof doc?._id).toBe('string');
      });

      it('replaceOne upserts the replacement', async () => {
        const coll = store.collection('counters');
        expect(await coll.replaceOne({ _id: 'r' }, { _id: 'r', v: 1 }, { upsert: true })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedCount: 1,
        });
        expect(await coll.replaceOne({ _id: 'r' }, { _id: 'r', v: 2 }, { upsert: true })).toEqual({
          matchedCount: 1,
          modifiedCount: 1,
          upsertedCount: 0,
        });
        expect(await coll.find({})).toEqual([{ _id: 'r', v: 2 }]);
      });
    });

    describe('writes', () => {
      it('updateMany reports matched and modified counts', async () => {
        const coll = await people();
        await coll.updateOne({ _id: 1 }, { $set: { city: 'Paris' } });
        const result = await coll.updateMany({ profile: { $exists: true } }, { $set: { city: 'Paris' } });
        expect(result).toEqual({ matchedCount: 3, modifiedCount: 2, upsertedCount: 0 });
        expect(await coll.countDocuments({ city: 'Paris' })).toBe(3);
      });

      it('replaceOne replaces the whole document and keeps its _id', async () => {
        const coll = await people();
        expect(await coll.replaceOne({ name: 'bob' }, { _id: 2, name: 'robert' })).toEqual({
          matchedCount: 1,
          modifiedCount: 1,
          upsertedCount: 0,
        });
        expect(await coll.findOne({ _id: 2 })).toEqual({ _id: 2, name: 'robert' });
        expect(await coll.replaceOne({ name: 'nobody' }, { _id: 99, name: 'x' })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedCount: 0,
        });
        expect(await coll.countDocuments()).toBe(4);
      });

      it("replaceOne never changes an _id; an upsert takes the replacement's, else the filter's, else a new one", async () => {
        const coll = await people();
        // a replacement naming another _id than its target's is refused, and nothing changes
        await expect(coll.replaceOne({ _id: 2 }, { _id: 20, name: 'x' })).rejects.toThrow();
        expect(await coll.findOne({ _id: 2 })).toMatchObject({ name: 'bob' });
        expect(await coll.findOne({ _id: 20 })).toBeNull();
        // the same _id, said again, is fine
        await coll.replaceOne({ _id: 2 }, { _id: 2, name: 'robert' });
        expect(await coll.findOne({ _id: 2 })).toEqual({ _id: 2, name: 'robert' });
        // an upsert whose replacement and filter name two different _ids is refused
        await expect(coll.replaceOne({ _id: 'n' }, { _id: 'm', v: 1 }, { upsert: true })).rejects.toThrow();
        expect(await coll.countDocuments()).toBe(4);
        // the filter's _id when the replacement has none (the port's type asks for one; MongoDB does not)
        expect(await coll.replaceOne({ _id: 'n' }, { v: 1 } as unknown as Doc, { upsert: true })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedCount: 1,
        });
        expect(await coll.findOne({ _id: 'n' })).toEqual({ _id: 'n', v: 1 });
        // a new _id when neither names one (the filter's other fields are not copied into a replacement)
        await coll.replaceOne({ name: 'zed' }, { v: 2 } as unknown as Doc, { upsert: true });
        const made = await coll.find({ v: 2 });
        expect(made).toHaveLength(1);
        expect(made[0]._id).toBeDefined();
        expect(made[0].name).toBeUndefined();
      });

      it('deleteOne removes one match, deleteMany every match or everything', async () => {
        const coll = await people();
        expect(await coll.deleteOne({ tags: 'a' })).toEqual({ deletedCount: 1 });
        expect(await coll.countDocuments({ tags: 'a' })).toBe(1);
        expect(await coll.deleteOne({ name: 'nobody' })).toEqual({ deletedCount: 0 });
        const older = await coll.countDocuments({ age: { $gte: 30 } });
        expect(await coll.deleteMany({ age: { $gte: 30 } })).toEqual({ deletedCount: older });
        expect(await coll.countDocuments({ age: { $gte: 30 } })).toBe(0);
        const left = await coll.countDocuments();
        expect(await coll.deleteMany()).toEqual({ deletedCount: left });
        expect(await coll.countDocuments()).toBe(0);
      });

      it('insertOne refuses a duplicate _id and keeps the first document', async () => {
        const coll = store.collection('dups');
        await coll.insertOne({ _id: 'x', v: 1 });
        const error = await coll.insertOne({ _id: 'x', v: 2 }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DuplicateKeyError);
        expect((error as DuplicateKeyError).code).toBe(11000);
        expect(await coll.find({})).toEqual([{ _id: 'x', v: 1 }]);
      });
    });

    describe('sort, skip, limit, projection', () => {
      it('sorts on several keys with mixed directions', async () => {
        const coll = await people();
        await coll.updateOne({ _id: 3 }, { $set: { age: 30 } });
        const docs = await coll.find({ age: { $exists: true } }, { sort: { age: -1, name: 1 } });
        expect(ids(docs)).toEqual([3, 1, 2]); // 'Carol' < 'alice' (binary order)
        expect(ids(await coll.find({ age: { $exists: true } }, { sort: { age: -1, name: -1 } }))).toEqual([1, 3, 2]);
      });

      it('puts missing and null first ascending, last descending, numbers before strings', async () => {
        const coll = store.collection('s');
        await coll.insertOne({ _id: 'str', v: 'a' });
        await coll.insertOne({ _id: 'num', v: 2 });
        await coll.insertOne({ _id: 'missing' });
        await coll.insertOne({ _id: 'null', v: null });
        await coll.insertOne({ _id: 'neg', v: -1 });
        expect(ids(await coll.find({}, { sort: { v: 1, _id: 1 } }))).toEqual(['missing', 'null', 'neg', 'num', 'str']);
        expect(ids(await coll.find({}, { sort: { v: -1, _id: 1 } }))).toEqual(['str', 'num', 'neg', 'missing', 'null']);
      });

      it('sorts arrays by their smallest element ascending, largest descending', async () => {
        const coll = store.collection('s');
        await coll.insertOne({ _id: 'p', v: [1, 9] });
        await coll.insertOne({ _id: 'q', v: 5 });
        await coll.insertOne({ _id: 'r', v: [3] });
        expect(ids(await coll.find({}, { sort: { v: 1 } }))).toEqual(['p', 'r', 'q']);
        expect(ids(await coll.find({}, { sort: { v: -1 } }))).toEqual(['p', 'q', 'r']);
      });

      it('sorts an array field by its whole content even when the filter picks one element', async () => {
        const coll = store.collection('s');
        await coll.createIndex({ key: { tags: 1 } });
        await coll.insertOne({ _id: 1, tags: ['b', 'c'] });
        await coll.insertOne({ _id: 2, tags: ['a', 'b'] });
        await coll.insertOne({ _id: 3, tags: ['b'] });
        // ascending by smallest element: a (2), b (1), b (3); descending by largest: c (1), b (2), b (3)
        expect(ids(await coll.find({ tags: 'b' }, { sort: { tags: 1, _id: 1 } }))).toEqual([2, 1, 3]);
        expect(ids(await coll.find({ tags: 'b' }, { sort: { tags: -1, _id: 1 } }))).toEqual([1, 2, 3]);
      });

      it('refuses sorts, projections and index keys outside the language', async () => {
        const coll = await people();
        await expect(coll.find({}, { sort: { 'profile.city': 1 } })).rejects.toThrow(UnsupportedQueryError);
        await expect(coll.find({}, { sort: { age: 2 as 1 } })).rejects.toThrow(UnsupportedQueryError);
        await expect(coll.find({}, { projection: { 'profile.city': 1 } })).rejects.toThrow(UnsupportedQueryError);
        await expect(coll.find({}, { projection: { name: 1, age: 0 } })).rejects.toThrow(UnsupportedQueryError);
        await expect(coll.createIndex({ key: { 'profile.city': 1 } })).rejects.toThrow(UnsupportedQueryError);
      });

      it('skips and limits after sorting', async () => {
        const coll = await people();
        expect(ids(await coll.find({}, { sort: { _id: 1 }, skip: 1, limit: 2 }))).toEqual([2, 3]);
        expect(ids(await coll.find({}, { sort: { _id: -1 }, limit: 10 }))).toEqual([4, 3, 2, 1]);
        expect(await coll.find({}, { sort: { _id: 1 }, skip: 10 })).toEqual([]);
        expect(ids(await coll.find({}, { sort: { _id: 1 }, skip: 3 }))).toEqual([4]);
        expect((await coll.findOne({}, { sort: { _id: -1 }, skip: 1 }))?._id).toBe(3);
        expect(await coll.find({}, { limit: 3 })).toHaveLength(3);
      });

      it('projects by inclusion (with _id unless excluded) and by exclusion', async () => {
        const coll = await people();
        expect(await coll.findOne({ _id: 1 }, { projection: { name: 1, profile: 1 } })).toEqual({
          _id: 1,
          name: 'alice',
          profile: { city: 'Paris', langs: ['fr', 'en'] },
        });
        expect(await coll.find({ _id: 2 }, { projection: { name: 1, _id: 0 } })).toEqual([{ name: 'bob' }]);
        expect(await coll.findOne({ _id: 4 }, { projection: { tags: 0, score: 0 } })).toEqual({ _id: 4, name: 'dave' });
        expect(await coll.findOne({ _id: 1 }, { projection: { profile: 0, items: 0, tags: 0 } })).toEqual({
          _id: 1,
          name: 'alice',
          age: 30,
          score: 10,
        });
      });

      it('countDocuments counts everything or the matches', async () => {
        const coll = await people();
        expect(await coll.countDocuments()).toBe(4);
        expect(await coll.countDocuments({})).toBe(4);
        expect(await coll.countDocuments({ tags: 'b' })).toBe(2);
      });
    });

    describe('bulkWrite', () => {
      it('applies every kind of operation in order', async () => {
        const coll = store.collection('b');
        await coll.bulkWrite([
          { insertOne: { document: { _id: 'a', n: 1 } } },
          { insertOne: { document: { _id: 'b', n: 2 } } },
          { insertOne: { document: { _id: 'c', n: 3 } } },
          { updateOne: { filter: { _id: 'a' }, update: { $inc: { n: 10 } } } },
          { updateOne: { filter: { _id: 'd' }, update: { $set: { n: 4 } }, upsert: true } },
          { updateMany: { filter: { n: { $lt: 5 } }, update: { $set: { small: true } } } },
          { replaceOne: { filter: { _id: 'b' }, replacement: { _id: 'b', replaced: true } } },
          { deleteOne: { filter: { _id: 'c' } } },
          { replaceOne: { filter: { _id: 'e' }, replacement: { _id: 'e', n: 5 }, upsert: true } },
          { deleteMany: { filter: { n: 5 } } },
        ]);
        expect(await coll.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'a', n: 11 },
          { _id: 'b', replaced: true },
          { _id: 'd', n: 4, small: true },
        ]);
        await coll.bulkWrite([]);
      });

      it('stops at the first error: earlier writes stay, later ones never run', async () => {
        const coll = store.collection('b');
        const error = await coll
          .bulkWrite([
            { insertOne: { document: { _id: 'a' } } },
            { insertOne: { document: { _id: 'a' } } },
            { insertOne: { document: { _id: 'b' } } },
          ])
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DuplicateKeyError);
        expect(await coll.find({})).toEqual([{ _id: 'a' }]);
      });
    });

    describe('indexes', () => {
      it('createIndex is idempotent and queries stay right', async () => {
        const coll = await people();
        await coll.createIndex({ key: { name: 1 } });
        await coll.createIndex({ key: { name: 1 } });
        await coll.createIndex({ key: { tags: 1, age: -1 }, name: 'tags_age' });
        await coll.createIndex({ key: { tags: 1, age: -1 }, name: 'tags_age' });
        expect(idSet(await coll.find({ name: { $in: ['bob', 'dave'] } }))).toEqual([2, 4]);
        expect(ids(await coll.find({ tags: 'b' }, { sort: { age: -1 } }))).toEqual([1, 2]);
      });

      it('a unique index refuses duplicates on insert, update, replace and upsert', async () => {
        const coll = store.collection('users');
        await coll.createIndex({ key: { email: 1 }, unique: true });
        await coll.insertOne({ _id: 1, email: 'a@x' });
        await coll.insertOne({ _id: 2, email: 'b@x' });
        await expect(coll.insertOne({ _id: 3, email: 'a@x' })).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(coll.updateOne({ _id: 2 }, { $set: { email: 'a@x' } })).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(coll.replaceOne({ _id: 2 }, { _id: 2, email: 'a@x' })).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(coll.updateOne({ _id: 9 }, { $set: { email: 'b@x' } }, { upsert: true })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        expect(await coll.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 1, email: 'a@x' },
          { _id: 2, email: 'b@x' },
        ]);
        // the key is free again once its holder changes
        await coll.updateOne({ _id: 1 }, { $set: { email: 'c@x' } });
        await coll.updateOne({ _id: 2 }, { $set: { email: 'a@x' } });
        await coll.deleteOne({ _id: 1 });
        await coll.insertOne({ _id: 3, email: 'c@x' });
        expect(await coll.countDocuments()).toBe(2);
      });

      it('a compound unique index compares the whole key, and missing fields count as null', async () => {
        const coll = store.collection('likes');
        await coll.createIndex({ key: { user_id: 1, video_id: 1 }, unique: true });
        await coll.insertOne({ _id: 'l1', user_id: 'u1', video_id: 'v1' });
        await coll.insertOne({ _id: 'l2', user_id: 'u1', video_id: 'v2' });
        await coll.insertOne({ _id: 'l3', user_id: 'u2', video_id: 'v1' });
        await expect(coll.insertOne({ _id: 'l4', user_id: 'u1', video_id: 'v2' })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        await coll.insertOne({ _id: 'l5', user_id: 'u3' });
        await expect(coll.insertOne({ _id: 'l6', user_id: 'u3', video_id: null })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
      });

      it('creating a unique index over existing duplicates fails', async () => {
        const coll = store.collection('users');
        await coll.insertOne({ _id: 1, email: 'a@x' });
        await coll.insertOne({ _id: 2, email: 'a@x' });
        await expect(coll.createIndex({ key: { email: 1 }, unique: true })).rejects.toBeInstanceOf(DuplicateKeyError);
        await coll.insertOne({ _id: 3, email: 'a@x' });
        expect(await coll.countDocuments({ email: 'a@x' })).toBe(3);
      });

      it('indexed queries see updates and deletes', async () => {
        const coll = store.collection('feed');
        await coll.createIndex({ key: { user_id: 1, created_at: -1 } });
        for (let i = 0; i < 30; i++) await coll.insertOne({ _id: `p${i}`, user_id: `u${i % 3}`, created_at: i });
        await coll.updateOne({ _id: 'p27' }, { $set: { user_id: 'u1' } });
        await coll.deleteOne({ _id: 'p28' });
        await coll.updateMany({ user_id: 'u2' }, { $inc: { created_at: 100 } });
        const page = await coll.find({ user_id: 'u1' }, { sort: { created_at: -1 }, limit: 3 });
        expect(ids(page)).toEqual(['p27', 'p25', 'p22']);
        expect(ids(await coll.find({ user_id: 'u2', created_at: { $gte: 120 } }, { sort: { created_at: 1 } }))).toEqual(
          ['p20', 'p23', 'p26', 'p29'],
        );
        expect(await coll.countDocuments({ user_id: 'u0' })).toBe(9);
      });
    });

    describe('collections', () => {
      it('drop removes the documents, the collection and its indexes', async () => {
        const coll = store.collection('tmp');
        await coll.createIndex({ key: { k: 1 }, unique: true });
        await coll.insertOne({ _id: 1, k: 'a' });
        await coll.drop();
        expect(await coll.countDocuments()).toBe(0);
        expect(await store.listCollections()).not.toContain('tmp');
        await coll.insertOne({ _id: 2, k: 'a' });
        await coll.insertOne({ _id: 3, k: 'a' });
        expect(await coll.countDocuments()).toBe(2);
        await store.collection('never-created').drop();
      });

      it('listCollections names the collections that were written to or indexed', async () => {
        expect(await store.listCollections()).toEqual([]);
        await store.collection('beta').insertOne({ _id: 1 });
        await store.collection('alpha').createIndex({ key: { x: 1 } });
        expect((await store.listCollections()).sort()).toEqual(['alpha', 'beta']);
      });

      it('dropAll drops every collection', async () => {
        await store.collection('a').insertOne({ _id: 1 });
        await store.collection('b').insertOne({ _id: 1 });
        await store.dropAll();
        expect(await store.listCollections()).toEqual([]);
        expect(await store.collection('a').countDocuments()).toBe(0);
      });
    });

    describe('withTransaction', () => {
      it('returns what fn returns; the writes are there afterwards', async () => {
        await store.collection('a').insertOne({ _id: 'seed', v: 0 });
        const result = await store.withTransaction(async (tx) => {
          await tx.collection('a').insertOne({ _id: 1, v: 1 });
          await tx.collection('a').updateOne({ _id: 'seed' }, { $set: { v: 5 } });
          await tx.collection('b').insertOne({ _id: 1, v: 2 });
          return 'done';
        });
        expect(result).toBe('done');
        expect(await store.collection('a').find({}, { sort: { v: 1 } })).toEqual([
          { _id: 1, v: 1 },
          { _id: 'seed', v: 5 },
        ]);
        expect(await store.collection('b').find({})).toEqual([{ _id: 1, v: 2 }]);
      });

      it('fn reads its own writes, merged with what was there', async () => {
        const a = store.collection('a');
        await a.createIndex({ key: { g: 1, n: -1 } });
        for (let n = 0; n < 5; n++) await a.insertOne({ _id: `old${n}`, g: 'x', n });
        await store.withTransaction(async (tx) => {
          const t = tx.collection('a');
          await t.insertOne({ _id: 'new', g: 'x', n: 10 });
          await t.updateOne({ _id: 'old4' }, { $set: { n: -1 } });
          await t.deleteOne({ _id: 'old3' });
          expect(ids(await t.find({ g: 'x' }, { sort: { n: -1 }, limit: 3 }))).toEqual(['new', 'old2', 'old1']);
          expect(await t.countDocuments({ g: 'x' })).toBe(5);
          expect(await t.findOne({ _id: 'old3' })).toBeNull();
          expect((await t.findOne({ _id: 'old4' }))?.n).toBe(-1);
        });
        expect(ids(await a.find({ g: 'x' }, { sort: { n: 1 } }))).toEqual(['old4', 'old0', 'old1', 'old2', 'new']);
      });

      it('makes the writes visible together: outside readers see none of them before the end', async (ctx) => {
        if (!supportsTransactions(store)) ctx.skip();
        // the collections exist beforehand: MongoDB may make outside readers wait on one a transaction creates
        await store.collection('a').insertOne({ _id: 'seed' });
        await store.collection('b').insertOne({ _id: 'seed' });
        const outside: Array<number> = [];
        await store.withTransaction(async (tx) => {
          await tx.collection('a').insertOne({ _id: 1 });
          await sleep(5); // let other work run in the middle of the transaction
          outside.push(await store.collection('a').countDocuments());
          await tx.collection('b').insertOne({ _id: 1 });
          await tx.collection('a').deleteOne({ _id: 'seed' });
          outside.push(await store.collection('b').countDocuments(), await store.collection('a').countDocuments());
        });
        expect(outside).toEqual([1, 1, 1]);
        expect(ids(await store.collection('a').find({}))).toEqual([1]);
        expect(await store.collection('b').countDocuments()).toBe(2);
      });

      it('rethrows what fn throws', async () => {
        const boom = new Error('boom');
        await expect(
          store.withTransaction(async () => {
            throw boom;
          }),
        ).rejects.toBe(boom);
      });

      it('leaves nothing of a transaction whose fn throws', async (ctx) => {
        if (!supportsTransactions(store)) ctx.skip();
        const a = store.collection('a');
        await a.insertOne({ _id: 'keep', v: 1 });
        await a.insertOne({ _id: 'gone', v: 1 });
        await expect(
          store.withTransaction(async (tx) => {
            await tx.collection('a').updateOne({ _id: 'keep' }, { $set: { v: 2 } });
            await tx.collection('a').deleteOne({ _id: 'gone' });
            await tx.collection('a').insertOne({ _id: 'new' });
            await tx.collection('other').insertOne({ _id: 1 });
            throw new Error('projector failed');
          }),
        ).rejects.toThrow('projector failed');
        expect(await a.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'gone', v: 1 },
          { _id: 'keep', v: 1 },
        ]);
        expect(await store.collection('other').countDocuments()).toBe(0);
      });

      it('rolls back when a write inside fails on a duplicate key', async (ctx) => {
        if (!supportsTransactions(store)) ctx.skip();
        const a = store.collection('a');
        await a.insertOne({ _id: 'taken' });
        await expect(
          store.withTransaction(async (tx) => {
            await tx.collection('a').insertOne({ _id: 'first' });
            await tx.collection('a').insertOne({ _id: 'taken' });
          }),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(ids(await a.find({}))).toEqual(['taken']);
      });
    });

    describe('copies', () => {
      it('results are copies: changing them does not change the store', async () => {
        const coll = await people();
        const found = await coll.findOne({ _id: 1 });
        if (!found) throw new Error('missing');
        found.name = 'changed';
        (found.tags as string[]).push('z');
        (found.profile as { city: string }).city = 'Rome';
        const [listed] = await coll.find({ _id: 1 });
        (listed.items as Array<{ v: number }>)[0].v = 99;
        expect(await coll.findOne({ _id: 1 })).toEqual(PEOPLE[0]);
      });

      it('inputs are copied: changing them after a write does not change the store', async () => {
        const coll = store.collection('c');
        const doc = { _id: 'x', list: [1], nested: { a: 1 } };
        await coll.insertOne(doc);
        doc.list.push(2);
        doc.nested.a = 2;
        const value = { deep: [1] };
        await coll.updateOne({ _id: 'x' }, { $set: { value } });
        value.deep.push(2);
        const replacement = { _id: 'y', list: [1] };
        await coll.replaceOne({ _id: 'y' }, replacement, { upsert: true });
        replacement.list.push(2);
        expect(await coll.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'x', list: [1], nested: { a: 1 }, value: { deep: [1] } },
          { _id: 'y', list: [1] },
        ]);
      });
    });

    describe('indexed and unindexed collections agree (property)', () => {
      it('gives the same results after any sequence of writes', async () => {
        let run = 0;
        await fc.assert(
          fc.asyncProperty(
            fc.array(opArb, { minLength: 1, maxLength: 25 }),
            fc.array(queryArb, { minLength: 1, maxLength: 4 }),
            async (ops, queries) => {
              run += 1;
              const indexed = store.collection(`prop${run}_ix`);
              const plain = store.collection(`prop${run}_plain`);
              for (const key of INDEXES) await indexed.createIndex({ key });
              for (const op of ops) {
                const [a, b] = [await runOp(indexed, op), await runOp(plain, op)];
                expect(a).toEqual(b);
                for (const q of queries) {
                  expect(await indexed.find(q.filter, q.options)).toEqual(await plain.find(q.filter, q.options));
                  expect(await indexed.countDocuments(q.filter)).toBe(await plain.countDocuments(q.filter));
                }
              }
              await indexed.drop();
              await plain.drop();
            },
          ),
          { numRuns: options.propertyRuns ?? 60 },
        );
      });
    });
  });
}

// ---- the property's model: documents with scalar, missing and array fields; deterministic *One ops ----

/** r is never an array (its indexes stay single-key: sorted reads and two-sided ranges); t and tags may be */
const INDEXES: Array<Record<string, 1 | -1>> = [
  { u: 1, r: -1 },
  { r: 1 },
  { u: 1, t: -1 },
  { t: 1 },
  { tags: 1 },
  { s: 1, u: 1 },
  { n: -1 },
];

const idArb = fc.integer({ min: 0, max: 11 });
const userArb = fc.constantFrom('u1', 'u2', 'u3');
const smallArb = fc.integer({ min: 0, max: 6 });
const tArb = fc.oneof(smallArb, fc.array(smallArb, { maxLength: 3 }));
const tagArb = fc.constantFrom('a', 'b', 'c');
const sArb = fc.constantFrom('x', 'y', 'X', 'é');
const nArb = fc.integer({ min: -3, max: 3 });

const docArb = fc.record(
  { _id: idArb, u: userArb, r: smallArb, t: tArb, s: sArb, n: nArb, tags: fc.uniqueArray(tagArb, { maxLength: 3 }) },
  { requiredKeys: ['_id'] },
);

/** {$gt|$gte: a, $lt|$lte: b}, either side optional */
function rangeArb<V>(value: fc.Arbitrary<V>): fc.Arbitrary<Record<string, V>> {
  const side = (ops: [string, string]) => fc.option(fc.tuple(fc.constantFrom(...ops), value), { nil: undefined });
  return fc
    .tuple(side(['$gt', '$gte']), side(['$lt', '$lte']))
    .filter(([low, high]) => low !== undefined || high !== undefined)
    .map(([low, high]) => Object.fromEntries([low, high].filter((x): x is [string, V] => x !== undefined)));
}

const filterArb: fc.Arbitrary<Filter> = fc.oneof(
  fc.record({ u: userArb }),
  fc.record({ r: smallArb }),
  fc.record({ r: rangeArb(smallArb) }),
  fc.record({ u: userArb, r: rangeArb(smallArb) }),
  fc.record({ u: fc.record({ $in: fc.uniqueArray(userArb, { minLength: 1 }) }), r: rangeArb(smallArb) }),
  fc.record({ u: userArb, t: smallArb }),
  fc.record({ u: fc.record({ $in: fc.uniqueArray(userArb, { minLength: 1 }) }), t: rangeArb(smallArb) }),
  fc.record({ t: rangeArb(smallArb) }),
  fc.record({ tags: tagArb }),
  fc.record({ tags: fc.record({ $in: fc.uniqueArray(tagArb, { minLength: 1 }) }), n: rangeArb(nArb) }),
  fc.record({ s: sArb, u: userArb }),
  fc.record({ s: rangeArb(sArb) }),
  fc.record({ n: rangeArb(nArb) }),
  fc.record({ _id: fc.record({ $in: fc.array(idArb, { maxLength: 4 }) }) }),
  fc.record({ u: userArb, $or: fc.tuple(fc.record({ r: rangeArb(smallArb) })).map((c) => [...c]) }),
  fc
    .record({ $or: fc.tuple(fc.record({ u: userArb }), fc.record({ tags: tagArb })) })
    .map((f) => ({ $or: [...f.$or] })),
  fc.constant({}),
);

/** total orders (ending with _id): ties would let two correct stores differ */
const sortArb: fc.Arbitrary<Sort | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom<Sort>(
    { r: 1, _id: 1 },
    { r: -1, _id: -1 },
    { u: 1, r: -1, _id: 1 },
    { u: -1, r: 1, _id: -1 },
    { r: -1, _id: 1 },
    { t: -1, _id: 1 },
    { t: 1, _id: -1 },
    { u: 1, t: -1, _id: 1 },
    { n: -1, _id: 1 },
    { s: 1, u: 1, _id: 1 },
    { _id: -1 },
    { tags: 1, _id: 1 },
    { tags: -1, _id: 1 },
  ),
);

interface Query {
  filter: Filter;
  options: FindOptions;
}

const queryArb: fc.Arbitrary<Query> = fc
  .record({
    filter: filterArb,
    sort: sortArb,
    skip: fc.integer({ min: 0, max: 3 }),
    limit: fc.integer({ min: 0, max: 5 }),
  })
  .map(({ filter, sort, skip, limit }) =>
    // without a sort the order is the store's; then compare all matches, sorted by _id
    sort ? { filter, options: { sort, skip, limit } } : { filter, options: { sort: { _id: 1 } } },
  );

const updateArb: fc.Arbitrary<Update> = fc.oneof(
  fc.record({ $set: fc.record({ u: userArb }) }),
  fc.record({ $set: fc.record({ r: smallArb }) }),
  fc.record({ $inc: fc.record({ r: fc.integer({ min: -2, max: 2 }) }) }),
  fc.record({ $set: fc.record({ t: tArb }) }),
  fc.record({ $set: fc.record({ s: sArb }) }),
  fc.record({ $inc: fc.record({ n: fc.integer({ min: -2, max: 2 }) }) }),
  fc.record({ $addToSet: fc.record({ tags: tagArb }) }),
  fc.record({ $pull: fc.record({ tags: tagArb }) }),
  fc.record({ $set: fc.record({ t: fc.constant(null) }) }),
);

type Op =
  | { kind: 'insert'; doc: Doc }
  | { kind: 'updateOne'; id: number; update: Update; upsert: boolean }
  | { kind: 'updateMany'; filter: Filter; update: Update }
  | { kind: 'replaceOne'; doc: Doc }
  | { kind: 'deleteOne'; id: number }
  | { kind: 'deleteMany'; filter: Filter };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: docArb.map((doc): Op => ({ kind: 'insert', doc })), weight: 4 },
  {
    arbitrary: fc
      .record({ id: idArb, update: updateArb, upsert: fc.boolean() })
      .map((o): Op => ({ kind: 'updateOne', ...o })),
    weight: 3,
  },
  {
    arbitrary: fc.record({ filter: filterArb, update: updateArb }).map((o): Op => ({ kind: 'updateMany', ...o })),
    weight: 2,
  },
  { arbitrary: docArb.map((doc): Op => ({ kind: 'replaceOne', doc })), weight: 1 },
  { arbitrary: idArb.map((id): Op => ({ kind: 'deleteOne', id })), weight: 1 },
  { arbitrary: filterArb.map((filter): Op => ({ kind: 'deleteMany', filter })), weight: 1 },
);

/** Runs one op; returns its outcome (counts or the error's kind) so both collections can be compared. */
async function runOp(coll: ReadCollection, op: Op): Promise<unknown> {
  try {
    switch (op.kind) {
      case 'insert':
        await coll.insertOne(structuredClone(op.doc));
        return 'inserted';
      case 'updateOne':
        return await coll.updateOne({ _id: op.id }, op.update, { upsert: op.upsert });
      case 'updateMany':
        return await coll.updateMany(op.filter, op.update);
      case 'replaceOne':
        return await coll.replaceOne({ _id: op.doc._id }, structuredClone(op.doc), { upsert: true });
      case 'deleteOne':
        return await coll.deleteOne({ _id: op.id });
      case 'deleteMany':
        return await coll.deleteMany(op.filter);
    }
  } catch (err) {
    if (err instanceof DuplicateKeyError) return 'duplicate';
    throw err;
  }
}
