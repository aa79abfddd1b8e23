import fc from 'fast-check';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryReadStore, StoredShapes, StringPool } from './memory-read-store';
import { WriteBehindStore } from './write-behind';
import { DuplicateKeyError, type BulkOp, type Doc, type Filter, type FindOptions, type ReadStore } from './port';
import { readStoreContract } from './read-store.contract';

readStoreContract('MemoryReadStore', async () => {
  const store = new MemoryReadStore();
  return { store, cleanup: () => store.close() };
});

const USERS = 2_000;
const POSTS_PER_USER = 100;
const TOTAL = USERS * POSTS_PER_USER;

/** post i belongs to user i % USERS and was created at i (so each user's posts are spread over the range) */
function post(i: number): Doc {
  return {
    _id: `p${i}`,
    user_id: `u${i % USERS}`,
    created_at: i,
    tags: [`t${i % 7}`, `t${(i + 1) % 7}`],
    kind: i % 2 === 0 ? 'even' : 'odd',
  };
}

describe('MemoryReadStore indexes are used (counted, 200,000 documents)', () => {
  const store = new MemoryReadStore();
  const posts = store.collection('posts');

  beforeAll(async () => {
    const batch: BulkOp[] = [];
    for (let i = 0; i < TOTAL; i++) batch.push({ insertOne: { document: post(i) } });
    await posts.bulkWrite(batch);
    // built over existing documents, and one kept up to date as documents come in
    await posts.createIndex({ key: { user_id: 1, created_at: -1 } });
    await posts.createIndex({ key: { created_at: -1 } });
    await posts.createIndex({ key: { tags: 1 } });
  });

  it('a user feed page reads only that page of the index', async () => {
    const filter = { user_id: 'u42' };
    const options = { sort: { created_at: -1 as const }, limit: 20 };
    const page = await posts.find(filter, options);
    const expected = Array.from({ length: 20 }, (_, k) => `p${42 + (POSTS_PER_USER - 1 - k) * USERS}`);
    expect(page.map((d) => d._id)).toEqual(expected);
    const plan = store.explain('posts', filter, options);
    expect(plan).toMatchObject({ plan: 'IXSCAN', indexName: 'user_id_1_created_at_-1', nReturned: 20 });
    expect(plan.keysExamined).toBe(20);
    expect(plan.docsExamined).toBe(20);
  });

  it('the opposite sort walks the same index backwards', async () => {
    const plan = store.explain('posts', { user_id: 'u7' }, { sort: { created_at: 1 }, skip: 5, limit: 10 });
    expect(plan.plan).toBe('IXSCAN');
    expect(plan.keysExamined).toBe(15);
    const docs = await posts.find({ user_id: 'u7' }, { sort: { created_at: 1 }, skip: 5, limit: 10 });
    expect(docs.map((d) => d.created_at)).toEqual(Array.from({ length: 10 }, (_, k) => 7 + (5 + k) * USERS));
  });

  it('a range on the next index field reads only the range', async () => {
    const filter = { user_id: 'u3', created_at: { $gte: 10 * USERS, $lt: 20 * USERS } };
    const docs = await posts.find(filter, { sort: { created_at: -1 } });
    expect(docs).toHaveLength(10);
    const plan = store.explain('posts', filter, { sort: { created_at: -1 } });
    expect(plan).toMatchObject({ plan: 'IXSCAN', keysExamined: 10, docsExamined: 10 });
  });

  it('equality without a sort, and filters on other fields, read only the prefix', async () => {
    const plan = store.explain('posts', { user_id: 'u9', kind: 'odd' });
    expect(plan).toMatchObject({
      plan: 'IXSCAN',
      keysExamined: POSTS_PER_USER,
      docsExamined: POSTS_PER_USER,
      nReturned: POSTS_PER_USER,
    });
    expect(store.explain('posts', { user_id: 'u10', kind: 'odd' }).nReturned).toBe(0);
  });

  it('$in on the index prefix reads each value', async () => {
    const plan = store.explain('posts', { user_id: { $in: ['u1', 'u2', 'u3'] } });
    expect(plan).toMatchObject({ plan: 'IXSCAN', keysExamined: 3 * POSTS_PER_USER, nReturned: 3 * POSTS_PER_USER });
  });

  it('_id lookups, alone or with $in, use the _id map', async () => {
    expect(store.explain('posts', { _id: 'p123' })).toMatchObject({ plan: 'IDHACK', docsExamined: 1, nReturned: 1 });
    const plan = store.explain('posts', { _id: { $in: ['p1', 'p2', 'p3', 'missing'] } }, { sort: { created_at: -1 } });
    expect(plan).toMatchObject({ plan: 'IDHACK', docsExamined: 3, nReturned: 3 });
    expect(
      (await posts.find({ _id: { $in: ['p1', 'p3', 'p2'] } }, { sort: { created_at: -1 } })).map((d) => d._id),
    ).toEqual(['p3', 'p2', 'p1']);
  });

  it('a sort-only index serves "latest N" without a filter', async () => {
    const plan = store.explain('posts', {}, { sort: { created_at: -1 }, limit: 5 });
    expect(plan).toMatchObject({ plan: 'IXSCAN', indexName: 'created_at_-1', keysExamined: 5 });
    expect((await posts.find({}, { sort: { created_at: -1 }, limit: 2 })).map((d) => d._id)).toEqual([
      `p${TOTAL - 1}`,
      `p${TOTAL - 2}`,
    ]);
  });

  it('a multikey index finds array members', async () => {
    const plan = store.explain('posts', { tags: 't3', user_id: { $exists: true } }, { limit: 50 });
    expect(plan).toMatchObject({ plan: 'IXSCAN', indexName: 'tags_1', nReturned: 50, keysExamined: 50 });
  });

  it('a field without an index is a full scan (the counter sees it)', async () => {
    const plan = store.explain('posts', { kind: 'none' });
    expect(plan).toMatchObject({ plan: 'COLLSCAN', docsExamined: TOTAL, nReturned: 0 });
  });

  it('counts, updates and deletes use the index too, and keep it up to date', async () => {
    const before = store.counters();
    expect(await posts.countDocuments({ user_id: 'u5' })).toBe(POSTS_PER_USER);
    await posts.updateMany({ user_id: 'u5', created_at: { $lt: 50 * USERS } }, { $set: { user_id: 'u5b' } });
    await posts.updateOne({ user_id: 'u5' }, { $inc: { likes: 1 } });
    await posts.deleteMany({ user_id: 'u5b' });
    await posts.insertOne({ _id: 'fresh', user_id: 'u5', created_at: TOTAL + 1, tags: [] });
    const after = store.counters();
    expect(after.docsExamined - before.docsExamined).toBeLessThan(5 * POSTS_PER_USER);
    expect(after.keysExamined - before.keysExamined).toBeLessThan(5 * POSTS_PER_USER);
    const latest = await posts.find({ user_id: 'u5' }, { sort: { created_at: -1 }, limit: 2 });
    expect(latest.map((d) => d._id)).toEqual(['fresh', `p${5 + 99 * USERS}`]);
    expect(await posts.countDocuments({ user_id: 'u5' })).toBe(51);
    expect(await posts.countDocuments({ user_id: 'u5b' })).toBe(0);
  });
});

