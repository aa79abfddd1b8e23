import { existsSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { readStoreContract } from './read-store.contract';
import { SqliteReadStore, WAL_PAGES_BEFORE_CHECKPOINT } from './sqlite-read-store';
import { newId } from './values';
import type { Doc, Filter, FindOptions } from './port';
import { explain, indexNames } from '../testing/read-store-plans';

readStoreContract('SqliteReadStore', async () => {
  const store = SqliteReadStore.temporary();
  return { store, cleanup: () => store.close() };
});

const fileName = () => path.join(tmpdir(), `evo-read-test-${newId()}.sqlite`);
const removeFile = (file: string) => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
};

describe('SqliteReadStore, how it answers', () => {
  it('answers indexed queries from the index, in its order, reading only the matches', async () => {
    const store = SqliteReadStore.temporary();
    const n = store.collection('notifications');
    await n.createIndex({ key: { user_id: 1, deleted: 1, cause_pos: -1 } });
    for (let i = 0; i < 300; i++)
      await n.insertOne({
        _id: `n${i}`,
        user_id: `u${i % 10}`,
        deleted: i % 7 === 0,
        cause_pos: String(i).padStart(6, '0'),
      });
    const filter = { user_id: 'u3', deleted: false };
    const plan = explain(store, 'notifications', filter, { sort: { cause_pos: -1 }, limit: 5 });
    expect(plan).toMatchObject({ plan: 'IXSCAN', exact: true, sortedHere: false, tempSort: false });
    expect(plan.details.join()).toContain('USING INDEX');
    const before = store.counters.docsExamined;
    const page = await n.find(filter, { sort: { cause_pos: -1 }, limit: 5 });
    expect(store.counters.docsExamined - before).toBe(5);
    expect(page.map((d) => d._id)).toEqual(['n293', 'n283', 'n263', 'n253', 'n243']);
    // a condition SQL cannot answer (a regex) is left to the language, after the index
    expect(explain(store, 'notifications', { user_id: 'u3', cause_pos: { $regex: '3$' } }).exact).toBe(false);
    await store.close();
  });

  it('answers a projection of indexed fields from the index (covered), as from the documents', async () => {
    const indexed = SqliteReadStore.temporary();
    const plain = SqliteReadStore.temporary();
    await indexed.collection('c').createIndex({ key: { g: 1, v: -1, w: 1 } });
    await indexed.collection('c').createIndex({ key: { tags: 1 } });
    // every kind of value a key column holds, and null and missing (which a column cannot tell apart)
    const values = [true, false, 0, -0, 1.5, -7, '', 'x', 'true', null, undefined];
    for (let i = 0; i < 120; i++) {
      const doc: Doc = { _id: i % 3 === 0 ? i : `d${i}`, extra: i, g: i % 4, tags: i % 5 === 0 ? ['a', i] : 'a' };
      const v = values[i % values.length];
      const w = values[(i * 7) % values.length];
      if (v !== undefined) doc.v = v;
      if (w !== undefined) doc.w = w;
      for (const store of [indexed, plain]) await store.collection('c').insertOne(doc);
    }
    const queries: Array<[Filter, FindOptions]> = [
      [{ g: 1 }, { sort: { v: -1, w: 1, _id: 1 }, projection: { v: 1, w: 1 } }],
      [{ g: { $in: [0, 2] } }, { sort: { g: 1, v: -1, _id: 1 }, projection: { w: 1, _id: 0 }, skip: 3, limit: 7 }],
      [{ g: 3, v: { $gte: 0 } }, { projection: { v: 1 } }],
      [{ g: 2 }, { sort: { v: -1, _id: 1 }, projection: { g: 1, v: 1, w: 1 }, limit: 5 }],
    ];
    for (const [filter, options] of queries) {
      const plan = explain(indexed, 'c', filter, options);
      expect(plan.details.join()).toContain('COVERING INDEX');
      const sorted = (docs: Doc[]) =>
        options.sort ? docs : [...docs].sort((a, b) => (`${a._id}` < `${b._id}` ? -1 : 1));
      const want = await plain.collection('c').find(filter, options);
      const got = await indexed.collection('c').find(filter, options);
      expect(got.length).toBeGreaterThan(0);
      expect(sorted(got)).toEqual(sorted(want));
      // a value comes back as the document holds it: -0 is 0 in JSON
      for (const doc of got) for (const value of Object.values(doc)) expect(Object.is(value, -0)).toBe(false);
    }
    // a field that has held an array (multikey), or one outside every index, needs the documents
    expect(explain(indexed, 'c', { g: 1 }, { projection: { tags: 1 } }).details.join()).not.toContain('COVERING');
    expect(explain(indexed, 'c', { g: 1 }, { projection: { extra: 1 } }).details.join()).not.toContain('COVERING');
    const tags = { sort: { _id: 1 }, projection: { tags: 1 } } as const;
    expect(await indexed.collection('c').find({ g: 1 }, tags)).toEqual(
      await plain.collection('c').find({ g: 1 }, tags),
    );
    await indexed.close();
    await plain.close();
  });

  it('keeps booleans, numbers, strings and null apart in index keys, in MongoDB’s order', async () => {
    const store = SqliteReadStore.temporary();
    const c = store.collection('c');
    await c.createIndex({ key: { v: 1 } });
    const values = [true, false, 0, 1, '1', 'true', null, -2.5, ''];
    for (const [i, v] of values.entries()) await c.insertOne({ _id: i, v });
    await c.insertOne({ _id: 99 });
    expect((await c.find({ v: true })).map((d) => d._id)).toEqual([0]);
    expect((await c.find({ v: 1 })).map((d) => d._id)).toEqual([3]);
    expect((await c.find({ v: '1' })).map((d) => d._id)).toEqual([4]);
    expect((await c.find({ v: null }, { sort: { _id: 1 } })).map((d) => d._id)).toEqual([6, 99]);
    expect((await c.find({ v: { $gte: 0 } }, { sort: { v: 1 } })).map((d) => d.v)).toEqual([0, 1]);
    expect((await c.find({ v: { $gte: '' } }, { sort: { v: 1 } })).map((d) => d.v)).toEqual(['', '1', 'true']);
    // null and missing, numbers, strings, then false and true
    expect((await c.find({}, { sort: { v: 1, _id: 1 } })).map((d) => d._id)).toEqual([6, 99, 7, 2, 3, 8, 4, 5, 1, 0]);
    expect(explain(store, 'c', {}, { sort: { v: 1 } }).sortedHere).toBe(false);
    await store.close();
  });

  it('leaves a field to the language once it has held an array (multikey), even after a reopen', async () => {
    const file = fileName();
    try {
      const store = new SqliteReadStore(file);
      const c = store.collection('c');
      await c.createIndex({ key: { tags: 1 } });
      await c.insertOne({ _id: 1, tags: 'a' });
      expect(explain(store, 'c', { tags: 'a' }, { sort: { tags: 1 } })).toMatchObject({
        exact: true,
        sortedHere: false,
      });
      await c.insertOne({ _id: 2, tags: ['b', 'a'] });
      expect(explain(store, 'c', { tags: 'a' }, { sort: { tags: 1 } })).toMatchObject({
        exact: false,
        sortedHere: true,
      });
      expect((await c.find({ tags: 'a' }, { sort: { _id: 1 } })).map((d) => d._id)).toEqual([1, 2]);
      await store.close();
      const again = new SqliteReadStore(file);
      expect(explain(again, 'c', { tags: 'a' })).toMatchObject({ exact: false });
      expect(indexNames(again, 'c')).toEqual(['tags_1']);
      expect((await again.collection('c').find({ tags: 'b' })).map((d) => d._id)).toEqual([2]);
      await again.close();
    } finally {
      removeFile(file);
    }
  });

  it('builds an index it has recorded but not built (a load killed before its end, where indexes come) once asked for it again', async () => {
    const file = fileName();
    try {
      const store = new SqliteReadStore(file);
      const c = store.collection('c');
      await c.createIndex({ key: { user_id: 1 } });
      for (let i = 0; i < 50; i++) await c.insertOne({ _id: i, user_id: `u${i % 5}` });
      await store.close();
      // the state such a load leaves: the index in _evo_indexes, not in SQL
      const raw = new Database(file);
      raw.exec(`DROP INDEX "i:c:user_id_1"`);
      raw.close();
      const again = new SqliteReadStore(file);
      const built = () =>
        again.reader
          .prepare(`SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'i:c:user_id_1'`)
          .pluck()
          .get();
      expect(built()).toBe(0);
      await again.collection('c').createIndex({ key: { user_id: 1 } });
      expect(built()).toBe(1);
      expect(explain(again, 'c', { user_id: 'u1' })).toMatchObject({ plan: 'IXSCAN', exact: true });
      expect((await again.collection('c').find({ user_id: 'u1' })).map((d) => d._id)).toEqual([
        1, 6, 11, 16, 21, 26, 31, 36, 41, 46,
      ]);
      await again.close();
    } finally {
      removeFile(file);
    }
  });

  it('writes a document once per transaction however often the transaction changes it, and readers see none of it before the commit', async () => {
    const store = SqliteReadStore.temporary();
    const users = store.collection('users');
    await users.createIndex({ key: { email_lc: 1 }, unique: true });
    await users.insertOne({ _id: 'u1', email_lc: 'a@x', gifts: 0 });
    const before = store.counters.rowsWritten;
    await store.withTransaction(async (tx) => {
      const c = tx.collection('users');
      for (let i = 0; i < 40; i++) await c.updateOne({ _id: 'u1' }, { $inc: { gifts: 1 } });
      // the transaction reads its own writes, the reader connection sees the last commit only
      expect(await c.findOne({ _id: 'u1' })).toMatchObject({ gifts: 40 });
      expect(await users.findOne({ _id: 'u1' })).toMatchObject({ gifts: 0 });
      // a query SQL answers sees them too
      expect(await c.countDocuments({ email_lc: 'a@x', gifts: 40 })).toBe(1);
      await c.updateOne({ _id: 'u1' }, { $inc: { gifts: 2 } });
    });
    expect(await users.findOne({ _id: 'u1' })).toMatchObject({ gifts: 42 });
    // one row at the query's flush, one at the commit: not 41
    expect(store.counters.rowsWritten - before).toBe(2);
    await store.close();
  });

  it('undoes a write that fails half-way inside a transaction, the transaction going on', async () => {
    const store = SqliteReadStore.temporary();
    const c = store.collection('c');
    await c.createIndex({ key: { name: 1 }, unique: true });
    await c.insertOne({ _id: 1, name: 'a', group: 'g' });
    await c.insertOne({ _id: 2, name: 'b', group: 'g' });
    await store.withTransaction(async (tx) => {
      const t = tx.collection('c');
      await t.updateOne({ _id: 1 }, { $set: { seen: true } });
      // the second document would take the first's name: the whole updateMany is refused
      await expect(t.updateMany({ group: 'g' }, { $set: { name: 'same' } })).rejects.toThrow('duplicate key');
      expect(await t.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: 1, name: 'a', group: 'g', seen: true },
        { _id: 2, name: 'b', group: 'g' },
      ]);
      // an ordered bulk write keeps the operations before the failing one
      await expect(
        t.bulkWrite([
          { insertOne: { document: { _id: 3, name: 'c' } } },
          { deleteOne: { filter: { _id: 2 } } },
          { insertOne: { document: { _id: 1, name: 'again' } } },
          { insertOne: { document: { _id: 4, name: 'd' } } },
        ]),
      ).rejects.toThrow('duplicate key');
    });
    expect((await c.find({}, { sort: { _id: 1 } })).map((d) => [d._id, d.name])).toEqual([
      [1, 'a'],
      [3, 'c'],
    ]);
    await store.close();
  });

  it('checks unique keys against what the transaction changed, not only against SQL', async () => {
    const store = SqliteReadStore.temporary();
    const users = store.collection('users');
    await users.createIndex({ key: { email: 1 }, unique: true });
    await users.insertOne({ _id: 'u0', email: 'zero@x' });
    await store.withTransaction(async (tx) => {
      const u = tx.collection('users');
      await u.insertOne({ _id: 'u1', email: 'a@x' });
      await expect(u.insertOne({ _id: 'u2', email: 'a@x' })).rejects.toThrow('duplicate key');
      // the key moves with its document: the old one is free, the new one taken
      await u.updateOne({ _id: 'u1' }, { $set: { email: 'b@x' } });
      await u.insertOne({ _id: 'u2', email: 'a@x' });
      await expect(u.updateOne({ _id: 'u0' }, { $set: { email: 'b@x' } })).rejects.toThrow('duplicate key');
      // a row SQL still has is judged by the transaction's version of it
      await u.updateOne({ _id: 'u0' }, { $set: { email: 'c@x' } });
      await u.insertOne({ _id: 'u3', email: 'zero@x' });
      await u.deleteOne({ _id: 'u3' });
      await u.insertOne({ _id: 'u4', email: 'zero@x' });
      // a counter's update checks nothing and stays allowed
      await u.updateOne({ _id: 'u4' }, { $inc: { n: 1 } });
    });
    expect((await users.find({}, { sort: { _id: 1 } })).map((d) => [d._id, d.email])).toEqual([
      ['u0', 'c@x'],
      ['u1', 'b@x'],
      ['u2', 'a@x'],
      ['u4', 'zero@x'],
    ]);
    await store.close();
  });

  it('keeps a caller’s documents apart from the transaction’s: changing them after a write changes nothing', async () => {
    const store = SqliteReadStore.temporary();
    await store.withTransaction(async (tx) => {
      const c = tx.collection('c');
      const doc = { _id: 1, list: [1, 2] };
      await c.insertOne(doc);
      doc.list.push(3);
      const read = (await c.findOne({ _id: 1 }))!;
      (read.list as number[]).push(4);
      expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, list: [1, 2] });
    });
    expect(await store.collection('c').findOne({ _id: 1 })).toEqual({ _id: 1, list: [1, 2] });
    await store.close();
  });

  it('answers read-only from a file another connection writes: its commits, tables, indexes and multikey fields as they come, and writes nothing', async () => {
    const file = fileName();
    try {
      const writer = new SqliteReadStore(file);
      const reader = new SqliteReadStore(file, false, { readOnly: true });
      const mine = reader.collection('c');
      expect(await mine.find({})).toEqual([]);
      const c = writer.collection('c');
      await c.createIndex({ key: { tags: 1 } });
      await c.insertOne({ _id: 1, tags: 'a' });
      expect((await mine.find({ tags: 'a' })).map((d) => d._id)).toEqual([1]);
      expect(explain(reader, 'c', { tags: 'a' })).toMatchObject({ exact: true });
      // the field turns multikey there: the reader leaves it to the language from then on
      await c.insertOne({ _id: 2, tags: ['b', 'a'] });
      expect((await mine.find({ tags: 'a' }, { sort: { _id: 1 } })).map((d) => d._id)).toEqual([1, 2]);
      expect(explain(reader, 'c', { tags: 'a' })).toMatchObject({ exact: false });
      // nothing of a transaction before its commit
      await writer.withTransaction(async (tx) => {
        await tx.collection('c').insertOne({ _id: 3, tags: 'a' });
        expect(await mine.countDocuments({})).toBe(2);
      });
      expect(await mine.countDocuments({ tags: 'a' })).toBe(3);
      await expect(mine.insertOne({ _id: 4 })).rejects.toThrow();
      await expect(mine.deleteOne({ _id: 1 })).rejects.toThrow();
      expect(await c.countDocuments({})).toBe(3);
      await reader.close();
      await writer.close();
      expect(() => new SqliteReadStore(fileName(), false, { readOnly: true })).toThrow();
    } finally {
      removeFile(file);
    }
  });

  it('refuses a file of another format', async () => {
    const file = fileName();
    try {
      const store = new SqliteReadStore(file);
      await store.close();
      const Database = (await import('better-sqlite3')).default;
      const db = new Database(file);
      db.prepare(`UPDATE _evo_meta SET value = 99 WHERE key = 'format'`).run();
      db.close();
      expect(() => new SqliteReadStore(file)).toThrow('read-model file format 99');
    } finally {
      removeFile(file);
    }
  });

  it('copies its write-ahead log into the file only once the log holds WAL_PAGES_BEFORE_CHECKPOINT pages', async () => {
    const file = fileName();
    try {
      const store = new SqliteReadStore(file);
      const { size: pageSize } = store.pageCount();
      const c = store.collection('c');
      const text = 'x'.repeat(pageSize);
      // some 2,000 pages in 20 commits: past SQLite's default of 1,000, which would have copied them
      for (let t = 0; t < 20; t++)
        await store.withTransaction(async (tx) => {
          for (let i = 0; i < 100; i++) await tx.collection('c').insertOne({ _id: t * 100 + i, text });
        });
      expect(await c.countDocuments({})).toBe(2000);
      const walPages = statSync(`${file}-wal`).size / pageSize;
      expect(walPages).toBeGreaterThan(2000);
      expect(walPages).toBeLessThan(WAL_PAGES_BEFORE_CHECKPOINT);
      // the file itself still has only the pages it was made with
      expect(statSync(file).size / pageSize).toBeLessThan(100);
      await store.close();
      // the last connection's close copies the log in
      expect(statSync(file).size / pageSize).toBeGreaterThan(2000);
    } finally {
      removeFile(file);
    }
  });
});

