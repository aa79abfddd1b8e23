import type { WalletChangedPush } from '@evo/contracts';
import type { Wallet } from './api';

/** For the tests: a member's wallet as the server sends it; `fields` changes any of it. */
export const testWallet = (fields: Partial<Wallet> = {}): Wallet => ({
  coins_balance: 10,
  coins_withdrawable: 4,
  coins_bonus: 2,
  gifts_unclaimed: 0,
  add_coins_enabled: true,
  withdrawal_cents_per_100_coins: 90,
  withdrawal_payout: 'sandbox',
  ...fields,
});

/** For the tests: the 'wallet:changed' push that brings testWallet's figures; `fields` changes any of them. */
export const walletPush = (fields: Partial<WalletChangedPush> = {}): WalletChangedPush => {
  const { coins_balance, coins_withdrawable, coins_bonus, gifts_unclaimed } = testWallet();
  return { coins_balance, coins_withdrawable, coins_bonus, gifts_unclaimed, position: '1', ...fields };
};