describe('MemoryReadStore index structure under a large random workload', () => {
  it('keeps every index equal to a scan through chunk splits, removals and moves', async () => {
    // deterministic pseudo-random numbers (LCG), so a failure reproduces
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const store = new MemoryReadStore();
    const indexed = store.collection('ix');
    const plain = store.collection('plain');
    await indexed.createIndex({ key: { g: 1, v: -1 } });
    await indexed.createIndex({ key: { v: 1 } });
    const doc = (id: number): Doc => ({ _id: id, g: `g${rand(5)}`, v: rand(1000) });
    for (let i = 0; i < 6_000; i++) {
      const d = doc(i);
      await indexed.insertOne(d);
      await plain.insertOne(d);
    }
    for (let i = 0; i < 4_000; i++) {
      const id = rand(6_000);
      const op = rand(3);
      if (op === 0) {
        const update = { $set: { v: rand(1000), g: `g${rand(5)}` } };
        await indexed.updateOne({ _id: id }, update);
        await plain.updateOne({ _id: id }, update);
      } else if (op === 1) {
        await indexed.deleteOne({ _id: id });
        await plain.deleteOne({ _id: id });
      } else {
        const d = doc(6_000 + i);
        await indexed.insertOne(d);
        await plain.insertOne(d);
      }
    }
    const queries: Array<[Filter, FindOptions]> = [
      [{ g: 'g1' }, { sort: { v: -1, _id: 1 } }],
      [{ g: 'g2' }, { sort: { v: 1, _id: -1 }, skip: 10, limit: 50 }],
      [{ g: 'g3', v: { $gte: 100, $lt: 700 } }, { sort: { v: -1, _id: 1 } }],
      [{ v: { $gt: 500 } }, { sort: { v: 1, _id: 1 }, limit: 300 }],
      [{ v: { $lte: 20 } }, { sort: { v: -1, _id: -1 } }],
      [{}, { sort: { v: -1, _id: -1 }, limit: 100 }],
      [{ g: { $in: ['g0', 'g4'] }, v: { $lt: 50 } }, { sort: { _id: 1 } }],
    ];
    for (const [filter, options] of queries) {
      expect(store.explain('ix', filter, options).plan).toBe('IXSCAN');
      expect(await indexed.find(filter, options)).toEqual(await plain.find(filter, options));
      expect(await indexed.countDocuments(filter)).toBe(await plain.countDocuments(filter));
    }
  });
});

