/**
 * What a withdrawal pays. A product decision (SPEC names no rate): a withdrawn coin is worth half
 * a euro cent (100 coins = 0,50 €), below what any pack sells a coin for (0,9 cent at best), so
 * buying coins to withdraw them through a gift never pays. Rounded down to the cent.
 */
export const PAYOUT_CENTS_PER_100_COINS = 50;

/** The euro cents `coins` withdrawn are worth. */
export const payoutValueCents = (coins: number): number => Math.floor((coins * PAYOUT_CENTS_PER_100_COINS) / 100);

/**
 * Where a withdrawal's money goes. The only one this product has: the sandbox, which sends no
 * money anywhere (the coins leave the wallet for `external:withdrawals`, and no bank is paid).
 */
export const PAYOUT_SANDBOX = 'sandbox';
