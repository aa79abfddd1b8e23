import { z } from 'zod/v4';
import type { DomainEvent } from '../shared/decider';

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