describe('MemoryReadStore ids', () => {
  it('keeps apart ids that only differ by type, even strings shaped like its internal keys', async () => {
    const store = new MemoryReadStore();
    const coll = store.collection('ids');
    const ids: Array<string | number> = [1, '1', 0, '0', '\u0000s1', '\u0000n1', '\u0000', ''];
    for (const [i, _id] of ids.entries()) await coll.insertOne({ _id, i });
    expect(await coll.countDocuments()).toBe(ids.length);
    for (const [i, _id] of ids.entries()) expect((await coll.findOne({ _id }))?.i).toBe(i);
    expect((await coll.find({ _id: { $in: ids } })).map((d) => d.i).sort()).toEqual(ids.map((_, i) => i));
    // -0 is the id 0, as on MongoDB
    expect((await coll.findOne({ _id: -0 }))?.i).toBe(2);
    await expect(coll.insertOne({ _id: -0 })).rejects.toBeInstanceOf(DuplicateKeyError);
  });

  it('an index follows a document through updates that keep or change its keys', async () => {
    const store = new MemoryReadStore();
    const coll = store.collection('moves');
    await coll.createIndex({ key: { owner: 1, at: -1 } });
    await coll.insertOne({ _id: 'a', owner: 'x', at: 1, n: 0 });
    await coll.insertOne({ _id: 'b', owner: 'x', at: 2, n: 0 });
    await coll.updateOne({ _id: 'a' }, { $inc: { n: 1 } }); // keys kept
    await coll.updateOne({ _id: 'b' }, { $set: { owner: 'y' } }); // keys changed
    await coll.updateOne({ _id: 'a' }, { $inc: { n: 1 } });
    expect(await coll.find({ owner: 'x' }, { sort: { at: -1 } })).toEqual([{ _id: 'a', owner: 'x', at: 1, n: 2 }]);
    expect(store.explain('moves', { owner: 'y' }).plan).toBe('IXSCAN');
    expect(await coll.find({ owner: 'y' })).toEqual([{ _id: 'b', owner: 'y', at: 2, n: 0 }]);
    await coll.deleteOne({ _id: 'a' });
    expect(await coll.find({ owner: 'x' })).toEqual([]);
  });
});

describe('StringPool', () => {
  it('holds a bounded number of short strings and leaves documents equal', () => {
    const pool = new StringPool(100, 8);
    for (let i = 0; i < 10_000; i++) pool.intern(`s${i % 5_000}`);
    expect(pool.held).toBeLessThanOrEqual(200);
    pool.intern('much longer than eight');
    expect(pool.held).toBeLessThanOrEqual(200);
  });

  it('holds one copy of a repeated string', () => {
    const pool = new StringPool(4);
    pool.intern('member-1');
    pool.intern('member-'.concat('1'));
    expect(pool.held).toBe(1);
    for (let i = 0; i < 3; i++) pool.intern(`once-${i}`);
    expect(pool.held).toBe(4);
    pool.intern('member-1');
    expect(pool.held).toBe(4);
  });
});

