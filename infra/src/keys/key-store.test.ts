import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { keyStoreContract } from './keys.contract';
import { SqliteKeyStore } from './sqlite-key-store';
import { PostgresKeyStore } from './postgres-key-store';
import { MongoKeyStore } from './mongo-key-store';
import { CachedKeyStore, KeyDestructions } from './cached-key-store';
import { KeyDestructionRelay } from './key-destruction-relay';
import { skippedSuite } from '../testing/skipped-suite';
import { createTestDatabase, postgresAvailability, type TestDatabase } from '../testing/postgres';
import { mongoServerAvailability, startMongoServer, type MongoServer } from '../testing/ferretdb';
import { MemberKeyDestroyedError } from './port';
import { sqliteBytesOnDisk } from '../testing/sqlite-on-disk';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempFile = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'evo-keys-'));
  dirs.push(dir);
  return path.join(dir, 'keys.sqlite');
};

keyStoreContract('sqlite', async () => {
  const file = tempFile();
  const store = new SqliteKeyStore(file);
  return { store, another: async () => new SqliteKeyStore(file), cleanup: () => store.close() };
});

keyStoreContract('cached over sqlite', async () => {
  const file = tempFile();
  const store = new CachedKeyStore(new SqliteKeyStore(file));
  return { store, another: async () => new CachedKeyStore(new SqliteKeyStore(file)), cleanup: () => store.close() };
});

describe('SqliteKeyStore', () => {
  it("overwrites a destroyed key's bytes: neither the file nor its WAL holds them afterwards", async () => {
    const file = tempFile();
    const store = new SqliteKeyStore(file);
    const member = randomUUID();
    const key = await store.keyFor(member);
    for (let i = 0; i < 20; i++) await store.keyFor(randomUUID());
    const everything = () => sqliteBytesOnDisk(file);
    expect(everything().includes(key)).toBe(true);
    await store.destroy(member);
    expect(everything().includes(key)).toBe(false);
    await store.close();
  });
});

describe('CachedKeyStore', () => {
  it('asks its store once per member while the key is fresh, again once it expired', async () => {
    let now = 0;
    const inner = new SqliteKeyStore(tempFile());
    let asked = 0;
    const counting = Object.assign(Object.create(inner) as SqliteKeyStore, {
      find: (id: string) => {
        asked++;
        return inner.find(id);
      },
    });
    const store = new CachedKeyStore(counting, { ttlMs: 1000, now: () => now });
    const member = randomUUID();
    await inner.keyFor(member);
    await Promise.all([store.find(member), store.find(member)]);
    await store.find(member);
    expect(asked).toBe(1);
    now = 1001;
    await store.find(member);
    expect(asked).toBe(2);
    await inner.close();
  });

  it("sees its own destroy at once, and another process's once the cached key expired", async () => {
    let now = 0;
    const file = tempFile();
    const a = new CachedKeyStore(new SqliteKeyStore(file), { ttlMs: 1000, now: () => now });
    const b = new CachedKeyStore(new SqliteKeyStore(file), { ttlMs: 1000, now: () => now });
    const member = randomUUID();
    await a.keyFor(member);
    await b.keyFor(member);
    await a.destroy(member);
    await expect(a.keyFor(member)).rejects.toBeInstanceOf(MemberKeyDestroyedError);
    expect(await a.find(member)).toBe('destroyed');
    expect(await b.find(member)).toBeInstanceOf(Buffer);
    now = 1001;
    expect(await b.find(member)).toBe('destroyed');
    await a.close();
    await b.close();
  });

  it("sees another thread's destroy at once when they share KeyDestructions (the projections' thread), and keeps its other keys' answers right", async () => {
    const file = tempFile();
    const destructions = new KeyDestructions();
    const a = new CachedKeyStore(new SqliteKeyStore(file), { ttlMs: 60_000, destructions });
    // the other thread's cache: its own store and its own view of the same shared memory
    const b = new CachedKeyStore(new SqliteKeyStore(file), {
      ttlMs: 60_000,
      destructions: new KeyDestructions(destructions.buffer),
    });
    const [gone, kept] = [randomUUID(), randomUUID()];
    await a.keyFor(gone);
    const keptKey = await a.keyFor(kept);
    expect(await b.find(gone)).toBeInstanceOf(Buffer);
    await a.destroy(gone);
    expect(destructions.seen()).toBe(1);
    await expect(b.keyFor(gone)).rejects.toBeInstanceOf(MemberKeyDestroyedError);
    expect(await b.find(gone)).toBe('destroyed');
    expect(await b.keyFor(kept)).toEqual(keptKey);
    await expect(a.keyFor(gone)).rejects.toBeInstanceOf(MemberKeyDestroyedError);
    await a.close();
    await b.close();
  });
});

