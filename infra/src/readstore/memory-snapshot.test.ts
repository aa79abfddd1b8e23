import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { MemoryReadStore, indexOrderCode } from './memory-read-store';
import {
  EncodedImage,
  FramesInMemory,
  SnapshotFileError,
  openMemorySnapshot,
  readMemorySnapshot,
  writeMemorySnapshot,
} from './memory-snapshot';
import { DuplicateKeyError } from './port';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
async function tempFile(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-memsnap-'));
  dirs.push(dir);
  return path.join(dir, 'read-models.snapshot');
}

async function sampleStore(): Promise<MemoryReadStore> {
  const store = new MemoryReadStore();
  const users = store.collection('users');
  await users.createIndex({ key: { email: 1 }, unique: true });
  await users.createIndex({ key: { city: 1, age: -1 }, name: 'city_age' });
  for (let i = 0; i < 25; i++) {
    await users.insertOne({
      _id: `u${i}`,
      email: `u${i}@test.fr`,
      city: i % 3 === 0 ? 'Lyon' : 'Paris',
      age: 20 + i,
      tags: i % 2 ? ['a', 'b'] : [],
      nested: { at: new Date(Date.UTC(2026, 0, 1 + i)), big: 2n ** 64n + BigInt(i), zero: -0, none: undefined },
    });
  }
  await store.collection('empty').createIndex({ key: { x: 1 } });
  await store.collection('numbers').insertOne({ _id: 1, value: 0.1 + 0.2 });
  return store;
}

const dump = async (store: MemoryReadStore) => {
  const out: Record<string, unknown[]> = {};
  for (const name of await store.listCollections())
    out[name] = await store.collection(name).find({}, { sort: { _id: 1 } });
  return out;
};

