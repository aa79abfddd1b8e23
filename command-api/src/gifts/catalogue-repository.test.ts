import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteEventStore, systemContext, type EventStore } from '@evo/infra';
import { CatalogueRepository } from './catalogue-repository';

const ctx = systemContext();
const rose = { name: 'Rose', emoji: '🌹', imageUrl: '', coinCost: 1 };

describe('CatalogueRepository: callers arriving together share one read, none misses a change made before its call', () => {
  const dirs: string[] = [];
  const stores: SqliteEventStore[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  function counted() {
    const dir = mkdtempSync(path.join(tmpdir(), 'evo-catalogue-'));
    dirs.push(dir);
    const store = new SqliteEventStore(path.join(dir, 'events.sqlite'));
    stores.push(store);
    const calls = { reads: 0 };
    const wrapped: EventStore = Object.assign(Object.create(store) as EventStore, {
      readStream: (...args: Parameters<EventStore['readStream']>) => {
        calls.reads++;
        return store.readStream(...args);
      },
    });
    return { store, wrapped, calls };
  }

  it('32 concurrent callers cost two reads (the one on its way, then one for all who came during it)', async () => {
    const { store, wrapped, calls } = counted();
    await new CatalogueRepository(store).execute({ type: 'AddGift', gift: rose }, ctx);
    const catalogue = new CatalogueRepository(wrapped);
    const all = await Promise.all(Array.from({ length: 32 }, () => catalogue.gift(1)));
    expect(all.every((g) => g?.coinCost === 1)).toBe(true);
    expect(calls.reads).toBe(2);
  });

  it('a caller arriving while a read is on its way waits for the next read: it sees a change committed before its call', async () => {
    const { store, wrapped } = counted();
    const other = new CatalogueRepository(store);
    await other.execute({ type: 'AddGift', gift: rose }, ctx);
    const catalogue = new CatalogueRepository(wrapped);
    const early = catalogue.gift(1);
    await other.execute({ type: 'UpdateGift', giftId: 1, gift: { ...rose, coinCost: 5 } }, ctx);
    const late = catalogue.gift(1);
    expect((await late)?.coinCost).toBe(5);
    // before or after the change, never anything else
    expect([rose.coinCost, 5]).toContain((await early)?.coinCost);
    expect((await catalogue.gift(1))?.coinCost).toBe(5);
  });
});
