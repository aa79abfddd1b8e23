import type { LogPosition } from '../shared/envelope';
import {
  ACCOUNTS,
  mustStayNonNegative,
  netChanges,
  parseUserAccount,
  userBalanceAccount,
  userBonusAccount,
  userEarningsAccount,
  userGiftsAccount,
  ledgerEventSchemas,
  transactionIdOf,
  type WalletEvent,
  bonusShareReceived,
  legacyFreeAfter,
  walletStream,
} from '../coins/wallet-decider';

/** An event as the log gives it (only what the audit reads). */
export interface AuditedEvent {
  id: string;
  type: string;
  data: unknown;
  streamId: string;
  position: LogPosition;
}

export type LedgerRule =
  | 'invalid_event'
  | 'wrong_stream'
  | 'foreign_account'
  | 'duplicate_transfer'
  | 'sum_not_zero'
  | 'negative_account'
  | 'after_mismatch'
  | 'amount_mismatch'
  | 'gift_mismatch'
  | 'claim_invalid'
  | 'not_withdrawable'
  | 'origin_lost'
  | 'withdrawn_exceeds_bought'
  | 'wallet_closed';

export interface LedgerViolation {
  position: string;
  event_id: string;
  type: string;
  stream_id: string;
  rule: LedgerRule;
  message: string;
}

export interface LedgerReport {
  /** true when every invariant held at every position */
  ok: boolean;
  /** events read from the log */
  events: number;
  /** coin movements among them */
  movements: number;
  last_position: string | null;
  /** accounts ever touched */
  accounts: number;
  totals: {
    /** Σ of every account: always 0 when ok */
    sum: number;
    external_payments: number;
    external_credits: number;
    external_withdrawals: number;
    platform_fees: number;
    /** coins of deleted accounts and gifts that reached them (WalletClosed, GiftForfeited) */
    platform_forfeits: number;
    transit_gifts: number;
    users_balance: number;
    /** Σ user:<id>:earnings: the coins members may withdraw */
    users_earnings: number;
    /** Σ user:<id>:bonus: coins of free origin, never withdrawable */
    users_bonus: number;
    users_gifts: number;
  };
  /** gifts sent and not yet credited to their receiver (they sit in transit:gifts) */
  pending_gifts: { count: number; coins: number };
  first_violation: LedgerViolation | null;
  violations: number;
}

interface GiftTrack {
  senderId: string;
  receiverId: string;
  coinCost: number;
  fee: number;
  /** coins of free origin the gift carried when sent */
  bonusSent: number;
  /** credited amount once received, undefined before */
  received?: number;
  /** of the credited amount, the coins of free origin */
  bonusReceived: number;
  claimed: boolean;
}

/**
 * Folds the whole log, event by event, and checks the ledger's invariants at every position:
 * - every movement is well formed, on its member's wallet stream, touching only that member's accounts;
 * - the sum over all accounts is 0 (double entry);
 * - no user account (and not the gifts in transit) is ever negative;
 * - only earned coins leave: a withdrawal debits the member's earnings, which only claims and
 *   conversions of received gifts credit (never a purchase or an addition);
 * - coins keep their origin through gifts (the origin rule, `wallet-decider.ts`): a gift carries at least the coins of
 *   free origin it spent, its receiver is credited them (less the fee) and claims them into the
 *   bonus account, never the earnings; and the coins withdrawn never exceed the coins bought;
 * - every transfer is recorded once (one event per transaction id and type, one GiftReceived per
 *   GiftSent, one claim per received gift), with amounts matching;
 * - the balances an event states (`after`) are the folded balances.
 * Pure: feed it the log in order with `apply`, then read `report()`. It keeps one entry per gift.
 */
export class LedgerAuditor {
  private readonly balances = new Map<string, number>();
  private readonly transfers = new Map<string, Set<number | string>>();
  /** members whose wallet is closed (their account deleted) */
  private readonly closed = new Set<string>();
  private readonly gifts = new Map<number, GiftTrack>();
  /** per member, the coins of free origin an old balance holds (added before the bonus account) */
  private readonly legacyFree = new Map<string, number>();
  private sum = 0;
  private events = 0;
  private movements = 0;
  private lastPosition: LogPosition | undefined;
  private pendingCount = 0;
  private pendingCoins = 0;
  private first: LedgerViolation | null = null;
  private violationCount = 0;

