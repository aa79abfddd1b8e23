import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  MemoryReadStore,
  SqliteEventStore,
  readMemorySnapshot,
  writeMemorySnapshot,
  type EventStore,
} from '@evo/infra';
import { allProjectors } from '../registry';
import { ProjectionService } from './projection-service';
import { rebuildReadModels } from './rebuild';
import { readCheckpoint } from './checkpoint';
import { projectorFingerprint, type SnapshotPolicy } from './snapshots';
import { dumpReadModels } from '../testing/read-model-dump';
import { writeScriptedHistory } from '../testing/scripted-history';

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-snap-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function logStore(dir: string, name = 'events.sqlite'): SqliteEventStore {
  const events = new SqliteEventStore(path.join(dir, name));
  cleanup.push(() => events.close());
  return events;
}

/** a service as the embedded server makes it (periodic snapshots off unless asked) */
function service(events: EventStore, policy: Partial<SnapshotPolicy> & { file: string }): ProjectionService {
  const s = new ProjectionService({
    events,
    projectors: allProjectors,
    makeStore: () => new MemoryReadStore(),
    snapshots: { everyEvents: 0, everyMinutes: 0, ...policy },
  });
  return s;
}

async function rebuilt(events: EventStore) {
  return dumpReadModels(await rebuiltStore(events));
}

async function rebuiltStore(events: EventStore) {
  const fresh = new MemoryReadStore();
  await rebuildReadModels({ events, read: fresh, projectors: allProjectors });
  return fresh;
}

/** Every collection read through each of its indexes (a find sorted by the index's key: served in index order). */
async function throughIndexes(store: MemoryReadStore): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const c of store.captureImage().collections) {
    for (const index of c.indexes) {
      const name = `${c.name}.${index.name}`;
      expect(store.explain(c.name, {}, { sort: index.key }).plan, name).toBe('IXSCAN');
      out[name] = (await store.collection(c.name).find({}, { sort: index.key })).map((d) => d._id);
    }
  }
  return out;
}

/** runs a service over the whole log and stops it (which writes its snapshot) */
async function runAndStop(events: EventStore, file: string, fingerprint?: string): Promise<ProjectionService> {
  const s = service(events, { file, fingerprint });
  await s.start();
  await s.stop();
  return s;
}

