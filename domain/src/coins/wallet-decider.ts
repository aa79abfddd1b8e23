import { z } from 'zod/v4';
import type { Decider, DomainEvent } from '../shared/decider';
import { DomainError, invalid, conflict, notFound } from '../shared/errors';
import { LEDGER_LIMITS, LEDGER_MESSAGES } from '@evo/contracts';
import { type CoinPack, packPriceCents } from './packs';
import { PAYOUT_SANDBOX, payoutValueCents } from './withdrawals';
import {
  emptyIdMap,
  emptyKeyMap,
  idMapEntries,
  idMapGet,
  idMapHas,
  idMapRemove,
  idMapSet,
  keyMapGet,
  keyMapSet,
  type IdMap,
  type KeyMap,
} from '../shared/persistent-map';

/*
 * A member's wallet, one stream `wallet-<userId>` per member: the coin ledger's accounts, the
 * movements (events) the wallet records, and the decider that writes every one of them.
 */

/**
 * Accounts of the coin ledger. A posting `{ debit, credit, amount }` moves `amount` coins out of
 * `debit` into `credit`; the balance of an account is Σ credits − Σ debits. External accounts go
 * negative (coins issued to / taken back from members); user accounts never do.
 *
 * - `external:payments`: coins bought with a pack (through the payment provider)
 * - `external:credits`: coins added without a payment (the vault's "add coins" form)
 * - `external:withdrawals`: coins members withdrew
 * - `platform:fees`: the platform's commission on gifts (GIFT_FEE_PERCENT)
 * - `platform:forfeits`: coins of deleted accounts that could not be withdrawn (bought, bonus,
 *   unclaimed gifts) and gifts that reached a closed wallet (account-deletion.ts in identity/)
 * - `transit:gifts`: gifts sent and not yet credited to their receiver (between GiftSent and GiftReceived)
 * - `user:<id>:balance`: coins a member bought (packs; and, in logs written before the bonus
 *   account existed, coins added for free): spendable on gifts, never withdrawable by them
 * - `user:<id>:bonus`: coins given without payment ("add coins"), and coins received through gifts
 *   paid with such coins: spendable on gifts, never withdrawable, not even by whoever receives them
 *   as a gift (TikTok's promotional coins)
 * - `user:<id>:earnings`: coins a member earned from gifts paid with bought coins, claimed (or
 *   converted): spendable, and the only coins that may be withdrawn (as TikTok's diamonds)
 * - `user:<id>:gifts`: coins received as gifts, not yet claimed or converted (each gift's event
 *   says how much of it is of free origin: `bonusAmount`)
 *
 * The origin rule (issue 29): a coin keeps its origin through gifts. A coin that was never paid for
 * never becomes withdrawable, however many members it passes through, so the coins withdrawn from
 * the platform never exceed the coins bought (`LedgerAuditor`'s `withdrawn_exceeds_bought`).
 */
export const ACCOUNTS = {
  payments: 'external:payments',
  credits: 'external:credits',
  withdrawals: 'external:withdrawals',
  fees: 'platform:fees',
  forfeits: 'platform:forfeits',
  transit: 'transit:gifts',
} as const;

export const userBalanceAccount = (userId: string) => `user:${userId}:balance`;
export const userGiftsAccount = (userId: string) => `user:${userId}:gifts`;
export const userEarningsAccount = (userId: string) => `user:${userId}:earnings`;
export const userBonusAccount = (userId: string) => `user:${userId}:bonus`;

export type UserAccountKind = 'balance' | 'earnings' | 'gifts' | 'bonus';
const USER_ACCOUNT = /^user:([^:\s]+):(balance|earnings|gifts|bonus)$/;
const SYSTEM_ACCOUNTS = new Set<string>(Object.values(ACCOUNTS));

export const isUserAccount = (account: string) => USER_ACCOUNT.test(account);
/** the member and the kind of a user account, undefined for a system account */
export function parseUserAccount(account: string): { userId: string; kind: UserAccountKind } | undefined {
  const m = USER_ACCOUNT.exec(account);
  return m ? { userId: m[1], kind: m[2] as UserAccountKind } : undefined;
}
/** accounts that must never be negative: every user account and the gifts in transit */
export const mustStayNonNegative = (account: string) => isUserAccount(account) || account === ACCOUNTS.transit;

/** Largest amount of one posting; balances are kept safe integers by the deciders. */
export const MAX_POSTING = Number.MAX_SAFE_INTEGER;

