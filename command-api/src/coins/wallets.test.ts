import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DomainError, LEDGER_MESSAGES, type WalletCommand } from '@evo/domain';
import { SqliteEventStore, systemContext, type EventStore } from '@evo/infra';
import { CatalogueRepository, WalletRepository } from './wallets';

/** The store, counting the reads and appends the repository asks of it. */
function counted(store: EventStore) {
  const calls = { reads: 0, appends: 0 };
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'readStream' || prop === 'append') {
        return (...args: unknown[]) => {
          calls[prop === 'readStream' ? 'reads' : 'appends']++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: proxy, calls };
}

const ctx = systemContext();
const add = (userId: string, txId: number, amount: number): WalletCommand => ({
  type: 'AddCoins',
  userId,
  txId,
  amount,
});
const send = (userId: string, giftId: number, cost: number): WalletCommand => ({
  type: 'SendGift',
  userId,
  giftId,
  receiverId: 'receiver',
  gift: { id: 1, name: 'Rose', emoji: '🌹', coinCost: cost },
  feePercent: 0,
});
const rose = { name: 'Rose', emoji: '🌹', imageUrl: '', coinCost: 1 };

const dirs: string[] = [];
const stores: SqliteEventStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const openStore = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'evo-wallets-'));
  dirs.push(dir);
  const store = new SqliteEventStore(path.join(dir, 'events.sqlite'));
  stores.push(store);
  return store;
};

describe('WalletRepository: one round trip per command on a wallet it keeps up to date', () => {
  it('reads the wallet once, then decides on its cache: each later command costs one append and no read', async () => {
    const { store, calls } = counted(openStore());
    const wallets = new WalletRepository(store);
    await wallets.execute(add('lea', 1, 10), ctx);
    expect(calls).toEqual({ reads: 1, appends: 1 });
    for (let i = 0; i < 5; i++) await wallets.execute(send('lea', 100 + i, 2), ctx);
    expect(calls).toEqual({ reads: 1, appends: 6 });
    // the cache is the log: the sixth gift is refused for want of coins, nothing appended
    await expect(wallets.execute(send('lea', 200, 2), ctx)).rejects.toThrow(LEDGER_MESSAGES.insufficient);
    expect(calls.appends).toBe(6);
    expect((await new WalletRepository(store).view('lea')).state.bonus).toBe(0);
  });

  it('a cache behind the log (another process spent meanwhile) is caught by the expected revision: read again, decided again, never overdrawn', async () => {
    const shared = openStore();
    const { store, calls } = counted(shared);
    const here = new WalletRepository(store);
    const elsewhere = new WalletRepository(shared);
    await here.execute(add('lea', 1, 3), ctx);
    // another process spends 2 of the 3 coins: this one's cache still says 3
    await elsewhere.execute(send('lea', 10, 2), ctx);
    const before = { ...calls };
    const refused = await here.execute(send('lea', 11, 2), ctx).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).message).toBe(LEDGER_MESSAGES.insufficient);
    // the append on the stale cache was refused, the newer event read, the gift decided again and refused
    expect(calls.appends - before.appends).toBe(1);
    expect(calls.reads - before.reads).toBe(1);
    const outcome = await here.execute(send('lea', 12, 1), ctx);
    expect(outcome.state.bonus).toBe(0);
    const log = await shared.readStream('wallet-lea');
    expect(log.map((e) => e.type)).toEqual(['CoinsAdded', 'GiftSent', 'GiftSent']);
  });

  it('a keyed command (a gift credit) its own append wrote costs no read after it; one whose events another process stored first reads them', async () => {
    const shared = openStore();
    const { store, calls } = counted(shared);
    const here = new WalletRepository(store);
    const keyed = (key: string) => ({ ...ctx, idempotencyKey: key });
    await here.execute(add('lea', 1, 10), ctx);
    for (let i = 0; i < 3; i++) await here.execute(send('lea', 100 + i, 2), keyed(`credit-${i}`));
    expect(calls).toEqual({ reads: 1, appends: 4 });
    // another process handles the next keyed command first: this one's append stores nothing, and it reads the stream
    await new WalletRepository(shared).execute(send('lea', 103, 2), keyed('credit-3'));
    const again = await here.execute(send('lea', 103, 2), keyed('credit-3'));
    expect(calls).toEqual({ reads: 2, appends: 5 });
    expect(again.state.bonus).toBe(2);
    expect((await here.view('lea')).revision).toBe(4);
    expect((await shared.readStream('wallet-lea')).map((e) => e.type)).toEqual([
      'CoinsAdded',
      'GiftSent',
      'GiftSent',
      'GiftSent',
      'GiftSent',
    ]);
  });
});

describe('CatalogueRepository: callers arriving together share one read, none misses a change made before its call', () => {
  it('32 concurrent callers cost two reads (the one on its way, then one for all who came during it)', async () => {
    const plain = openStore();
    const { store, calls } = counted(plain);
    await new CatalogueRepository(plain).execute({ type: 'AddGift', gift: rose }, ctx);
    const catalogue = new CatalogueRepository(store);
    const all = await Promise.all(Array.from({ length: 32 }, () => catalogue.gift(1)));
    expect(all.every((g) => g?.coinCost === 1)).toBe(true);
    expect(calls.reads).toBe(2);
  });

  it('a caller arriving while a read is on its way waits for the next read: it sees a change committed before its call', async () => {
    const plain = openStore();
    const other = new CatalogueRepository(plain);
    await other.execute({ type: 'AddGift', gift: rose }, ctx);
    const catalogue = new CatalogueRepository(plain);
    const early = catalogue.gift(1);
    await other.execute({ type: 'UpdateGift', giftId: 1, gift: { ...rose, coinCost: 5 } }, ctx);
    const late = catalogue.gift(1);
    expect((await late)?.coinCost).toBe(5);
    // before or after the change, never anything else
    expect([rose.coinCost, 5]).toContain((await early)?.coinCost);
    expect((await catalogue.gift(1))?.coinCost).toBe(5);
  });
});
