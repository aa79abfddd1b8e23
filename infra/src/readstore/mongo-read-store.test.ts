import { randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  mongoServerAvailability,
  startFerretDb,
  startMongoServer,
  type MongoServer,
} from '../testing/ferretdb';
import { MongoReadStore } from './mongo-read-store';
import { DuplicateKeyError, UnsupportedQueryError } from './port';
import { readStoreContract } from './read-store.contract';
import { skippedSuite } from '../testing/skipped-suite';

/** A TCP relay to the server on a port of its own, started and stopped at will. */
function relay(target: URL, port: number): { start(): Promise<void>; stop(): Promise<void> } {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  return {
    start: () =>
      new Promise((resolve) => {
        server = createServer((client) => {
          const upstream = connect(Number(target.port), target.hostname);
          for (const s of [client, upstream]) {
            sockets.add(s);
            s.on('close', () => sockets.delete(s));
            s.on('error', () => undefined);
          }
          client.pipe(upstream).pipe(client);
        });
        server.listen(port, '127.0.0.1', () => resolve());
      }),
    stop: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        if (server) server.close(() => resolve());
        else resolve();
      }),
  };
}

const availability = mongoServerAvailability();

if (!availability.ok) {
  skippedSuite(
    `MongoReadStore tests skipped: ${availability.reason}`,
    `MongoReadStore (${availability.reason})`,
    'runs the ReadStore contract over the MongoDB wire protocol',
  );
} else {
  let server: MongoServer;
  /** one database per test, unique per run, so runs never share data */
  const runId = randomUUID().slice(0, 8);
  let made = 0;

  beforeAll(async () => {
    server = await startMongoServer();
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
  });

  async function makeStore(): Promise<{ store: MongoReadStore; cleanup: () => Promise<void> }> {
    made += 1;
    const store = new MongoReadStore(server.url, { dbName: `evo_readstore_${runId}_${made}` });
    await store.connect();
    return {
      store,
      cleanup: async () => {
        // a database without collections no longer exists
        await store.dropAll();
        await store.close();
      },
    };
  }

  /** `use` on a store of its own, dropped and closed after it. */
  async function withStore(use: (store: MongoReadStore) => Promise<void>): Promise<void> {
    const { store, cleanup } = await makeStore();
    try {
      await use(store);
    } finally {
      await cleanup();
    }
  }

  // FerretDB is a few times slower than the memory store: a few runs of the property here
  readStoreContract('MongoReadStore', makeStore, { propertyRuns: 4 });

  // on CI the contract runs on FerretDB's other backend too (PostgreSQL at 127.0.0.1:5432)
  if (!process.env.MONGO_URL && process.env.CI === 'true' && process.env.FERRETDB_HANDLER !== 'pg') {
    describe('on FerretDB over PostgreSQL', () => {
      let pgServer: MongoServer;
      beforeAll(async () => {
        pgServer = await startFerretDb({ handler: 'pg' });
      }, 600_000);
      afterAll(async () => {
        await pgServer?.stop();
      });
      readStoreContract(
        'MongoReadStore (FerretDB, PostgreSQL backend)',
        async () => {
          made += 1;
          const store = new MongoReadStore(pgServer.url, { dbName: `evo_readstore_${runId}_${made}` });
          await store.connect();
          return { store, cleanup: () => store.dropAll().then(() => store.close()) };
        },
        { propertyRuns: 4 },
      );
    });
  }

  describe('MongoReadStore', () => {
    it('uses the database it was given', async () => {
      await withStore(async (store) => {
        expect(store.databaseName).toMatch(/^evo_readstore_/);
        await store.collection('x').insertOne({ _id: 1 });
        const client = new MongoClient(server.url);
        try {
          const names = await client.db(store.databaseName).listCollections({}, { nameOnly: true }).toArray();
          expect(names.map((c) => c.name)).toEqual(['x']);
        } finally {
          await client.close();
        }
      });
    });

    it('knows FerretDB by its buildInfo and finds no transactions there by committing one', async () => {
      await withStore(async (store) => {
        expect(store.isFerretDb).toBe(server.kind === 'ferretdb');
        if (server.kind === 'ferretdb') expect(store.supportsTransactions).toBe(false);
        // withTransaction still runs fn, and its writes are there
        expect(await store.withTransaction(async (tx) => (await tx.collection('t').insertOne({ _id: 1 }), 'ran'))).toBe(
          'ran',
        );
        expect(await store.collection('t').countDocuments()).toBe(1);
      });
    });

    it('does not take a replica set name for transactions (FerretDB with --repl-set-name has none)', async (ctx) => {
      if (server.kind !== 'ferretdb') ctx.skip();
      const named = await startFerretDb({ extraArgs: ['--repl-set-name=rs0'] });
      const store = new MongoReadStore(`${named.url}?directConnection=true`, { dbName: `evo_rs_${runId}` });
      try {
        const client = new MongoClient(`${named.url}?directConnection=true`);
        try {
          expect((await client.db('admin').command({ hello: 1 })).setName).toBe('rs0');
        } finally {
          await client.close();
        }
        await store.connect();
        expect(store.supportsTransactions).toBe(false);
        await store.withTransaction((tx) => tx.collection('t').insertOne({ _id: 1 }));
        expect(await store.collection('t').countDocuments()).toBe(1);
      } finally {
        await store.close();
        await named.stop();
      }
    });

    it('does not keep a failed first detection: once the server answers, the store works', async () => {
      const port = await freePort();
      const gate = relay(new URL(server.url), port);
      const url = `mongodb://127.0.0.1:${port}/?directConnection=true&serverSelectionTimeoutMS=300`;
      const store = new MongoReadStore(url, { dbName: `evo_retry_${runId}` });
      try {
        await expect(store.withTransaction(async () => 'never')).rejects.toThrow();
        await gate.start();
        expect(await store.withTransaction(async (tx) => (await tx.collection('t').insertOne({ _id: 1 }), 'ok'))).toBe(
          'ok',
        );
        expect(await store.collection('t').countDocuments()).toBe(1);
        await store.dropAll();
      } finally {
        await store.close();
        await gate.stop();
      }
    });

    it('refuses createIndex, drop and dropAll on the store handed to withTransaction', async () => {
      await withStore(async (store) => {
        await store.collection('t').insertOne({ _id: 1 });
        await expect(store.withTransaction((tx) => tx.collection('t').createIndex({ key: { a: 1 } }))).rejects.toThrow(
          /createIndex is not allowed inside withTransaction/,
        );
        await expect(store.withTransaction((tx) => tx.collection('t').drop())).rejects.toThrow(/drop is not allowed/);
        await expect(store.withTransaction((tx) => tx.dropAll())).rejects.toThrow(/dropAll is not allowed/);
        expect(await store.collection('t').countDocuments()).toBe(1);
      });
    });

    it('concurrent updates of one document all count (FerretDB loses some unless the store queues them)', async () => {
      await withStore(async (store) => {
        const coll = store.collection('counters');
        await coll.insertOne({ _id: 'c', n: 0, seen: [] });
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            coll.updateOne({ _id: 'c' }, { $inc: { n: 1 }, $addToSet: { seen: i } }),
          ),
        );
        const doc = await coll.findOne({ _id: 'c' });
        expect(doc?.n).toBe(20);
        expect((doc?.seen as number[]).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      });
    });

    it('concurrent upserts whose filter has no _id insert one document', async () => {
      await withStore(async (store) => {
        const coll = store.collection('counters');
        const results = await Promise.all(
          Array.from({ length: 8 }, () => coll.updateOne({ user_id: 'u1' }, { $inc: { n: 1 } }, { upsert: true })),
        );
        expect(results.reduce((sum, r) => sum + r.upsertedCount, 0)).toBe(1);
        const docs = await coll.find({});
        expect(docs).toHaveLength(1);
        expect(docs[0]).toMatchObject({ user_id: 'u1', n: 8 });
        // the document holding the derived id stops matching: the next upsert inserts anew
        await coll.updateOne({ user_id: 'u1' }, { $set: { user_id: 'u2' } });
        expect((await coll.updateOne({ user_id: 'u1' }, { $inc: { n: 1 } }, { upsert: true })).upsertedCount).toBe(1);
        expect(await coll.find({}, { sort: { user_id: 1 }, projection: { _id: 0 } })).toEqual([
          { user_id: 'u1', n: 1 },
          { user_id: 'u2', n: 8 },
        ]);
      });
    });

    it('a unique key with a missing part collides with a null one on update, upsert and replace too', async () => {
      await withStore(async (store) => {
        const coll = store.collection('likes');
        await coll.createIndex({ key: { a: 1, b: 1 }, unique: true });
        await coll.insertOne({ _id: 1, a: 1 });
        await coll.insertOne({ _id: 2, a: 1, b: 2 });
        await expect(coll.updateOne({ _id: 2 }, { $set: { b: null } })).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(coll.updateOne({ _id: 3 }, { $set: { a: 1 } }, { upsert: true })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        await expect(coll.replaceOne({ _id: 2 }, { _id: 2, a: 1 })).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(coll.bulkWrite([{ insertOne: { document: { _id: 4, a: 1, b: null } } }])).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        // the holder itself may be rewritten, and other keys stay free
        await coll.replaceOne({ _id: 1 }, { _id: 1, a: 1, c: 'x' });
        await coll.updateOne({ _id: 5 }, { $set: { a: 2 } }, { upsert: true });
        expect(await coll.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 1, a: 1, c: 'x' },
          { _id: 2, a: 1, b: 2 },
          { _id: 5, a: 2 },
        ]);
      });
    });

    it('on FerretDB, NaN, ±Infinity and nested arrays are refused with a clear error, dotted or $ keys before they are sent; the connection stays usable', async (ctx) => {
      if (server.kind !== 'ferretdb') ctx.skip();
      await withStore(async (store) => {
        const coll = store.collection('n');
        await expect(coll.insertOne({ _id: 1, v: NaN })).rejects.toThrow(/NaN and ±Infinity are refused/);
        await expect(coll.updateOne({ _id: 1 }, { $set: { v: -Infinity } }, { upsert: true })).rejects.toThrow(
          /-Infinity/,
        );
        // outside the port's language: refused by the store, as SqliteReadStore does
        await expect(coll.insertOne({ _id: 3, 'a.b': 1 })).rejects.toThrow(UnsupportedQueryError);
        await expect(coll.insertOne({ _id: 3, $a: 1 })).rejects.toThrow(UnsupportedQueryError);
        // not routed around (no read model has them): FerretDB's own refusal, which names the cause
        await expect(coll.insertOne({ _id: 3, v: [[1]] })).rejects.toThrow(/nested arrays are not supported/);
        await coll.insertOne({ _id: 2, v: 1 });
        expect(await coll.find({})).toEqual([{ _id: 2, v: 1 }]);
      });
    });
  });
}