export const AccountSchema = z
  .string()
  .refine((a) => SYSTEM_ACCOUNTS.has(a) || USER_ACCOUNT.test(a), { message: 'compte inconnu' });
export const PostingSchema = z
  .object({
    debit: AccountSchema,
    credit: AccountSchema,
    amount: z.number().int().positive().max(MAX_POSTING),
  })
  .refine((p) => p.debit !== p.credit, { message: 'un mouvement doit changer de compte' });
export type Posting = z.infer<typeof PostingSchema>;

/** The change of every account touched by some postings (Σ credits − Σ debits). */
export function netChanges(postings: readonly Posting[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of postings) {
    out.set(p.debit, (out.get(p.debit) ?? 0) - p.amount);
    out.set(p.credit, (out.get(p.credit) ?? 0) + p.amount);
  }
  return out;
}

/**
 * Coin movements. Every movement is ONE event on the wallet stream of the member whose accounts it
 * touches (`wallet-<userId>`), carrying its postings (double entry: each posting moves a positive
 * integer amount from one account to another, so an event's postings sum to zero), the member's
 * balances right after it (`after`, checked by the reconciliation), and, when the command came
 * with an Idempotency-Key, the key and a hash of the request (`request`) so a retry is recognised
 * from the stream itself, across restarts.
 *
 * A gift is two movements: `GiftSent` on the sender's wallet (bonus, balance, earnings → transit:gifts) and
 * `GiftReceived` on the receiver's (transit:gifts → their gifts account, and the fee to
 * platform:fees), appended once per gift id by the gift-credit process manager.
 */
const id = z.string().min(1);
const coins = z.number().int().positive().max(MAX_POSTING);
const txId = z.number().int().positive();
const RequestSchema = z.object({ key: z.string().min(1).max(200), hash: z.string().min(1).max(128) });
const AfterSchema = z.object({
  /** user:<id>:balance (bought or added coins) */
  balance: z.number().int().nonnegative(),
  /** user:<id>:gifts (received, not yet claimed) */
  gifts: z.number().int().nonnegative(),
  /**
   * user:<id>:earnings (claimed gifts: the withdrawable coins). Absent on the movements recorded
   * before that account existed: those follow the rules of their time (claims credited the
   * balance, withdrawals debited it), and the audit checks each movement by the rules it was
   * written under.
   */
  earnings: z.number().int().nonnegative().optional(),
  /**
   * user:<id>:bonus (coins of free origin: never withdrawable). Absent on the movements recorded
   * before that account existed, when coins added for free went to the balance.
   */
  bonus: z.number().int().nonnegative().optional(),
});
/**
 * The part of a gift's coins that were never paid for (coins added for free, or received through
 * gifts paid with them): they stay of free origin in the receiver's wallet. Absent on gifts
 * recorded before the origin was kept.
 */
const bonusAmount = z.number().int().nonnegative().max(MAX_POSTING).optional();

const movement = {
  /** owner of the wallet stream */
  userId: id,
  postings: z.array(PostingSchema),
  after: AfterSchema,
};
const requested = { request: RequestSchema.optional() };

export const CoinsPurchasedSchema = z.object({
  ...movement,
  ...requested,
  txId,
  packId: z.number().int().positive(),
  coins,
  priceCents: z.number().int().nonnegative(),
  /** payment provider name and its reference for the payment */
  provider: z.string().min(1),
  paymentRef: z.string().min(1),
});
export const CoinsAddedSchema = z.object({ ...movement, ...requested, txId, amount: coins });
export const CoinsWithdrawnSchema = z.object({
  ...movement,
  ...requested,
  txId,
  amount: coins,
  /** what the coins were worth, in euro cents (withdrawals.ts); absent on older withdrawals */
  valueCents: z.number().int().nonnegative().optional(),
  /** where the money went: 'sandbox' (nowhere: no real transfer); absent on older withdrawals */
  payout: z.string().min(1).optional(),
});

