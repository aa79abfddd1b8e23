import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { socialRoutes } from '@evo/contracts';
import { refreshRoute } from '../api/queries';
import { useSocketEvents, type PushHandlers } from '../shell/socket';

/** What the social pushes change in the cache: someone followed the member, whose own counters change. */
export const socialPushes = (client: QueryClient, email: string): PushHandlers => ({
  'follow:new': () => void refreshRoute(client, socialRoutes.stats, { email }),
});

/** Mounted once, by the shell, for the logged-in member. */
export function useSocialLive(email: string): void {
  useSocketEvents(socialPushes(useQueryClient(), email));
}
