import { CoinCommandAnswer, coinRoutes } from '@evo/contracts';
import { api } from '../api/http';
import { decode } from '../api/decode';
import { useRouteQuery } from '../api/queries';
import { useCurrentUser } from '../identity/sessionContext';
import { idempotencyHeaders } from '../api/idempotency';

/**
 * Coin calls and queries (the product API calls, "Coins"; command-api/src/coins/routes.ts): the
 * calls that move coins, each under an idempotency key (idempotency.ts), and the cached answers of
 * the contract's coin routes (history, received coins, packs; the wallet is live.ts'). The member's
 * own email goes in the path or the body; the server checks it against the session.
 */

/**
 * The answers' types are the contract's (the product entities "Balance", "Coin pack", "Coin
 * transaction", "Received coin gift"). Of the balance, only the coins earned from received gifts
 * can be withdrawn (`coins_withdrawable`); bought or added ones are spent on gifts only.
 */
export type { CoinGift, CoinPack, CoinTransaction, WalletAnswer as Wallet } from '@evo/contracts';

/** What a coin or gift command answers (fields vary by command). */
export type CoinAnswer = CoinCommandAnswer;

/** What a coin or gift command answered. */
export const coinAnswer = (data: unknown): CoinAnswer => decode(CoinCommandAnswer, data);

/** POST /api/coins/purchase { email, packId } → { message, coins_balance } */
export async function purchasePack(email: string, packId: number, key: string): Promise<CoinAnswer> {
  return coinAnswer(await api.post('/api/coins/purchase', { email, packId }, { headers: idempotencyHeaders(key) }));
}

/** POST /api/coins/add { email, amount } → { message, coins_balance } */
export async function addCoins(email: string, amount: number, key: string): Promise<CoinAnswer> {
  return coinAnswer(await api.post('/api/coins/add', { email, amount }, { headers: idempotencyHeaders(key) }));
}

/** POST /api/coins/convert-gifts { user_email } → { message, transferred, coins_balance, gifts_unclaimed } */
export async function convertGifts(email: string, key: string): Promise<CoinAnswer> {
  return coinAnswer(
    await api.post('/api/coins/convert-gifts', { user_email: email }, { headers: idempotencyHeaders(key) }),
  );
}

/** POST /api/coins/withdraw { user_email, amount } → { message, coins_balance } */
export async function withdrawCoins(email: string, amount: number, key: string): Promise<CoinAnswer> {
  return coinAnswer(
    await api.post('/api/coins/withdraw', { user_email: email, amount }, { headers: idempotencyHeaders(key) }),
  );
}

/** The member's coin history (live: live.ts). */
export function useTransactions() {
  const { user } = useCurrentUser();
  return useRouteQuery(coinRoutes.transactions, user ? { email: user.email } : null);
}

/** Gifts received as coin amounts (live: live.ts). */
export function useCoinGifts() {
  const { user } = useCurrentUser();
  return useRouteQuery(coinRoutes.received, user ? { email: user.email } : null);
}

/** The shop's packs (public). */
export const usePacks = () => useRouteQuery(coinRoutes.packs, {});
