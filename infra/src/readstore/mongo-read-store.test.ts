import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import { GenericContainer, getContainerRuntimeClient, Wait, type StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoReadStore } from './mongo-read-store';
import { readStoreContract } from './read-store.contract';

const DOCKER_PROBE_MS = 5_000;

/** Whether a container engine answers, without waiting long when there is none. */
async function dockerReachable(): Promise<boolean> {
  try {
    return await Promise.race([getContainerRuntimeClient().then(() => true), sleep(DOCKER_PROBE_MS).then(() => false)]);
  } catch {
    return false;
  }
}

/**
 * mongo:7 as a one-member replica set, so withTransaction runs real transactions (a standalone
 * server has none). directConnection: the member's advertised host is the container's own.
 */
async function startMongo(): Promise<{ container: StartedTestContainer; url: string }> {
  const container = await new GenericContainer('mongo:7')
    .withCommand(['--replSet', 'rs0', '--bind_ip_all'])
    .withExposedPorts(27017)
    .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
    .start();
  await container.exec([
    'mongosh',
    '--quiet',
    '--eval',
    'rs.initiate({ _id: "rs0", members: [{ _id: 0, host: "localhost:27017" }] })',
  ]);
  const url = `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/?directConnection=true`;
  const client = new MongoClient(url);
  try {
    for (let i = 0; ; i++) {
      const hello = await client.db('admin').command({ hello: 1 });
      if (hello.isWritablePrimary === true) break;
      if (i >= 120) throw new Error('mongo:7 replica set did not elect a primary');
      await sleep(250);
    }
  } finally {
    await client.close();
  }
  return { container, url };
}

const mongoUrl = process.env.MONGO_URL;
const useDocker = !mongoUrl && (await dockerReachable());

if (!mongoUrl && !useDocker) {
  console.warn('MongoDB tests skipped: set MONGO_URL or run a Docker engine');
  describe.skip('MongoReadStore (needs MONGO_URL or a Docker engine)', () => {
    it('runs the ReadStore contract on MongoDB', () => undefined);
  });
} else {
  let url = mongoUrl ?? '';
  let container: StartedTestContainer | undefined;
  /** one database per test, unique per run, so runs never share data */
  const runId = randomUUID().slice(0, 8);
  let made = 0;

  beforeAll(async () => {
    if (useDocker) ({ container, url } = await startMongo());
  }, 180_000);

  afterAll(async () => {
    await container?.stop();
  });

  async function makeStore(): Promise<{ store: MongoReadStore; cleanup: () => Promise<void> }> {
    made += 1;
    const store = new MongoReadStore(url, { dbName: `evo_readstore_${runId}_${made}` });
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

  readStoreContract('MongoReadStore', makeStore, { propertyRuns: 8 });

  describe('MongoReadStore', () => {
    it('uses the database it was given and reports what the deployment supports', async () => {
      const { store, cleanup } = await makeStore();
      try {
        expect(store.databaseName).toMatch(/^evo_readstore_/);
        await store.collection('x').insertOne({ _id: 1 });
        const client = new MongoClient(url);
        try {
          const names = await client.db(store.databaseName).listCollections({}, { nameOnly: true }).toArray();
          expect(names.map((c) => c.name)).toEqual(['x']);
        } finally {
          await client.close();
        }
        if (useDocker) expect(store.supportsTransactions).toBe(true);
      } finally {
        await cleanup();
      }
    });
  });
}
