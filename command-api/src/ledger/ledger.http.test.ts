import { rm } from 'node:fs/promises';
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import type { Socket } from 'socket.io-client';
import { COIN_PACKS, LEDGER_MESSAGES, MESSAGES, type RecordedEvent } from '@evo/domain';
import { GiftCreditProcess } from '../gifts/gift-credits';
import { reconcileLedger } from './reconcile';
import { Client, registerAndLogin, startTestServer, type TestServer, type Member } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';
import { online } from '../admin/test-helpers';
import { AUTH_MESSAGES } from '../http/session';

const t = serverFixture({ admin: true });

/** Everything started has finished: video jobs, gift credits, projections. */
async function settle() {
  await t.server.settle(30_000);
  for (let i = 0; i < 3; i++) {
    const last = (await t.server.deps.events.lastPosition())!;
    expect(await t.server.giftCredits!.waitFor(last, 10_000)).toBe(true);
    expect(await t.server.deps.progress.waitFor(last, 10_000)).toBe(true);
    if ((await t.server.deps.events.lastPosition()) === last) return last;
  }
  return (await t.server.deps.events.lastPosition())!;
}

/** The request must be refused with this status and French message, and append nothing. */
async function expectRefused(
  send: () => Promise<{ status: number; json: { error?: string } }>,
  status: number,
  error?: string,
) {
  const before = await settle();
  const r = await send();
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  expect(typeof r.json?.error).toBe('string');
  if (error) expect(r.json.error).toBe(error);
  expect(await settle()).toBe(before);
}

const member = () => t.member();
const add = (m: Member, amount: number, headers?: Record<string, string>) =>
  m.client.post('/api/coins/add', { email: m.member.email, amount }, headers);
/** paid coins (the first pack: 110), whose gifts become their receiver's withdrawable earnings */
const buy = async (m: Member, packId = 1) => {
  const r = await m.client.post('/api/coins/purchase', { email: m.member.email, packId });
  expect(r.status, r.text).toBe(200);
  return r;
};
const send = (from: Member, to: Member, giftId = 1, headers?: Record<string, string>, path = '/api/gifts/send') =>
  from.client.post(
    path,
    { sender_email: from.member.email, receiver_email: to.member.email, gift_id: giftId },
    headers,
  );
// what every wallet answer states besides the member's coins (the withdrawal rate, the sandbox payout)
const WALLET_RULES = { withdrawal_cents_per_100_coins: 50, withdrawal_payout: 'sandbox' };
const balance = async (m: Member) => {
  await settle();
  const {
    add_coins_enabled: _enabled,
    withdrawal_cents_per_100_coins: _rate,
    withdrawal_payout: _payout,
    ...coins
  } = (await m.client.get(`/api/coins/balance/${m.member.email}`)).json as {
    coins_balance: number;
    coins_withdrawable: number;
    coins_bonus: number;
    gifts_unclaimed: number;
    add_coins_enabled: boolean;
    withdrawal_cents_per_100_coins: number;
    withdrawal_payout: string;
  };
  return coins;
};
type ReceivedRow = {
  id: number;
  name: string;
  sender_pseudo: string;
  sender_email: string;
  coin_cost: number;
  sent_at: string;
  claimed: boolean;
};
const received = async (m: Member) => {
  await settle();
  return (await m.client.get(`/api/gifts/received/${m.member.email}`)).json as unknown as ReceivedRow[];
};
const allEvents = async () => {
  const out: RecordedEvent[] = [];
  for await (const b of t.server.deps.events.readAll()) out.push(...b);
  return out;
};

describe('catalogue and packs', () => {
  it('lists the eight packs of the specification and the seeded gifts, gift 1 first', async () => {
    const c = new Client(t.server.url);
    const packs = await c.get('/api/coins/packs');
    expect(packs.status).toBe(200);
    expect(packs.json).toEqual(COIN_PACKS);
    const catalog = (await c.get('/api/gifts/catalog')).json as unknown as Array<Record<string, unknown>>;
    expect(catalog).toHaveLength(8);
    expect(catalog[0]).toEqual({ id: 1, name: 'Rose', emoji: '🌹', image_url: '', coin_cost: 1 });
    for (const g of catalog) expect(Object.keys(g).sort()).toEqual(['coin_cost', 'emoji', 'id', 'image_url', 'name']);
  });
});