describe('read-model snapshots (embedded restarts)', () => {
  it('a snapshot plus the events since equals a full rebuild, document by document', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'read-models.snapshot');
    const events = logStore(dir);
    await writeScriptedHistory(events, 4, 'avant');
    const first = await runAndStop(events, file);
    expect(first.lastLoad).toMatchObject({ loaded: false, reason: 'missing' });
    const snapshotAt = (await events.lastPosition())!;
    expect((await stat(file)).size).toBeGreaterThan(0);

    // events after the snapshot: the next start loads it and applies only those
    await writeScriptedHistory(events, 3, 'apres');
    const last = (await events.lastPosition())!;
    expect(last).toBeGreaterThan(snapshotAt);
    const second = service(events, { file });
    await second.start();
    expect(second.lastLoad).toMatchObject({ loaded: true, position: snapshotAt });
    expect(await readCheckpoint(second.read)).toBe(last);
    // what the catch-up and the reads below did not make, the background does
    await second.finishLoading();
    expect((second.read.current as MemoryReadStore).encodedCollections()).toEqual([]);
    const served = await dumpReadModels(second.read);
    const full = await rebuiltStore(events);
    expect(served).toEqual(await dumpReadModels(full));
    expect(served.users).toHaveLength(7);
    // the indexes filled from the snapshot's saved orders, then written by the catch-up, hold
    // what the rebuilt ones do, in the same order
    const indexes = await throughIndexes(second.read.current as MemoryReadStore);
    expect(Object.keys(indexes).length).toBeGreaterThan(20);
    expect(indexes).toEqual(await throughIndexes(full));
    // and it keeps following the log live
    await writeScriptedHistory(events, 2, 'ensuite');
    expect(await second.waitFor((await events.lastPosition())!, 10_000)).toBe(true);
    expect(await dumpReadModels(second.read)).toEqual(await rebuilt(events));
    await second.stop();
  });

  /** a log of four members' history and the snapshot its service wrote at its stop */
  async function snapshottedHistory(): Promise<{ file: string; events: SqliteEventStore }> {
    const dir = await tempDir();
    const file = path.join(dir, 'read-models.snapshot');
    const events = logStore(dir);
    await writeScriptedHistory(events, 4, 'avant');
    await runAndStop(events, file);
    return { file, events };
  }

  it('a start answers before the documents are made; finishLoading makes the rest', async () => {
    const { file, events } = await snapshottedHistory();
    const s = service(events, { file });
    await s.start();
    expect(s.lastLoad).toMatchObject({ loaded: true });
    const store = s.read.current as MemoryReadStore;
    // no event since the snapshot: the start made only what it read (the checkpoint and smaller)
    expect(store.encodedCollections().length).toBeGreaterThan(5);
    await s.finishLoading();
    expect(store.encodedCollections()).toEqual([]);
    expect(await dumpReadModels(s.read)).toEqual(await rebuilt(events));
    await s.stop();
  });

  describe('a snapshot that passes its checks but cannot be decoded (a writer’s bug) is set aside and the read models rebuilt', () => {
    /** the users' unique email index broken in the snapshot (two members with one email), its order to be checked */
    async function breakUsers(file: string): Promise<void> {
      const { meta, image } = await readMemorySnapshot(file);
      const users = image.collections.find((c) => c.name === 'users')!;
      expect(users.docs.length).toBeGreaterThan(1);
      users.docs[1] = { ...users.docs[1], email_lc: users.docs[0].email_lc };
      await writeMemorySnapshot(file, { ...image, orderCode: 'other code' }, meta);
    }

    it('found at start, by the catch-up', async () => {
      const { file, events } = await snapshottedHistory();
      await breakUsers(file);
      await writeScriptedHistory(events, 2, 'apres'); // new members: the catch-up writes to the users
      const s = service(events, { file });
      await s.start();
      expect(s.lastLoad).toMatchObject({ loaded: false, reason: 'damaged' });
      await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
      expect((await stat(`${file}.illisible`)).size).toBeGreaterThan(0);
      expect(await dumpReadModels(s.read)).toEqual(await rebuilt(events));
      await s.stop();
      // the stop wrote a sound snapshot again
      const again = service(events, { file });
      await again.start();
      expect(again.lastLoad).toMatchObject({ loaded: true });
      await again.stop();
    });

    it('found in the background, after the start', async () => {
      const { file, events } = await snapshottedHistory();
      await breakUsers(file);
      const s = service(events, { file });
      await s.start();
      expect(s.lastLoad).toMatchObject({ loaded: true });
      const broken = s.read.current;
      await s.finishLoading();
      await s.rebuild(); // the one the failure started (joined), or a new one
      expect(s.read.current).not.toBe(broken);
      await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await dumpReadModels(s.read)).toEqual(await rebuilt(events));
      await s.stop();
      expect((await stat(file)).size).toBeGreaterThan(0);
    });
  });

  it('a byte altered in a late block is found after the start (each block is checked when read): set aside, read models rebuilt', async () => {
    const { file, events } = await snapshottedHistory();
    // the same snapshot in small checksum blocks, one byte of its last collection changed
    const { meta, image } = await readMemorySnapshot(file);
    await writeMemorySnapshot(file, image, meta, { hashBlockBytes: 256 });
    const bytes = await readFile(file);
    const covered = bytes.length - 36 - 32 * bytes.readUInt32LE(bytes.length - 36);
    bytes[covered - 300] ^= 0x01;
    await writeFile(file, bytes);
    const s = service(events, { file });
    await s.start();
    // the start read the small collections only: their blocks are sound
    expect(s.lastLoad).toMatchObject({ loaded: true });
    const altered = s.read.current;
    await s.finishLoading();
    await s.rebuild(); // the one the failure started (joined), or a new one
    expect(s.read.current).not.toBe(altered);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await stat(`${file}.illisible`)).size).toBe(bytes.length);
    expect(await dumpReadModels(s.read)).toEqual(await rebuilt(events));
    await s.stop();
  });

  it('a snapshot taken while events are applied holds the read models exactly at its checkpoint', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'read-models.snapshot');
    const events = logStore(dir);
    await writeScriptedHistory(events, 2, 'avant');
    const live = service(events, { file });
    await live.start();
    // snapshots while the history is being written and projected
    const taken: bigint[] = [];
    let writing = true;
    const snapshots = (async () => {
      while (writing) {
        const s = await live.snapshot();
        if (s) taken.push(s.position);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await writeScriptedHistory(events, 3, 'pendant');
    writing = false;
    await snapshots;
    expect(taken.length).toBeGreaterThan(0);
    // stop without the shutdown snapshot: keep the last one taken under traffic
    await live['live'].stop();

    const restarted = service(events, { file });
    await restarted.start();
    expect(restarted.lastLoad).toMatchObject({ loaded: true, position: taken.at(-1) });
    expect(await dumpReadModels(restarted.read)).toEqual(await rebuilt(events));
    await restarted.stop();
  });

  it('takes a snapshot every N events while running', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'read-models.snapshot');
    const events = logStore(dir);
    const s = service(events, { file, everyEvents: 10 });
    await s.start();
    await writeScriptedHistory(events, 2);
    await vi.waitFor(() => stat(file), { timeout: 20_000, interval: 100 });
    const restarted = service(events, { file });
    await s['live'].stop();
    await restarted.start();
    expect(restarted.lastLoad).toMatchObject({ loaded: true });
    expect(await dumpReadModels(restarted.read)).toEqual(await rebuilt(events));
    await restarted.stop();
  });

  describe('a snapshot that does not fit is ignored and the read models are rebuilt from the log', () => {
    async function setUp() {
      const dir = await tempDir();
      const file = path.join(dir, 'read-models.snapshot');
      const events = logStore(dir);
      await writeScriptedHistory(events, 3);
      await runAndStop(events, file);
      await writeScriptedHistory(events, 2, 'apres');
      return { dir, file, events };
    }

    async function expectRebuilt(events: EventStore, file: string, reason: string, fingerprint?: string) {
      const s = service(events, { file, fingerprint });
      await s.start();
      expect(s.lastLoad).toMatchObject({ loaded: false, reason });
      expect(await readCheckpoint(s.read)).toBe(await events.lastPosition());
      expect(await dumpReadModels(s.read)).toEqual(await rebuilt(events));
      await s.stop();
      // the shutdown wrote a sound snapshot in its place
      const again = service(events, { file, fingerprint });
      await again.start();
      expect(again.lastLoad).toMatchObject({ loaded: true });
      await again.stop();
    }

    it('made by another version of the projectors', async () => {
      const { file, events } = await setUp();
      expect(projectorFingerprint(allProjectors)).not.toBe('une-autre-version');
      await expectRebuilt(events, file, 'other-version', 'une-autre-version');
    });

    it('written in an older format (the documents not yet stored as columns)', async () => {
      const { file, events } = await setUp();
      const bytes = await readFile(file);
      bytes.write('EVOSNAP1', 0, 'latin1');
      await writeFile(file, bytes);
      await expectRebuilt(events, file, 'other-version');
    });

    it('torn: cut short', async () => {
      const { file, events } = await setUp();
      const size = (await stat(file)).size;
      await truncate(file, Math.floor(size / 2));
      await expectRebuilt(events, file, 'damaged');
    });

    it('torn: only its first bytes', async () => {
      const { file, events } = await setUp();
      await truncate(file, 5);
      await expectRebuilt(events, file, 'damaged');
    });

    it('one byte changed', async () => {
      const { file, events } = await setUp();
      const bytes = await readFile(file);
      bytes[Math.floor(bytes.length / 2)] ^= 0x01;
      await writeFile(file, bytes);
      await expectRebuilt(events, file, 'damaged');
    });

    it('ahead of the log (the event store was replaced by an older one)', async () => {
      const { dir, file, events } = await setUp();
      // an older copy of the log: the same history, cut before the snapshot's checkpoint
      const older = logStore(dir, 'older.sqlite');
      let copied = 0;
      for await (const batch of events.readAll(undefined, 100)) {
        for (const e of batch) {
          if (copied >= 20) break;
          await older.append(e.streamId, [{ id: e.id, type: e.type, data: e.data, metadata: e.metadata }], 'any');
          copied++;
        }
      }
      expect(await older.lastPosition()).toBe(20n);
      await expectRebuilt(older, file, 'ahead-of-log');
    });

    it('taken from another log with as many events', async () => {
      const { dir, file, events } = await setUp();
      const other = logStore(dir, 'other.sqlite');
      await writeScriptedHistory(other, 3);
      await writeScriptedHistory(other, 2, 'apres');
      expect(await other.lastPosition()).toBe(await events.lastPosition());
      await expectRebuilt(other, file, 'other-log');
    });
  });

  it('after an admin rebuild, snapshots are taken of the rebuilt read models', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'read-models.snapshot');
    const events = logStore(dir);
    await writeScriptedHistory(events, 2);
    const s = service(events, { file });
    await s.start();
    // a document only the first store has: it must not reach the snapshot once rebuilt
    const before = s.read.current;
    await before.collection('marque').insertOne({ _id: 'ancien' });
    await s.rebuild();
    expect(s.read.current).not.toBe(before);
    await writeScriptedHistory(events, 2, 'apres');
    expect(await s.waitFor((await events.lastPosition())!, 10_000)).toBe(true);
    await s.stop();

    const restarted = service(events, { file });
    await restarted.start();
    expect(restarted.lastLoad).toMatchObject({ loaded: true, position: await events.lastPosition() });
    expect(await restarted.read.listCollections()).not.toContain('marque');
    expect(await dumpReadModels(restarted.read)).toEqual(await rebuilt(events));
    await restarted.stop();
  });
});