const giftFacts = {
  /** the sent gift's numeric id (also the sender's transaction id) */
  giftId: txId,
  /** catalogue gift */
  catalogGiftId: z.number().int().positive(),
  name: z.string().min(1),
  emoji: z.string(),
  coinCost: coins,
  /** platform commission, taken when the receiver is credited */
  fee: z.number().int().nonnegative(),
};
export const GiftSentSchema = z.object({ ...movement, ...requested, ...giftFacts, receiverId: id, bonusAmount });
export const GiftReceivedSchema = z.object({
  ...movement,
  ...giftFacts,
  senderId: id,
  /** coins credited to the receiver's gifts account: coinCost − fee (0 when the fee takes it all) */
  amount: z.number().int().nonnegative(),
  /** of `amount`, the coins of free origin (the fee is taken from those first) */
  bonusAmount,
  /** when the gift was sent (the GiftSent's time) */
  sentAt: z.string(),
});
export const GiftClaimedSchema = z.object({
  ...movement,
  ...requested,
  txId,
  giftId: txId,
  amount: z.number().int().nonnegative(),
  /** of `amount`, the coins of free origin: to the bonus account, the rest to the earnings */
  bonusAmount,
});
export const GiftsConvertedSchema = z.object({
  ...movement,
  ...requested,
  txId,
  giftIds: z.array(txId),
  /** coins moved out of the gifts account; 0 only to record a keyed request that found nothing */
  amount: z.number().int().nonnegative(),
  /** of `amount`, the coins of free origin: to the bonus account, the rest to the earnings */
  bonusAmount,
});

/**
 * The member deleted their account: every coin left leaves their accounts and the wallet refuses
 * every movement after it. Bought and bonus coins and unclaimed gifts go to `platform:forfeits`
 * (`forfeited`); earnings, which the deletion asks to withdraw first, are paid out
 * (`external:withdrawals`, `paidOut`, worth `valueCents`) when some arrived meanwhile (a claim racing
 * with the deletion). `after` is all zeros.
 */
export const WalletClosedSchema = z.object({
  ...movement,
  forfeited: z.number().int().nonnegative(),
  paidOut: z.number().int().nonnegative(),
  valueCents: z.number().int().nonnegative(),
});
/** A gift that reached a closed wallet (its receiver deleted their account): to `platform:forfeits`, whole. */
export const GiftForfeitedSchema = z.object({
  ...movement,
  ...giftFacts,
  senderId: id,
  sentAt: z.string(),
});

export type CoinsPurchased = DomainEvent<'CoinsPurchased', z.infer<typeof CoinsPurchasedSchema>>;
export type CoinsAdded = DomainEvent<'CoinsAdded', z.infer<typeof CoinsAddedSchema>>;
export type CoinsWithdrawn = DomainEvent<'CoinsWithdrawn', z.infer<typeof CoinsWithdrawnSchema>>;
export type GiftSent = DomainEvent<'GiftSent', z.infer<typeof GiftSentSchema>>;
export type GiftReceived = DomainEvent<'GiftReceived', z.infer<typeof GiftReceivedSchema>>;
export type GiftClaimed = DomainEvent<'GiftClaimed', z.infer<typeof GiftClaimedSchema>>;
export type GiftsConverted = DomainEvent<'GiftsConverted', z.infer<typeof GiftsConvertedSchema>>;
export type WalletClosed = DomainEvent<'WalletClosed', z.infer<typeof WalletClosedSchema>>;
export type GiftForfeited = DomainEvent<'GiftForfeited', z.infer<typeof GiftForfeitedSchema>>;
export type WalletEvent =
  | CoinsPurchased
  | CoinsAdded
  | CoinsWithdrawn
  | GiftSent
  | GiftReceived
  | GiftClaimed
  | GiftsConverted
  | WalletClosed
  | GiftForfeited;
export type WalletEventType = WalletEvent['type'];

export const ledgerEventSchemas = {
  CoinsPurchased: CoinsPurchasedSchema,
  CoinsAdded: CoinsAddedSchema,
  CoinsWithdrawn: CoinsWithdrawnSchema,
  GiftSent: GiftSentSchema,
  GiftReceived: GiftReceivedSchema,
  GiftClaimed: GiftClaimedSchema,
  GiftsConverted: GiftsConvertedSchema,
  WalletClosed: WalletClosedSchema,
  GiftForfeited: GiftForfeitedSchema,
} as const;

export const WALLET_EVENT_TYPES: ReadonlySet<string> = new Set(Object.keys(ledgerEventSchemas));
export const isWalletEvent = <E extends { type: string }>(e: E): e is E & WalletEvent => WALLET_EVENT_TYPES.has(e.type);

