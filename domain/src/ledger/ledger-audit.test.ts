import { describe, it, expect } from 'vitest';
import { LedgerAuditor, type AuditedEvent } from './ledger-audit';
import { walletStream, type WalletEvent } from '../coins/wallet-decider';
import { LEDGER_MESSAGES } from '@evo/contracts';
import { packById } from '../coins/packs';
import { auditedLedger } from './testing';

const audit = (log: AuditedEvent[]) => {
  const a = new LedgerAuditor();
  for (const e of log) a.apply(e);
  return a.report();
};

function history() {
  const l = auditedLedger();
  l.run({ type: 'PurchaseCoins', userId: 'a', txId: 1, pack: packById(1)!, provider: 'sandbox', paymentRef: 'r1' });
  l.run({ type: 'AddCoins', userId: 'b', txId: 2, amount: 20 });
  const [sent] = l.run({
    type: 'SendGift',
    userId: 'a',
    giftId: 3,
    receiverId: 'b',
    gift: { id: 2, name: 'Cœur', emoji: '❤️', coinCost: 10 },
    feePercent: 20,
  }) as Array<Extract<WalletEvent, { type: 'GiftSent' }>>;
  l.run({
    type: 'SendGift',
    userId: 'a',
    giftId: 4,
    receiverId: 'b',
    gift: { id: 1, name: 'Rose', emoji: '🌹', coinCost: 1 },
    feePercent: 20,
  });
  l.run({ type: 'ReceiveGift', userId: 'b', sent: sent.data, sentAt: 'x' });
  l.run({ type: 'ClaimGift', userId: 'b', txId: 5, giftId: 3 });
  // b's 20 added coins stay; the 8 coins earned from the gift (10, fee 2) are the withdrawable ones
  l.run({ type: 'WithdrawCoins', userId: 'b', txId: 6, amount: 8 });
  l.run({ type: 'ConvertGifts', userId: 'b', txId: 7 });
  l.log.splice(2, 0, { id: 'other', type: 'UserLoggedIn', data: { userId: 'a' }, streamId: 'user-a', position: 999n });
  return l.log;
}