if (process.env.REDIS_URL) {
  describe('KeyDestructionRelay (several processes, through Redis)', () => {
    /** a process of the topology: its own key store connection, cache, destroys count and relay */
    const aProcess = async (file: string, channel: string) => {
      const destructions = new KeyDestructions();
      const relay = await KeyDestructionRelay.start(process.env.REDIS_URL!, channel, destructions);
      return new CachedKeyStore(new SqliteKeyStore(file), { ttlMs: 60_000, destructions, relay });
    };

    it("makes every other process's cache forget a destroyed key at once, not when it expires", async () => {
      const file = tempFile();
      const channel = `evo-test:${randomUUID()}:keys:destroyed`;
      const [erasing, projecting, replaying] = await Promise.all([1, 2, 3].map(() => aProcess(file, channel)));
      const [gone, kept] = [randomUUID(), randomUUID()];
      const goneKey = await erasing.keyFor(gone);
      const keptKey = await erasing.keyFor(kept);
      for (const other of [projecting, replaying]) expect(await other.keyFor(gone)).toEqual(goneKey);
      await erasing.destroy(gone);
      // kept for 60 s by their caches, yet refused well before
      for (const other of [projecting, replaying]) {
        await expect.poll(() => other.find(gone), { timeout: 2000 }).toBe('destroyed');
        await expect(other.keyFor(gone)).rejects.toBeInstanceOf(MemberKeyDestroyedError);
        expect(await other.keyFor(kept)).toEqual(keptKey);
      }
      await Promise.all([erasing, projecting, replaying].map((s) => s.close()));
    });

    it('leaves the processes of another topology (another channel) alone', async () => {
      const file = tempFile();
      const here = await aProcess(file, `evo-test:${randomUUID()}:keys:destroyed`);
      const elsewhere = await aProcess(file, `evo-test:${randomUUID()}:keys:destroyed`);
      const [gone, other] = [randomUUID(), randomUUID()];
      await elsewhere.keyFor(gone);
      await here.destroy(other);
      await new Promise((r) => setTimeout(r, 200));
      // its cache was not cleared by a destroy it was not told of
      expect(await elsewhere.find(gone)).toBeInstanceOf(Buffer);
      await Promise.all([here.close(), elsewhere.close()]);
    });
  });
} else {
  skippedSuite(
    'KeyDestructionRelay tests skipped: REDIS_URL is not set',
    'KeyDestructionRelay (REDIS_URL not set)',
    'runs against Redis',
  );
}

const pgAvailability = await postgresAvailability();
if (!pgAvailability.ok) console.warn(`[skip] PostgreSQL key store: ${pgAvailability.reason}`);
describe.skipIf(!pgAvailability.ok)('PostgresKeyStore', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('keys');
  });
  afterAll(async () => {
    await db?.drop();
  });
  keyStoreContract('postgresql', async () => {
    const store = new PostgresKeyStore(db.url);
    return { store, another: async () => new PostgresKeyStore(db.url), cleanup: () => store.close() };
  });

  it("leaves no copy of a destroyed key in the table's file (the destroy rewrites it: VACUUM FULL)", async () => {
    const store = new PostgresKeyStore(db.url);
    const member = randomUUID();
    const key = await store.keyFor(member);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    // the table's file on the server's disk (the test server runs on this machine), after a checkpoint
    const tableFile = async () => {
      await client.query('CHECKPOINT');
      const dir = (await client.query<{ data_directory: string }>('SHOW data_directory')).rows[0]!.data_directory;
      const rel = (await client.query<{ p: string }>(`SELECT pg_relation_filepath('evo_member_keys') AS p`)).rows[0]!.p;
      return readFileSync(path.join(dir, rel));
    };
    try {
      expect((await tableFile()).includes(key)).toBe(true);
      await store.destroy(member);
      expect((await tableFile()).includes(key)).toBe(false);
      const row = await client.query('SELECT key, destroyed_at FROM evo_member_keys WHERE member_id = $1', [member]);
      expect(row.rows[0].key).toBeNull();
      expect(row.rows[0].destroyed_at).not.toBeNull();
    } finally {
      await client.end();
      await store.close();
    }
  });
});

const mongo = mongoServerAvailability();
if (!mongo.ok) console.warn(`[skip] MongoDB key store: ${mongo.reason}`);
describe.skipIf(!mongo.ok)('MongoKeyStore (FerretDB or MONGO_URL)', () => {
  let server: MongoServer;
  const dbName = `evo_keys_test_${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    server = await startMongoServer();
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
  });
  keyStoreContract('mongodb', async () => {
    const store = new MongoKeyStore(server.url, { dbName });
    await store.ready();
    return { store, another: async () => new MongoKeyStore(server.url, { dbName }), cleanup: () => store.close() };
  });
});