/** The transaction type shown to members (the product rule "Coin transaction"). */
export const TRANSACTION_TYPES = {
  CoinsPurchased: 'achat',
  CoinsAdded: 'ajout',
  CoinsWithdrawn: 'retrait',
  GiftSent: 'cadeau_envoye',
  GiftReceived: 'cadeau_recu',
  GiftClaimed: 'recuperation',
  GiftsConverted: 'conversion',
  WalletClosed: 'fermeture',
  GiftForfeited: 'cadeau_perdu',
} as const satisfies Record<WalletEventType, string>;

/** The transaction id of a movement: gifts use their gift id; a wallet's closing (once per wallet) has none: 0. */
export const transactionIdOf = (e: WalletEvent): number =>
  'txId' in e.data ? e.data.txId : 'giftId' in e.data ? e.data.giftId : 0;

/**
 * The platform's commission on a gift of `coinCost` coins at `feePercent` percent (GIFT_FEE_PERCENT).
 * Integer coins only: the percentage is taken to the basis point and the fee is rounded DOWN, in
 * favour of the receiver (a 1-coin gift pays no fee below 100 %). Never more than the gift.
 */
export function giftFee(coinCost: number, feePercent: number): number {
  if (!Number.isFinite(feePercent) || feePercent <= 0) return 0;
  const basisPoints = Math.min(10_000, Math.round(feePercent * 100));
  return Math.min(coinCost, Math.floor((coinCost * basisPoints) / 10_000));
}

export const walletStream = (userId: string) => `wallet-${userId}`;
/** numeric ids of coin transactions (and of sent gifts) come from this sequence */
export const LEDGER_SEQUENCE = 'coin-transaction';

/*
 * The origin rule: a coin keeps its origin through gifts.
 *
 * - Bought coins (packs, paid through the payment provider) are spendable on gifts and never
 *   withdrawable by the member who bought them; offered as a gift, they become the receiver's
 *   earnings once claimed: withdrawable (a creator cashes out what their audience paid for).
 * - Coins that were never paid for (the vault's "add coins", `ALLOW_FREE_COINS`) are bonus coins:
 *   spendable on gifts, never withdrawable. Offered as a gift, they stay bonus coins in the
 *   receiver's wallet (claimed into `user:<id>:bonus`, not the earnings), however many members they
 *   pass through: as TikTok's promotional coins.
 * - A gift spends the coins worth least first: bonus coins, then bought ones, then earnings (the
 *   withdrawable ones are kept longest). The platform's fee is taken from the gift's bonus coins
 *   first, in favour of the receiver.
 *
 * Hence the ledger's invariant: the coins withdrawn never exceed the coins bought
 * (`LedgerAuditor`, rule `withdrawn_exceeds_bought`). The wallet decider enforces it
 * (`SendGift`, `ReceiveGift`, `ClaimGift`, `ConvertGifts`).
 */

/** Of a gift received net of its fee, the coins of free origin: the fee takes bonus coins first. */
export function bonusShareReceived(bonusSent: number, fee: number, amount: number): number {
  return Math.min(amount, Math.max(0, bonusSent - fee));
}

/**
 * Coins added for free before the bonus account existed went to `user:<id>:balance` (a
 * `CoinsAdded` crediting the balance): they are of free origin too. How many of them a balance
 * still holds, after an event: a legacy addition adds its coins; a gift that states its free part
 * took `bonusAmount` minus what it debited from the bonus account out of them; and they are never
 * more than the balance (a movement that did not say which coins it spent is taken to have spent
 * the bought ones first: the free part left is the largest it can be).
 */
export function legacyFreeAfter(
  legacyFree: number,
  event: { type: string; data: { userId: string; postings: readonly Posting[]; bonusAmount?: number } },
  balanceAfter: number,
): number {
  const { userId, postings } = event.data;
  let free = legacyFree;
  if (
    event.type === 'CoinsAdded' &&
    postings.some((p) => p.debit === ACCOUNTS.credits && p.credit === userBalanceAccount(userId))
  )
    free += netChanges(postings).get(userBalanceAccount(userId)) ?? 0;
  if (event.type === 'GiftSent' && event.data.bonusAmount !== undefined) {
    const fromBonus = -(netChanges(postings).get(userBonusAccount(userId)) ?? 0);
    free -= Math.max(0, event.data.bonusAmount - fromBonus);
  }
  return Math.max(0, Math.min(free, balanceAfter));
}

/** The Idempotency-Key of a command and a hash of its request (route and body). */
export interface RequestRef {
  key: string;
  hash: string;
}

