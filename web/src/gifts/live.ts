import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { giftRoutes } from '@evo/contracts';
import { refreshRoute, updateRoute } from '../api/queries';
import { useSocketEvents, type PushHandlers } from '../shell/socket';

/**
 * What the gift pushes change in the cache: 'gift:received' ({ gift }) puts the new gift on top of
 * the member's received ones at once; 'wallet:changed' (a claim or a conversion, maybe from another
 * tab) asks them again; 'catalogue:changed' (an administrator's edit) asks the catalogue again.
 */
export const giftPushes = (client: QueryClient, email: string): PushHandlers => ({
  'gift:received': ({ gift }) =>
    updateRoute(client, giftRoutes.received, { email }, (list) =>
      list.some((g) => g.id === gift.id) ? list : [gift, ...list],
    ),
  'wallet:changed': () => void refreshRoute(client, giftRoutes.received, { email }),
  'catalogue:changed': () => void refreshRoute(client, giftRoutes.catalog),
});

/** Mounted once, by the shell, for the logged-in member. */
export function useGiftsLive(email: string): void {
  useSocketEvents(giftPushes(useQueryClient(), email));
}
