import { api } from '../api/http';
import { num, optionalNumber, rows, text, type Row } from '../api/decode';
import { idempotencyHeaders } from './idempotency';

/**
 * Coin calls (the product API calls, "Coins"; command-api/src/ledger/routes.ts). The member's own email goes
 * in the path or the body; the server checks it against the session. Calls that move coins take
 * an idempotency key (see idempotency.ts).
 */

/**
 * the product entities, "Balance": coins on the balance, and received gift coins not yet claimed. Of the
 * balance, only the coins earned from received gifts can be withdrawn (`coins_withdrawable`);
 * bought or added ones are spent on gifts only.
 */
export interface Wallet {
  coins_balance: number;
  coins_withdrawable: number;
  gifts_unclaimed: number;
  /** does the server accept "add coins" (ALLOW_FREE_COINS)? the form is hidden otherwise */
  add_coins_enabled: boolean;
}

/** the product entities, "Coin pack". */
export interface CoinPack {
  id: number;
  name: string;
  coins_amount: number;
  price_euros: number;
}

/** the product entities, "Coin transaction" (amount signed). */
export interface CoinTransaction {
  id: number;
  type: string;
  amount: number;
  created_at: string;
  /** which of the member's accounts moved: the balance, or the received gifts not yet claimed */
  account: 'balance' | 'gifts';
  /** what the member may spend right after this movement (absent from older servers) */
  coins_balance_after?: number;
  /** received gifts not yet claimed right after it */
  gifts_unclaimed_after?: number;
  /** the other member of a gift, by pseudo */
  counterpart_pseudo: string;
}

/** the product entities, "Received coin gift". */
export interface CoinGift {
  sender_email: string;
  sender_pseudo: string;
  gift_value: number;
  amount: number;
  name: string;
  emoji: string;
  created_at: string;
}

/** What a coin command answers (fields vary by command). */
export interface CoinAnswer {
  message?: string;
  coins_balance?: number;
  coins_withdrawable?: number;
  gifts_unclaimed?: number;
  transferred?: number;
}

const enc = encodeURIComponent;

/** What a coin or gift command answered. */
export function coinAnswer(data: unknown): CoinAnswer {
  const d = (data && typeof data === 'object' ? data : {}) as Row;
  return {
    message: text(d.message) || undefined,
    coins_balance: optionalNumber(d.coins_balance),
    coins_withdrawable: optionalNumber(d.coins_withdrawable),
    gifts_unclaimed: optionalNumber(d.gifts_unclaimed),
    transferred: optionalNumber(d.transferred),
  };
}

/** GET /api/coins/balance/{email} → { coins_balance, coins_withdrawable, gifts_unclaimed, add_coins_enabled } */
export async function fetchWallet(email: string, signal?: AbortSignal): Promise<Wallet> {
  const d = await api.get<Row>(`/api/coins/balance/${enc(email)}`, { signal });
  return {
    coins_balance: num(d?.coins_balance),
    coins_withdrawable: num(d?.coins_withdrawable),
    gifts_unclaimed: num(d?.gifts_unclaimed),
    add_coins_enabled: d?.add_coins_enabled !== false,
  };
}

/** GET /api/coins/transactions/{email}, newest first. */
export async function fetchTransactions(email: string, signal?: AbortSignal): Promise<CoinTransaction[]> {
  const data = await api.get<unknown>(`/api/coins/transactions/${enc(email)}`, { signal });
  return rows(data).map((r) => ({
    id: num(r.id),
    type: text(r.type),
    amount: num(r.amount),
    created_at: text(r.created_at),
    account: r.account === 'gifts' ? 'gifts' : 'balance',
    coins_balance_after: optionalNumber(r.coins_balance_after),
    gifts_unclaimed_after: optionalNumber(r.gifts_unclaimed_after),
    counterpart_pseudo: text(r.counterpart_pseudo),
  }));
}

/** GET /api/coins/received/{email}: received gifts as coin amounts, newest first. */
export async function fetchCoinGifts(email: string, signal?: AbortSignal): Promise<CoinGift[]> {
  const data = await api.get<unknown>(`/api/coins/received/${enc(email)}`, { signal });
  return rows(data).map((r) => ({
    sender_email: text(r.sender_email),
    sender_pseudo: text(r.sender_pseudo),
    gift_value: num(r.gift_value),
    amount: num(r.amount ?? r.gift_value),
    name: text(r.name),
    emoji: text(r.emoji),
    created_at: text(r.created_at),
  }));
}

/** GET /api/coins/packs (public). */
export async function fetchPacks(signal?: AbortSignal): Promise<CoinPack[]> {
  const data = await api.get<unknown>('/api/coins/packs', { signal });
  return rows(data)
    .map((r) => ({
      id: num(r.id),
      name: text(r.name),
      coins_amount: num(r.coins_amount),
      price_euros: num(r.price_euros),
    }))
    .filter((p) => p.id > 0);
}

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