  /** the balance of an account so far */
  balance(account: string): number {
    return this.balances.get(account) ?? 0;
  }

  /** Check one event; answers the violation it caused, if any. */
  apply(event: AuditedEvent): LedgerViolation | undefined {
    this.events++;
    this.lastPosition = event.position;
    const schema = (
      ledgerEventSchemas as Record<string, { safeParse(d: unknown): { success: boolean; data?: unknown } }>
    )[event.type];
    if (!schema) return undefined;
    this.movements++;
    const parsed = schema.safeParse(event.data);
    if (!parsed.success) return this.violation(event, 'invalid_event', 'Mouvement mal formé (schéma).');
    const e = { type: event.type, data: parsed.data } as WalletEvent;
    const d = e.data;
    if (event.streamId !== walletStream(d.userId)) {
      return this.violation(event, 'wrong_stream', `Mouvement du membre ${d.userId} hors de son portefeuille.`);
    }
    for (const p of d.postings) {
      for (const account of [p.debit, p.credit]) {
        const owner = parseUserAccount(account);
        if (owner && owner.userId !== d.userId)
          return this.violation(event, 'foreign_account', `Le compte ${account} n'appartient pas au portefeuille.`);
      }
    }

    // a wallet closes once: its closing is known by its member
    const txId = e.type === 'WalletClosed' ? `membre ${d.userId}` : transactionIdOf(e);
    const seen = this.transfers.get(e.type) ?? new Set<number | string>();
    this.transfers.set(e.type, seen);
    if (seen.has(txId))
      return this.violation(event, 'duplicate_transfer', `Transfert ${e.type} n°${txId} enregistré deux fois.`);
    seen.add(txId);
    if (this.closed.has(d.userId) && e.type !== 'GiftForfeited')
      return this.violation(event, 'wallet_closed', `Mouvement sur le portefeuille fermé du membre ${d.userId}.`);
    if (e.type === 'GiftForfeited' && !this.closed.has(d.userId))
      return this.violation(event, 'wallet_closed', `Cadeau n°${e.data.giftId} perdu sur un portefeuille ouvert.`);

    const semantic = this.checkSemantics(e);
    if (semantic) return this.violation(event, semantic.rule, semantic.message);

    const changes = netChanges(d.postings);
    let eventSum = 0;
    for (const [account, delta] of changes) {
      eventSum += delta;
      const next = this.balance(account) + delta;
      this.balances.set(account, next);
      this.sum += delta;
    }
    if (eventSum !== 0 || this.sum !== 0 || !Number.isSafeInteger(this.sum)) {
      return this.violation(event, 'sum_not_zero', `La somme des comptes vaut ${this.sum} au lieu de 0.`);
    }
    for (const account of changes.keys()) {
      if (mustStayNonNegative(account) && this.balance(account) < 0) {
        return this.violation(
          event,
          'negative_account',
          `Le compte ${account} est négatif (${this.balance(account)}).`,
        );
      }
    }
    const balance = this.balance(userBalanceAccount(d.userId));
    const gifts = this.balance(userGiftsAccount(d.userId));
    const earnings = this.balance(userEarningsAccount(d.userId));
    const bonus = this.balance(userBonusAccount(d.userId));
    this.legacyFree.set(d.userId, legacyFreeAfter(this.legacyFree.get(d.userId) ?? 0, e, balance));
    if (
      d.after.balance !== balance ||
      d.after.gifts !== gifts ||
      (d.after.earnings !== undefined && d.after.earnings !== earnings) ||
      (d.after.bonus ?? 0) !== bonus
    ) {
      return this.violation(
        event,
        'after_mismatch',
        `Soldes annoncés ${d.after.balance}/${d.after.gifts}/${d.after.earnings ?? '-'}/${d.after.bonus ?? '-'}, soldes réels ${balance}/${gifts}/${earnings}/${bonus}.`,
      );
    }
    // only what someone paid for ever leaves the platform
    const withdrawn = this.balance(ACCOUNTS.withdrawals);
    const bought = -this.balance(ACCOUNTS.payments);
    if ((e.type === 'CoinsWithdrawn' || (e.type === 'WalletClosed' && e.data.paidOut > 0)) && withdrawn > bought)
      return this.violation(
        event,
        'withdrawn_exceeds_bought',
        `${withdrawn} coins retirés pour ${bought} coins achetés : des coins jamais payés ont été retirés.`,
      );
    return undefined;
  }