describe('StoredShapes', () => {
  it('stores an equal document, in its field order, whatever its shape', () => {
    const shapes = new StoredShapes(new StringPool(), 2);
    const wide: Doc = { _id: 'w' };
    for (let i = 0; i < 40; i++) wide[`f${i}`] = i % 2 ? `v${i}` : [i, `s${i}`];
    const odd: Doc = { _id: 2, '': 1, 'a"b\\': 'q', '\u2028': null, 10: 'ten' };
    Object.defineProperty(odd, '__proto__', { value: 'field', enumerable: true, writable: true, configurable: true });
    const docs = [wide, odd, { _id: 3, n: { deep: ['x'] } }, { _id: 4, a: 1 }, { _id: 5, b: 1 }];
    for (const doc of docs) {
      const before = structuredClone(doc);
      const stored = shapes.stored(doc);
      expect(stored).toEqual(before);
      expect(Object.keys(stored)).toEqual(Object.keys(before));
      expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    }
  });

  it('keeps documents equal through the store, with more fields than V8 keeps inline', async () => {
    const store = new MemoryReadStore();
    const coll = store.collection('wide');
    await coll.createIndex({ key: { f3: 1 } });
    const doc: Doc = { _id: 1 };
    for (let i = 0; i < 30; i++) doc[`f${i}`] = `value ${i}`;
    await coll.insertOne(doc);
    await coll.updateOne({ _id: 1 }, { $set: { f3: 'changed' }, $inc: { n: 1 } });
    expect(await coll.findOne({ f3: 'changed' })).toEqual({ ...doc, f3: 'changed', n: 1 });
    expect(await coll.find({ f3: 'value 3' })).toEqual([]);
  });
});