describe('coins', () => {
  it('buys a pack, adds coins, withdraws only coins earned from gifts, lists transactions', async () => {
    const m = await member();
    const p = await m.client.post('/api/coins/purchase', { email: m.member.email, packId: 2 });
    expect(p.status).toBe(200);
    // `id`: the purchase's transaction, whose line of the history is its receipt
    expect(p.json).toEqual({
      message: '✅ Achat effectué avec succès !',
      coins_balance: 220,
      coins_withdrawable: 0,
      coins_bonus: 0,
      id: expect.any(Number),
    });
    expect(p.headers.get('x-evo-position')).toMatch(/^\d+$/);
    const a = await add(m, 10);
    expect(a.json).toEqual({
      message: '✅ 10 coins ajoutés avec succès.',
      coins_balance: 230,
      coins_withdrawable: 0,
      coins_bonus: 10,
    });
    // bought and added coins never leave the platform
    await expectRefused(
      () => m.client.post('/api/coins/withdraw', { user_email: m.member.email, amount: '30' }),
      400,
      LEDGER_MESSAGES.notWithdrawable,
    );
    // coins earned from a received gift paid with bought coins do
    const fan = await member();
    await buy(fan);
    expect((await send(fan, m, 3)).status).toBe(200);
    await settle();
    const converted = await m.client.post('/api/coins/convert-gifts', { user_email: m.member.email });
    expect(converted.json).toMatchObject({ transferred: 10, coins_balance: 240, coins_withdrawable: 10 });
    const w = await m.client.post('/api/coins/withdraw', { user_email: m.member.email, amount: '4' });
    expect(w.status).toBe(200);
    expect(w.json).toEqual({
      message: LEDGER_MESSAGES.withdrawn(4),
      coins_balance: 236,
      coins_withdrawable: 6,
      coins_bonus: 10,
    });
    await expectRefused(
      () => m.client.post('/api/coins/withdraw', { user_email: m.member.email, amount: 7 }),
      400,
      LEDGER_MESSAGES.notWithdrawable,
    );
    // read-your-writes: the next query of this session sees it without waiting on purpose
    const b = await m.client.get(`/api/coins/balance/${m.member.email}`);
    expect(b.json).toEqual({
      coins_balance: 236,
      coins_withdrawable: 6,
      coins_bonus: 10,
      gifts_unclaimed: 0,
      add_coins_enabled: true,
      ...WALLET_RULES,
    });
    expect((await m.client.get(`/api/gifts/balance/${m.member.email}`)).json).toEqual({ balance: 236 });
    expect((await m.client.get(`/gifts/balance/${m.member.email}`)).json).toEqual({ balance: 236 });
    const tx = (await m.client.get(`/api/coins/transactions/${m.member.email}`)).json as unknown as Array<
      Record<string, unknown>
    >;
    expect(tx.map((t) => [t.type, t.amount])).toEqual([
      ['retrait', -4],
      ['conversion', 10],
      ['cadeau_recu', 10],
      ['ajout', 10],
      ['achat', 220],
    ]);
    for (const t of tx) {
      expect(t.id).toBeTypeOf('number');
      expect(Date.parse(String(t.created_at))).not.toBeNaN();
    }
    // the purchase's receipt: its pack, price and the payment's reference; no other line has one
    expect(tx.find((t) => t.type === 'achat')).toMatchObject({
      id: p.json.id,
      pack_name: 'Bronze',
      value_cents: 200,
      reference: `sandbox-achat-${p.json.id}`,
      coins_balance_after: 220,
    });
    expect(tx.filter((t) => t.pack_name !== null || t.reference !== null)).toHaveLength(1);
    const all = (await t.admin.get('/api/coins/admin/transactions')).json as unknown as Array<Record<string, unknown>>;
    const mine = all.filter((t) => t.user_email === m.member.email);
    expect(mine.map((t) => [t.amount, t.method])).toEqual([
      [-4, 'retrait'],
      [10, 'ajout'],
      [220, 'sandbox'],
    ]);
    expect(Object.keys(mine[0])).toEqual(
      expect.arrayContaining(['id', 'user_email', 'amount', 'method', 'created_at']),
    );
  });

  it('refuses to withdraw bought or added coins, whatever the balance', async () => {
    const m = await member();
    await add(m, 5);
    expect((await m.client.post('/api/coins/purchase', { email: m.member.email, packId: 1 })).status).toBe(200);
    await expectRefused(
      () => m.client.post('/api/coins/withdraw', { user_email: m.member.email, amount: 1 }),
      400,
      LEDGER_MESSAGES.notWithdrawable,
    );
    await expectRefused(
      () => m.client.post('/api/coins/withdraw', { user_email: m.member.email, amount: 1e12 }),
      400,
      LEDGER_MESSAGES.notWithdrawable,
    );
    expect(await balance(m)).toEqual({ coins_balance: 115, coins_withdrawable: 0, coins_bonus: 5, gifts_unclaimed: 0 });
  });
});

describe('coins keep their origin through gifts', () => {
  it('never lets free coins out through a second account: gifts paid with them give bonus coins', async () => {
    // issue 29 item 2: A adds 1,000 coins for free and sends B two 500-coin gifts (Licorne)
    const [a, b] = [await member(), await member()];
    expect((await add(a, 1000)).json).toMatchObject({ coins_balance: 1000, coins_withdrawable: 0, coins_bonus: 1000 });
    for (let i = 0; i < 2; i++) expect((await send(a, b, 8)).status).toBe(200);
    await settle();
    const first = (await received(b))[0];
    expect((await b.client.post('/api/gifts/claim', { gift_id: first.id })).json).toMatchObject({
      coins_balance: 500,
      coins_withdrawable: 0,
      coins_bonus: 500,
    });
    expect((await b.client.post('/api/coins/convert-gifts', { user_email: b.member.email })).json).toMatchObject({
      transferred: 500,
      coins_balance: 1000,
      coins_withdrawable: 0,
      coins_bonus: 1000,
    });
    // 3 × 300 withdrawn before: every one refused now, and nothing appended
    for (let i = 0; i < 3; i++)
      await expectRefused(
        () => b.client.post('/api/coins/withdraw', { user_email: b.member.email, amount: 300 }),
        400,
        LEDGER_MESSAGES.notWithdrawable,
      );
    expect(await balance(b)).toEqual({
      coins_balance: 1000,
      coins_withdrawable: 0,
      coins_bonus: 1000,
      gifts_unclaimed: 0,
    });
    // B may still offer them on: a third member gets bonus coins too
    const c = await member();
    expect((await send(b, c, 8)).status).toBe(200);
    await settle();
    expect((await c.client.post('/api/coins/convert-gifts', { user_email: c.member.email })).json).toMatchObject({
      coins_withdrawable: 0,
      coins_bonus: 500,
    });
    const report = await reconcileLedger(t.server.deps.events);
    expect(report.ok).toBe(true);
    expect(report.totals.external_withdrawals).toBeLessThanOrEqual(-report.totals.external_payments);
  });

  it('splits a gift paid partly with bonus coins: the claimed coins go to the earnings and the bonus account', async () => {
    const [a, b] = [await member(), await member()];
    await add(a, 10);
    await buy(a);
    // 25 coins: the 10 bonus ones, then 15 bought ones
    expect((await send(a, b, 4)).status).toBe(200);
    await settle();
    expect((await b.client.post('/api/coins/convert-gifts', { user_email: b.member.email })).json).toMatchObject({
      transferred: 25,
      coins_balance: 25,
      coins_withdrawable: 15,
      coins_bonus: 10,
    });
    // b's conversion, read by the administrator
    await settle();
    const audit = (await t.admin.get(`/api/admin/ledger/${b.member.email}`)).json as unknown as {
      user: { id: string };
      entries: Array<{ type: string; account: string; delta: number }>;
    };
    expect(audit.entries.filter((e) => e.type === 'conversion').map((e) => [e.account, e.delta])).toEqual([
      [`user:${audit.user.id}:gifts`, -15],
      [`user:${audit.user.id}:earnings`, 15],
      [`user:${audit.user.id}:gifts`, -10],
      [`user:${audit.user.id}:bonus`, 10],
    ]);
  });
});

