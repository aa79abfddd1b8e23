import { describe, it, expect } from 'vitest';
import { given } from '../shared/given-when-then';
import {
  ACCOUNTS,
  walletDecider,
  walletStream,
  type GiftSent,
  type WalletCommand,
  type WalletEvent,
} from './wallet-decider';
import { LEDGER_MESSAGES } from '@evo/contracts';
import { packById } from './packs';
import { payoutValueCents } from './withdrawals';
import { auditedLedger } from '../ledger/testing';

const coeur = { id: 2, name: 'Cœur', emoji: '❤️', coinCost: 10 };
const purchase = (userId: string, txId: number): WalletCommand => ({
  type: 'PurchaseCoins',
  userId,
  txId,
  pack: packById(1)!,
  provider: 'sandbox',
  paymentRef: `r${txId}`,
});
const gift = (userId: string, receiverId: string, giftId: number): Extract<WalletCommand, { type: 'SendGift' }> => ({
  type: 'SendGift',
  userId,
  giftId,
  receiverId,
  gift: coeur,
  feePercent: 20,
});

describe('closing a wallet (account deletion)', () => {
  it('forfeits bought, bonus and unclaimed gift coins to platform:forfeits, in balanced postings', () => {
    const l = auditedLedger();
    l.run(purchase('b', 1)); // 110 bought
    l.run({ type: 'AddCoins', userId: 'b', txId: 2, amount: 20 });
    l.run(purchase('a', 3));
    l.sendAndReceive(gift('a', 'b', 4)); // 8 unclaimed
    const [closed] = l.run({ type: 'CloseWallet', userId: 'b' });
    expect(closed).toEqual({
      type: 'WalletClosed',
      data: {
        userId: 'b',
        forfeited: 138,
        paidOut: 0,
        valueCents: 0,
        postings: [
          { debit: 'user:b:balance', credit: ACCOUNTS.forfeits, amount: 110 },
          { debit: 'user:b:bonus', credit: ACCOUNTS.forfeits, amount: 20 },
          { debit: 'user:b:gifts', credit: ACCOUNTS.forfeits, amount: 8 },
        ],
        after: { balance: 0, gifts: 0, earnings: 0, bonus: 0 },
      },
    });
    const report = l.audit();
    expect(report.ok).toBe(true);
    expect(report.totals.platform_forfeits).toBe(138);
    expect(report.totals.sum).toBe(0);
  });

  it('pays out earnings that arrived after the deletion was accepted (a claim racing with it)', () => {
    const l = auditedLedger();
    l.run(purchase('a', 1));
    l.sendAndReceive(gift('a', 'b', 2));
    l.run({ type: 'ClaimGift', userId: 'b', txId: 3, giftId: 2 }); // 8 earned
    const [closed] = l.run({ type: 'CloseWallet', userId: 'b' });
    expect(closed.data).toMatchObject({
      forfeited: 0,
      paidOut: 8,
      valueCents: payoutValueCents(8),
      postings: [{ debit: 'user:b:earnings', credit: ACCOUNTS.withdrawals, amount: 8 }],
    });
    expect(l.audit().ok).toBe(true);
  });

  it('closes an empty wallet too, so that gifts arriving later are forfeited', () => {
    given(walletDecider)
      .when({ type: 'CloseWallet', userId: 'b' })
      .then([
        {
          type: 'WalletClosed',
          data: {
            userId: 'b',
            forfeited: 0,
            paidOut: 0,
            valueCents: 0,
            postings: [],
            after: { balance: 0, gifts: 0, earnings: 0, bonus: 0 },
          },
        },
      ]);
  });

  it('closes once: closing again appends nothing', () => {
    const l = auditedLedger();
    l.run({ type: 'CloseWallet', userId: 'b' });
    expect(l.run({ type: 'CloseWallet', userId: 'b' })).toEqual([]);
  });

  it('refuses every movement of a closed wallet, in French', () => {
    const closedEvents: WalletEvent[] = walletDecider.decide(
      { type: 'CloseWallet', userId: 'b' },
      walletDecider.initialState(),
    );
    for (const command of [
      purchase('b', 9),
      { type: 'AddCoins', userId: 'b', txId: 9, amount: 5 } as const,
      { type: 'WithdrawCoins', userId: 'b', txId: 9, amount: 5 } as const,
      gift('b', 'a', 9),
      { type: 'ClaimGift', userId: 'b', txId: 9, giftId: 1 } as const,
      { type: 'ConvertGifts', userId: 'b', txId: 9 } as const,
    ])
      given(walletDecider, closedEvents).when(command).thenThrows(LEDGER_MESSAGES.walletClosed, 'conflict');
  });

  it('forfeits a gift in flight to a closed wallet (once), and the ledger still reconciles', () => {
    const l = auditedLedger();
    l.run(purchase('a', 1));
    const [sent] = l.run(gift('a', 'b', 2)) as GiftSent[];
    l.run({ type: 'CloseWallet', userId: 'b' });
    const [forfeited] = l.run({ type: 'ReceiveGift', userId: 'b', sent: sent.data, sentAt: 'x' });
    expect(forfeited).toMatchObject({
      type: 'GiftForfeited',
      data: {
        userId: 'b',
        giftId: 2,
        senderId: 'a',
        coinCost: 10,
        postings: [{ debit: ACCOUNTS.transit, credit: ACCOUNTS.forfeits, amount: 10 }],
        after: { balance: 0, gifts: 0, earnings: 0, bonus: 0 },
      },
    });
    // a redelivered gift is not forfeited twice
    expect(l.run({ type: 'ReceiveGift', userId: 'b', sent: sent.data, sentAt: 'x' })).toEqual([]);
    const report = l.audit();
    expect(report.ok).toBe(true);
    expect(report.pending_gifts).toEqual({ count: 0, coins: 0 });
    expect(report.totals.platform_forfeits).toBe(10);
  });
});

