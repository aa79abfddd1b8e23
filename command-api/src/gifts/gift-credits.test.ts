import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { WalletRepository } from '../coins/wallets';
import type { LogPosition, RecordedEvent } from '@evo/domain';
import { SqliteEventStore, systemContext, type EventStore } from '@evo/infra';
import { GiftCreditProcess, type TransitState } from './gift-credits';

const dirs: string[] = [];
const stores: SqliteEventStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function setup() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'evo-gift-credits-'));
  dirs.push(dir);
  const events = new SqliteEventStore(path.join(dir, 'events.sqlite'), { pollIntervalMs: 10 });
  stores.push(events);
  const wallets = new WalletRepository(events);
  await wallets.execute({ type: 'AddCoins', userId: 'alice', txId: 1, amount: 1000 }, systemContext());
  let giftId = 0;
  /** alice sends a gift to bob (appends GiftSent only) */
  const send = async () => {
    const id = ++giftId;
    await wallets.execute(
      {
        type: 'SendGift',
        userId: 'alice',
        giftId: id,
        receiverId: 'bob',
        gift: { id: 1, name: 'Rose', emoji: '🌹', coinCost: 5 },
        feePercent: 0,
      },
      systemContext(),
    );
    return id;
  };
  return { dir, events, send };
}

/** The store, with the `from` of every scan (readAll in batches of 2000) recorded. */
function watched(events: EventStore): { store: EventStore; scans: Array<LogPosition | undefined> } {
  const scans: Array<LogPosition | undefined> = [];
  const store = new Proxy(events, {
    get(target, key) {
      if (key === 'readAll')
        return (from?: LogPosition, batch?: number) => {
          if (batch === 2000) scans.push(from);
          return target.readAll(from, batch);
        };
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, scans };
}

async function all(events: EventStore): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const batch of events.readAll()) out.push(...batch);
  return out;
}

/** giftId → how many GiftReceived it has */
async function credits(events: EventStore): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const e of await all(events)) {
    const id = (e.data as { giftId?: number }).giftId;
    if (e.type === 'GiftSent') out.set(id!, out.get(id!) ?? 0);
    if (e.type === 'GiftReceived') out.set(id!, (out.get(id!) ?? 0) + 1);
  }
  return out;
}

/** The gifts in transit at the end of the log, folded here as the read models keep them. */
async function transitNow(events: EventStore): Promise<TransitState> {
  const transit = new Map<number, RecordedEvent>();
  let last: RecordedEvent | undefined;
  for (const e of await all(events)) {
    const id = (e.data as { giftId?: number }).giftId!;
    if (e.type === 'GiftSent') transit.set(id, e);
    if (e.type === 'GiftReceived') transit.delete(id);
    last = e;
  }
  return { position: last!.position, eventId: last!.id, transit: [...transit.values()] };
}

/** A process whose credits always fail: its gifts stay in transit. */
const failing = (events: EventStore) =>
  new GiftCreditProcess(events, {
    wallets: {
      execute: () => Promise.reject(new Error('wallet unavailable')),
    } as unknown as WalletRepository,
    retryMs: 5,
  });

describe('gift credits, resumed from a fold of the log', () => {
  it('a start folds the log only after it and credits the gifts in transit, as a full scan does', async () => {
    const { events, send } = await setup();
    // a first process credits gift 1; gift 2 stays in transit (its credits fail)
    const first = new GiftCreditProcess(events);
    await first.start();
    await send();
    expect(await first.waitFor((await events.lastPosition())!, 5000)).toBe(true);
    await first.stop();
    const broken = failing(events);
    await broken.start();
    const inTransit = await send();
    await new Promise((r) => setTimeout(r, 100));
    await broken.stop();
    const saved = await transitNow(events);
    expect(saved.transit.map((e) => (e.data as { giftId: number }).giftId)).toEqual([inTransit]);
    // gift 3 is sent while nothing runs
    await send();
    const last = (await events.lastPosition())!;

    const { store, scans } = watched(events);
    const next = new GiftCreditProcess(store, { resumeFrom: async () => saved });
    await next.start();
    expect(scans).toEqual([saved.position]);
    expect(await next.waitFor(last, 5000)).toBe(true);
    await next.stop();
    expect(next.credited).toBe(2);
    expect([...(await credits(events))]).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    // a process scanning the whole log finds nothing left in transit either
    const full = new GiftCreditProcess(events);
    await full.start();
    expect(await full.waitFor((await events.lastPosition())!, 5000)).toBe(true);
    await full.stop();
    expect(full.credited).toBe(0);
    expect((await transitNow(events)).transit).toEqual([]);
  });

  describe('a fold that does not fit the log is ignored: the whole log is scanned', () => {
    async function startsWithFullScan(damage: (state: TransitState) => TransitState | Promise<never>) {
      const ctx = await setup();
      const broken = failing(ctx.events);
      await broken.start();
      await ctx.send();
      await ctx.send();
      await broken.stop();
      const state = await transitNow(ctx.events);
      const { store, scans } = watched(ctx.events);
      const pm = new GiftCreditProcess(store, { resumeFrom: async () => damage({ ...state, transit: [] }) });
      await pm.start();
      expect(scans).toEqual([undefined]);
      expect(await pm.waitFor((await ctx.events.lastPosition())!, 5000)).toBe(true);
      await pm.stop();
      expect([...(await credits(ctx.events))]).toEqual([
        [1, 1],
        [2, 1],
      ]);
    }

    it('unreadable', () => startsWithFullScan(() => Promise.reject(new Error('disk I/O error'))));

    it('beyond the end of the log', () => startsWithFullScan((s) => ({ ...s, position: s.position + 10n })));

    it('of another log (not the same event at its position)', () =>
      startsWithFullScan((s) => ({ ...s, eventId: 'another-event' })));
  });
});
