import { coinRoutes } from '@evo/contracts';
import { useCurrentUser } from '../identity/sessionContext';
import { useRouteQuery } from '../api/queries';

/** The member's coin history (live: coins/live.ts). */
export function useTransactions() {
  const { user } = useCurrentUser();
  return useRouteQuery(coinRoutes.transactions, user ? { email: user.email } : null);
}

/** Gifts received as coin amounts (live: coins/live.ts). */
export function useCoinGifts() {
  const { user } = useCurrentUser();
  return useRouteQuery(coinRoutes.received, user ? { email: user.email } : null);
}

/** The shop's packs (public). */
export const usePacks = () => useRouteQuery(coinRoutes.packs, {});
