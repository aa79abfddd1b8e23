import { giftRoutes } from '@evo/contracts';
import { useCurrentUser } from '../identity/sessionContext';
import { useRouteQuery } from '../api/queries';

/** The gift catalogue (public; live: gifts/live.ts). */
export const useCatalog = () => useRouteQuery(giftRoutes.catalog, {});

/** The member's received gifts (live: gifts/live.ts). */
export function useReceivedGifts() {
  const { user } = useCurrentUser();
  return useRouteQuery(giftRoutes.received, user ? { email: user.email } : null);
}
