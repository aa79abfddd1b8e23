import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MemoryReadStore } from './memory-read-store';
import { SnapshotFileError, readMemorySnapshot, writeMemorySnapshot } from './memory-snapshot';
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
    await damaged(sound.subarray(0, sound.length - 1));
    await damaged(sound.subarray(0, 100));
    await damaged(Buffer.concat([sound, Buffer.from([0])]));
    await writeFile(file, sound);
    await truncate(file, 0);
    await expect(readMemorySnapshot(file)).rejects.toMatchObject({ reason: 'damaged' });
  });
});