describe('MemoryReadStore transactions', () => {
  it('retries fn when another writer changed a document it wrote, so no update is lost', async () => {
    const store = new MemoryReadStore();
    const counters = store.collection('counters');
    await counters.insertOne({ _id: 'c', n: 0 });
    let attempts = 0;
    // read-modify-write with a pause: the two transactions overlap
    const increment = (tx: ReadStore) =>
      (async () => {
        attempts += 1;
        const doc = await tx.collection('counters').findOne({ _id: 'c' });
        await sleep(5);
        await tx.collection('counters').replaceOne({ _id: 'c' }, { _id: 'c', n: Number(doc?.n) + 1 });
      })();
    await Promise.all([store.withTransaction(increment), store.withTransaction(increment)]);
    expect((await counters.findOne({ _id: 'c' }))?.n).toBe(2);
    expect(attempts).toBe(3);
  });

  it('applies index builds and drops of a transaction on commit only', async () => {
    const store = new MemoryReadStore();
    await store.collection('a').insertOne({ _id: 1, k: 'x' });
    await store.collection('old').insertOne({ _id: 1 });
    await store.withTransaction(async (tx) => {
      await tx.collection('a').createIndex({ key: { k: 1 }, unique: true });
      await tx.collection('old').drop();
      expect(await tx.listCollections()).toEqual(['a']);
      expect(store.indexNames('a')).toEqual([]);
      expect(await store.listCollections()).toEqual(['a', 'old']);
    });
    expect(store.indexNames('a')).toEqual(['k_1']);
    expect(await store.listCollections()).toEqual(['a']);
  });

  it('undoes everything when the commit itself fails (unique index built on commit)', async () => {
    const store = new MemoryReadStore();
    await store.collection('a').insertOne({ _id: 1, k: 'x' });
    await store.collection('a').insertOne({ _id: 2, k: 'x' });
    await expect(
      store.withTransaction(async (tx) => {
        await tx.collection('b').insertOne({ _id: 1 });
        await tx.collection('a').updateOne({ _id: 1 }, { $set: { touched: true } });
        await tx.collection('a').createIndex({ key: { k: 1 }, unique: true });
      }),
    ).rejects.toThrow('duplicate key');
    expect(await store.listCollections()).toEqual(['a']);
    expect(await store.collection('a').find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 1, k: 'x' },
      { _id: 2, k: 'x' },
    ]);
    expect(store.indexNames('a')).toEqual([]);
  });

  it('swapping unique values inside a transaction commits', async () => {
    const store = new MemoryReadStore();
    const users = store.collection('users');
    await users.createIndex({ key: { email: 1 }, unique: true });
    await users.insertOne({ _id: 1, email: 'a' });
    await users.insertOne({ _id: 2, email: 'b' });
    await store.withTransaction(async (tx) => {
      await tx.collection('users').updateOne({ _id: 1 }, { $set: { email: 'tmp' } });
      await tx.collection('users').updateOne({ _id: 2 }, { $set: { email: 'a' } });
      await tx.collection('users').updateOne({ _id: 1 }, { $set: { email: 'b' } });
    });
    expect(await users.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 1, email: 'b' },
      { _id: 2, email: 'a' },
    ]);
  });

  it('checks unique indexes against committed documents and its own writes', async () => {
    const store = new MemoryReadStore();
    const users = store.collection('users');
    await users.createIndex({ key: { email: 1 }, unique: true });
    await users.insertOne({ _id: 1, email: 'a' });
    await expect(
      store.withTransaction(async (tx) => {
        await tx.collection('users').insertOne({ _id: 2, email: 'a' });
      }),
    ).rejects.toThrow(/E11000.*email_1/);
    // refused at the write itself (as on MongoDB), not later at commit
    let refusedInside = false;
    await expect(
      store.withTransaction(async (tx) => {
        await tx.collection('users').insertOne({ _id: 3, email: 'z' });
        await tx
          .collection('users')
          .insertOne({ _id: 4, email: 'z' })
          .catch((err: unknown) => {
            refusedInside = err instanceof DuplicateKeyError;
            throw err;
          });
      }),
    ).rejects.toThrow(/E11000.*email_1/);
    expect(refusedInside).toBe(true);
    await store.withTransaction(async (tx) => {
      await tx.collection('users').deleteOne({ _id: 1 });
      await tx.collection('users').insertOne({ _id: 5, email: 'a' });
    });
    expect(await users.find({})).toEqual([{ _id: 5, email: 'a' }]);
  });

  it('a large transaction keeps using indexes for its own writes and the committed documents', async () => {
    const store = new MemoryReadStore();
    const feed = store.collection('feed');
    await feed.createIndex({ key: { user_id: 1, created_at: -1 } });
    for (let i = 0; i < 5_000; i++) await feed.insertOne({ _id: `old${i}`, user_id: `u${i % 50}`, created_at: i });
    let pages = 0;
    const before = store.counters();
    await store.withTransaction(async (tx) => {
      const t = tx.collection('feed');
      for (let i = 0; i < 2_000; i++) {
        await t.updateOne(
          { _id: `new${i}` },
          { $set: { user_id: `u${i % 50}`, created_at: 10_000 + i } },
          { upsert: true },
        );
        const page = await t.find({ user_id: `u${i % 50}` }, { sort: { created_at: -1 }, limit: 3 });
        expect(page[0]._id).toBe(`new${i}`);
        pages += 1;
      }
    });
    const after = store.counters();
    expect(pages).toBe(2_000);
    // each page reads a few keys of each side, not the user's whole history nor the overlay
    expect(after.keysExamined - before.keysExamined).toBeLessThan(2_000 * 10);
    expect(after.docsExamined - before.docsExamined).toBeLessThan(2_000 * 10);
    expect(await feed.countDocuments({ user_id: 'u7' })).toBe(140);
  });

  it('nested withTransaction joins the outer one; the tx store is unusable afterwards', async () => {
    const store = new MemoryReadStore();
    let kept: ReadStore | undefined;
    await expect(
      store.withTransaction(async (tx) => {
        kept = tx;
        await tx.withTransaction(async (inner) => inner.collection('a').insertOne({ _id: 1 }));
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await store.collection('a').countDocuments()).toBe(0);
    await expect(kept?.collection('a').insertOne({ _id: 2 })).rejects.toThrow('Transaction already finished');
  });
});
describe('MemoryReadStore bulk loads', () => {
  it('builds the indexes created meanwhile once it ends, or when a query first needs one', async () => {
    const store = new MemoryReadStore();
    await store.bulkLoad(async () => {
      const posts = store.collection('posts');
      const authors = store.collection('authors');
      await posts.createIndex({ key: { user_id: 1 } });
      await authors.createIndex({ key: { name: 1 }, unique: true });
      for (let i = 0; i < 100; i++) await posts.insertOne(post(i));
      await authors.insertOne({ _id: 'a', name: 'Ada' });
      // reads by _id leave them alone; the first other query on posts builds posts' indexes
      expect(await posts.findOne({ _id: 'p3' })).toMatchObject({ user_id: 'u3' });
      expect(store.explain('posts', { user_id: 'u7' })).toMatchObject({ plan: 'IXSCAN', nReturned: 1 });
      await posts.insertOne(post(100));
      expect(store.explain('posts', { user_id: 'u100' })).toMatchObject({ plan: 'IXSCAN', nReturned: 1 });
      expect(store.indexNames('authors')).toEqual(['name_1']);
    });
    expect(store.explain('authors', { name: 'Ada' })).toMatchObject({ plan: 'IXSCAN', nReturned: 1 });
    await expect(store.collection('authors').insertOne({ _id: 'b', name: 'Ada' })).rejects.toThrow(DuplicateKeyError);
  });

  it('reports a unique violation among the documents loaded when it builds the index', async () => {
    const store = new MemoryReadStore();
    await expect(
      store.bulkLoad(async () => {
        await store.collection('authors').createIndex({ key: { name: 1 }, unique: true });
        await store.collection('authors').insertOne({ _id: 'a', name: 'Ada' });
        await store.collection('authors').insertOne({ _id: 'b', name: 'Ada' });
      }),
    ).rejects.toThrow(DuplicateKeyError);
  });

  it('writes transactions in place and undoes a failed one', async () => {
    const store = new MemoryReadStore();
    await store.bulkLoad(async () => {
      await store.withTransaction(async (tx) => {
        await tx.collection('c').insertOne({ _id: 1, n: 1 });
        await tx.collection('c').insertOne({ _id: 2, n: 2 });
      });
      await expect(
        store.withTransaction(async (tx) => {
          await tx.collection('c').updateOne({ _id: 1 }, { $inc: { n: 10 } });
          await tx.collection('c').deleteOne({ _id: 2 });
          await tx.collection('c').insertOne({ _id: 3, n: 3 });
          await tx.collection('d').insertOne({ _id: 1 });
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
    });
    expect(await store.collection('c').find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 1, n: 1 },
      { _id: 2, n: 2 },
    ]);
    expect(await store.listCollections()).toEqual(['c']);
  });

  it('answers from the current versions of documents changed after their index was built, and undoes a unit of work', async () => {
    const store = new MemoryReadStore();
    const byOwner = (s: ReadStore, owner: string) =>
      s.collection('videos').find({ owner }, { sort: { _id: 1 }, projection: { _id: 1, likes: 1 } });
    await store.bulkLoad(async () => {
      await store.collection('videos').createIndex({ key: { owner: 1, at: -1 } });
      // one batch of a rebuild: through a unit of work that hands its documents to the store
      await store.withTransaction(async (tx) => {
        const work = new WriteBehindStore(tx);
        for (let i = 0; i < 6; i++)
          await work.collection('videos').insertOne({ _id: i, owner: `u${i % 2}`, at: `t${i}`, likes: 0 });
        await work.flush();
      });
      // the first query by owner builds the index; then documents change, keys kept or not
      expect(await byOwner(store, 'u0')).toEqual([0, 2, 4].map((i) => ({ _id: i, likes: 0 })));
      await store.withTransaction(async (tx) => {
        const work = new WriteBehindStore(tx);
        await work.collection('videos').updateOne({ _id: 2 }, { $inc: { likes: 5 } });
        await work.collection('videos').updateOne({ _id: 4 }, { $set: { owner: 'u1' } });
        await work.collection('videos').deleteOne({ _id: 0 });
        await work.flush();
      });
      expect(await byOwner(store, 'u0')).toEqual([{ _id: 2, likes: 5 }]);
      await expect(
        store.withTransaction(async (tx) => {
          const work = new WriteBehindStore(tx);
          await work.collection('videos').updateOne({ _id: 2 }, { $inc: { likes: 1 } });
          await work.collection('videos').updateOne({ _id: 1 }, { $set: { owner: 'u0' } });
          await work.flush();
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await byOwner(store, 'u0')).toEqual([{ _id: 2, likes: 5 }]);
      await store.collection('videos').updateOne({ _id: 2 }, { $inc: { likes: 1 } });
    });
    expect(await byOwner(store, 'u0')).toEqual([{ _id: 2, likes: 6 }]);
    expect(await byOwner(store, 'u1')).toEqual([1, 3, 4, 5].map((i) => ({ _id: i, likes: 0 })));
    expect(store.explain('videos', { owner: 'u1' }, { sort: { at: -1 } })).toMatchObject({
      plan: 'IXSCAN',
      nReturned: 4,
    });
    // after the load, every write keeps the index exact as before
    await store.collection('videos').updateOne({ _id: 5 }, { $set: { owner: 'u0' } });
    expect(await byOwner(store, 'u0')).toEqual([
      { _id: 2, likes: 6 },
      { _id: 5, likes: 0 },
    ]);
  });
});

describe('MemoryReadStore index builds over existing documents', () => {
  const value = fc.oneof(
    fc.constantFrom('a', 'b', 'B', 'ab', ''),
    fc.integer({ min: -2, max: 2 }),
    // many distinct values: compared within groups instead of ranked
    fc.integer({ min: -1000, max: 1000 }),
    fc.constantFrom(0.5, -0, null, true, false),
    fc.constant(undefined),
    fc.record({ k: fc.constantFrom(1, 2) }),
  );
  const docs = fc.uniqueArray(
    fc.record({ _id: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.constantFrom('x', 'y', 'z')), a: value, b: value }),
    { selector: (d) => d._id, maxLength: 300 },
  );
  const spec = fc.constantFrom<Record<string, 1 | -1>>({ a: 1 }, { a: -1 }, { a: 1, b: -1 }, { b: -1, a: 1 });

  /** the ids of a collection's documents in the order of its one index */
  const orderOf = (store: MemoryReadStore) =>
    store
      .captureImage()
      .collections[0].orders![0].entries!.flat()
      .map((d) => d._id);

  it('put the documents in the order inserting them one by one gives (any key values, either direction)', async () => {
    await fc.assert(
      fc.asyncProperty(docs, spec, async (list, key) => {
        const built = new MemoryReadStore();
        const inserted = new MemoryReadStore();
        await inserted.collection('c').createIndex({ key });
        for (const d of list) {
          const doc = Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined)) as Doc;
          await built.collection('c').insertOne(doc);
          await inserted.collection('c').insertOne(doc);
        }
        await built.collection('c').createIndex({ key });
        if (list.length > 0) expect(orderOf(built)).toEqual(orderOf(inserted));
      }),
      { numRuns: 200 },
    );
  });

  it('keep many chunks in order whether documents come at either end or between (the ends take one comparison)', async () => {
    // growing keys (appended at the end), shrinking ones (at the start), then keys in between
    const keys = [
      ...Array.from({ length: 1500 }, (_, i) => 10_000 + i),
      ...Array.from({ length: 1500 }, (_, i) => 9_999 - i),
      ...Array.from({ length: 1500 }, (_, i) => 8_500 + ((i * 7919) % 3000) + 0.5),
    ];
    for (const dir of [1, -1] as const) {
      const built = new MemoryReadStore();
      const inserted = new MemoryReadStore();
      await inserted.collection('c').createIndex({ key: { a: dir } });
      for (const [i, a] of keys.entries()) {
        await built.collection('c').insertOne({ _id: i, a });
        await inserted.collection('c').insertOne({ _id: i, a });
      }
      await built.collection('c').createIndex({ key: { a: dir } });
      expect(orderOf(inserted)).toEqual(orderOf(built));
      const sorted = [...keys].sort((x, y) => (x - y) * dir);
      expect((await inserted.collection('c').find({}, { sort: { a: dir } })).map((d) => d.a)).toEqual(sorted);
    }
  });

  it('refuse duplicates of a unique index, and build it when there are none', async () => {
    const store = new MemoryReadStore();
    const c = store.collection('c');
    for (let i = 0; i < 500; i++) await c.insertOne({ _id: i, group: `g${i % 5}`, n: i % 100 });
    await expect(c.createIndex({ key: { group: 1, n: 1 }, unique: true })).rejects.toThrow('duplicate key');
    await c.createIndex({ key: { n: -1, group: 1, _id: 1 }, unique: true });
    expect(store.explain('c', { n: 3 }).plan).toBe('IXSCAN');
    expect((await c.find({ n: { $gte: 98 } }, { sort: { n: -1, group: 1 } })).map((d) => d._id)).toEqual([
      99, 199, 299, 399, 499, 98, 198, 298, 398, 498,
    ]);
  });
});
