import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mongoServerAvailability, startMongoServer, type MongoServer } from '../testing/ferretdb';
import { MongoReadStore } from './mongo-read-store';
import { readStoreContract } from './read-store.contract';

const availability = mongoServerAvailability();

if (!availability.ok) {
  console.warn(`MongoReadStore tests skipped: ${availability.reason}`);
  describe.skip(`MongoReadStore (${availability.reason})`, () => {
    it('runs the ReadStore contract over the MongoDB wire protocol', () => undefined);
  });
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

  // FerretDB is a few times slower than the memory store: a few runs of the property here
  readStoreContract('MongoReadStore', makeStore, { propertyRuns: 4 });

  describe('MongoReadStore', () => {
    it('uses the database it was given', async () => {
      const { store, cleanup } = await makeStore();
      try {
        expect(store.databaseName).toMatch(/^evo_readstore_/);
        await store.collection('x').insertOne({ _id: 1 });
        const client = new MongoClient(server.url);
        try {
          const names = await client.db(store.databaseName).listCollections({}, { nameOnly: true }).toArray();
          expect(names.map((c) => c.name)).toEqual(['x']);
        } finally {
          await client.close();
        }
      } finally {
        await cleanup();
      }
    });
  });
}