describe('ALLOW_FREE_COINS=false', () => {
  let closed: TestServer;
  beforeAll(async () => {
    closed = await startTestServer({ ALLOW_FREE_COINS: 'false' });
  });
  afterAll(() => closed.stop());

  it('refuses to add coins (403 in French), appends nothing, and tells the vault to hide the form', async () => {
    const m = await registerAndLogin(closed.url);
    // the registration's video is processed first (its job appends): only the refusal is watched
    await closed.settle(30_000);
    const before = await closed.deps.events.lastPosition();
    const r = await m.client.post('/api/coins/add', { email: m.member.email, amount: 10 });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ error: LEDGER_MESSAGES.freeCoinsDisabled });
    await closed.settle(30_000);
    expect(await closed.deps.events.lastPosition()).toBe(before);
    const b = await m.client.get(`/api/coins/balance/${m.member.email}`);
    expect(b.json).toEqual({
      coins_balance: 0,
      coins_withdrawable: 0,
      coins_bonus: 0,
      gifts_unclaimed: 0,
      add_coins_enabled: false,
      ...WALLET_RULES,
    });
    // packs are still bought
    expect((await m.client.post('/api/coins/purchase', { email: m.member.email, packId: 1 })).json).toMatchObject({
      coins_balance: 110,
    });
  });
});