/** What a keyed request did, kept in the wallet so that a retry answers the same. */
export interface RequestRecord {
  hash: string;
  /** event type the request wrote */
  event: WalletEvent['type'];
  /** transaction id (gift id for a gift sent) */
  txId: number;
  /** coins moved by the request */
  amount: number;
  /** the member's balances right after it */
  balance: number;
  gifts: number;
  earnings: number;
  bonus: number;
}

export type WalletCommand =
  | {
      type: 'PurchaseCoins';
      userId: string;
      txId: number;
      pack: CoinPack;
      provider: string;
      paymentRef: string;
      request?: RequestRef;
    }
  | { type: 'AddCoins'; userId: string; txId: number; amount: number; request?: RequestRef }
  | {
      type: 'WithdrawCoins';
      userId: string;
      txId: number;
      amount: number;
      /** where the money goes (withdrawals.ts); the sandbox, the only one this product has, when not said */
      payout?: string;
      request?: RequestRef;
    }
  | {
      type: 'SendGift';
      userId: string;
      /** numeric id of this gift, from the ledger sequence */
      giftId: number;
      receiverId: string;
      /** the catalogue's gift, or null when the catalogue has none of that id */
      gift: { id: number; name: string; emoji: string; coinCost: number } | null;
      /** GIFT_FEE_PERCENT at the time of sending */
      feePercent: number;
      request?: RequestRef;
    }
  | { type: 'ReceiveGift'; userId: string; sent: GiftSent['data']; sentAt: string }
  | { type: 'ClaimGift'; userId: string; txId: number; giftId: number; request?: RequestRef }
  | { type: 'ConvertGifts'; userId: string; txId: number; request?: RequestRef }
  /** the member deleted their account: forfeit what cannot be withdrawn, pay out what can, refuse all after */
  | { type: 'CloseWallet'; userId: string };

export interface WalletState {
  userId: string | null;
  /** user:<id>:balance: bought coins (spendable, not withdrawable) */
  balance: number;
  /** of the balance, coins added for free before the bonus account existed (of free origin) */
  legacyFree: number;
  /** user:<id>:bonus: coins of free origin (spendable, never withdrawable) */
  bonus: number;
  /** user:<id>:earnings: claimed gifts paid with bought coins (spendable and withdrawable) */
  earnings: number;
  /** user:<id>:gifts */
  gifts: number;
  /** received gifts not claimed yet: gift id → coins credited */
  unclaimed: IdMap<number>;
  /** of those, the coins of free origin, for the gifts that have some: gift id → coins */
  unclaimedBonus: IdMap<number>;
  /** received gifts already claimed or converted */
  claimed: IdMap<true>;
  /** keyed requests already handled */
  requests: KeyMap<RequestRecord>;
  /** closed by the deletion of the account: every movement is refused, arriving gifts forfeited */
  closed: boolean;
}

/**
 * The wallet of one member: their spendable balance and received gifts. Every rule on coins is
 * decided here against the folded stream, which is appended with its expected revision: two
 * concurrent spends can never both pass the balance check. Coins keep their origin through gifts
 * (the origin rule below): only coins someone paid for can become withdrawable.
 */