describe('memory read-store snapshot file', () => {
  it('gives back every collection, document and index exactly (bigint, Date, -0, undefined included)', async () => {
    const file = await tempFile();
    const store = await sampleStore();
    const stats = await writeMemorySnapshot(
      file,
      store.captureImage(),
      { position: 12345678901234567890n },
      { chunkDocs: 4 },
    );
    expect(stats.bytes).toBe((await readFile(file)).length);
    expect(await readdir(path.dirname(file))).toEqual(['read-models.snapshot']); // no temporary file left

    const { meta, image } = await readMemorySnapshot<{ position: bigint }>(file);
    expect(meta.position).toBe(12345678901234567890n);
    const loaded = new MemoryReadStore();
    loaded.loadImage(image);
    expect(await dump(loaded)).toEqual(await dump(store));
    // checksum blocks smaller than a frame (a big file's blocks end in the middle of frames)
    for (const hashBlockBytes of [64, 100, 1000]) {
      await writeMemorySnapshot(file, store.captureImage(), {}, { chunkDocs: 4, hashBlockBytes });
      const inBlocks = new MemoryReadStore();
      inBlocks.loadImage((await readMemorySnapshot(file)).image);
      expect(await dump(inBlocks)).toEqual(await dump(store));
    }
    const u7 = await loaded.collection('users').findOne({ _id: 'u7' });
    expect((u7?.nested as { big: bigint }).big).toBe(2n ** 64n + 7n);
    expect(Object.is((u7?.nested as { zero: number }).zero, -0)).toBe(true);
    expect('none' in (u7?.nested as object)).toBe(true);
    expect(await loaded.listCollections()).toEqual(['empty', 'numbers', 'users']);
    expect(loaded.indexNames('users').sort()).toEqual(['city_age', 'email_1']);
    expect(loaded.indexNames('empty')).toEqual(['x_1']);
    expect(loaded.explain('users', { city: 'Lyon' }, { sort: { age: -1 } }).plan).toBe('IXSCAN');
    await expect(loaded.collection('users').insertOne({ _id: 'x', email: 'u3@test.fr' })).rejects.toBeInstanceOf(
      DuplicateKeyError,
    );
  });

  describe('opened without decoding (loadEncoded)', () => {
    /** the sample store with a bigger collection: written smallest first, so made last */
    async function withBigCollection(): Promise<MemoryReadStore> {
      const store = await sampleStore();
      const events = store.collection('events');
      await events.createIndex({ key: { at: -1 } });
      for (let i = 0; i < 300; i++) await events.insertOne({ _id: `e${i}`, at: (i * 7919) % 1000, kind: `k${i % 5}` });
      return store;
    }

    async function opened(store: MemoryReadStore, chunkDocs = 10) {
      const file = await tempFile();
      await writeMemorySnapshot(file, store.captureImage(), { n: 1 }, { chunkDocs });
      const loaded = new MemoryReadStore();
      loaded.loadEncoded((await openMemorySnapshot(file)).image);
      return loaded;
    }

    it('makes a collection when it is first used, the smallest first, and answers as a full load would', async () => {
      const store = await withBigCollection();
      const loaded = await opened(store);
      expect((await loaded.listCollections()).sort()).toEqual(['empty', 'events', 'numbers', 'users']);
      expect(loaded.encodedCollections().sort()).toEqual(['empty', 'events', 'numbers', 'users']);
      // 'numbers' (one document) comes after 'empty' only: the users and events stay encoded
      expect(await loaded.collection('numbers').findOne({ _id: 1 })).toEqual({ _id: 1, value: 0.1 + 0.2 });
      expect(loaded.encodedCollections().sort()).toEqual(['events', 'users']);
      expect(await loaded.collection('users').countDocuments({ city: 'Lyon' })).toBe(9);
      expect(loaded.encodedCollections()).toEqual(['events']);
      expect(loaded.explain('events', {}, { sort: { at: -1 }, limit: 3 }).plan).toBe('IXSCAN');
      expect(loaded.encodedCollections()).toEqual([]);
      expect(await dump(loaded)).toEqual(await dump(store));
      expect(loaded.indexNames('users').sort()).toEqual(['city_age', 'email_1']);
    });

    it('finishes in the background, a slice at a time, with requests served in between', async () => {
      const store = await withBigCollection();
      const loaded = await opened(store, 1);
      let turns = 0;
      const ticking = setInterval(() => (turns += 1), 0);
      const { ms, maxBlockMs } = await loaded.finishLoading({ sliceMs: 0 });
      clearInterval(ticking);
      expect(loaded.encodedCollections()).toEqual([]);
      expect(turns).toBeGreaterThan(0);
      expect(maxBlockMs).toBeLessThanOrEqual(ms);
      expect(await dump(loaded)).toEqual(await dump(store));
      expect(await loaded.finishLoading()).toMatchObject({ maxBlockMs: 0 }); // nothing left: nothing done
    });

    it('writes, index creations and drops of a collection not made yet act on all of it', async () => {
      const store = await withBigCollection();
      const loaded = await opened(store);
      // dropped before it was made: gone, and not made later either
      expect(loaded.encodedCollections()).toContain('numbers');
      await loaded.collection('numbers').drop();
      expect(loaded.encodedCollections()).not.toContain('numbers');
      expect(await loaded.listCollections()).not.toContain('numbers');
      // an index the snapshot has: nothing to make for it
      await loaded.collection('events').createIndex({ key: { at: -1 } });
      expect(loaded.encodedCollections()).toContain('events');
      // a unique index the documents already hold is enforced on the first write
      await expect(loaded.collection('users').insertOne({ _id: 'dup', email: 'u3@test.fr' })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      expect(await loaded.collection('users').countDocuments({})).toBe(25);
      await loaded.collection('events').updateOne({ _id: 'e5' }, { $set: { kind: 'changed' } });
      expect(await loaded.collection('events').countDocuments({})).toBe(300);
      expect(await loaded.collection('events').findOne({ _id: 'e5' })).toMatchObject({ kind: 'changed' });
      await loaded.finishLoading();
      expect(await loaded.collection('numbers').countDocuments({})).toBe(0);
      expect(await loaded.listCollections()).not.toContain('numbers');
      // dropping everything before anything was made leaves nothing behind
      const emptied = await opened(store);
      await emptied.dropAll();
      expect(await emptied.listCollections()).toEqual([]);
      await emptied.finishLoading();
      expect(await emptied.listCollections()).toEqual([]);
    });

    it('a transaction sees whole collections, made when it first reads them', async () => {
      const store = await withBigCollection();
      const loaded = await opened(store);
      // a half-made store captured: whole
      const half = await opened(store);
      expect(await half.collection('numbers').countDocuments({})).toBe(1);
      expect(half.encodedCollections().sort()).toEqual(['events', 'users']);
      const captured = new MemoryReadStore();
      captured.loadImage(half.captureImage());
      expect(await dump(captured)).toEqual(await dump(store));
      // a transaction that makes a collection as it goes: the small one first, the big one later
      await loaded.withTransaction(async (tx) => {
        expect(await tx.collection('users').countDocuments({ city: 'Lyon' })).toBe(9);
        expect(loaded.encodedCollections()).toEqual(['events']);
        const e = await tx.collection('events').findOne({ _id: 'e9' });
        await tx.collection('events').updateOne({ _id: 'e9' }, { $set: { at: (e?.at as number) + 1 } });
        await tx.collection('users').deleteOne({ _id: 'u0' });
      });
      expect(await loaded.collection('users').countDocuments({})).toBe(24);
      expect(await loaded.collection('events').findOne({ _id: 'e9' })).toMatchObject({ at: ((9 * 7919) % 1000) + 1 });
      const image = loaded.captureImage(); // makes anything left: a snapshot of a half-made store is whole
      expect(image.collections.map((c) => c.name).sort()).toEqual(['empty', 'events', 'numbers', 'users']);
    });

    it('a collection whose indexes cannot be rebuilt is refused at every use, never answered as missing', async () => {
      // two documents with the same key under a unique index, and an order saved by other code:
      // the index is built by a sort, which refuses them (as a store edited since would)
      const file = await tempFile();
      await writeMemorySnapshot(
        file,
        {
          collections: [
            { name: 'small', indexes: [], docs: [{ _id: 1 }] },
            {
              name: 'people',
              indexes: [{ key: { email: 1 }, unique: true, name: 'email_1' }],
              docs: [
                { _id: 'a', email: 'x@test.fr' },
                { _id: 'b', email: 'x@test.fr' },
              ],
            },
          ],
          orderCode: 'other code',
        },
        { n: 1 },
      );
      const loaded = new MemoryReadStore();
      loaded.loadEncoded((await openMemorySnapshot(file)).image);
      expect(await loaded.collection('small').countDocuments({})).toBe(1);
      await expect(loaded.collection('people').countDocuments({})).rejects.toThrow();
      await expect(loaded.collection('people').countDocuments({})).rejects.toThrow();
      await expect(loaded.finishLoading()).rejects.toThrow();
      expect(await loaded.listCollections()).toContain('people');
    });

    it('a file that passed its checksum but cannot be decoded is refused at every use, never answered in part', async () => {
      // frames that are not documents (a writer's bug): the checksum cannot see it
      const broken = new EncodedImage(
        'broken.snapshot',
        [
          { name: 'a', indexes: [], count: 1 },
          { name: 'b', indexes: [], count: 2 },
        ],
        [[], []],
        new FramesInMemory([Buffer.from('not v8')]),
        undefined,
      );
      const loaded = new MemoryReadStore();
      loaded.loadEncoded(broken);
      const damaged = { reason: 'damaged' };
      await expect(loaded.collection('b').findOne({})).rejects.toMatchObject(damaged);
      await expect(loaded.collection('a').countDocuments({})).rejects.toMatchObject(damaged);
      await expect(loaded.finishLoading()).rejects.toMatchObject(damaged);
      await expect(loaded.collection('b').findOne({})).rejects.toMatchObject(damaged);
    });
  });

  it('an image keeps the instant it was captured while the store moves on', async () => {
    const store = await sampleStore();
    const image = store.captureImage();
    await store.withTransaction(async (tx) => {
      await tx.collection('users').updateOne({ _id: 'u1' }, { $set: { city: 'Nantes' }, $inc: { age: 1 } });
      await tx.collection('users').deleteOne({ _id: 'u2' });
      await tx.collection('numbers').insertOne({ _id: 2, value: 2 });
    });
    const users = image.collections.find((c) => c.name === 'users')!.docs;
    expect(users.find((d) => d._id === 'u1')).toMatchObject({ city: 'Paris', age: 21 });
    expect(users.some((d) => d._id === 'u2')).toBe(true);
    expect(image.collections.find((c) => c.name === 'numbers')!.docs).toHaveLength(1);
  });

  describe('index orders', () => {
    /** Documents whose indexed fields mix types, missing fields, duplicates and arrays. */
    async function indexedStore(): Promise<MemoryReadStore> {
      const store = new MemoryReadStore();
      const items = store.collection('items');
      await items.createIndex({ key: { code: 1 }, unique: true });
      await items.createIndex({ key: { group: 1, score: -1 }, name: 'group_score' });
      await items.createIndex({ key: { when: -1 } });
      await items.createIndex({ key: { tags: 1 } }); // multikey
      for (let i = 0; i < 300; i++) {
        await items.insertOne({
          _id: i % 2 ? `i${i}` : i,
          code: `c${(i * 7919) % 1000}`,
          ...(i % 11 === 0 ? {} : { group: i % 5 === 0 ? null : i % 3 === 0 ? 7 : `g${i % 4}` }),
          score: i % 13 === 0 ? `s${i}` : (i * 37) % 50,
          when: new Date(Date.UTC(2026, 0, 1, 0, (i * 17) % 240)).toISOString(),
          tags: i % 4 === 0 ? [] : [`t${i % 3}`, `t${i % 5}`],
        });
      }
      // later writes move documents within the indexes
      for (let i = 0; i < 300; i += 7)
        await items.updateOne({ _id: i % 2 ? `i${i}` : i }, { $set: { score: (i * 3) % 60 } });
      for (let i = 3; i < 300; i += 29) await items.deleteOne({ _id: i % 2 ? `i${i}` : i });
      return store;
    }

    const queries: Array<[Record<string, unknown>, Record<string, 1 | -1>]> = [
      [{}, { code: 1 }],
      [{ code: { $gte: 'c5' } }, { code: -1 }],
      [{ group: 'g1' }, { score: -1 }],
      [{ group: { $in: [7, null] } }, { score: 1 }],
      [{ when: { $lt: '2026-01-01T02:00' } }, { when: -1 }],
      [{ tags: 't1' }, { _id: 1 }],
    ];
    const answers = async (store: MemoryReadStore) =>
      Promise.all(queries.map(([filter, sort]) => store.collection('items').find(filter, { sort })));

    /** Array.prototype.sort calls made while `fn` runs with arrays of more than `min` elements */
    /** indexes a load built by sorting the documents (not from their saved order) */
    function builtIndexes(store: MemoryReadStore, fn: () => void): number {
      const before = store.counters().indexesBuilt;
      fn();
      return store.counters().indexesBuilt - before;
    }

    it('are saved with the documents, and a load fills the indexes from them without sorting', async () => {
      const file = await tempFile();
      const store = await indexedStore();
      await writeMemorySnapshot(file, store.captureImage(), {}, { chunkDocs: 16 });
      const { image } = await readMemorySnapshot(file);
      const orders = image.collections.find((c) => c.name === 'items')!.orders!;
      // the multikey index has no saved order: it is sorted at load
      expect(orders.map((o) => o.name).sort()).toEqual(['code_1', 'group_score', 'when_-1']);
      const loaded = new MemoryReadStore();
      expect(builtIndexes(loaded, () => loaded.loadImage(image))).toBe(1);
      expect(await answers(loaded)).toEqual(await answers(store));
      for (const i of [0, 1, 2, 4]) {
        const [filter, sort] = queries[i];
        expect(loaded.explain('items', filter, { sort }).plan).toBe('IXSCAN');
      }
      // the loaded indexes take writes like built ones
      await loaded.collection('items').insertOne({ _id: 'new', code: 'c0000', group: 'g1', score: 999 });
      await loaded.collection('items').updateOne({ _id: 'i1' }, { $set: { group: 'g1', score: -5 } });
      await store.collection('items').insertOne({ _id: 'new', code: 'c0000', group: 'g1', score: 999 });
      await store.collection('items').updateOne({ _id: 'i1' }, { $set: { group: 'g1', score: -5 } });
      expect(await answers(loaded)).toEqual(await answers(store));
      await expect(loaded.collection('items').insertOne({ _id: 'dup', code: 'c0000' })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
    });

    it('names the code that saved the orders by the hash of memory-read-store.ts, taken when the module loaded', () => {
      // not a value of this process alone (the fallback when the file cannot be found), which
      // would make every saved order be checked again at each start
      const source = readFileSync(path.join(import.meta.dirname, 'memory-read-store.ts'));
      expect(indexOrderCode()).toBe(createHash('sha256').update(source).digest('hex').slice(0, 32));
      expect(new MemoryReadStore().captureImage().orderCode).toBe(indexOrderCode());
    });

    it('an order saved by other code is checked, and sorted when it is not this index’s order', async () => {
      const store = await indexedStore();
      const file = await tempFile();
      await writeMemorySnapshot(file, store.captureImage(), {}, { chunkDocs: 16 });
      const expected = await answers(store);
      /** loads the file with the group_score order changed; answers how many indexes were sorted */
      const load = async (orderCode: string | undefined, change: (ordinals: Uint32Array) => Uint32Array) => {
        const { image } = await readMemorySnapshot(file);
        expect(image.orderCode).toBe(store.captureImage().orderCode);
        image.orderCode = orderCode ?? image.orderCode;
        const order = image.collections[0].orders!.find((o) => o.name === 'group_score')!;
        order.ordinals = change(order.ordinals!);
        const loaded = new MemoryReadStore();
        const sorts = builtIndexes(loaded, () => loaded.loadImage(image));
        expect(await answers(loaded)).toEqual(expected);
        return sorts;
      };
      const swapped = (o: Uint32Array) => {
        const c = o.slice();
        [c[10], c[11]] = [c[11], c[10]];
        return c;
      };
      const doubled = (o: Uint32Array) => {
        const c = o.slice();
        c[5] = c[6];
        return c;
      };
      const beyond = (o: Uint32Array) => {
        const c = o.slice();
        c[0] = o.length;
        return c;
      };
      // other code: a sound order passes the check (only the multikey index is sorted)
      expect(await load('other code', (o) => o)).toBe(1);
      // other code: two entries swapped (what another comparison would give), reversed, a
      // document twice, a position beyond the documents: that index is sorted too
      for (const change of [swapped, (o: Uint32Array) => o.slice().reverse(), doubled, beyond])
        expect(await load('other code', change)).toBe(2);
      // the same code takes its order as is, but still every document exactly once
      for (const change of [doubled, beyond]) expect(await load(undefined, change)).toBe(2);
    });

    it('a captured order keeps the instant it was captured while the store moves on', async () => {
      const store = await indexedStore();
      const image = store.captureImage();
      const ids = () =>
        image.collections[0]
          .orders!.find((o) => o.name === 'code_1')!
          .entries!.flat()
          .map((d) => d._id);
      const before = ids();
      const entries = () => image.collections[0].orders!.map((o) => o.entries!.flat());
      const entriesBefore = entries().map((list) => [...list]);
      const items = store.collection('items');
      await items.insertOne({ _id: 'late', code: 'c-late' });
      await items.deleteOne({ _id: 0 });
      // the same keys (the index entry becomes the new version in place), then other keys
      await items.updateOne({ _id: 'i1' }, { $set: { tags: ['t9'] } });
      await items.updateOne({ _id: 2 }, { $set: { code: 'c-moved', group: 'g9', score: 1 } });
      // a bulk load puts the current versions back into every index in one pass
      await store.bulkLoad(() => items.updateOne({ _id: 4 }, { $set: { tags: ['t8'] } }).then(() => undefined));
      expect(ids()).toEqual(before);
      expect(before).toHaveLength(300 - 11);
      expect(entries()).toEqual(entriesBefore);
      entries().forEach((list, i) => list.forEach((doc, j) => expect(doc).toBe(entriesBefore[i][j])));
    });
  });

  it('refuses a missing, torn or altered file', async () => {
    const file = await tempFile();
    await expect(readMemorySnapshot(file)).rejects.toMatchObject({ reason: 'missing' });
    const store = await sampleStore();
    await writeMemorySnapshot(file, store.captureImage(), { n: 1 }, { chunkDocs: 4 });
    const sound = await readFile(file);

    const damaged = async (bytes: Buffer) => {
      await writeFile(file, bytes);
      const err = await readMemorySnapshot(file).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SnapshotFileError);
      expect(err).toMatchObject({ reason: 'damaged' });
    };
    for (const at of [0, 12, Math.floor(sound.length / 2), sound.length - 40, sound.length - 1]) {
      const flipped = Buffer.from(sound);
      flipped[at] ^= 0x20;
      await damaged(flipped);
    }
    // a byte of the frames is found by its block's checksum, before anything is decoded
    for (const at of [12, Math.floor(sound.length / 2)]) {
      const flipped = Buffer.from(sound);
      flipped[at] ^= 0x20;
      await writeFile(file, flipped);
      await expect(readMemorySnapshot(file)).rejects.toThrow('somme de contrôle fausse');
    }
    await damaged(sound.subarray(0, sound.length - 1));
    await damaged(sound.subarray(0, 100));
    await damaged(Buffer.concat([sound, Buffer.from([0])]));
    await writeFile(file, sound);
    await truncate(file, 0);
    await expect(readMemorySnapshot(file)).rejects.toMatchObject({ reason: 'damaged' });
    // the formats before documents were stored as columns, and before the checksum was one of
    // blocks: told apart from a damaged file
    for (const magic of ['EVOSNAP1', 'EVOSNAP2']) {
      const older = Buffer.from(sound);
      older.write(magic, 0, 'latin1');
      await writeFile(file, older);
      await expect(readMemorySnapshot(file)).rejects.toMatchObject({ reason: 'other-format' });
    }
  });

  it('checks a checksum per block, hashed on two threads, with a table of them at the end', async () => {
    const file = await tempFile();
    const store = await sampleStore();
    await writeMemorySnapshot(file, store.captureImage(), { n: 1 }, { chunkDocs: 4, hashBlockBytes: 64 });
    const sound = await readFile(file);
    expect(sound.subarray(0, 8).toString('latin1')).toBe('EVOSNAP4');
    expect(sound.readUInt32LE(8)).toBe(64);
    // the tail as the format says: the SHA-256 of each 64-byte block before the table, their
    // count, and the SHA-256 of the table
    const count = sound.readUInt32LE(sound.length - 36);
    expect(count).toBeGreaterThan(10);
    const covered = sound.subarray(0, sound.length - 36 - 32 * count);
    expect(Math.ceil(covered.length / 64)).toBe(count);
    expect(covered.readUInt32LE(covered.length - 4)).toBe(0xffffffff);
    const blocks: Buffer[] = [];
    for (let at = 0; at < covered.length; at += 64)
      blocks.push(
        createHash('sha256')
          .update(covered.subarray(at, at + 64))
          .digest(),
      );
    const table = Buffer.concat(blocks);
    expect(sound.subarray(covered.length, covered.length + table.length)).toEqual(table);
    expect(sound.subarray(sound.length - 32)).toEqual(createHash('sha256').update(table).digest());
    const loaded = new MemoryReadStore();
    loaded.loadImage((await readMemorySnapshot(file)).image);
    expect(await dump(loaded)).toEqual(await dump(store));
    // one byte changed in any block, the block size, the table and the tail included
    for (const at of [
      8,
      70,
      Math.floor(covered.length / 2),
      covered.length - 2,
      covered.length + 5,
      sound.length - 40,
      sound.length - 1,
    ]) {
      const flipped = Buffer.from(sound);
      flipped[at] ^= 0x01;
      await writeFile(file, flipped);
      await expect(readMemorySnapshot(file)).rejects.toMatchObject({ reason: 'damaged' });
    }
  });

  describe('opened lazily: checked block by block, the rest in the background', () => {
    /** a store whose last collection spans many blocks of the file */
    async function written(hashBlockBytes = 256) {
      const store = await sampleStore();
      const events = store.collection('events');
      await events.createIndex({ key: { at: -1 } });
      for (let i = 0; i < 400; i++) await events.insertOne({ _id: `e${i}`, at: (i * 7919) % 1000, note: `n${i}` });
      const file = await tempFile();
      await writeMemorySnapshot(file, store.captureImage(), { n: 1 }, { chunkDocs: 10, hashBlockBytes });
      return { store, file, sound: await readFile(file) };
    }

    /** the file with one bit changed `back` bytes before its table of checksums (in the last collection) */
    function alteredBeforeTable(sound: Buffer, back: number): Buffer {
      const covered = sound.length - 36 - 32 * sound.readUInt32LE(sound.length - 36);
      const flipped = Buffer.from(sound);
      flipped[covered - back] ^= 0x01;
      return flipped;
    }

    it('answers as soon as the header is checked, and gives back the same store', async () => {
      const { store, file } = await written();
      const { image } = await openMemorySnapshot(file);
      let checked = false;
      void image.checked.then(() => (checked = true));
      const loaded = new MemoryReadStore();
      loaded.loadEncoded(image);
      // the small collections first, each checked before it is decoded; the rest is not read yet
      expect(await loaded.collection('numbers').countDocuments({})).toBe(1);
      expect(checked).toBe(false);
      expect(loaded.encodedCollections().sort()).toEqual(['events', 'users']);
      await image.checked;
      await loaded.finishLoading();
      expect(await dump(loaded)).toEqual(await dump(store));
    });

    it('a collection used before the background reached it is read and checked at once', async () => {
      const { store, file } = await written(64);
      const { image } = await openMemorySnapshot(file);
      const loaded = new MemoryReadStore();
      loaded.loadEncoded(image);
      // synchronously, in the same turn as the open: the background read nothing yet
      expect(loaded.explain('events', {}, { sort: { at: -1 }, limit: 3 }).plan).toBe('IXSCAN');
      expect(loaded.encodedCollections()).toEqual([]);
      expect(await dump(loaded)).toEqual(await dump(store));
      await image.checked;
    });

    it('a torn file is refused at the open; an altered block when something needs it, never decoded', async () => {
      const { file, sound } = await written();
      for (const cut of [sound.length - 1, sound.length - 37, Math.floor(sound.length / 2), 20]) {
        await writeFile(file, sound.subarray(0, cut));
        await expect(openMemorySnapshot(file)).rejects.toMatchObject({ reason: 'damaged' });
      }
      await writeFile(file, Buffer.concat([sound, Buffer.from([0])]));
      await expect(openMemorySnapshot(file)).rejects.toMatchObject({ reason: 'damaged' });
      // a byte of the biggest collection (written last) changed: the open and the small
      // collections are fine, the altered one fails at every use, as does the whole check
      await writeFile(file, alteredBeforeTable(sound, 200));
      const { image } = await openMemorySnapshot(file);
      const loaded = new MemoryReadStore();
      loaded.loadEncoded(image);
      expect(await loaded.collection('numbers').countDocuments({})).toBe(1);
      const altered = { reason: 'damaged', message: expect.stringContaining('somme de contrôle fausse') };
      await expect(image.checked).rejects.toMatchObject(altered);
      await expect(loaded.collection('events').countDocuments({})).rejects.toMatchObject(altered);
      await expect(loaded.collection('events').countDocuments({})).rejects.toMatchObject(altered);
      await expect(loaded.finishLoading()).rejects.toMatchObject({ reason: 'damaged' });
    });

    it('the same altered block is found by a use that reaches it before the background does', async () => {
      const { file, sound } = await written(64);
      await writeFile(file, alteredBeforeTable(sound, 100));
      const { image } = await openMemorySnapshot(file);
      const loaded = new MemoryReadStore();
      loaded.loadEncoded(image);
      expect(() => loaded.explain('events', {})).toThrow('somme de contrôle fausse');
      await expect(image.checked).rejects.toMatchObject({ reason: 'damaged' });
    });

    it('a store cleared before the end lets the file go', async () => {
      const { file } = await written(64);
      const { image } = await openMemorySnapshot(file);
      const loaded = new MemoryReadStore();
      loaded.loadEncoded(image);
      await loaded.dropAll();
      // let go, not found damaged: nothing would set a sound file aside for it
      const err = await image.checked.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(err).not.toBeInstanceOf(SnapshotFileError);
      expect(await loaded.listCollections()).toEqual([]);
    });

    it('a file the store no longer needs (every pending collection dropped) is let go', async () => {
      const { file } = await written(64);
      const { image } = await openMemorySnapshot(file);
      const loaded = new MemoryReadStore();
      loaded.loadEncoded(image);
      for (const name of ['empty', 'numbers', 'users']) await loaded.collection(name).drop();
      expect(image.done).toBe(false);
      await loaded.collection('events').drop();
      expect(loaded.encodedCollections()).toEqual([]);
      // closed: nothing more is decoded from it (the file and what was read of it let go)
      expect(image.done).toBe(true);
      expect(image.next()).toBeUndefined();
    });
  });
});
