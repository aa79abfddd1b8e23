import { useCallback } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { coinRoutes, type WalletAnswer as Wallet } from '@evo/contracts';
import { refreshRoute, routeKey, useRouteQuery } from '../api/queries';
import { useCurrentUser } from '../identity/sessionContext';
import { useSocketEvents, type PushHandlers } from '../shell/socket';

/**
 * The current member's balance, one cached answer shared by every screen and section that shows
 * it, kept live by the server's 'wallet:changed' push ({ coins_balance, coins_withdrawable,
 * gifts_unclaimed, position }, applied by `coinPushes` below) and by the answers of the member's own
 * coin commands. Pushes older than the last one applied are ignored (by log position); a GET
 * under way when a newer push or answer is applied is dropped.
 */

/** A command's answer, a 'wallet:changed' push (with its position), or part of one. */
export type WalletUpdate = Partial<Wallet> & { position?: string };

/** the log position of the last push applied, per cache and member */
const positions = new WeakMap<QueryClient, Map<string, bigint>>();

/** Whether a push at `position` is newer than the last one applied for the member (and notes it). */
function isNewer(client: QueryClient, email: string, position: string | undefined): boolean {
  if (position === undefined || position === null) return true;
  let p: bigint;
  try {
    p = BigInt(String(position));
  } catch {
    return true; // no usable position: apply it anyway
  }
  const seen = positions.get(client) ?? new Map<string, bigint>();
  positions.set(client, seen);
  const last = seen.get(email);
  if (last !== undefined && p <= last) return false;
  seen.set(email, p);
  return true;
}

/** New balances for the member: from a command answer, or a push (with its position). */
export async function applyWallet(client: QueryClient, email: string, update: WalletUpdate): Promise<void> {
  if (!isNewer(client, email, update.position)) return;
  const { coins_balance, coins_withdrawable, coins_bonus, gifts_unclaimed } = update;
  const fields = Object.fromEntries(
    Object.entries({ coins_balance, coins_withdrawable, coins_bonus, gifts_unclaimed }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  if (Object.keys(fields).length === 0) return;
  const queryKey = routeKey(coinRoutes.wallet, { email });
  // not loaded yet: the balance is asked (the push or answer is in the read model by now)
  if (client.getQueryData(queryKey) === undefined) return client.invalidateQueries({ queryKey });
  // a GET under way may predate this: it is dropped
  await client.cancelQueries({ queryKey });
  client.setQueryData<Wallet>(queryKey, (wallet) => (wallet ? { ...wallet, ...fields } : wallet));
}

export interface WalletHandle {
  /** null until loaded (or when logged out) */
  wallet: Wallet | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
  /** apply a coin command's answer (coins_balance, gifts_unclaimed) */
  apply: (answer: WalletUpdate) => void;
}

/** The logged-in member's wallet, loaded on mount and kept live. */
export function useWallet(): WalletHandle {
  const { user } = useCurrentUser();
  const email = user?.email ?? null;
  const client = useQueryClient();
  const query = useRouteQuery(coinRoutes.wallet, email ? { email } : null);
  const { refetch } = query;

  const reload = useCallback(() => void refetch(), [refetch]);
  const apply = useCallback(
    (answer: WalletUpdate) => {
      if (email) void applyWallet(client, email, answer);
    },
    [client, email],
  );
  return {
    wallet: query.data ?? null,
    error: query.error,
    loading: query.isFetching || (email !== null && query.isPending),
    reload,
    apply,
  };
}

/**
 * What the coin pushes change in the cache: 'wallet:changed' is the member's new balance and a new
 * line of their history; 'gift:received' a new received coin gift. The lists are asked again,
 * keeping what is shown meanwhile.
 */
export const coinPushes = (client: QueryClient, email: string): PushHandlers => ({
  'wallet:changed': (wallet) => {
    void applyWallet(client, email, wallet);
    void refreshRoute(client, coinRoutes.transactions, { email });
  },
  'gift:received': () => void refreshRoute(client, coinRoutes.received, { email }),
});

/** Mounted once, by the shell, for the logged-in member. */
export function useCoinsLive(email: string): void {
  useSocketEvents(coinPushes(useQueryClient(), email));
}
