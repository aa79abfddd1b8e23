import { mkdtemp, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteEventStore, SqliteReadStore } from '@evo/infra';
import { SqliteReadModelFiles } from './runtime/read-model-files';
import { allProjectors } from './registry';
import { ProjectionService, type RebuildState } from './runtime/projection-service';
import { rebuildReadModels } from './runtime/rebuild';
import { readCheckpoint } from './runtime/checkpoint';
import { dumpReadModels } from './testing/read-model-dump';
import { setReadModelFormat } from '@evo/infra/testing/read-model-format';
import { writeScriptedHistory } from './testing/scripted-history';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function dataDir() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-projection-service-'));
  dirs.push(dir);
  return dir;
}

/** A data folder of its own, with an event log in it. */
async function newLog() {
  const dir = await dataDir();
  return { dir, events: new SqliteEventStore(path.join(dir, 'events.sqlite')) };
}

const service = (events: SqliteEventStore, dir: string, fingerprint?: string) =>
  new ProjectionService({ events, projectors: allProjectors, generations: new SqliteReadModelFiles(dir), fingerprint });

/** Stops a service and closes the read models it served, as the end of its process does. */
async function shutDown(s: ProjectionService) {
  await s.stop();
  await s.read.close();
}

/** What a fresh rebuild of the whole log gives. */
async function rebuilt(events: SqliteEventStore) {
  const fresh = SqliteReadStore.temporary();
  await rebuildReadModels({ events, read: fresh, projectors: allProjectors });
  const dump = await dumpReadModels(fresh);
  await fresh.close();
  return dump;
}

const sqliteFiles = async (dir: string) => (await readdir(dir)).filter((f) => /\.sqlite$/.test(f)).sort();

describe('ProjectionService', () => {
  it('rebuilds into a new file during traffic, serves it once caught up, and keeps it after a restart', async () => {
    const { dir, events } = await newLog();
    const first = service(events, dir);
    await first.start();
    await writeScriptedHistory(events, 4, 'avant');
    const progress: RebuildState[] = [];
    // traffic while rebuilding
    await Promise.all([first.rebuild((p) => progress.push(p)), writeScriptedHistory(events, 4, 'pendant')]);
    await writeScriptedHistory(events, 2, 'apres');
    const last = (await events.lastPosition())!;
    expect(await first.waitFor(last, 5000)).toBe(true);
    expect(progress[0]).toMatchObject({ status: 'running' });
    expect(progress.at(-1)).toMatchObject({ status: 'done' });
    expect(first.rebuildState().status).toBe('done');
    // the old file is gone, the new one is current
    expect(await sqliteFiles(dir)).toEqual(['events.sqlite', 'read-models-2.sqlite']);
    const served = await dumpReadModels(first.read);
    expect(served).toEqual(await rebuilt(events));
    expect((served.users ?? []).length).toBe(10);
    await shutDown(first);

    const again = service(events, dir);
    await again.start();
    expect(await dumpReadModels(again.read)).toEqual(served);
    await shutDown(again);
    await events.close();
  });

  it('after a crash in the middle of a rebuild, starts on the old read models and removes the half-built file', async () => {
    const { dir, events } = await newLog();
    await writeScriptedHistory(events, 2);
    const first = service(events, dir);
    await first.start();
    const before = await dumpReadModels(first.read);
    await shutDown(first);
    // what a kill -9 during a rebuild leaves: a second file, partly filled, never made current
    const partial = new SqliteReadStore(path.join(dir, 'read-models-2.sqlite'));
    await partial.collection('users').insertOne({ _id: 'half' });
    await partial.close();

    const next = service(events, dir);
    await next.start();
    expect(await sqliteFiles(dir)).toEqual(['events.sqlite', 'read-models.sqlite']);
    expect(await dumpReadModels(next.read)).toEqual(before);
    await shutDown(next);
    await events.close();
  });

  it('rebuilds read models made by other projections code, or ahead of the log, before serving', async () => {
    const { dir, events } = await newLog();
    await writeScriptedHistory(events, 3);
    const old = service(events, dir, 'older-code');
    await old.start();
    await shutDown(old);

    const upgraded = service(events, dir);
    await upgraded.start();
    expect(await dumpReadModels(upgraded.read)).toEqual(await rebuilt(events));
    expect(await sqliteFiles(dir)).toEqual(['events.sqlite', 'read-models-2.sqlite']);
    await shutDown(upgraded);
    const longer = await events.lastPosition();
    await events.close();

    // the same read models over a shorter log (a log restored from an older copy)
    const shorter = new SqliteEventStore(path.join(dir, 'events-2.sqlite'));
    await writeScriptedHistory(shorter, 2);
    expect(await shorter.lastPosition()).toBeLessThan(longer!);
    const restored = service(shorter, dir);
    await restored.start();
    expect(await readCheckpoint(restored.read)).toBe(await shorter.lastPosition());
    expect(await dumpReadModels(restored.read)).toEqual(await rebuilt(shorter));
    await shutDown(restored);
    await shorter.close();
  });

  it.each([
    {
      what: 'not a database',
      keptAside: true,
      damage: (file: string) => writeFile(file, 'ceci n’est pas une base SQLite'.repeat(200)),
    },
    { what: 'truncated', keptAside: true, damage: (file: string) => truncate(file, 8192) },
    { what: 'of an unknown, later format', keptAside: true, damage: (file: string) => setReadModelFormat(file, 99) },
    // not damaged, only outdated: nothing in it is worth keeping
    { what: 'of an earlier version’s format', keptAside: false, damage: (file: string) => setReadModelFormat(file, 1) },
  ])('rebuilds from the log over a read-model file $what (kept aside: $keptAside)', async ({ damage, keptAside }) => {
    const { dir, events } = await newLog();
    await writeScriptedHistory(events, 3);
    const first = service(events, dir);
    await first.start();
    await shutDown(first);
    await damage(path.join(dir, 'read-models.sqlite'));

    const next = service(events, dir);
    await next.start();
    expect(await dumpReadModels(next.read)).toEqual(await rebuilt(events));
    const files = await readdir(dir);
    expect(files.some((f) => /^read-models\.sqlite\.illisible-\d+$/.test(f))).toBe(keptAside);
    await shutDown(next);
    await events.close();
  });
});