export const walletDecider: Decider<WalletCommand, WalletEvent, WalletState> = {
  initialState: () => ({
    userId: null,
    balance: 0,
    legacyFree: 0,
    bonus: 0,
    earnings: 0,
    gifts: 0,
    unclaimed: emptyIdMap(),
    unclaimedBonus: emptyIdMap(),
    claimed: emptyIdMap(),
    requests: emptyKeyMap(),
    closed: false,
  }),

  evolve(state, event) {
    const d = event.data;
    const changes = netChanges(d.postings);
    const balance = state.balance + (changes.get(userBalanceAccount(d.userId)) ?? 0);
    let next: WalletState = {
      ...state,
      userId: d.userId,
      balance,
      legacyFree: legacyFreeAfter(state.legacyFree, event, balance),
      bonus: state.bonus + (changes.get(userBonusAccount(d.userId)) ?? 0),
      earnings: state.earnings + (changes.get(userEarningsAccount(d.userId)) ?? 0),
      gifts: state.gifts + (changes.get(userGiftsAccount(d.userId)) ?? 0),
    };
    switch (event.type) {
      case 'GiftReceived': {
        const free = event.data.bonusAmount ?? 0;
        next = {
          ...next,
          unclaimed: idMapSet(next.unclaimed, event.data.giftId, event.data.amount),
          unclaimedBonus: free > 0 ? idMapSet(next.unclaimedBonus, event.data.giftId, free) : next.unclaimedBonus,
        };
        break;
      }
      case 'GiftClaimed':
        next = {
          ...next,
          unclaimed: idMapRemove(next.unclaimed, event.data.giftId),
          unclaimedBonus: idMapRemove(next.unclaimedBonus, event.data.giftId),
          claimed: idMapSet(next.claimed, event.data.giftId, true),
        };
        break;
      case 'WalletClosed':
        next = { ...next, closed: true, unclaimed: emptyIdMap(), unclaimedBonus: emptyIdMap() };
        break;
      case 'GiftForfeited':
        // remembered as handled, so that a redelivered gift is not forfeited twice
        next = { ...next, claimed: idMapSet(next.claimed, event.data.giftId, true) };
        break;
      case 'GiftsConverted': {
        let { unclaimed, unclaimedBonus, claimed } = next;
        for (const giftId of event.data.giftIds) {
          unclaimed = idMapRemove(unclaimed, giftId);
          unclaimedBonus = idMapRemove(unclaimedBonus, giftId);
          claimed = idMapSet(claimed, giftId, true);
        }
        next = { ...next, unclaimed, unclaimedBonus, claimed };
        break;
      }
      default:
        break;
    }
    if ('request' in event.data && event.data.request) {
      const r = event.data.request;
      next = {
        ...next,
        requests: keyMapSet(next.requests, r.key, {
          hash: r.hash,
          event: event.type,
          txId: transactionIdOf(event),
          amount: recordAmount(event),
          balance: next.balance,
          gifts: next.gifts,
          earnings: next.earnings,
          bonus: next.bonus,
        }),
      };
    }
    return next;
  },

  decide(command, state) {
    if (state.userId !== null && state.userId !== command.userId) {
      throw new Error(`wallet of ${state.userId} given a command for ${command.userId}`);
    }
    if ('request' in command && command.request) {
      const previous = keyMapGet(state.requests, command.request.key);
      if (previous) {
        // a retry: it answers what the first call answered (from the record) and moves nothing
        if (previous.hash === command.request.hash) return [];
        throw conflict(LEDGER_MESSAGES.idempotencyConflict);
      }
    }
    const userId = command.userId;
    const balance = userBalanceAccount(userId);
    const earnings = userEarningsAccount(userId);
    const gifts = userGiftsAccount(userId);
    const bonus = userBonusAccount(userId);
    const request = 'request' in command && command.request ? { request: command.request } : {};
    if (state.closed) return decideOnClosed(command, state);

    switch (command.type) {
      case 'PurchaseCoins': {
        const coins = command.pack.coins_amount;
        const postings = [{ debit: ACCOUNTS.payments, credit: balance, amount: coins }];
        return [
          {
            type: 'CoinsPurchased',
            data: {
              userId,
              txId: command.txId,
              packId: command.pack.id,
              coins,
              priceCents: packPriceCents(command.pack),
              provider: command.provider,
              paymentRef: command.paymentRef,
              postings,
              after: after(state, userId, postings),
              ...request,
            },
          },
        ];
      }
      case 'AddCoins': {
        const amount = command.amount;
        if (!Number.isInteger(amount)) throw invalid(LEDGER_MESSAGES.amountInteger);
        if (amount <= 0) throw invalid(LEDGER_MESSAGES.amountPositive);
        if (amount > LEDGER_LIMITS.maxAdd) throw invalid(LEDGER_MESSAGES.amountTooLarge);
        // never paid for: bonus coins, which no gift makes withdrawable
        const postings = [{ debit: ACCOUNTS.credits, credit: bonus, amount }];
        return [
          {
            type: 'CoinsAdded',
            data: { userId, txId: command.txId, amount, postings, after: after(state, userId, postings), ...request },
          },
        ];
      }
      case 'WithdrawCoins': {
        const amount = command.amount;
        if (!Number.isSafeInteger(amount) || amount <= 0) throw invalid(LEDGER_MESSAGES.withdrawInvalid);
        // only coins earned from gifts paid with bought coins leave the platform; bought or bonus ones never do
        if (amount > state.earnings) throw invalid(LEDGER_MESSAGES.notWithdrawable);
        const postings = [{ debit: earnings, credit: ACCOUNTS.withdrawals, amount }];
        return [
          {
            type: 'CoinsWithdrawn',
            data: {
              userId,
              txId: command.txId,
              amount,
              valueCents: payoutValueCents(amount),
              payout: command.payout ?? PAYOUT_SANDBOX,
              postings,
              after: after(state, userId, postings),
              ...request,
            },
          },
        ];
      }
      case 'SendGift': {
        if (command.receiverId === userId) throw invalid(LEDGER_MESSAGES.selfGift);
        const gift = command.gift;
        if (!gift) throw notFound(LEDGER_MESSAGES.giftNotFound);
        const cost = gift.coinCost;
        if (!Number.isSafeInteger(cost) || cost <= 0 || cost > MAX_POSTING) throw invalid(LEDGER_MESSAGES.giftInvalid);
        if (state.bonus + state.balance + state.earnings < cost) throw invalid(LEDGER_MESSAGES.insufficient);
        // the coins worth least first: bonus, then bought (the free ones an old balance holds
        // first), then earnings, the withdrawable ones, kept longest
        const fromBonus = Math.min(state.bonus, cost);
        const fromBalance = Math.min(state.balance, cost - fromBonus);
        const fromEarnings = cost - fromBonus - fromBalance;
        // the coins of free origin this gift carries to its receiver
        const bonusAmount = fromBonus + Math.min(state.legacyFree, fromBalance);
        const postings: Posting[] = [];
        if (fromBonus > 0) postings.push({ debit: bonus, credit: ACCOUNTS.transit, amount: fromBonus });
        if (fromBalance > 0) postings.push({ debit: balance, credit: ACCOUNTS.transit, amount: fromBalance });
        if (fromEarnings > 0) postings.push({ debit: earnings, credit: ACCOUNTS.transit, amount: fromEarnings });
        return [
          {
            type: 'GiftSent',
            data: {
              userId,
              giftId: command.giftId,
              receiverId: command.receiverId,
              catalogGiftId: gift.id,
              name: gift.name,
              emoji: gift.emoji,
              coinCost: cost,
              fee: giftFee(cost, command.feePercent),
              bonusAmount,
              postings,
              after: after(state, userId, postings),
              ...request,
            },
          },
        ];
      }
      case 'ReceiveGift': {
        const s = command.sent;
        if (s.receiverId !== userId) throw new Error(`gift ${s.giftId} is for ${s.receiverId}, not ${userId}`);
        // credited once per gift id, whatever the number of deliveries
        if (idMapHas(state.unclaimed, s.giftId) || idMapHas(state.claimed, s.giftId)) return [];
        const amount = s.coinCost - s.fee;
        const bonusAmount = bonusShareReceived(s.bonusAmount ?? 0, s.fee, amount);
        const postings: Posting[] = [];
        if (amount > 0) postings.push({ debit: ACCOUNTS.transit, credit: gifts, amount });
        if (s.fee > 0) postings.push({ debit: ACCOUNTS.transit, credit: ACCOUNTS.fees, amount: s.fee });
        return [
          {
            type: 'GiftReceived',
            data: {
              userId,
              ...giftArriving(s),
              amount,
              bonusAmount,
              sentAt: command.sentAt,
              postings,
              after: after(state, userId, postings),
            },
          },
        ];
      }
      case 'ClaimGift': {
        const amount = idMapGet(state.unclaimed, command.giftId);
        if (amount === undefined) {
          if (idMapHas(state.claimed, command.giftId)) throw conflict(LEDGER_MESSAGES.alreadyClaimed);
          throw notFound(LEDGER_MESSAGES.giftNotFound);
        }
        const bonusAmount = idMapGet(state.unclaimedBonus, command.giftId) ?? 0;
        const postings = claimPostings(gifts, earnings, bonus, amount, bonusAmount);
        return [
          {
            type: 'GiftClaimed',
            data: {
              userId,
              txId: command.txId,
              giftId: command.giftId,
              amount,
              bonusAmount,
              postings,
              after: after(state, userId, postings),
              ...request,
            },
          },
        ];
      }
      case 'CloseWallet': {
        const postings: Posting[] = [];
        if (state.balance > 0) postings.push({ debit: balance, credit: ACCOUNTS.forfeits, amount: state.balance });
        if (state.bonus > 0) postings.push({ debit: bonus, credit: ACCOUNTS.forfeits, amount: state.bonus });
        if (state.gifts > 0) postings.push({ debit: gifts, credit: ACCOUNTS.forfeits, amount: state.gifts });
        // earnings are withdrawn before a deletion (the user decider refuses it otherwise); those a
        // claim racing with it brought in are the member's money: paid out, not forfeited
        if (state.earnings > 0)
          postings.push({ debit: earnings, credit: ACCOUNTS.withdrawals, amount: state.earnings });
        return [
          {
            type: 'WalletClosed',
            data: {
              userId,
              forfeited: state.balance + state.bonus + state.gifts,
              paidOut: state.earnings,
              valueCents: payoutValueCents(state.earnings),
              postings,
              after: after(state, userId, postings),
            },
          },
        ];
      }
      case 'ConvertGifts': {
        const giftIds: number[] = [];
        let amount = 0;
        let bonusAmount = 0;
        for (const [giftId, coins] of idMapEntries(state.unclaimed)) {
          giftIds.push(giftId);
          amount += coins;
          bonusAmount += idMapGet(state.unclaimedBonus, giftId) ?? 0;
        }
        // nothing to move: no event, except to remember a keyed request's answer
        if (giftIds.length === 0 && !command.request) return [];
        const postings = claimPostings(gifts, earnings, bonus, amount, bonusAmount);
        return [
          {
            type: 'GiftsConverted',
            data: {
              userId,
              txId: command.txId,
              giftIds,
              amount,
              bonusAmount,
              postings,
              after: after(state, userId, postings),
              ...request,
            },
          },
        ];
      }
    }
  },
};

