import { ACCOUNTS, netChanges, userBalanceAccount, userBonusAccount, type Posting } from '../ledger/accounts';

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
