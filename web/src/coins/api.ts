import { CoinCommandAnswer } from '@evo/contracts';
import { api } from '../api/http';
import { decode } from '../api/decode';
import { idempotencyHeaders } from './idempotency';

/**
 * Coin calls (the product API calls, "Coins"; command-api/src/ledger/routes.ts). The member's own email goes
 * in the path or the body; the server checks it against the session. Calls that move coins take
 * an idempotency key (see idempotency.ts).
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