/** A closed wallet: gifts arriving are forfeited (once each), closing again does nothing, the rest is refused. */
function decideOnClosed(command: WalletCommand, state: WalletState): WalletEvent[] {
  if (command.type === 'CloseWallet') return [];
  if (command.type !== 'ReceiveGift') throw conflict(LEDGER_MESSAGES.walletClosed);
  const s = command.sent;
  if (s.receiverId !== command.userId)
    throw new Error(`gift ${s.giftId} is for ${s.receiverId}, not ${command.userId}`);
  if (idMapHas(state.claimed, s.giftId)) return [];
  const postings: Posting[] = [{ debit: ACCOUNTS.transit, credit: ACCOUNTS.forfeits, amount: s.coinCost }];
  return [
    {
      type: 'GiftForfeited',
      data: {
        userId: command.userId,
        ...giftArriving(s),
        sentAt: command.sentAt,
        postings,
        after: after(state, command.userId, postings),
      },
    },
  ];
}

/** What the receiver's wallet records of a gift arriving (credited or forfeited): the sender's gift as sent. */
function giftArriving(s: GiftSent['data']) {
  return {
    giftId: s.giftId,
    senderId: s.userId,
    catalogGiftId: s.catalogGiftId,
    name: s.name,
    emoji: s.emoji,
    coinCost: s.coinCost,
    fee: s.fee,
  };
}