describe('ledger reconciliation', () => {
  it('passes on a history written by the decider, with totals', () => {
    const r = audit(history());
    expect(r.first_violation).toBeNull();
    expect(r.ok).toBe(true);
    expect(r.movements).toBe(7);
    expect(r.events).toBe(8);
    expect(r.totals).toEqual({
      sum: 0,
      external_payments: -110,
      external_credits: -20,
      external_withdrawals: 8,
      platform_fees: 2,
      platform_forfeits: 0,
      transit_gifts: 1,
      users_balance: 99,
      users_earnings: 0,
      users_bonus: 20,
      users_gifts: 0,
    });
    expect(r.pending_gifts).toEqual({ count: 1, coins: 1 });
  });

  const tamper = (
    index: number,
    patch: (d: Record<string, unknown>) => Record<string, unknown>,
    extra: Partial<AuditedEvent> = {},
  ) => {
    const log = history();
    log[index] = { ...log[index], data: patch(structuredClone(log[index].data) as Record<string, unknown>), ...extra };
    return audit(log);
  };

  it('finds a transfer recorded twice', () => {
    const log = history();
    log.push({ ...log[0], id: 'again', position: 1000n });
    expect(audit(log).first_violation).toMatchObject({
      rule: 'duplicate_transfer',
      event_id: 'again',
      position: '1000',
    });
    const credited = history();
    const receivedAt = credited.findIndex((e) => e.type === 'GiftReceived');
    credited.splice(receivedAt + 1, 0, { ...credited[receivedAt], id: 'twice', position: 500n });
    expect(audit(credited).first_violation).toMatchObject({ rule: 'duplicate_transfer', event_id: 'twice' });
  });
  it('finds a negative user account', () => {
    const r = tamper(7, (d) => ({
      ...d,
      amount: 40,
      postings: [{ debit: 'user:b:earnings', credit: 'external:withdrawals', amount: 40 }],
      after: { balance: 20, gifts: 0, earnings: 0 },
    }));
    expect(r.first_violation).toMatchObject({ rule: 'negative_account', event_id: 'e7' });
    expect(r.ok).toBe(false);
  });
  it('finds bought or added coins withdrawn', () => {
    const r = tamper(7, (d) => ({
      ...d,
      postings: [{ debit: 'user:b:balance', credit: 'external:withdrawals', amount: 8 }],
      after: { balance: 12, gifts: 0, earnings: 8 },
    }));
    expect(r.first_violation).toMatchObject({ rule: 'not_withdrawable', event_id: 'e7' });
    // nor may a purchase or an addition credit the earnings
    expect(
      tamper(1, (d) => ({
        ...d,
        postings: [{ debit: 'external:credits', credit: 'user:b:earnings', amount: 20 }],
        after: { balance: 0, gifts: 0, earnings: 20 },
      })).first_violation?.rule,
    ).toBe('amount_mismatch');
  });
  it('checks a movement by the rules it was written under: before the earnings account, claims credited the balance', () => {
    const legacy: AuditedEvent[] = [
      {
        id: 'l1',
        type: 'CoinsPurchased',
        streamId: 'wallet-z',
        position: 1n,
        data: {
          userId: 'z',
          txId: 1,
          packId: 1,
          coins: 5,
          priceCents: 100,
          provider: 'sandbox',
          paymentRef: 'r',
          postings: [{ debit: 'external:payments', credit: 'user:z:balance', amount: 5 }],
          after: { balance: 5, gifts: 0 },
        },
      },
      {
        id: 'l2',
        type: 'CoinsWithdrawn',
        streamId: 'wallet-z',
        position: 2n,
        data: {
          userId: 'z',
          txId: 2,
          amount: 5,
          postings: [{ debit: 'user:z:balance', credit: 'external:withdrawals', amount: 5 }],
          after: { balance: 0, gifts: 0 },
        },
      },
    ];
    expect(audit(legacy).ok).toBe(true);
    const touched = structuredClone(legacy);
    (touched[1].data as { postings: unknown }).postings = [
      { debit: 'user:z:earnings', credit: 'external:withdrawals', amount: 5 },
    ];
    expect(audit(touched).first_violation?.rule).toBe('amount_mismatch');
  });
  it('finds postings that do not match the movement or the stated balances', () => {
    expect(tamper(0, (d) => ({ ...d, coins: 5 })).first_violation?.rule).toBe('amount_mismatch');
    expect(tamper(0, (d) => ({ ...d, after: { balance: 1, gifts: 0, earnings: 0 } })).first_violation?.rule).toBe(
      'after_mismatch',
    );
    expect(tamper(6, (d) => ({ ...d, after: { balance: 20, gifts: 0, earnings: 7 } })).first_violation?.rule).toBe(
      'after_mismatch',
    );
    expect(
      tamper(0, (d) => ({ ...d, postings: [{ debit: 'external:payments', credit: 'user:a:balance', amount: 1.5 }] }))
        .first_violation?.rule,
    ).toBe('invalid_event');
    expect(tamper(0, (d) => d, { streamId: 'wallet-b' }).first_violation?.rule).toBe('wrong_stream');
    expect(
      tamper(1, (d) => ({ ...d, postings: [{ debit: 'external:credits', credit: 'user:a:balance', amount: 20 }] }))
        .first_violation?.rule,
    ).toBe('foreign_account');
  });
  it('finds a gift received without being sent, or claimed twice', () => {
    const log = history();
    const i = log.findIndex((e) => e.type === 'GiftReceived');
    const moved = log.splice(i, 1)[0];
    log.splice(1, 0, moved);
    expect(audit(log).first_violation).toMatchObject({ rule: 'gift_mismatch' });
    const claims = history();
    const c = claims.findIndex((e) => e.type === 'GiftClaimed');
    claims.push({
      ...claims[c],
      id: 'claim-again',
      position: 2000n,
      data: { ...(claims[c].data as object), txId: 99 },
    });
    expect(audit(claims).first_violation).toMatchObject({ rule: 'claim_invalid', event_id: 'claim-again' });
  });

  it('finds coins never paid for that were withdrawn, in a log written before their origin was kept', () => {
    // issue 29 item 2, as the old decider wrote it: A adds 1,000 coins for free (to the balance) and
    // offers 500 to B, who claims them into the earnings and withdraws 300
    const move = (id: number, type: string, user: string, data: Record<string, unknown>): AuditedEvent => ({
      id: `o${id}`,
      type,
      streamId: walletStream(user),
      position: BigInt(id),
      data: { userId: user, ...data },
    });
    const gift = { giftId: 2, catalogGiftId: 8, name: 'Licorne', emoji: '🦄', coinCost: 500, fee: 0 };
    const old = [
      move(1, 'CoinsAdded', 'a', {
        txId: 1,
        amount: 1000,
        postings: [{ debit: 'external:credits', credit: 'user:a:balance', amount: 1000 }],
        after: { balance: 1000, gifts: 0, earnings: 0 },
      }),
      move(2, 'GiftSent', 'a', {
        ...gift,
        receiverId: 'b',
        postings: [{ debit: 'user:a:balance', credit: 'transit:gifts', amount: 500 }],
        after: { balance: 500, gifts: 0, earnings: 0 },
      }),
      move(3, 'GiftReceived', 'b', {
        ...gift,
        senderId: 'a',
        amount: 500,
        sentAt: 'x',
        postings: [{ debit: 'transit:gifts', credit: 'user:b:gifts', amount: 500 }],
        after: { balance: 0, gifts: 500, earnings: 0 },
      }),
      move(4, 'GiftClaimed', 'b', {
        txId: 3,
        giftId: 2,
        amount: 500,
        postings: [{ debit: 'user:b:gifts', credit: 'user:b:earnings', amount: 500 }],
        after: { balance: 0, gifts: 0, earnings: 500 },
      }),
      move(5, 'CoinsWithdrawn', 'b', {
        txId: 4,
        amount: 300,
        postings: [{ debit: 'user:b:earnings', credit: 'external:withdrawals', amount: 300 }],
        after: { balance: 0, gifts: 0, earnings: 200 },
      }),
    ];
    const r = audit(old);
    expect(r.first_violation).toMatchObject({ rule: 'withdrawn_exceeds_bought', event_id: 'o5' });
    expect(r.first_violation?.message).toBe(
      '300 coins retirés pour 0 coins achetés : des coins jamais payés ont été retirés.',
    );
  });

  it('keeps the origin through gifts: the same history through the decider leaves nothing withdrawable', () => {
    const l = auditedLedger();
    l.run({ type: 'AddCoins', userId: 'a', txId: 1, amount: 1000 });
    const licorne = { id: 8, name: 'Licorne', emoji: '🦄', coinCost: 500 };
    for (const giftId of [2, 3]) {
      l.sendAndReceive({ type: 'SendGift', userId: 'a', giftId, receiverId: 'b', gift: licorne, feePercent: 10 });
    }
    l.run({ type: 'ClaimGift', userId: 'b', txId: 4, giftId: 2 });
    l.run({ type: 'ConvertGifts', userId: 'b', txId: 5 });
    expect(() => l.run({ type: 'WithdrawCoins', userId: 'b', txId: 6, amount: 300 })).toThrow(
      LEDGER_MESSAGES.notWithdrawable,
    );
    const r = audit(l.log);
    expect(r.ok).toBe(true);
    // the fee (50 each) came out of the free coins: B holds 900 bonus coins, nothing withdrawable
    expect(r.totals).toMatchObject({
      users_bonus: 900,
      users_earnings: 0,
      platform_fees: 100,
      external_withdrawals: 0,
    });
  });

  it('finds a gift that lost the free origin of its coins, at each step', () => {
    const l = auditedLedger();
    l.run({ type: 'AddCoins', userId: 'a', txId: 1, amount: 100 });
    l.sendAndReceive({
      type: 'SendGift',
      userId: 'a',
      giftId: 2,
      receiverId: 'b',
      gift: { id: 3, name: 'Couronne', emoji: '👑', coinCost: 100 },
      feePercent: 0,
    });
    l.run({ type: 'ClaimGift', userId: 'b', txId: 3, giftId: 2 });
    expect(audit(l.log).ok).toBe(true);
    const tampered = (index: number, patch: (d: Record<string, unknown>) => Record<string, unknown>) => {
      const log = structuredClone(l.log);
      log[index] = { ...log[index], data: patch(log[index].data as Record<string, unknown>) };
      return audit(log).first_violation;
    };
    // sent as if bought
    expect(tampered(1, (d) => ({ ...d, bonusAmount: 0 }))).toMatchObject({ rule: 'origin_lost', event_id: 'e2' });
    expect(tampered(1, ({ bonusAmount: _b, ...d }) => d)).toMatchObject({ rule: 'origin_lost' });
    // received as if bought
    expect(tampered(2, (d) => ({ ...d, bonusAmount: 0 }))).toMatchObject({ rule: 'origin_lost', event_id: 'e3' });
    // claimed into the earnings
    expect(
      tampered(3, (d) => ({
        ...d,
        bonusAmount: 0,
        postings: [{ debit: 'user:b:gifts', credit: 'user:b:earnings', amount: 100 }],
        after: { balance: 0, gifts: 0, earnings: 100, bonus: 0 },
      })),
    ).toMatchObject({ rule: 'origin_lost', event_id: 'e4' });
  });
});
