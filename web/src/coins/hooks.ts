import { useCurrentUser } from '../identity/sessionContext';
import { useSocketEvent } from '../shell/socket';
import { useLoad, type Loaded } from '../api/useLoad';
import {
  fetchCoinGifts,
  fetchPacks,
  fetchTransactions,
  type CoinGift,
  type CoinPack,
  type CoinTransaction,
} from './api';

/** The member's coin history; reloaded (keeping the list on screen) whenever their wallet changes. */
export function useTransactions(): Loaded<CoinTransaction[]> & { email: string | null } {
  const { user } = useCurrentUser();
  const email = user?.email ?? null;
  const loaded = useLoad(email ? `coins:transactions:${email}` : null, (signal) =>
    fetchTransactions(email ?? '', signal),
  );
  useSocketEvent('wallet:changed', loaded.reload);
  return { ...loaded, email };
}

/** Gifts received as coin amounts; reloaded when a gift arrives. */
export function useCoinGifts(): Loaded<CoinGift[]> & { email: string | null } {
  const { user } = useCurrentUser();
  const email = user?.email ?? null;
  const loaded = useLoad(email ? `coins:received:${email}` : null, (signal) => fetchCoinGifts(email ?? '', signal));
  useSocketEvent('gift:received', loaded.reload);
  return { ...loaded, email };
}

/** The shop's packs (public). */
export function usePacks(): Loaded<CoinPack[]> {
  return useLoad('coins:packs', fetchPacks);
}
