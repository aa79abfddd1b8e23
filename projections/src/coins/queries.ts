import {
  isUserAccount,
  parseUserAccount,
  userBalanceAccount,
  userBonusAccount,
  userEarningsAccount,
  userGiftsAccount,
} from '@evo/domain';
import type { AdminCoinTransaction, CoinTransaction, LedgerAudit, LedgerAuditEntry, Wallet } from '@evo/contracts';
import type { ReadStore } from '@evo/infra';
import { USERS, type UserDoc } from '../identity/users-projector';
import {
  COIN_MOVEMENTS,
  COIN_WALLETS,
  walletCoins,
  type CoinMovementDoc,
  type CoinWalletDoc,
} from './wallets-projector';

export const DEFAULT_LIST_LIMIT = 500;

export function ledgerQueries(read: ReadStore) {
  const wallets = read.collection<CoinWalletDoc>(COIN_WALLETS);
  const movements = read.collection<CoinMovementDoc>(COIN_MOVEMENTS);
  return {
    /** what the member may spend, what of it they may withdraw (earned from gifts), and their unclaimed gifts */
    async wallet(userId: string): Promise<Wallet> {
      const w = await wallets.findOne({ _id: userId });
      return {
        coins_balance: w?.coins_balance ?? 0,
        coins_withdrawable: w?.coins_withdrawable ?? 0,
        coins_bonus: w?.coins_bonus ?? 0,
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
        coins_balance_after: walletCoins({
          balance: m.balance_after,
          earnings: m.earnings_after ?? undefined,
          bonus: m.bonus_after ?? undefined,
        }).coins_balance,
        gifts_unclaimed_after: m.gifts_after,
        counterpart_pseudo: (m.counterpart_id && pseudos.get(m.counterpart_id)) || null,
        // documents written before withdrawals carried them have neither field
        value_cents: m.value_cents ?? null,
        payout: m.payout ?? null,
        pack_name: m.pack_name ?? null,
        reference: m.payment_ref ?? null,
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
        // a deleted member has no email any more: named by their id (pseudonymous)
        user_email: emails.get(m.user_id) ?? `membre ${m.user_id}`,
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
    async audit(userId: string, asOf?: string): Promise<LedgerAudit> {
      const filter: Record<string, unknown> = { user_id: userId };
      if (asOf) filter.created_at = { $lte: asOf };
      const docs = await movements.find(filter, { sort: { pos_key: 1 } });
      const running = new Map<string, number>([
        [userBalanceAccount(userId), 0],
        [userEarningsAccount(userId), 0],
        [userBonusAccount(userId), 0],
        [userGiftsAccount(userId), 0],
      ]);
      const entries: LedgerAuditEntry[] = [];
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
          (m.earnings_after != null && running.get(userEarningsAccount(userId)) !== m.earnings_after) ||
          (m.bonus_after ?? 0) !== running.get(userBonusAccount(userId))
        ) {
          consistent = false;
        }
      }
      return {
        as_of: asOf ?? null,
        balances: Object.fromEntries(running) as Record<string, number>,
        coins_balance:
          (running.get(userBalanceAccount(userId)) ?? 0) +
          (running.get(userEarningsAccount(userId)) ?? 0) +
          (running.get(userBonusAccount(userId)) ?? 0),
        coins_withdrawable: running.get(userEarningsAccount(userId)) ?? 0,
        coins_bonus: running.get(userBonusAccount(userId)) ?? 0,
        gifts_unclaimed: running.get(userGiftsAccount(userId)) ?? 0,
        consistent,
        entries,
      };
    },
  };
}