describe('gifts', () => {
  let alice: Member;
  let bob: Member;
  beforeAll(async () => {
    [alice, bob] = [await member(), await member()];
  });

  it('sends gifts through both paths; the receiver gets them, claims one, converts the rest', async () => {
    // bought coins: offered, they become bob's withdrawable earnings
    await buy(alice);
    const r1 = await send(alice, bob, 2);
    expect(r1.status).toBe(200);
    expect(r1.json).toMatchObject({ message: '🎁 Cadeau envoyé !', coins_balance: 105 });
    const r2 = await send(alice, bob, 1, undefined, '/gifts/send');
    expect(r2.status).toBe(200);
    expect(r2.json).toMatchObject({ message: '🎁 Cadeau envoyé !', coins_balance: 104 });
    const list = await received(bob);
    expect(list).toEqual([
      {
        id: r2.json.id,
        name: 'Rose',
        emoji: '🌹',
        sender_pseudo: alice.member.pseudo,
        sender_email: alice.member.email,
        coin_cost: 1,
        amount: 1,
        sent_at: expect.any(String),
        claimed: false,
      },
      {
        id: r1.json.id,
        name: 'Cœur',
        emoji: '❤️',
        sender_pseudo: alice.member.pseudo,
        sender_email: alice.member.email,
        coin_cost: 5,
        amount: 5,
        sent_at: expect.any(String),
        claimed: false,
      },
    ]);
    expect(await balance(bob)).toEqual({ coins_balance: 0, coins_withdrawable: 0, coins_bonus: 0, gifts_unclaimed: 6 });
    const coinGifts = (await bob.client.get(`/api/coins/received/${bob.member.email}`)).json as unknown as Array<
      Record<string, unknown>
    >;
    expect(coinGifts[0]).toMatchObject({
      sender_email: alice.member.email,
      gift_value: 1,
      amount: 1,
      created_at: expect.any(String),
    });

    const claim = await bob.client.post('/api/gifts/claim', { gift_id: r1.json.id });
    expect(claim.status).toBe(200);
    expect(claim.json).toEqual({
      message: LEDGER_MESSAGES.claimed,
      coins_balance: 5,
      coins_withdrawable: 5,
      coins_bonus: 0,
      gifts_unclaimed: 1,
    });
    await expectRefused(
      () => bob.client.post('/api/gifts/claim', { gift_id: r1.json.id }),
      409,
      'Cadeau déjà récupéré.',
    );
    expect((await received(bob)).map((g) => g.claimed)).toEqual([false, true]);

    const conv = await bob.client.post('/api/coins/convert-gifts', { user_email: bob.member.email });
    expect(conv.json).toEqual({
      message: LEDGER_MESSAGES.converted(1),
      transferred: 1,
      coins_balance: 6,
      coins_withdrawable: 6,
      coins_bonus: 0,
      gifts_unclaimed: 0,
    });
    expect(await balance(bob)).toEqual({ coins_balance: 6, coins_withdrawable: 6, coins_bonus: 0, gifts_unclaimed: 0 });
    expect((await received(bob)).map((g) => g.claimed)).toEqual([true, true]);
    await expectRefused(
      () => bob.client.post('/api/gifts/claim', { gift_id: r2.json.id }),
      409,
      'Cadeau déjà récupéré.',
    );
    const again = await bob.client.post('/api/coins/convert-gifts', { user_email: bob.member.email });
    expect(again.json).toEqual({
      message: LEDGER_MESSAGES.nothingToConvert,
      transferred: 0,
      coins_balance: 6,
      coins_withdrawable: 6,
      coins_bonus: 0,
      gifts_unclaimed: 0,
    });

    // each row states the balances after it (spendable, and unclaimed gifts apart) and the other
    // member by pseudo only: the history adds up without the client guessing
    type Row = {
      type: string;
      amount: number;
      coins_balance_after: number;
      gifts_unclaimed_after: number;
      counterpart_pseudo: string | null;
    };
    const history = async (m: Member) =>
      ((await m.client.get(`/api/coins/transactions/${m.member.email}`)).json as unknown as Row[]).map((t) => {
        expect(JSON.stringify(t)).not.toContain('@');
        return [t.type, t.amount, t.coins_balance_after, t.gifts_unclaimed_after, t.counterpart_pseudo];
      });
    expect(await history(bob)).toEqual([
      ['conversion', 1, 6, 0, null],
      ['recuperation', 5, 5, 1, null],
      ['cadeau_recu', 1, 0, 6, alice.member.pseudo],
      ['cadeau_recu', 5, 0, 5, alice.member.pseudo],
    ]);
    expect(await history(alice)).toEqual([
      ['cadeau_envoye', -1, 104, 0, bob.member.pseudo],
      ['cadeau_envoye', -5, 105, 0, bob.member.pseudo],
      ['achat', 110, 110, 0, null],
    ]);
  });

  it('names the receiver by pseudo (what members see of each other) as well as by email', async () => {
    const [alice, bob] = await Promise.all([member(), member()]);
    await add(alice, 20);
    const byPseudo = (to: string, extra: Record<string, unknown> = {}) =>
      alice.client.post('/api/gifts/send', {
        sender_email: alice.member.email,
        receiver_pseudo: to,
        gift_id: 2,
        ...extra,
      });
    // case aside, like the pseudo's uniqueness claim
    const r = await byPseudo(` ${bob.member.pseudo.toUpperCase()} `);
    expect(r.status).toBe(200);
    expect(r.json.coins_balance).toBe(15);
    await settle();
    expect((await received(bob)).map((g) => [g.name, g.sender_pseudo])).toEqual([['Cœur', alice.member.pseudo]]);
    // both given: they must name the same member
    expect((await byPseudo(bob.member.pseudo, { receiver_email: bob.member.email })).status).toBe(200);
    await expectRefused(
      () => byPseudo(bob.member.pseudo, { receiver_email: alice.member.email }),
      400,
      LEDGER_MESSAGES.receiverMismatch,
    );
    await expectRefused(() => byPseudo('personne-de-ce-nom'), 404, LEDGER_MESSAGES.receiverNotFound);
    await expectRefused(() => byPseudo('   '), 400, LEDGER_MESSAGES.receiverRequired);
    await expectRefused(() => byPseudo(alice.member.pseudo), 400, LEDGER_MESSAGES.selfGift);
    await expectRefused(
      () => alice.client.post('/api/gifts/send', { sender_email: alice.member.email, gift_id: 2 }),
      400,
      LEDGER_MESSAGES.receiverRequired,
    );
    expect(await balance(alice)).toEqual({
      coins_balance: 10,
      coins_withdrawable: 0,
      coins_bonus: 10,
      gifts_unclaimed: 0,
    });
  });

  it('refuses a gift to oneself, to nobody, of an unknown gift, or above the balance', async () => {
    const m = await member();
    await add(m, 3);
    await expectRefused(() => send(m, m, 1), 400, LEDGER_MESSAGES.selfGift);
    await expectRefused(
      () =>
        m.client.post('/api/gifts/send', {
          sender_email: m.member.email,
          receiver_email: 'personne@test.fr',
          gift_id: 1,
        }),
      404,
      LEDGER_MESSAGES.receiverNotFound,
    );
    await expectRefused(() => send(m, bob, 99), 404, LEDGER_MESSAGES.giftNotFound);
    await expectRefused(() => send(m, bob, 2), 400, 'Solde insuffisant.');
    await expectRefused(
      () => m.client.post('/api/gifts/send', { sender_email: m.member.email, gift_id: 1 }),
      400,
      '⚠️ Aucun destinataire.',
    );
  });

  it('lets exactly floor(balance / cost) of 50 concurrent sends through, never below 0', async () => {
    const sender = await member();
    const receiver = await member();
    await add(sender, 37);
    const results = await Promise.all(Array.from({ length: 50 }, () => send(sender, receiver, 2)));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(7);
    expect(refused).toHaveLength(43);
    for (const r of refused) expect(r.json).toEqual({ error: 'Solde insuffisant.' });
    expect(new Set(ok.map((r) => r.json.id)).size).toBe(7);
    expect(ok.map((r) => r.json.coins_balance).sort((a, b) => Number(a) - Number(b))).toEqual([
      2, 7, 12, 17, 22, 27, 32,
    ]);
    expect(await balance(sender)).toEqual({
      coins_balance: 2,
      coins_withdrawable: 0,
      coins_bonus: 2,
      gifts_unclaimed: 0,
    });
    expect(await balance(receiver)).toEqual({
      coins_balance: 0,
      coins_withdrawable: 0,
      coins_bonus: 0,
      gifts_unclaimed: 35,
    });
    const audit = (await t.admin.get(`/api/admin/ledger/${sender.member.email}`)).json as {
      entries: Array<{ balance_after: number }>;
      consistent: boolean;
    };
    expect(audit.consistent).toBe(true);
    for (const e of audit.entries) expect(e.balance_after).toBeGreaterThanOrEqual(0);
    expect((await reconcileLedger(t.server.deps.events)).ok).toBe(true);
  });

  it('credits the receiver once even when the process manager sees the gift twice', async () => {
    const s = await member();
    const r = await member();
    await add(s, 10);
    const sent = await send(s, r, 3);
    await settle();
    const giftSent = (await allEvents()).find(
      (e) => e.type === 'GiftSent' && (e.data as { giftId: number }).giftId === sent.json.id,
    )!;
    const before = await t.server.deps.events.lastPosition();
    // a redelivery to the running manager, and a second manager re-scanning the whole log
    expect(await t.server.giftCredits!.credit(giftSent)).toBe(false);
    const second = new GiftCreditProcess(t.server.deps.events);
    await second.start();
    expect(await second.waitFor(before!, 5000)).toBe(true);
    await second.stop();
    expect(second.credited).toBe(0);
    expect(await t.server.deps.events.lastPosition()).toBe(before);
    const credits = (await allEvents()).filter(
      (e) => e.type === 'GiftReceived' && (e.data as { giftId: number }).giftId === sent.json.id,
    );
    expect(credits).toHaveLength(1);
    expect(await balance(r)).toEqual({ coins_balance: 0, coins_withdrawable: 0, coins_bonus: 0, gifts_unclaimed: 10 });
  });
});

