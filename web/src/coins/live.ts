import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { coinRoutes } from '@evo/contracts';
import { refreshRoute } from '../api/queries';
import { useSocketEvents, type PushHandlers } from '../shell/socket';
import { applyWallet } from './useWallet';

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
