import { describe, it, expect } from 'vitest';
import { given } from '../shared/given-when-then';
import { fold } from '../shared/decider';
import {
  ACCOUNTS,
  giftFee,
  walletDecider,
  type GiftReceived,
  type GiftSent,
  type WalletCommand,
  type WalletEvent,
} from './wallet-decider';
import { COIN_PACKS, packById, packPriceCents } from './packs';
import { payoutValueCents } from './withdrawals';
import { LEDGER_MESSAGES } from '@evo/contracts';
import { keyMapGet } from '../shared/persistent-map';

const A = 'alice';
const B = 'bob';
const bal = (u: string) => `user:${u}:balance`;
const gif = (u: string) => `user:${u}:gifts`;
const earn = (u: string) => `user:${u}:earnings`;
const bon = (u: string) => `user:${u}:bonus`;

/** coins added without payment: bonus coins */
const added = (userId: string, amount: number, txId: number, bonusBefore = 0): WalletEvent => ({
  type: 'CoinsAdded',
  data: {
    userId,
    txId,
    amount,
    postings: [{ debit: ACCOUNTS.credits, credit: bon(userId), amount }],
    after: { balance: 0, gifts: 0, earnings: 0, bonus: bonusBefore + amount },
  },
});
const bought = (userId: string, coins: number, txId: number, balanceBefore = 0): WalletEvent => ({
  type: 'CoinsPurchased',
  data: {
    userId,
    txId,
    packId: 1,
    coins,
    priceCents: 100,
    provider: 'sandbox',
    paymentRef: `p-${txId}`,
    postings: [{ debit: ACCOUNTS.payments, credit: bal(userId), amount: coins }],
    after: { balance: balanceBefore + coins, gifts: 0, earnings: 0, bonus: 0 },
  },
});
const rose = { id: 1, name: 'Rose', emoji: '🌹', coinCost: 1 };
const coeur = { id: 2, name: 'Cœur', emoji: '❤️', coinCost: 5 };
/** A's gift to B, paid with bought coins (A's balance then `after`) */
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
    bonusAmount: 0,
    postings: [{ debit: bal(A), credit: ACCOUNTS.transit, amount: cost }],
    after: { balance: after, gifts: 0, earnings: 0, bonus: 0 },
  },
});
/** B credited with A's gift, `bonus` of it of free origin */
const received = (giftId: number, cost: number, fee: number, giftsAfter: number, bonus = 0): GiftReceived => ({
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
    bonusAmount: bonus,
    sentAt: '2026-03-01T10:00:00.000Z',
    postings: [
      ...(cost - fee > 0 ? [{ debit: ACCOUNTS.transit, credit: gif(B), amount: cost - fee }] : []),
      ...(fee > 0 ? [{ debit: ACCOUNTS.transit, credit: ACCOUNTS.fees, amount: fee }] : []),
    ],
    after: { balance: 0, gifts: giftsAfter, earnings: 0, bonus: 0 },
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
            after: { balance: 550, gifts: 0, earnings: 0, bonus: 0 },
          },
        },
      ]);
  });
  it('adds coins from external:credits, as bonus coins (never paid for)', () => {
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

/** B claimed gift `giftId` of `amount` bought coins into their earnings (their gifts and earnings then `after`) */
const claimedGift = (
  giftId: number,
  txId: number,
  amount: number,
  after: { gifts: number; earnings: number },
): WalletEvent => ({
  type: 'GiftClaimed',
  data: {
    userId: B,
    txId,
    giftId,
    amount,
    bonusAmount: 0,
    postings: [{ debit: gif(B), credit: earn(B), amount }],
    after: { balance: 0, gifts: after.gifts, earnings: after.earnings, bonus: 0 },
  },
});

/** B received gift 7 (10 coins), claimed it (earnings 10), then added 50 coins */
const claimedTen = claimedGift(7, 20, 10, { gifts: 0, earnings: 10 });
const earnedThenAdded = (): WalletEvent[] => [
  received(7, 10, 0, 10),
  claimedTen,
  {
    type: 'CoinsAdded',
    data: {
      userId: B,
      txId: 21,
      amount: 50,
      postings: [{ debit: ACCOUNTS.credits, credit: bon(B), amount: 50 }],
      after: { balance: 0, gifts: 0, earnings: 10, bonus: 50 },
    },
  },
];

/** B withdrew `amount` earned coins worth `valueCents` to the sandbox (their earnings and bonus then `after`) */
const withdrawn = (
  txId: number,
  amount: number,
  valueCents: number,
  after: { earnings: number; bonus: number },
): WalletEvent => ({
  type: 'CoinsWithdrawn',
  data: {
    userId: B,
    txId,
    amount,
    valueCents,
    payout: 'sandbox',
    postings: [{ debit: earn(B), credit: 'external:withdrawals', amount }],
    after: { balance: 0, gifts: 0, earnings: after.earnings, bonus: after.bonus },
  },
});

describe('wallet: withdrawing', () => {
  it('withdraws coins earned from received gifts, from user:<id>:earnings into external:withdrawals', () => {
    given(walletDecider, earnedThenAdded())
      .when({ type: 'WithdrawCoins', userId: B, txId: 22, amount: 10 })
      .then([withdrawn(22, 10, 5, { earnings: 0, bonus: 50 })]);
  });
  it('records what the coins are worth (100 coins = 0,50 €, rounded down to the cent) and where the money goes', () => {
    given(walletDecider, earnedThenAdded())
      .when({ type: 'WithdrawCoins', userId: B, txId: 22, amount: 9, payout: 'sandbox' })
      .then([withdrawn(22, 9, 4, { earnings: 1, bonus: 50 })]);
    expect([1, 2, 100, 5000].map(payoutValueCents)).toEqual([0, 1, 50, 2500]);
    // never more than the best pack's price for the same coins: buying to withdraw never pays
    for (const pack of COIN_PACKS) expect(payoutValueCents(pack.coins_amount)).toBeLessThan(packPriceCents(pack));
  });
  it('never withdraws bought or added coins, whatever the balance', () => {
    given(walletDecider, earnedThenAdded())
      .when({ type: 'WithdrawCoins', userId: B, txId: 22, amount: 11 })
      .thenThrows(LEDGER_MESSAGES.notWithdrawable, 'invalid');
    given(walletDecider, [added(A, 10, 1)])
      .when({ type: 'WithdrawCoins', userId: A, txId: 2, amount: 1 })
      .thenThrows(LEDGER_MESSAGES.notWithdrawable, 'invalid');
    given(walletDecider, [bought(A, 110, 1)])
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
    given(walletDecider, [bought(A, 12, 1)])
      .when(send())
      .then([sent(7, 5, 0, 7)]);
  });
  it('records the fee of GIFT_FEE_PERCENT, rounded down', () => {
    given(walletDecider, [bought(A, 12, 1)])
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
  it('spends bonus coins first, then bought ones, then earnings (the withdrawable ones are kept longest)', () => {
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
            // the 50 bonus coins it spent stay bonus coins for its receiver
            bonusAmount: 50,
            postings: [
              { debit: bon(B), credit: ACCOUNTS.transit, amount: 50 },
              { debit: earn(B), credit: ACCOUNTS.transit, amount: 5 },
            ],
            after: { balance: 0, gifts: 0, earnings: 5, bonus: 0 },
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
    const claimedSeven = claimedGift(7, 20, 5, { gifts: 5, earnings: 5 });
    given(walletDecider, history).when({ type: 'ClaimGift', userId: B, txId: 20, giftId: 7 }).then([claimedSeven]);
    given(walletDecider, [...history, claimedSeven])
      .when({ type: 'ClaimGift', userId: B, txId: 21, giftId: 7 })
      .thenThrows(LEDGER_MESSAGES.alreadyClaimed, 'conflict');
    given(walletDecider, history)
      .when({ type: 'ClaimGift', userId: B, txId: 21, giftId: 99 })
      .thenThrows(LEDGER_MESSAGES.giftNotFound, 'not_found');
  });
  it('converts every unclaimed gift, then has nothing left', () => {
    const receivedAfterClaim: WalletEvent = {
      ...received(9, 3, 0, 8),
      data: { ...received(9, 3, 0, 8).data, after: { balance: 0, gifts: 8, earnings: 5, bonus: 0 } },
    } as WalletEvent;
    const history = [
      received(7, 5, 0, 5),
      received(8, 5, 0, 10),
      claimedGift(7, 20, 5, { gifts: 5, earnings: 5 }),
      receivedAfterClaim,
    ];
    const converted: WalletEvent = {
      type: 'GiftsConverted',
      data: {
        userId: B,
        txId: 30,
        giftIds: [8, 9],
        amount: 8,
        bonusAmount: 0,
        postings: [{ debit: gif(B), credit: earn(B), amount: 8 }],
        after: { balance: 0, gifts: 0, earnings: 13, bonus: 0 },
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

describe('wallet: coins keep their origin through gifts', () => {
  const licorne = { id: 8, name: 'Licorne', emoji: '🦄', coinCost: 500 };
  const giftTo = (giftId: number, feePercent = 0): WalletCommand => ({
    type: 'SendGift',
    userId: A,
    giftId,
    receiverId: B,
    gift: licorne,
    feePercent,
  });
  /** what A's wallet decided, as B's wallet receives it */
  const sentBy = (history: WalletEvent[], command: WalletCommand) =>
    walletDecider.decide(command, fold(walletDecider, history))[0] as GiftSent;
  const receive = (s: GiftSent): WalletCommand => ({ type: 'ReceiveGift', userId: B, sent: s.data, sentAt: 'x' });

  it('a gift paid with bonus coins carries them: sent, received and claimed as bonus coins, never withdrawable', () => {
    const gift = sentBy([added(A, 1000, 1)], giftTo(2));
    expect(gift.data).toMatchObject({
      bonusAmount: 500,
      postings: [{ debit: bon(A), credit: ACCOUNTS.transit, amount: 500 }],
      after: { balance: 0, gifts: 0, earnings: 0, bonus: 500 },
    });
    given(walletDecider)
      .when(receive(gift))
      .then(
        [received(2, 500, 0, 500, 500)].map((e) => ({
          ...e,
          data: { ...e.data, name: 'Licorne', emoji: '🦄', catalogGiftId: 8, sentAt: 'x' },
        })),
      );
    const [credited] = walletDecider.decide(receive(gift), walletDecider.initialState());
    given(walletDecider, [credited])
      .when({ type: 'ClaimGift', userId: B, txId: 3, giftId: 2 })
      .then([
        {
          type: 'GiftClaimed',
          data: {
            userId: B,
            txId: 3,
            giftId: 2,
            amount: 500,
            bonusAmount: 500,
            postings: [{ debit: gif(B), credit: bon(B), amount: 500 }],
            after: { balance: 0, gifts: 0, earnings: 0, bonus: 500 },
          },
        },
      ]);
    const [claimed] = walletDecider.decide(
      { type: 'ClaimGift', userId: B, txId: 3, giftId: 2 },
      fold(walletDecider, [credited]),
    );
    given(walletDecider, [credited, claimed])
      .when({ type: 'WithdrawCoins', userId: B, txId: 4, amount: 300 })
      .thenThrows(LEDGER_MESSAGES.notWithdrawable, 'invalid');
    // and offered on, they stay bonus coins for the next member
    const onward = walletDecider.decide(
      { type: 'SendGift', userId: B, giftId: 5, receiverId: 'carol', gift: licorne, feePercent: 0 },
      fold(walletDecider, [credited, claimed]),
    )[0] as GiftSent;
    expect(onward.data.bonusAmount).toBe(500);
  });

  it('a gift paid with bought coins becomes its receiver’s earnings: withdrawable', () => {
    const gift = sentBy([bought(A, 550, 1)], giftTo(2));
    expect(gift.data.bonusAmount).toBe(0);
    const [credited] = walletDecider.decide(receive(gift), walletDecider.initialState());
    const [claimed] = walletDecider.decide(
      { type: 'ClaimGift', userId: B, txId: 3, giftId: 2 },
      fold(walletDecider, [credited]),
    );
    expect(claimed.data.postings).toEqual([{ debit: gif(B), credit: earn(B), amount: 500 }]);
    given(walletDecider, [credited, claimed])
      .when({ type: 'WithdrawCoins', userId: B, txId: 4, amount: 300 })
      .then([withdrawn(4, 300, 150, { earnings: 200, bonus: 0 })]);
  });

  it('a gift paid partly with bonus coins: the fee takes those first, the claim splits the rest', () => {
    // 300 bonus + 550 bought: the 500-coin gift spends the 300 bonus coins and 200 bought ones
    const gift = sentBy([added(A, 300, 1), bought(A, 550, 2)], giftTo(3, 10));
    expect(gift.data).toMatchObject({
      fee: 50,
      bonusAmount: 300,
      postings: [
        { debit: bon(A), credit: ACCOUNTS.transit, amount: 300 },
        { debit: bal(A), credit: ACCOUNTS.transit, amount: 200 },
      ],
    });
    const [credited] = walletDecider.decide(receive(gift), walletDecider.initialState());
    // 450 credited, of which 250 bonus (the 50 fee taken from the 300 bonus coins)
    expect(credited.data).toMatchObject({ amount: 450, bonusAmount: 250 });
    given(walletDecider, [credited])
      .when({ type: 'ConvertGifts', userId: B, txId: 4 })
      .then([
        {
          type: 'GiftsConverted',
          data: {
            userId: B,
            txId: 4,
            giftIds: [3],
            amount: 450,
            bonusAmount: 250,
            postings: [
              { debit: gif(B), credit: earn(B), amount: 200 },
              { debit: gif(B), credit: bon(B), amount: 250 },
            ],
            after: { balance: 0, gifts: 0, earnings: 200, bonus: 250 },
          },
        },
      ]);
  });

  it('spends as free the coins an old balance holds from additions made before the bonus account', () => {
    const legacyAdded: WalletEvent = {
      type: 'CoinsAdded',
      data: {
        userId: A,
        txId: 1,
        amount: 400,
        postings: [{ debit: ACCOUNTS.credits, credit: bal(A), amount: 400 }],
        after: { balance: 400, gifts: 0 },
      },
    };
    // 400 old free coins and 1,100 bought ones, all in the balance: the gift carries 400 of free origin
    expect(sentBy([legacyAdded, bought(A, 1100, 2, 400)], giftTo(3)).data.bonusAmount).toBe(400);
    // after that gift, the next one is bought coins only
    const first = sentBy([legacyAdded, bought(A, 1100, 2, 400)], giftTo(3));
    expect(sentBy([legacyAdded, bought(A, 1100, 2, 400), first], giftTo(4)).data.bonusAmount).toBe(0);
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
      balance: 0,
      gifts: 0,
      earnings: 0,
      bonus: 10,
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
          bonusAmount: 0,
          postings: [],
          after: { balance: 0, gifts: 0, earnings: 0, bonus: 0 },
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