describe('idempotency keys', () => {
  const key = () => ({ 'Idempotency-Key': `k-${Math.random().toString(36).slice(2)}` });

  it('answers a retry exactly like the first call and moves nothing more, for every movement', async () => {
    const m = await member();
    const other = await member();
    const cases: Array<[string, () => Promise<{ status: number; json: Record<string, unknown> }>]> = [];
    const k1 = key();
    cases.push(['purchase', () => m.client.post('/api/coins/purchase', { email: m.member.email, packId: 1 }, k1)]);
    const k2 = key();
    cases.push(['add', () => add(m, 40, k2)]);
    const k3 = key();
    cases.push(['send', () => send(m, other, 2, k3)]);
    // m earns 10 from a gift of `other` paid with bought coins: the only coins m may withdraw
    await buy(other);
    expect((await send(other, m, 3)).status).toBe(200);
    await settle();
    expect((await m.client.post('/api/coins/convert-gifts', { user_email: m.member.email })).json).toMatchObject({
      transferred: 10,
    });
    const k4 = key();
    cases.push(['withdraw', () => m.client.post('/api/coins/withdraw', { user_email: m.member.email, amount: 7 }, k4)]);
    for (const [name, call] of cases) {
      const first = await call();
      expect(first.status, name).toBe(200);
      const before = await settle();
      const retry = await call();
      expect(retry.status, name).toBe(200);
      expect(retry.json, name).toEqual(first.json);
      expect(await settle(), name).toBe(before);
    }
    expect(await balance(m)).toEqual({
      coins_balance: 110 + 40 - 5 + 10 - 7,
      coins_withdrawable: 10 - 7,
      coins_bonus: 40 - 5,
      gifts_unclaimed: 0,
    });

    // claim and convert, on the receiver's side
    const gifts = await received(other);
    const k5 = key();
    const claim = () => other.client.post('/api/gifts/claim', { gift_id: gifts[0].id }, k5);
    const c1 = await claim();
    expect(c1.status).toBe(200);
    const before = await settle();
    expect((await claim()).json).toEqual(c1.json);
    expect(await settle()).toBe(before);
    const k6 = key();
    const convert = () => other.client.post('/api/coins/convert-gifts', { user_email: other.member.email }, k6);
    const v1 = await convert();
    expect(v1.json).toMatchObject({ transferred: 0 });
    // a gift arriving after the first call does not change the retry's answer, nor is it moved by it
    await add(m, 10);
    await send(m, other, 1);
    await settle();
    const v2 = await convert();
    expect(v2.json).toEqual(v1.json);
    // other keeps 100 of its bought coins; the gift it claimed was paid with m's bonus coins
    expect(await balance(other)).toEqual({
      coins_balance: 105,
      coins_withdrawable: 0,
      coins_bonus: 5,
      gifts_unclaimed: 1,
    });
  });

  it('stores one gift for concurrent retries under one key', async () => {
    const m = await member();
    const other = await member();
    await add(m, 100);
    const k = key();
    const results = await Promise.all(Array.from({ length: 10 }, () => send(m, other, 3, k)));
    for (const r of results) expect(r.json).toEqual(results[0].json);
    expect(await balance(m)).toEqual({ coins_balance: 90, coins_withdrawable: 0, coins_bonus: 90, gifts_unclaimed: 0 });
    expect(await received(other)).toHaveLength(1);
  });

  it('refuses the same key with another body, or on another route (409)', async () => {
    const m = await member();
    const other = await member();
    await add(m, 50);
    const k = key();
    expect((await add(m, 10, k)).status).toBe(200);
    const conflict = "Clé d'idempotence déjà utilisée avec une autre requête.";
    await expectRefused(() => add(m, 11, k), 409, conflict);
    await expectRefused(
      () => m.client.post('/api/coins/withdraw', { user_email: m.member.email, amount: 10 }, k),
      409,
      conflict,
    );
    await expectRefused(() => send(m, other, 1, k), 409, conflict);
    await expectRefused(
      () => m.client.post('/api/coins/purchase', { email: m.member.email, packId: 1 }, k),
      409,
      conflict,
    );
    expect(await balance(m)).toEqual({ coins_balance: 60, coins_withdrawable: 0, coins_bonus: 60, gifts_unclaimed: 0 });
  });

  it('keeps keys across a restart of the server on the same data', async () => {
    const first = await startTestServer();
    const dataDir = first.dataDir;
    const m = await registerAndLogin(first.url);
    const k = key();
    const a = await m.client.post('/api/coins/add', { email: m.member.email, amount: 25 }, k);
    expect(a.status).toBe(200);
    await first.close();
    const second = await startTestServer({}, dataDir);
    try {
      const again = new Client(second.url);
      await again.post('/api/auth/login', { email: m.member.email, password: m.member.password });
      const b = await again.post('/api/coins/add', { email: m.member.email, amount: 25 }, k);
      expect(b.json).toEqual(a.json);
      expect((await again.get(`/api/coins/balance/${m.member.email}`)).json).toEqual({
        coins_balance: 25,
        coins_withdrawable: 0,
        coins_bonus: 25,
        gifts_unclaimed: 0,
        add_coins_enabled: true,
        ...WALLET_RULES,
      });
      expect((await again.post('/api/coins/add', { email: m.member.email, amount: 26 }, k)).status).toBe(409);
    } finally {
      await second.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('permissions', () => {
  let m: Member;
  let other: Member;
  beforeAll(async () => {
    [m, other] = [await member(), await member()];
    await add(other, 10);
    await send(other, m, 1);
    await add(m, 10);
    await send(m, other, 1);
    await settle();
  });

  it('answers 401 to every private call without a session', async () => {
    const anon = new Client(t.server.url);
    const e = m.member.email;
    for (const [method, path, body] of [
      ['post', '/api/coins/purchase', { email: e, packId: 1 }],
      ['post', '/api/coins/add', { email: e, amount: 1 }],
      ['post', '/api/coins/withdraw', { user_email: e, amount: 1 }],
      ['post', '/api/coins/convert-gifts', { user_email: e }],
      ['post', '/api/gifts/send', { sender_email: e, receiver_email: other.member.email, gift_id: 1 }],
      ['post', '/gifts/send', { sender_email: e, receiver_email: other.member.email, gift_id: 1 }],
      ['post', '/api/gifts/claim', { gift_id: 1 }],
      ['get', `/api/coins/balance/${e}`],
      ['get', `/api/coins/transactions/${e}`],
      ['get', `/api/coins/received/${e}`],
      ['get', `/api/gifts/received/${e}`],
      ['get', `/api/gifts/balance/${e}`],
      ['get', `/gifts/balance/${e}`],
      ['get', '/api/coins/admin/transactions'],
      ['get', '/api/admin/ledger/reconcile'],
      ['get', `/api/admin/ledger/${e}`],
    ] as const) {
      await expectRefused(
        () => (method === 'post' ? anon.post(path, body) : anon.get(path)),
        401,
        AUTH_MESSAGES.unauthenticated,
      );
    }
  });

  it("refuses another member's balance, history and gifts (403 'Accès refusé.'), an administrator may read them", async () => {
    const e = other.member.email;
    for (const path of [
      `/api/coins/balance/${e}`,
      `/api/coins/transactions/${e}`,
      `/api/coins/received/${e}`,
      `/api/gifts/received/${e}`,
      `/api/gifts/balance/${e}`,
      `/gifts/balance/${e}`,
      '/api/coins/balance/personne@test.fr',
    ]) {
      const r = await m.client.get(path);
      expect(r.status, path).toBe(403);
      expect(r.json.error).toBe('Accès refusé.');
      const a = await t.admin.get(path);
      expect(a.status, path).toBe(path.includes('personne') ? 404 : 200);
    }
    expect((await t.admin.get(`/api/coins/balance/${e}`)).json).toEqual({
      coins_balance: 9,
      coins_withdrawable: 0,
      coins_bonus: 9,
      gifts_unclaimed: 1,
      add_coins_enabled: true,
      ...WALLET_RULES,
    });
  });

  it("refuses a body naming another member (403 'Action non autorisée.') and moves nothing", async () => {
    const e = other.member.email;
    const forbidden = 'Action non autorisée.';
    await expectRefused(() => m.client.post('/api/coins/purchase', { email: e, packId: 1 }), 403, forbidden);
    await expectRefused(() => m.client.post('/api/coins/add', { email: e, amount: 5 }), 403, forbidden);
    await expectRefused(() => m.client.post('/api/coins/withdraw', { user_email: e, amount: 1 }), 403, forbidden);
    await expectRefused(() => m.client.post('/api/coins/convert-gifts', { user_email: e }), 403, forbidden);
    await expectRefused(
      () => m.client.post('/api/gifts/send', { sender_email: e, receiver_email: m.member.email, gift_id: 1 }),
      403,
      forbidden,
    );
    await expectRefused(
      () => m.client.post('/gifts/send', { sender_email: e, receiver_email: m.member.email, gift_id: 1 }),
      403,
      forbidden,
    );
    await expectRefused(
      () => m.client.post('/api/coins/add', { email: 'personne@test.fr', amount: 5 }),
      403,
      forbidden,
    );
    // even an administrator moves only their own coins
    await expectRefused(() => t.admin.post('/api/coins/add', { email: e, amount: 5 }), 403, forbidden);
    // a gift received by someone else cannot be claimed
    const theirs = (await t.admin.get(`/api/gifts/received/${e}`)).json as unknown as ReceivedRow[];
    await expectRefused(() => m.client.post('/api/gifts/claim', { gift_id: theirs[0].id }), 403, forbidden);
    await expectRefused(() => m.client.post('/api/gifts/claim', { gift_id: 987654 }), 404, 'Cadeau introuvable.');
  });

  it('keeps the admin calls for administrators', async () => {
    await expectRefused(() => m.client.get('/api/coins/admin/transactions'), 403, AUTH_MESSAGES.adminOnly);
    await expectRefused(() => m.client.get('/api/admin/ledger/reconcile'), 403, AUTH_MESSAGES.adminOnly);
    await expectRefused(() => m.client.get(`/api/admin/ledger/${m.member.email}`), 403, AUTH_MESSAGES.adminOnly);
    expect((await t.admin.get('/api/coins/admin/transactions')).status).toBe(200);
  });
});

describe('bad input', () => {
  let m: Member;
  let other: Member;
  beforeAll(async () => {
    [m, other] = [await member(), await member()];
    await add(m, 50);
  });

  it.each([
    ['/api/coins/add', { amount: 0 }, 'Le montant doit être supérieur à 0.'],
    ['/api/coins/add', { amount: -5 }, 'Le montant doit être supérieur à 0.'],
    ['/api/coins/add', { amount: 'abc' }, LEDGER_MESSAGES.amountNotDigits],
    ['/api/coins/add', { amount: '1e3' }, LEDGER_MESSAGES.amountNotDigits],
    ['/api/coins/add', { amount: '' }, 'Le montant doit être supérieur à 0.'],
    ['/api/coins/add', { amount: null }, 'Le montant doit être supérieur à 0.'],
    ['/api/coins/add', { amount: [1] }, 'Le montant doit être supérieur à 0.'],
    ['/api/coins/add', {}, 'Le montant doit être supérieur à 0.'],
    ['/api/coins/add', { amount: 1.5 }, 'Le montant doit être un nombre entier.'],
    ['/api/coins/add', { amount: 1e12 }, 'Le montant ne peut pas dépasser 100 000 coins.'],
    ['/api/coins/add', { amount: 100_001 }, 'Le montant ne peut pas dépasser 100 000 coins.'],
    ['/api/coins/add', { amount: 1e300 }, 'Le montant ne peut pas dépasser 100 000 coins.'],
    ['/api/coins/withdraw', { amount: 0 }, '❌ Montant invalide.'],
    ['/api/coins/withdraw', { amount: -5 }, '❌ Montant invalide.'],
    ['/api/coins/withdraw', { amount: 'abc' }, LEDGER_MESSAGES.amountNotDigits],
    ['/api/coins/withdraw', { amount: 1.5 }, '❌ Montant invalide.'],
    ['/api/coins/withdraw', { amount: '2.5' }, '❌ Montant invalide.'],
    ['/api/coins/withdraw', {}, '❌ Montant invalide.'],
    ['/api/coins/withdraw', { amount: 1e300 }, '❌ Montant invalide.'],
    ['/api/coins/purchase', { packId: 0 }, 'Pack invalide.'],
    ['/api/coins/purchase', { packId: 'abc' }, 'Pack invalide.'],
    ['/api/coins/purchase', { packId: 1.5 }, 'Pack invalide.'],
    ['/api/coins/purchase', {}, 'Pack invalide.'],
    ['/api/gifts/send', { gift_id: 0 }, 'Cadeau invalide.'],
    ['/api/gifts/send', { gift_id: 'abc' }, 'Cadeau invalide.'],
    ['/api/gifts/send', { gift_id: -5 }, 'Cadeau invalide.'],
    ['/api/gifts/send', { gift_id: 1.5 }, 'Cadeau invalide.'],
    ['/api/gifts/send', { gift_id: 1e12 }, 'Cadeau introuvable.', 404],
    ['/api/gifts/send', {}, 'Cadeau invalide.'],
    ['/api/gifts/claim', { gift_id: 'abc' }, 'Cadeau invalide.'],
    ['/api/gifts/claim', { gift_id: 0 }, 'Cadeau invalide.'],
    ['/api/gifts/claim', { gift_id: 1e12 }, 'Cadeau introuvable.', 404],
    ['/api/gifts/claim', {}, 'Cadeau invalide.'],
  ] as Array<[string, Record<string, unknown>, string, number?]>)(
    '%s %o → %s',
    async (path, patch, error, status = 400) => {
      const base: Record<string, Record<string, unknown>> = {
        '/api/coins/add': { email: m.member.email, amount: 1 },
        '/api/coins/withdraw': { user_email: m.member.email, amount: 1 },
        '/api/coins/purchase': { email: m.member.email, packId: 1 },
        '/api/gifts/send': { sender_email: m.member.email, receiver_email: other.member.email, gift_id: 1 },
        '/api/gifts/claim': { gift_id: 1 },
      };
      const body: Record<string, unknown> = { ...base[path], ...patch };
      for (const [k, v] of Object.entries(patch)) if (v === undefined) delete body[k];
      if (Object.keys(patch).length === 0) for (const k of ['amount', 'packId', 'gift_id']) delete body[k];
      await expectRefused(() => m.client.post(path, body), status, error);
    },
  );

  it('refuses missing or malformed emails, wrong types and non-objects in French', async () => {
    await expectRefused(() => m.client.post('/api/coins/add', { amount: 5 }), 400, MESSAGES.emailRequired);
    await expectRefused(() => m.client.post('/api/coins/add', { email: 42, amount: 5 }), 400, MESSAGES.emailRequired);
    await expectRefused(
      () => m.client.post('/api/coins/add', { email: 'pas-un-email', amount: 5 }),
      400,
      MESSAGES.emailInvalid,
    );
    await expectRefused(() => m.client.post('/api/coins/convert-gifts', {}), 400, MESSAGES.emailRequired);
    await expectRefused(() => m.client.post('/api/coins/withdraw', { amount: 5 }), 400, MESSAGES.emailRequired);
    await expectRefused(
      () => m.client.post('/api/gifts/send', { receiver_email: other.member.email, gift_id: 1 }),
      400,
      MESSAGES.emailRequired,
    );
    await expectRefused(
      () => m.client.post('/api/coins/add', [1, 2]),
      400,
      'Le corps de la requête doit être un objet JSON.',
    );
    await expectRefused(() => m.client.post('/api/coins/add', '"texte"'), 400);
    await expectRefused(() => m.client.post('/api/coins/add', '{"email":'), 400, 'Corps de requête JSON invalide.');
    await expectRefused(
      () => m.client.post('/api/coins/purchase', { email: m.member.email, packId: 9 }),
      404,
      'Pack introuvable.',
    );
    const asOf = await t.admin.get(`/api/admin/ledger/${m.member.email}?asOf=pas-une-date`);
    expect(asOf.status).toBe(400);
    expect(asOf.json.error).toBe('Date invalide (format ISO attendu).');
  });
});

describe('audit and reconciliation', () => {
  it('gives every posting of a member with running balances, as of a date', async () => {
    const m = await member();
    const other = await member();
    await add(m, 30);
    // 10 earned from a gift of `other` paid with bought coins, converted
    await buy(other);
    await send(other, m, 3);
    await settle();
    await m.client.post('/api/coins/convert-gifts', { user_email: m.member.email });
    await settle();
    const cut = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    // the gift spends the added (bonus) coins, the withdrawal the earned ones
    await send(m, other, 3);
    await m.client.post('/api/coins/withdraw', { user_email: m.member.email, amount: 5 });
    await settle();
    const full = (await t.admin.get(`/api/admin/ledger/${encodeURIComponent(m.member.email)}`)).json as unknown as {
      user: { id: string; email: string };
      balances: Record<string, number>;
      coins_balance: number;
      coins_withdrawable: number;
      consistent: boolean;
      entries: Array<Record<string, unknown>>;
    };
    expect(full.user.email).toBe(m.member.email);
    expect(full.consistent).toBe(true);
    expect(full.coins_balance).toBe(20 + 5);
    expect(full.coins_withdrawable).toBe(5);
    const bal = `user:${full.user.id}:balance`;
    const bonus = `user:${full.user.id}:bonus`;
    const earned = `user:${full.user.id}:earnings`;
    const gifts = `user:${full.user.id}:gifts`;
    expect(full.balances).toEqual({ [bal]: 0, [bonus]: 20, [earned]: 5, [gifts]: 0 });
    expect(full.entries.map((e) => [e.type, e.account, e.delta, e.balance_after])).toEqual([
      ['ajout', bonus, 30, 30],
      ['cadeau_recu', gifts, 10, 10],
      ['conversion', gifts, -10, 0],
      ['conversion', earned, 10, 10],
      ['cadeau_envoye', bonus, -10, 20],
      ['retrait', earned, -5, 5],
    ]);
    for (const e of full.entries.filter((x) => x.type !== 'cadeau_recu')) {
      expect(e.position).toMatch(/^\d+$/);
      expect(e.event_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(e.correlation_id).toBeTypeOf('string');
      expect(e.actor).toBe(full.entries[0].actor);
      expect(Date.parse(String(e.at))).not.toBeNaN();
    }
    const then = (await t.admin.get(`/api/admin/ledger/${m.member.email}?asOf=${encodeURIComponent(cut)}`))
      .json as unknown as { coins_balance: number; entries: unknown[]; as_of: string };
    expect(then).toMatchObject({ coins_balance: 40, coins_withdrawable: 10, as_of: cut });
    expect(then.entries).toHaveLength(4);
  });

  it('reconciles the whole log over HTTP', async () => {
    await settle();
    const r = await t.admin.get('/api/admin/ledger/reconcile');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      ok: true,
      first_violation: null,
      violations: 0,
      pending_gifts: { count: 0, coins: 0 },
    });
    expect((r.json.totals as { sum: number }).sum).toBe(0);
    expect(r.json.movements as number).toBeGreaterThan(20);
  });
});

describe('push', () => {
  const sockets: Socket[] = [];
  afterEach(() => {
    while (sockets.length) sockets.pop()!.disconnect();
  });
  const next = <T>(socket: Socket, event: string, match: (p: T) => boolean = () => true) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no '${event}'`)), 5000);
      const on = (p: T) => {
        if (!match(p)) return;
        clearTimeout(timer);
        socket.off(event, on);
        resolve(p);
      };
      socket.on(event, on);
    });

  it('pushes wallet:changed to both members and gift:received to the receiver', async () => {
    const a = await member();
    const b = await member();
    await add(a, 10);
    await settle();
    const [sa, sb] = [await online(t.server, a.client, sockets), await online(t.server, b.client, sockets)];
    const aChanged = next<{ coins_balance: number; gifts_unclaimed: number; position: string }>(sa, 'wallet:changed');
    const bChanged = next<{ coins_balance: number; gifts_unclaimed: number; position: string }>(sb, 'wallet:changed');
    const bGift = next<{ gift: ReceivedRow }>(sb, 'gift:received');
    const r = await send(a, b, 2);
    expect(await aChanged).toEqual({
      coins_balance: 5,
      coins_withdrawable: 0,
      coins_bonus: 5,
      gifts_unclaimed: 0,
      position: expect.stringMatching(/^\d+$/),
    });
    expect(await bChanged).toEqual({
      coins_balance: 0,
      coins_withdrawable: 0,
      coins_bonus: 0,
      gifts_unclaimed: 5,
      position: expect.stringMatching(/^\d+$/),
    });
    expect((await bGift).gift).toMatchObject({
      id: r.json.id,
      name: 'Cœur',
      sender_email: a.member.email,
      coin_cost: 5,
      claimed: false,
    });
    // and a 'gift' notification
    await settle();
    const notifications = (await b.client.get(`/api/notifications?email=${encodeURIComponent(b.member.email)}`))
      .json as unknown as Array<Record<string, unknown>>;
    expect(notifications[0]).toMatchObject({
      type: 'gift',
      sender_email: a.member.email,
      message: `${a.member.pseudo} t'a envoyé un cadeau : ❤️ Cœur`,
    });
  });
});