describe('the audit of closed wallets', () => {
  const closedLog = () => {
    const l = auditedLedger();
    l.run(purchase('b', 1));
    l.run({ type: 'CloseWallet', userId: 'b' });
    return l;
  };
  it('names a movement written on a closed wallet', () => {
    const l = closedLog();
    const n = BigInt(l.log.length + 1);
    l.log.push({
      id: 'late',
      type: 'CoinsAdded',
      streamId: walletStream('b'),
      position: n,
      data: {
        userId: 'b',
        txId: 7,
        amount: 5,
        postings: [{ debit: ACCOUNTS.credits, credit: 'user:b:bonus', amount: 5 }],
        after: { balance: 0, gifts: 0, earnings: 0, bonus: 5 },
      },
    });
    expect(l.audit().first_violation).toMatchObject({ rule: 'wallet_closed', event_id: 'late' });
  });
  it('names a closing that leaves coins behind or forfeits earnings', () => {
    const l = auditedLedger();
    l.run(purchase('b', 1));
    l.log.push({
      id: 'half',
      type: 'WalletClosed',
      streamId: walletStream('b'),
      position: 2n,
      data: {
        userId: 'b',
        forfeited: 10,
        paidOut: 0,
        valueCents: 0,
        postings: [{ debit: 'user:b:balance', credit: ACCOUNTS.forfeits, amount: 10 }],
        after: { balance: 100, gifts: 0, earnings: 0, bonus: 0 },
      },
    });
    expect(l.audit().first_violation).toMatchObject({ rule: 'amount_mismatch', event_id: 'half' });
  });
  it('names a gift forfeited by a wallet that is not closed', () => {
    const l = auditedLedger();
    l.run(purchase('a', 1));
    const [sent] = l.run(gift('a', 'b', 2)) as GiftSent[];
    l.log.push({
      id: 'lost',
      type: 'GiftForfeited',
      streamId: walletStream('b'),
      position: 9n,
      data: {
        ...sent.data,
        userId: 'b',
        senderId: 'a',
        sentAt: 'x',
        postings: [{ debit: ACCOUNTS.transit, credit: ACCOUNTS.forfeits, amount: 10 }],
        after: { balance: 0, gifts: 0, earnings: 0, bonus: 0 },
      },
    });
    expect(l.audit().first_violation).toMatchObject({ rule: 'wallet_closed', event_id: 'lost' });
  });
});