/** Received coins claimed: the paid ones to the earnings (withdrawable), the free ones to the bonus. */
function claimPostings(gifts: string, earnings: string, bonus: string, amount: number, bonusAmount: number) {
  const postings: Posting[] = [];
  if (amount - bonusAmount > 0) postings.push({ debit: gifts, credit: earnings, amount: amount - bonusAmount });
  if (bonusAmount > 0) postings.push({ debit: gifts, credit: bonus, amount: bonusAmount });
  return postings;
}

/** The member's balances after some postings; refuses what would overflow a safe integer. */
function after(state: WalletState, userId: string, postings: Posting[]) {
  const changes = netChanges(postings);
  const balance = state.balance + (changes.get(userBalanceAccount(userId)) ?? 0);
  const gifts = state.gifts + (changes.get(userGiftsAccount(userId)) ?? 0);
  const earnings = state.earnings + (changes.get(userEarningsAccount(userId)) ?? 0);
  const bonus = state.bonus + (changes.get(userBonusAccount(userId)) ?? 0);
  if (![balance, gifts, earnings, bonus, balance + earnings + bonus].every(Number.isSafeInteger))
    throw invalid(LEDGER_MESSAGES.balanceTooLarge);
  if (balance < 0 || gifts < 0 || earnings < 0 || bonus < 0)
    throw new DomainError(LEDGER_MESSAGES.insufficient, 'invalid');
  return { balance, gifts, earnings, bonus };
}

/** The coins a movement moved, as a request's record keeps them. */
export function recordAmount(event: WalletEvent): number {
  switch (event.type) {
    case 'CoinsPurchased':
      return event.data.coins;
    case 'GiftSent':
    case 'GiftForfeited':
      return event.data.coinCost;
    case 'WalletClosed':
      return event.data.forfeited + event.data.paidOut;
    default:
      return event.data.amount;
  }
}