describe('fees', () => {
  it('takes GIFT_FEE_PERCENT into platform:fees, rounded down, and reconciles', async () => {
    const feeServer = await startTestServer({ GIFT_FEE_PERCENT: '10' });
    try {
      const a = await registerAndLogin(feeServer.url);
      const b = await registerAndLogin(feeServer.url);
      await a.client.post('/api/coins/add', { email: a.member.email, amount: 100 });
      await a.client.post('/api/gifts/send', {
        sender_email: a.member.email,
        receiver_email: b.member.email,
        gift_id: 4,
      }); // 25 → fee 2
      await a.client.post('/api/gifts/send', {
        sender_email: a.member.email,
        receiver_email: b.member.email,
        gift_id: 1,
      }); // 1 → fee 0
      const last = (await feeServer.deps.events.lastPosition())!;
      await feeServer.giftCredits!.waitFor(last, 5000);
      await feeServer.deps.progress.waitFor((await feeServer.deps.events.lastPosition())!, 5000);
      expect((await b.client.get(`/api/coins/balance/${b.member.email}`)).json).toEqual({
        coins_balance: 0,
        coins_withdrawable: 0,
        coins_bonus: 0,
        gifts_unclaimed: 23 + 1,
        add_coins_enabled: true,
        ...WALLET_RULES,
      });
      const report = await reconcileLedger(feeServer.deps.events);
      expect(report).toMatchObject({
        ok: true,
        totals: { platform_fees: 2, transit_gifts: 0, users_gifts: 24, users_balance: 0, users_bonus: 74, sum: 0 },
      });
    } finally {
      await feeServer.stop();
    }
  });
});