  /** Amounts and the life of each gift: sent once, received once as sent, claimed once. */
  private checkSemantics(e: WalletEvent): { rule: LedgerRule; message: string } | undefined {
    const d = e.data;
    const changes = netChanges(d.postings);
    const balanceDelta = changes.get(userBalanceAccount(d.userId)) ?? 0;
    const giftsDelta = changes.get(userGiftsAccount(d.userId)) ?? 0;
    const earningsDelta = changes.get(userEarningsAccount(d.userId)) ?? 0;
    const bonusDelta = changes.get(userBonusAccount(d.userId)) ?? 0;
    // movements written before the earnings account existed (no `after.earnings`) follow the rules
    // of their time: claims credited the balance, withdrawals debited it; they never touch earnings
    const legacy = d.after.earnings === undefined;
    if (legacy && earningsDelta !== 0)
      return { rule: 'amount_mismatch', message: 'Mouvement ancien touchant les gains.' };
    // likewise before the bonus account: coins added for free went to the balance
    const beforeBonus = d.after.bonus === undefined;
    if (beforeBonus && bonusDelta !== 0)
      return { rule: 'amount_mismatch', message: 'Mouvement ancien touchant les coins bonus.' };
    /** the account claims credit and withdrawals debit */
    const earnedDelta = legacy ? balanceDelta : earningsDelta;
    const mismatch = (expected: string) => ({
      rule: 'amount_mismatch' as const,
      message: `Écritures incohérentes avec le mouvement (${expected}).`,
    });
    switch (e.type) {
      case 'CoinsPurchased':
        return balanceDelta === e.data.coins &&
          giftsDelta === 0 &&
          earningsDelta === 0 &&
          bonusDelta === 0 &&
          changes.get(ACCOUNTS.payments) === -e.data.coins
          ? undefined
          : mismatch('achat');
      case 'CoinsAdded':
        // never paid for: to the bonus account (to the balance before it existed)
        return (beforeBonus ? balanceDelta : bonusDelta) === e.data.amount &&
          (beforeBonus ? bonusDelta : balanceDelta) === 0 &&
          giftsDelta === 0 &&
          earningsDelta === 0 &&
          changes.get(ACCOUNTS.credits) === -e.data.amount
          ? undefined
          : mismatch('ajout');
      case 'CoinsWithdrawn':
        if ((!legacy && balanceDelta !== 0) || bonusDelta !== 0)
          return {
            rule: 'not_withdrawable',
            message: 'Retrait de coins achetés ou bonus : seuls les gains des cadeaux reçus se retirent.',
          };
        return earnedDelta === -e.data.amount && giftsDelta === 0 && changes.get(ACCOUNTS.withdrawals) === e.data.amount
          ? undefined
          : mismatch('retrait');
      case 'GiftSent': {
        const spent = balanceDelta + earningsDelta + bonusDelta;
        if (
          spent !== -e.data.coinCost ||
          balanceDelta > 0 ||
          earningsDelta > 0 ||
          bonusDelta > 0 ||
          giftsDelta !== 0 ||
          changes.get(ACCOUNTS.transit) !== e.data.coinCost
        ) {
          return mismatch('cadeau envoyé');
        }
        if (e.data.fee > e.data.coinCost) return { rule: 'gift_mismatch', message: 'Commission supérieure au cadeau.' };
        if (e.data.receiverId === d.userId) return { rule: 'gift_mismatch', message: 'Cadeau envoyé à soi-même.' };
        // at least the coins of free origin it spent: the bonus ones, and an old balance's free ones
        const freeSpent = -bonusDelta + Math.min(this.legacyFree.get(d.userId) ?? 0, -balanceDelta);
        // (a gift recorded before the origin was kept carried none: the rule of its time)
        const bonusSent = e.data.bonusAmount ?? (beforeBonus ? 0 : -1);
        if (!beforeBonus && (bonusSent < freeSpent || bonusSent > e.data.coinCost))
          return {
            rule: 'origin_lost',
            message: `Cadeau n°${e.data.giftId} payé avec ${freeSpent} coins jamais achetés, envoyé comme ${bonusSent < 0 ? 'acheté' : `en portant ${bonusSent}`}.`,
          };
        this.gifts.set(e.data.giftId, {
          senderId: d.userId,
          receiverId: e.data.receiverId,
          coinCost: e.data.coinCost,
          fee: e.data.fee,
          bonusSent,
          bonusReceived: 0,
          claimed: false,
        });
        this.pendingCount++;
        this.pendingCoins += e.data.coinCost;
        return undefined;
      }
      case 'GiftReceived': {
        const g = this.gifts.get(e.data.giftId);
        if (!g) return { rule: 'gift_mismatch', message: `Cadeau n°${e.data.giftId} reçu sans avoir été envoyé.` };
        if (g.received !== undefined)
          return { rule: 'duplicate_transfer', message: `Cadeau n°${e.data.giftId} crédité deux fois.` };
        if (
          g.receiverId !== d.userId ||
          g.senderId !== e.data.senderId ||
          g.coinCost !== e.data.coinCost ||
          g.fee !== e.data.fee ||
          e.data.amount !== g.coinCost - g.fee
        ) {
          return { rule: 'gift_mismatch', message: `Cadeau n°${e.data.giftId} crédité autrement qu'envoyé.` };
        }
        if (
          giftsDelta !== e.data.amount ||
          balanceDelta !== 0 ||
          earningsDelta !== 0 ||
          (changes.get(ACCOUNTS.fees) ?? 0) !== e.data.fee ||
          changes.get(ACCOUNTS.transit) !== -e.data.coinCost
        ) {
          return mismatch('cadeau reçu');
        }
        const bonusReceived = e.data.bonusAmount ?? 0;
        if (bonusReceived < bonusShareReceived(g.bonusSent, g.fee, e.data.amount) || bonusReceived > e.data.amount)
          return {
            rule: 'origin_lost',
            message: `Cadeau n°${e.data.giftId} crédité avec ${bonusReceived} coins bonus au lieu de ${bonusShareReceived(g.bonusSent, g.fee, e.data.amount)}.`,
          };
        g.received = e.data.amount;
        g.bonusReceived = bonusReceived;
        this.pendingCount--;
        this.pendingCoins -= g.coinCost;
        return undefined;
      }
      case 'GiftClaimed': {
        const g = this.gifts.get(e.data.giftId);
        if (!g || g.receiverId !== d.userId || g.received === undefined)
          return { rule: 'claim_invalid', message: `Cadeau n°${e.data.giftId} récupéré sans avoir été reçu.` };
        if (g.claimed) return { rule: 'claim_invalid', message: `Cadeau n°${e.data.giftId} récupéré deux fois.` };
        if (bonusDelta !== g.bonusReceived || (e.data.bonusAmount ?? 0) !== g.bonusReceived)
          return { rule: 'origin_lost', message: `Cadeau n°${e.data.giftId} récupéré sans ses coins bonus.` };
        if (
          e.data.amount !== g.received ||
          earnedDelta !== g.received - g.bonusReceived ||
          balanceDelta + earningsDelta + bonusDelta !== g.received ||
          giftsDelta !== -g.received
        ) {
          return mismatch('récupération');
        }
        g.claimed = true;
        return undefined;
      }
      case 'WalletClosed': {
        // everything leaves: what cannot be withdrawn to the forfeits, the earnings paid out
        const forfeitedIn = changes.get(ACCOUNTS.forfeits) ?? 0;
        const paidOut = changes.get(ACCOUNTS.withdrawals) ?? 0;
        const fromEarnings = -earnedDelta;
        if (
          forfeitedIn !== e.data.forfeited ||
          paidOut !== e.data.paidOut ||
          fromEarnings !== (legacy ? 0 : e.data.paidOut) ||
          balanceDelta + bonusDelta + giftsDelta + (legacy ? 0 : earningsDelta) !==
            -(e.data.forfeited + e.data.paidOut) ||
          changes.size !== [...changes.values()].filter((v) => v !== 0).length ||
          [...changes.keys()].some((a) => !parseUserAccount(a) && a !== ACCOUNTS.forfeits && a !== ACCOUNTS.withdrawals)
        )
          return mismatch('fermeture');
        if (d.after.balance !== 0 || d.after.gifts !== 0 || (d.after.earnings ?? 0) !== 0 || (d.after.bonus ?? 0) !== 0)
          return mismatch('fermeture incomplète');
        this.closed.add(d.userId);
        return undefined;
      }
      case 'GiftForfeited': {
        const g = this.gifts.get(e.data.giftId);
        if (!g) return { rule: 'gift_mismatch', message: `Cadeau n°${e.data.giftId} perdu sans avoir été envoyé.` };
        if (g.received !== undefined)
          return { rule: 'duplicate_transfer', message: `Cadeau n°${e.data.giftId} crédité deux fois.` };
        if (g.receiverId !== d.userId || g.senderId !== e.data.senderId || g.coinCost !== e.data.coinCost)
          return { rule: 'gift_mismatch', message: `Cadeau n°${e.data.giftId} perdu autrement qu'envoyé.` };
        if (
          changes.get(ACCOUNTS.transit) !== -e.data.coinCost ||
          changes.get(ACCOUNTS.forfeits) !== e.data.coinCost ||
          changes.size !== 2
        )
          return mismatch('cadeau perdu');
        g.received = 0;
        g.claimed = true;
        this.pendingCount--;
        this.pendingCoins -= g.coinCost;
        return undefined;
      }
      case 'GiftsConverted': {
        let total = 0;
        let totalBonus = 0;
        const ids = new Set<number>();
        for (const giftId of e.data.giftIds) {
          const g = this.gifts.get(giftId);
          if (!g || g.receiverId !== d.userId || g.received === undefined || g.claimed || ids.has(giftId)) {
            return { rule: 'claim_invalid', message: `Cadeau n°${giftId} converti sans être reçu ou déjà récupéré.` };
          }
          ids.add(giftId);
          total += g.received;
          totalBonus += g.bonusReceived;
        }
        if (bonusDelta !== totalBonus || (e.data.bonusAmount ?? 0) !== totalBonus)
          return { rule: 'origin_lost', message: 'Cadeaux convertis sans leurs coins bonus.' };
        if (
          total !== e.data.amount ||
          earnedDelta !== total - totalBonus ||
          balanceDelta + earningsDelta + bonusDelta !== total ||
          giftsDelta !== -total
        )
          return mismatch('conversion');
        for (const giftId of ids) this.gifts.get(giftId)!.claimed = true;
        return undefined;
      }
    }
  }

