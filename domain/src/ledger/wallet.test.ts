import { describe, it, expect } from 'vitest';
import { given } from '../shared/given-when-then';
import { fold } from '../shared/decider';
import { walletDecider, type WalletCommand } from './wallet-decider';
import type { GiftReceived, GiftSent, WalletEvent } from './events';
import { COIN_PACKS, packById } from './packs';
import { LEDGER_MESSAGES, giftFee } from './rules';
import { ACCOUNTS } from './accounts';
import { keyMapGet } from './persistent-map';

const A = 'alice';
const B = 'bob';
const bal = (u: string) => `user:${u}:balance`;
const gif = (u: string) => `user:${u}:gifts`;
const earn = (u: string) => `user:${u}:earnings`;

const added = (userId: string, amount: number, txId: number, balanceBefore = 0): WalletEvent => ({
  type: 'CoinsAdded',
  data: {
    userId,
    txId,
    amount,
    postings: [{ debit: ACCOUNTS.credits, credit: bal(userId), amount }],
    after: { balance: balanceBefore + amount, gifts: 0, earnings: 0 },
  },
});
const rose = { id: 1, name: 'Rose', emoji: '🌹', coinCost: 1 };
const coeur = { id: 2, name: 'Cœur', emoji: '❤️', coinCost: 5 };
const sent = (giftId: number, cost: number, fee: number, after: number): GiftSent => ({
  type: 'GiftSent',
  data: {
    userId: A,
    giftId,
    receiverId: B,
    catalogGiftId: 2,
    name: 'Cœur',
    emoji: '❤️',
    coinCost: cost,
    fee,
    postings: [{ debit: bal(A), credit: ACCOUNTS.transit, amount: cost }],
    after: { balance: after, gifts: 0, earnings: 0 },
  },
});
const received = (giftId: number, cost: number, fee: number, giftsAfter: number): GiftReceived => ({
  type: 'GiftReceived',
  data: {
    userId: B,
    giftId,
    senderId: A,
    catalogGiftId: 2,
    name: 'Cœur',
    emoji: '❤️',
    coinCost: cost,
    fee,
    amount: cost - fee,
    sentAt: '2026-03-01T10:00:00.000Z',
    postings: [
      ...(cost - fee > 0 ? [{ debit: ACCOUNTS.transit, credit: gif(B), amount: cost - fee }] : []),
      ...(fee > 0 ? [{ debit: ACCOUNTS.transit, credit: ACCOUNTS.fees, amount: fee }] : []),
    ],
    after: { balance: 0, gifts: giftsAfter, earnings: 0 },
  },
});

