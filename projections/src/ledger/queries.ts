import {
  isUserAccount,
  parseUserAccount,
  userBalanceAccount,
  userEarningsAccount,
  userGiftsAccount,
} from '@evo/domain';
import type { ReadStore } from '@evo/infra';
import { USERS, type UserDoc } from '../identity/users-projector';
import {
  COIN_MOVEMENTS,
  COIN_WALLETS,
  walletCoins,
  type CoinMovementDoc,
  type CoinWalletDoc,
} from './wallets-projector';

/** A line of a member's history (the product rule "Coin transaction"). */
export interface CoinTransaction {
  id: number;
  type: string;
  /** signed: + coins in, − coins out */
  amount: number;
  created_at: string;
  /** which of the member's accounts moved: balance, or gifts (received, not yet claimed) */
  account: 'balance' | 'gifts';
  gift_id: number | null;
  /** what the member may spend right after this movement (balance + earnings, as `coins_balance`) */
  coins_balance_after: number;
  /** received gifts not yet claimed right after it (another account, as `gifts_unclaimed`) */
  gifts_unclaimed_after: number;
  /** the other member of a gift, by pseudo (never an email): receiver of a sent gift, sender of a received one */
  counterpart_pseudo: string | null;
}

/** A line of the admin transactions list (the product specification admin view of "Coin transaction"). */
export interface AdminCoinTransaction {
  id: number;
  user_email: string;
  amount: number;
  method: string;
  created_at: string;
  type: string;
}

/** One posting that touched a member's account, with the account's balance after it. */
export interface AuditEntry {
  event_id: string;
  position: string;
  at: string;
  event_type: string;
  type: string;
  tx_id: number;
  actor: string | null;
  correlation_id: string;
  causation_id: string | null;
  debit: string;
  credit: string;
  amount: number;
  /** the member's account this line is about */
  account: string;
  /** its change: + credited, − debited */
  delta: number;
  /** running balance of `account` after this posting */
  balance_after: number;
}

export const DEFAULT_LIST_LIMIT = 500;

export function ledgerQueries(read: ReadStore) {
  const wallets = read.collection<CoinWalletDoc>(COIN_WALLETS);
  const movements = read.collection<CoinMovementDoc>(COIN_MOVEMENTS);
  return {
    /** what the member may spend, what of it they may withdraw (earned from gifts), and their unclaimed gifts */
    async wallet(
      userId: string,
    ): Promise<{ coins_balance: number; coins_withdrawable: number; gifts_unclaimed: number }> {
      const w = await wallets.findOne({ _id: userId });
      return {
        coins_balance: w?.coins_balance ?? 0,
        coins_withdrawable: w?.coins_withdrawable ?? 0,
        gifts_unclaimed: w?.gifts_unclaimed ?? 0,
      };
    },

    /** newest first; movements that moved nothing (a recorded empty conversion) are left out */
    async transactions(userId: string, limit = DEFAULT_LIST_LIMIT): Promise<CoinTransaction[]> {
      const docs = await movements.find({ user_id: userId, amount: { $ne: 0 } }, { sort: { pos_key: -1 }, limit });
      const counterpartIds = [...new Set(docs.flatMap((m) => (m.counterpart_id ? [m.counterpart_id] : [])))];
      const counterparts = counterpartIds.length
        ? await read.collection<UserDoc>(USERS).find({ _id: { $in: counterpartIds } })
        : [];
      const pseudos = new Map(counterparts.map((u) => [u._id, u.pseudo]));
      return docs.map((m) => ({
        id: m.tx_id,
        type: m.type,
        amount: m.amount,
        created_at: m.created_at,
        account: m.account,
        gift_id: m.gift_id,
        // the balances the event stated (`after`), as the wallet shows them
        coins_balance_after: walletCoins({ balance: m.balance_after, earnings: m.earnings_after ?? undefined })
          .coins_balance,
        gifts_unclaimed_after: m.gifts_after,
        counterpart_pseudo: (m.counterpart_id && pseudos.get(m.counterpart_id)) || null,
      }));
    },

    /** coins bought, added and withdrawn, every member, newest first */
    async adminTransactions(limit = DEFAULT_LIST_LIMIT): Promise<AdminCoinTransaction[]> {
      const docs = await movements.find({ external: true }, { sort: { pos_key: -1 }, limit });
      const owners = await read
        .collection<UserDoc>(USERS)
        .find({ _id: { $in: [...new Set(docs.map((m) => m.user_id))] } });
      const emails = new Map(owners.map((u) => [u._id, u.email]));
      return docs.map((m) => ({
        id: m.tx_id,
        user_email: emails.get(m.user_id) ?? '',
        amount: m.amount,
        method: m.method ?? m.type,
        created_at: m.created_at,
        type: m.type,
      }));
    },

    /**
     * Every posting that touched the member's accounts, oldest first, with running balances;
     * `asOf` (ISO) keeps the movements up to that time and gives the balances then.
     */
    async audit(userId: string, asOf?: string) {
      const filter: Record<string, unknown> = { user_id: userId };
      if (asOf) filter.created_at = { $lte: asOf };
      const docs = await movements.find(filter, { sort: { pos_key: 1 } });
      const running = new Map<string, number>([
        [userBalanceAccount(userId), 0],
        [userEarningsAccount(userId), 0],
        [userGiftsAccount(userId), 0],
      ]);
      const entries: AuditEntry[] = [];
      let consistent = true;
      for (const m of docs) {
        for (const p of m.postings) {
          for (const [account, delta] of [
            [p.debit, -p.amount],
            [p.credit, p.amount],
          ] as const) {
            if (!isUserAccount(account) || parseUserAccount(account)?.userId !== userId) continue;
            const balance = (running.get(account) ?? 0) + delta;
            running.set(account, balance);
            entries.push({
              event_id: m._id,
              position: m.position,
              at: m.created_at,
              event_type: m.event_type,
              type: m.type,
              tx_id: m.tx_id,
              actor: m.actor,
              correlation_id: m.correlation_id,
              causation_id: m.causation_id,
              debit: p.debit,
              credit: p.credit,
              amount: p.amount,
              account,
              delta,
              balance_after: balance,
            });
          }
        }
        // the balances the event stated must be the running ones
        if (
          running.get(userBalanceAccount(userId)) !== m.balance_after ||
          running.get(userGiftsAccount(userId)) !== m.gifts_after ||
          (m.earnings_after != null && running.get(userEarningsAccount(userId)) !== m.earnings_after)
        ) {
          consistent = false;
        }
      }
      return {
        as_of: asOf ?? null,
        balances: Object.fromEntries(running) as Record<string, number>,
        coins_balance: (running.get(userBalanceAccount(userId)) ?? 0) + (running.get(userEarningsAccount(userId)) ?? 0),
        coins_withdrawable: running.get(userEarningsAccount(userId)) ?? 0,
        gifts_unclaimed: running.get(userGiftsAccount(userId)) ?? 0,
        consistent,
        entries,
      };
    },
  };
}