  private violation(event: AuditedEvent, rule: LedgerRule, message: string): LedgerViolation {
    const v: LedgerViolation = {
      position: event.position.toString(),
      event_id: event.id,
      type: event.type,
      stream_id: event.streamId,
      rule,
      message,
    };
    this.violationCount++;
    this.first ??= v;
    return v;
  }

  report(): LedgerReport {
    let usersBalance = 0;
    let usersEarnings = 0;
    let usersBonus = 0;
    let usersGifts = 0;
    for (const [account, value] of this.balances) {
      const owner = parseUserAccount(account);
      if (owner?.kind === 'balance') usersBalance += value;
      else if (owner?.kind === 'earnings') usersEarnings += value;
      else if (owner?.kind === 'bonus') usersBonus += value;
      else if (owner?.kind === 'gifts') usersGifts += value;
    }
    return {
      ok: this.first === null,
      events: this.events,
      movements: this.movements,
      last_position: this.lastPosition === undefined ? null : this.lastPosition.toString(),
      accounts: this.balances.size,
      totals: {
        sum: this.sum,
        external_payments: this.balance(ACCOUNTS.payments),
        external_credits: this.balance(ACCOUNTS.credits),
        external_withdrawals: this.balance(ACCOUNTS.withdrawals),
        platform_fees: this.balance(ACCOUNTS.fees),
        platform_forfeits: this.balance(ACCOUNTS.forfeits),
        transit_gifts: this.balance(ACCOUNTS.transit),
        users_balance: usersBalance,
        users_earnings: usersEarnings,
        users_bonus: usersBonus,
        users_gifts: usersGifts,
      },
      pending_gifts: { count: this.pendingCount, coins: this.pendingCoins },
      first_violation: this.first,
      violations: this.violationCount,
    };
  }
}