describe('wallet: buying and adding coins', () => {
  it('buys a pack: coins come from external:payments', () => {
    const pack = packById(4)!;
    given(walletDecider)
      .when({ type: 'PurchaseCoins', userId: A, txId: 3, pack, provider: 'sandbox', paymentRef: 'p-1' })
      .then([
        {
          type: 'CoinsPurchased',
          data: {
            userId: A,
            txId: 3,
            packId: 4,
            coins: 550,
            priceCents: 500,
            provider: 'sandbox',
            paymentRef: 'p-1',
            postings: [{ debit: 'external:payments', credit: bal(A), amount: 550 }],
            after: { balance: 550, gifts: 0, earnings: 0 },
          },
        },
      ]);
  });
  it('adds coins from external:credits', () => {
    given(walletDecider, [added(A, 10, 1)])
      .when({ type: 'AddCoins', userId: A, txId: 2, amount: 15 })
      .then([added(A, 15, 2, 10)]);
  });
  it.each([
    [0, LEDGER_MESSAGES.amountPositive],
    [-5, LEDGER_MESSAGES.amountPositive],
    [1.5, LEDGER_MESSAGES.amountInteger],
    [100_001, LEDGER_MESSAGES.amountTooLarge],
  ])('refuses to add %s coins', (amount, message) => {
    given(walletDecider).when({ type: 'AddCoins', userId: A, txId: 1, amount }).thenThrows(message, 'invalid');
  });
  it('has the eight packs of the specification', () => {
    expect(COIN_PACKS.map((p) => [p.name, p.price_euros, p.coins_amount])).toEqual([
      ['Débutant', 1, 110],
      ['Bronze', 2, 220],
      ['Argent', 3, 330],
      ['Or', 5, 550],
      ['Or+', 10, 1100],
      ['Diamant', 15, 1750],
      ['Platine', 20, 2500],
      ['Ultime', 45, 5000],
    ]);
    expect(COIN_PACKS.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

/** B received gift 7 (10 coins), claimed it (earnings 10), then added 50 coins */
const claimedTen: WalletEvent = {
  type: 'GiftClaimed',
  data: {
    userId: B,
    txId: 20,
    giftId: 7,
    amount: 10,
    postings: [{ debit: gif(B), credit: earn(B), amount: 10 }],
    after: { balance: 0, gifts: 0, earnings: 10 },
  },
};
const earnedThenAdded = (): WalletEvent[] => [
  received(7, 10, 0, 10),
  claimedTen,
  {
    type: 'CoinsAdded',
    data: {
      userId: B,
      txId: 21,
      amount: 50,
      postings: [{ debit: ACCOUNTS.credits, credit: bal(B), amount: 50 }],
      after: { balance: 50, gifts: 0, earnings: 10 },
    },
  },
];

describe('wallet: withdrawing', () => {
  it('withdraws coins earned from received gifts, from user:<id>:earnings into external:withdrawals', () => {
    given(walletDecider, earnedThenAdded())
      .when({ type: 'WithdrawCoins', userId: B, txId: 22, amount: 10 })
      .then([
        {
          type: 'CoinsWithdrawn',
          data: {
            userId: B,
            txId: 22,
            amount: 10,
            postings: [{ debit: earn(B), credit: 'external:withdrawals', amount: 10 }],
            after: { balance: 50, gifts: 0, earnings: 0 },
          },
        },
      ]);
  });
  it('never withdraws bought or added coins, whatever the balance', () => {
    given(walletDecider, earnedThenAdded())
      .when({ type: 'WithdrawCoins', userId: B, txId: 22, amount: 11 })
      .thenThrows(LEDGER_MESSAGES.notWithdrawable, 'invalid');
    given(walletDecider, [added(A, 10, 1)])
      .when({ type: 'WithdrawCoins', userId: A, txId: 2, amount: 1 })
      .thenThrows(LEDGER_MESSAGES.notWithdrawable, 'invalid');
    const bought: WalletEvent = {
      type: 'CoinsPurchased',
      data: {
        userId: A,
        txId: 1,
        packId: 1,
        coins: 110,
        priceCents: 100,
        provider: 'sandbox',
        paymentRef: 'p',
        postings: [{ debit: ACCOUNTS.payments, credit: bal(A), amount: 110 }],
        after: { balance: 110, gifts: 0, earnings: 0 },
      },
    };
    given(walletDecider, [bought])
      .when({ type: 'WithdrawCoins', userId: A, txId: 2, amount: 110 })
      .thenThrows(LEDGER_MESSAGES.notWithdrawable, 'invalid');
  });
  it.each([0, -1, 2.5, Number.NaN, 1e300])('refuses an invalid amount %s', (amount) => {
    given(walletDecider, [added(A, 10, 1)])
      .when({ type: 'WithdrawCoins', userId: A, txId: 2, amount })
      .thenThrows(LEDGER_MESSAGES.withdrawInvalid, 'invalid');
  });
});

describe('wallet: gifts', () => {
  const send = (extra: Partial<Extract<WalletCommand, { type: 'SendGift' }>> = {}): WalletCommand => ({
    type: 'SendGift',
    userId: A,
    giftId: 7,
    receiverId: B,
    gift: coeur,
    feePercent: 0,
    ...extra,
  });
  it('sends a gift: the cost leaves the balance for transit:gifts', () => {
    given(walletDecider, [added(A, 12, 1)])
      .when(send())
      .then([sent(7, 5, 0, 7)]);
  });
  it('records the fee of GIFT_FEE_PERCENT, rounded down', () => {
    given(walletDecider, [added(A, 12, 1)])
      .when(send({ feePercent: 30 }))
      .then([sent(7, 5, 1, 7)]);
    expect(giftFee(5, 30)).toBe(1);
    expect(giftFee(1, 99)).toBe(0);
    expect(giftFee(100, 2.5)).toBe(2);
    expect(giftFee(10, 100)).toBe(10);
    expect(giftFee(10, 0)).toBe(0);
  });
  it('refuses a gift the balance does not cover', () => {
    given(walletDecider, [added(A, 4, 1)])
      .when(send())
      .thenThrows(LEDGER_MESSAGES.insufficient, 'invalid');
    given(walletDecider)
      .when(send({ gift: rose }))
      .thenThrows(LEDGER_MESSAGES.insufficient, 'invalid');
  });
  it('spends bought or added coins first, then earnings (the withdrawable ones are kept longest)', () => {
    const cost = { id: 3, name: 'Couronne', emoji: '👑', coinCost: 55 };
    given(walletDecider, earnedThenAdded())
      .when({ type: 'SendGift', userId: B, giftId: 30, receiverId: A, gift: cost, feePercent: 0 })
      .then([
        {
          type: 'GiftSent',
          data: {
            userId: B,
            giftId: 30,
            receiverId: A,
            catalogGiftId: 3,
            name: 'Couronne',
            emoji: '👑',
            coinCost: 55,
            fee: 0,
            postings: [
              { debit: bal(B), credit: ACCOUNTS.transit, amount: 50 },
              { debit: earn(B), credit: ACCOUNTS.transit, amount: 5 },
            ],
            after: { balance: 0, gifts: 0, earnings: 5 },
          },
        },
      ]);
    given(walletDecider, earnedThenAdded())
      .when({ type: 'SendGift', userId: B, giftId: 30, receiverId: A, gift: { ...cost, coinCost: 61 }, feePercent: 0 })
      .thenThrows(LEDGER_MESSAGES.insufficient, 'invalid');
  });
  it('refuses a gift to oneself', () => {
    given(walletDecider, [added(A, 10, 1)])
      .when(send({ receiverId: A }))
      .thenThrows(LEDGER_MESSAGES.selfGift, 'invalid');
  });
  it('refuses a gift the catalogue does not have (after the gift to oneself)', () => {
    given(walletDecider, [added(A, 10, 1)])
      .when(send({ gift: null }))
      .thenThrows(LEDGER_MESSAGES.giftNotFound, 'not_found');
    given(walletDecider, [added(A, 10, 1)])
      .when(send({ receiverId: A, gift: null }))
      .thenThrows(LEDGER_MESSAGES.selfGift, 'invalid');
  });
  it('credits the receiver once per gift id, net of the fee', () => {
    const s = sent(7, 5, 1, 7);
    const receive: WalletCommand = { type: 'ReceiveGift', userId: B, sent: s.data, sentAt: '2026-03-01T10:00:00.000Z' };
    given(walletDecider)
      .when(receive)
      .then([received(7, 5, 1, 4)]);
    given(walletDecider, [received(7, 5, 1, 4)])
      .when(receive)
      .then([]);
  });
  it('claims a received gift into the earnings (withdrawable), once, only its own', () => {
    const history = [received(7, 5, 0, 5), received(8, 5, 0, 10)];
    given(walletDecider, history)
      .when({ type: 'ClaimGift', userId: B, txId: 20, giftId: 7 })
      .then([
        {
          type: 'GiftClaimed',
          data: {
            userId: B,
            txId: 20,
            giftId: 7,
            amount: 5,
            postings: [{ debit: gif(B), credit: earn(B), amount: 5 }],
            after: { balance: 0, gifts: 5, earnings: 5 },
          },
        },
      ]);
    const claimed: WalletEvent = {
      type: 'GiftClaimed',
      data: {
        userId: B,
        txId: 20,
        giftId: 7,
        amount: 5,
        postings: [{ debit: gif(B), credit: earn(B), amount: 5 }],
        after: { balance: 0, gifts: 5, earnings: 5 },
      },
    };
    given(walletDecider, [...history, claimed])
      .when({ type: 'ClaimGift', userId: B, txId: 21, giftId: 7 })
      .thenThrows(LEDGER_MESSAGES.alreadyClaimed, 'conflict');
    given(walletDecider, history)
      .when({ type: 'ClaimGift', userId: B, txId: 21, giftId: 99 })
      .thenThrows(LEDGER_MESSAGES.giftNotFound, 'not_found');
  });
  it('converts every unclaimed gift, then has nothing left', () => {
    const claimed: WalletEvent = {
      type: 'GiftClaimed',
      data: {
        userId: B,
        txId: 20,
        giftId: 7,
        amount: 5,
        postings: [{ debit: gif(B), credit: earn(B), amount: 5 }],
        after: { balance: 0, gifts: 5, earnings: 5 },
      },
    };
    const receivedAfterClaim: WalletEvent = {
      ...received(9, 3, 0, 8),
      data: { ...received(9, 3, 0, 8).data, after: { balance: 0, gifts: 8, earnings: 5 } },
    } as WalletEvent;
    const history = [received(7, 5, 0, 5), received(8, 5, 0, 10), claimed, receivedAfterClaim];
    const converted: WalletEvent = {
      type: 'GiftsConverted',
      data: {
        userId: B,
        txId: 30,
        giftIds: [8, 9],
        amount: 8,
        postings: [{ debit: gif(B), credit: earn(B), amount: 8 }],
        after: { balance: 0, gifts: 0, earnings: 13 },
      },
    };
    given(walletDecider, history).when({ type: 'ConvertGifts', userId: B, txId: 30 }).then([converted]);
    given(walletDecider, [...history, converted])
      .when({ type: 'ConvertGifts', userId: B, txId: 31 })
      .then([]);
    given(walletDecider, [...history, converted])
      .when({ type: 'ClaimGift', userId: B, txId: 31, giftId: 9 })
      .thenThrows(LEDGER_MESSAGES.alreadyClaimed, 'conflict');
    const state = fold(walletDecider, [...history, converted]);
    expect(state).toMatchObject({ balance: 0, earnings: 13, gifts: 0 });
    expect(state.unclaimed.size).toBe(0);
    expect(state.claimed.size).toBe(3);
  });
});

describe('wallet: idempotency keys', () => {
  const request = { key: 'k-1', hash: 'h-1' };
  it('answers a retry with nothing new, and keeps what the first call did', () => {
    const first = walletDecider.decide(
      { type: 'AddCoins', userId: A, txId: 1, amount: 10, request },
      walletDecider.initialState(),
    );
    expect(first[0].data).toMatchObject({ request });
    given(walletDecider, first).when({ type: 'AddCoins', userId: A, txId: 2, amount: 10, request }).then([]);
    const state = fold(walletDecider, first);
    expect(keyMapGet(state.requests, 'k-1')).toEqual({
      hash: 'h-1',
      event: 'CoinsAdded',
      txId: 1,
      amount: 10,
      balance: 10,
      gifts: 0,
      earnings: 0,
    });
  });
  it('refuses the same key with another request', () => {
    const first = walletDecider.decide(
      { type: 'AddCoins', userId: A, txId: 1, amount: 10, request },
      walletDecider.initialState(),
    );
    given(walletDecider, first)
      .when({ type: 'WithdrawCoins', userId: A, txId: 2, amount: 5, request: { key: 'k-1', hash: 'autre' } })
      .thenThrows(LEDGER_MESSAGES.idempotencyConflict, 'conflict');
  });
  it('records a keyed conversion that found nothing, so its retry answers 0 too', () => {
    const first = walletDecider.decide(
      { type: 'ConvertGifts', userId: B, txId: 5, request },
      walletDecider.initialState(),
    );
    expect(first).toEqual([
      {
        type: 'GiftsConverted',
        data: {
          userId: B,
          txId: 5,
          giftIds: [],
          amount: 0,
          postings: [],
          after: { balance: 0, gifts: 0, earnings: 0 },
          request,
        },
      },
    ]);
    given(walletDecider, [...first, received(7, 5, 0, 5)])
      .when({ type: 'ConvertGifts', userId: B, txId: 6, request })
      .then([]);
  });
});

describe('wallet: folding many gifts', () => {
  it('stays fast and exact with 50 000 received gifts', () => {
    const events: WalletEvent[] = [];
    for (let i = 1; i <= 50_000; i++) events.push(received(i * 3, 2, 0, i * 2));
    const started = performance.now();
    const state = fold(walletDecider, events);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(state.gifts).toBe(100_000);
    expect(state.unclaimed.size).toBe(50_000);
  });
});
