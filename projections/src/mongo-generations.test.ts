import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoReadStore, SqliteEventStore } from '@evo/infra';
import { FollowingReadStore, MongoReadModelGenerations } from './runtime/mongo-generations';
import { mongoServerAvailability, startMongoServer, type MongoServer } from '@evo/infra/testing/ferretdb';
import { allProjectors } from './registry';
import { ProjectionService } from './runtime/projection-service';
import { rebuildReadModels } from './runtime/rebuild';
import { dumpReadModels } from './testing/read-model-dump';
import { writeScriptedHistory } from './testing/scripted-history';

const availability = mongoServerAvailability();

/** Blue/green rebuilds on MongoDB: one database per generation, a pointer in `<base>_meta`. */
describe.skipIf(!availability.ok)('read-model generations on MongoDB (FerretDB, or MONGO_URL)', () => {
  let server: MongoServer;
  let dir: string;
  const runId = randomUUID().slice(0, 8);
  let made = 0;

  beforeAll(async () => {
    server = await startMongoServer();
    dir = await mkdtemp(path.join(os.tmpdir(), 'evo-mongo-generations-'));
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** A database of this test's own (its MONGO_URL, and its name: the generations' base) and an event log. */
  const ownDatabase = () => {
    const base = `evo_gen_${runId}_${++made}`;
    const url = new URL(server.url);
    url.pathname = `/${base}`;
    return { url: url.toString(), base, events: new SqliteEventStore(path.join(dir, `events-${made}.sqlite`)) };
  };
  const databases = async (base: string) => {
    const probe = new MongoReadStore(server.url, { dbName: 'admin' });
    const { databases: all } = await probe.db.admin().listDatabases({ nameOnly: true });
    await probe.close();
    return all
      .map((d) => d.name)
      .filter((n) => n === base || n.startsWith(`${base}_`))
      .sort();
  };
  const service = (events: SqliteEventStore, generations: MongoReadModelGenerations) =>
    new ProjectionService({ events, projectors: allProjectors, generations });
  /** What `live` serves once it has projected the whole log. */
  const caughtUp = async (live: ProjectionService, events: SqliteEventStore) => {
    expect(await live.waitFor((await events.lastPosition())!, 30_000)).toBe(true);
    return dumpReadModels(live.read);
  };
  const pseudosIn = (served: Record<string, unknown[]>) =>
    (served.users ?? []).map((u) => (u as { pseudo: string }).pseudo).sort();

  it('rebuilds into a new database while the current one serves, switches, and drops the old one', async () => {
    const { url, base, events } = ownDatabase();
    const generations = await MongoReadModelGenerations.open(url);
    const live = service(events, generations);
    await live.start();
    await writeScriptedHistory(events, 2, 'avant');
    // an API process reading what the projections service writes
    const api = FollowingReadStore.open(await MongoReadModelGenerations.open(url), 60_000);
    try {
      await Promise.all([live.rebuild(), writeScriptedHistory(events, 2, 'pendant')]);
      expect(live.rebuildState().status).toBe('done');
      expect(generations.currentDatabase).toBe(`${base}_g2`);
      const served = await caughtUp(live, events);
      expect(pseudosIn(served)).toEqual(['Avant0', 'Avant1', 'Pendant0', 'Pendant1']);

      // the API process still reads the first database until it looks at the pointer
      expect((api.current as MongoReadStore).databaseName).toBe(base);
      await api.follow();
      expect((api.current as MongoReadStore).databaseName).toBe(`${base}_g2`);
      expect(await dumpReadModels(api)).toEqual(served);

      // the old database goes at the latest when the service stops
      await live.stop();
      expect(await databases(base)).toEqual([`${base}_g2`, `${base}_meta`]);

      // a restart serves the rebuilt database, caught up from its checkpoint
      const again = service(events, await MongoReadModelGenerations.open(url));
      await again.start();
      expect(await dumpReadModels(again.read)).toEqual(served);
      await again.stop();
      await again.read.close();
    } finally {
      await api.close();
      await live.read.close();
      await events.close();
    }
  }, 300_000);

  it('a build made by another process (npm run replay) is caught up and switched to by the running service', async () => {
    const { url, base, events } = ownDatabase();
    const live = service(events, await MongoReadModelGenerations.open(url));
    await live.start();
    await writeScriptedHistory(events, 2, 'un');
    try {
      // what npm run replay does: build beside, then mark it built (it does not switch anybody)
      const builder = await MongoReadModelGenerations.open(url);
      const fresh = await builder.fresh();
      await rebuildReadModels({ events, read: fresh.store, projectors: allProjectors });
      await fresh.promote();
      await builder.close();
      const pointer = await (await MongoReadModelGenerations.open(url)).refresh();
      expect(pointer).toMatchObject({ current: base, built: `${base}_g2` });

      // written after the build: the running service catches the new database up before switching
      await writeScriptedHistory(events, 2, 'deux');
      live.followReplays(50);
      await expect
        .poll(async () => (live.read.current as MongoReadStore).databaseName, { timeout: 60_000 })
        .toBe(`${base}_g2`);
      const served = await caughtUp(live, events);
      expect(pseudosIn(served)).toEqual(['Deux0', 'Deux1', 'Un0', 'Un1']);
      const after = await (await MongoReadModelGenerations.open(url)).refresh();
      expect(after).toEqual({ _id: 'read-models', current: `${base}_g2` });
      await live.stop();
      expect(await databases(base)).toEqual([`${base}_g2`, `${base}_meta`]);
    } finally {
      await live.read.close();
      await events.close();
    }
  }, 300_000);

  it('after a crash in the middle of a rebuild, keeps the current database and empties the stray one before the next', async () => {
    const { url, base, events } = ownDatabase();
    await writeScriptedHistory(events, 2, 'seul');
    // what a kill -9 during a rebuild leaves: the next generation's database, partly filled, never pointed to
    const stray = new MongoReadStore(server.url, { dbName: `${base}_g2` });
    await stray.collection('users').insertOne({ _id: 'fantome', pseudo: 'fantome' });
    await stray.close();
    const generations = await MongoReadModelGenerations.open(url);
    const live = service(events, generations);
    await live.start();
    try {
      expect(generations.currentDatabase).toBe(base);
      const fresh = await generations.fresh();
      expect(await dumpReadModels(fresh.store)).toEqual({});
      await fresh.discard();
      expect(await databases(base)).toEqual([base]);
      // an old database whose drop a crash cut short (within its grace after a switch) is swept
      const left = new MongoReadStore(server.url, { dbName: `${base}_g7` });
      await left.collection('users').insertOne({ _id: 'vieux', pseudo: 'vieux' });
      await left.close();
      // a database that only starts alike is not one of ours
      const other = new MongoReadStore(server.url, { dbName: `${base}_gifts` });
      await other.collection('x').insertOne({ _id: 'garde' });
      expect(await generations.sweep()).toEqual([`${base}_g7`]);
      expect(await databases(base)).toEqual([base, `${base}_gifts`]);
      await other.dropDatabase();
      await other.close();
    } finally {
      await live.stop();
      await live.read.close();
      await events.close();
    }
  }, 300_000);
});
