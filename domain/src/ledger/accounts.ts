import { z } from 'zod/v4';

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
