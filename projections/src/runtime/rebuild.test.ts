import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteReadStore, SqliteEventStore } from '@evo/infra';
import { SwitchableReadStore } from './switchable-read-store';
import { HistoryWriter } from '../../../scripts/restart-history';
import { allProjectors } from '../registry';
import { dumpReadModels } from '../testing/read-model-dump';
import { writeScriptedHistory } from '../testing/scripted-history';
import { readCheckpoint } from './checkpoint';
import { rebuildReadModels } from './rebuild';
import { ProjectionRunner } from './runner';
import { explain, indexNames } from '@evo/infra/testing/read-store-plans';

/** Every document of every collection, fields in stored order (toEqual does not compare the order). */
const asText = (dump: Record<string, unknown[]>) => JSON.stringify(dump);

/**
 * Two logs: a realistic history (registrations, uploads, follows, likes, comments, messages,
 * gifts: scripts/restart-history.ts) and the scripted one (reports, moderation, visibility,
 * notifications read and deleted, conversations deleted...).
 */
const histories = {
  realistic: async (events: SqliteEventStore) => {
    const writer = new HistoryWriter(events);
    await writer.writeUntil(12_000);
    return { minEvents: 12_000, more: () => writer.writeUntil(writer.written + 300) };
  },
  scripted: async (events: SqliteEventStore) => {
    await writeScriptedHistory(events, 3);
    return { minEvents: 100, more: () => writeScriptedHistory(events, 2, 'ensuite') };
  },
};

describe.each(Object.keys(histories) as Array<keyof typeof histories>)('a rebuild from empty (%s history)', (kind) => {
  let dir: string;
  let minEvents: number;
  let more: () => Promise<unknown>;
  let events: SqliteEventStore;
  /** the read models built by a runner following the log while it was written */
  let live: SqliteReadStore;
  let liveDump: Record<string, unknown[]>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evo-rebuild-'));
    events = new SqliteEventStore(path.join(dir, 'events.sqlite'));
    live = SqliteReadStore.temporary();
    const runner = new ProjectionRunner({ events, read: live, projectors: allProjectors });
    await runner.start();
    ({ minEvents, more } = await histories[kind](events));
    const last = (await events.lastPosition())!;
    expect(await runner.waitFor(last, 120_000)).toBe(true);
    await runner.stop();
    liveDump = await dumpReadModels(live);
  }, 300_000);

  afterAll(async () => {
    await events?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('equals the live read models, document by document, with the same indexes', async () => {
    const rebuilt = SqliteReadStore.temporary();
    const result = await rebuildReadModels({ events, read: rebuilt, projectors: allProjectors });
    expect(result.events).toBeGreaterThanOrEqual(minEvents);
    expect(result.position).toBe(await events.lastPosition());
    expect(await readCheckpoint(rebuilt)).toBe(result.position);

    const dump = await dumpReadModels(rebuilt);
    expect(Object.keys(dump).length).toBeGreaterThan(kind === 'realistic' ? 12 : 15);
    expect(dump).toEqual(liveDump);
    expect(asText(dump)).toBe(asText(liveDump));
    for (const name of await live.listCollections()) expect(indexNames(rebuilt, name)).toEqual(indexNames(live, name));
    // the indexes are built: a member's notifications are read through one
    const someone = (dump.notifications[0] as { user_id: string }).user_id;
    expect(explain(rebuilt, 'notifications', { user_id: someone, deleted: false }).plan).toBe('IXSCAN');
    await rebuilt.close();
  }, 120_000);

  it('does not depend on the batch size, nor on the bulk load (plain transactions give the same)', async () => {
    const bulk = SqliteReadStore.temporary();
    await rebuildReadModels({ events, read: bulk, projectors: allProjectors, batchSize: 250 });
    // a SwitchableReadStore has no bulkLoad: the same batches in plain transactions, indexes kept at each write
    const plain = new SwitchableReadStore(SqliteReadStore.temporary());
    await rebuildReadModels({ events, read: plain, projectors: allProjectors, batchSize: 333 });
    // a small batch
    const small = SqliteReadStore.temporary();
    await rebuildReadModels({ events, read: small, projectors: allProjectors, batchSize: 100 });
    expect(asText(await dumpReadModels(bulk))).toBe(asText(liveDump));
    expect(asText(await dumpReadModels(plain))).toBe(asText(liveDump));
    expect(asText(await dumpReadModels(small))).toBe(asText(liveDump));
    await bulk.close();
    await plain.close();
    await small.close();
  }, 120_000);

  it('is what a first start does, and the runner then follows the log', async () => {
    const store = SqliteReadStore.temporary();
    const runner = new ProjectionRunner({ events, read: store, projectors: allProjectors, batchSize: minEvents / 20 });
    const seen: number[] = [];
    await runner.start((done) => seen.push(done));
    expect(seen.length).toBeGreaterThan(5);
    expect(asText(await dumpReadModels(store))).toBe(asText(liveDump));
    // live from here: events appended now reach the read models
    await more();
    const last = (await events.lastPosition())!;
    expect(await runner.waitFor(last, 60_000)).toBe(true);
    await runner.stop();
    expect(await readCheckpoint(store)).toBe(last);
    const rebuilt = SqliteReadStore.temporary();
    await rebuildReadModels({ events, read: rebuilt, projectors: allProjectors });
    expect(asText(await dumpReadModels(store))).toBe(asText(await dumpReadModels(rebuilt)));
  }, 120_000);

  it('commits nothing of a batch in which a projector fails', async () => {
    const store = SqliteReadStore.temporary();
    const failing = {
      ...allProjectors[0],
      name: 'failing',
      collections: [],
      project: async () => {
        throw new Error('projector failure');
      },
    };
    await expect(rebuildReadModels({ events, read: store, projectors: [...allProjectors, failing] })).rejects.toThrow(
      'projector failure',
    );
    expect(await readCheckpoint(store)).toBeUndefined();
    expect(await store.collection('users').countDocuments()).toBe(0);
  });
});