describe('SqliteReadStore.bulkLoad', () => {
  it('commits each transaction, undoes a failed one alone, and builds the indexes at its end', async () => {
    const store = SqliteReadStore.temporary();
    // outside transactions: the reader connection, what is committed
    const committed = store.collection('items');
    await committed.insertOne({ _id: 'before', group: 1 });
    await store.bulkLoad(async () => {
      await committed.createIndex({ key: { group: 1 } });
      await committed.createIndex({ key: { kind: 1 } });
      expect(explain(store, 'items', { kind: 'k' }).plan).toBe('COLLSCAN');
      for (let t = 1; t <= 20; t++) {
        await store.withTransaction(async (tx) => {
          const items = tx.collection('items');
          await items.insertOne({ _id: `i${t}`, group: t % 3, kind: 'k' });
          await items.updateOne({ _id: 'total' }, { $inc: { n: 1 }, $set: { last: t } }, { upsert: true });
        });
        expect(await committed.findOne({ _id: 'total' })).toEqual({ _id: 'total', n: t, last: t });
      }
      const failing = store.withTransaction(async (tx) => {
        const items = tx.collection('items');
        await items.updateOne({ _id: 'total' }, { $inc: { n: 100 } });
        // the document from before the load included
        expect(await items.find({ group: 1 })).toHaveLength(8);
        throw new Error('projector failure');
      });
      await expect(failing).rejects.toThrow('projector failure');
    });
    expect(await committed.findOne({ _id: 'total' })).toEqual({ _id: 'total', n: 20, last: 20 });
    expect(await committed.countDocuments({ group: 1 })).toBe(8);
    expect(explain(store, 'items', { kind: 'k' }).plan).toBe('IXSCAN');
    await store.close();
  });
});

describe('SqliteReadStore.temporary', () => {
  it('removes its files when closed, and watches the exit with one listener however many stores come and go', async () => {
    const before = process.listenerCount('exit');
    for (let i = 0; i < 15; i++) {
      const store = SqliteReadStore.temporary();
      await store.collection('c').insertOne({ _id: i });
      await store.close();
      expect(existsSync(store.file)).toBe(false);
    }
    // the first temporary store of the process may have added it before this test
    expect(process.listenerCount('exit') - before).toBeLessThanOrEqual(1);
  });
});
