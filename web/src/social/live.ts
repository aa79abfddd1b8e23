import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { socialRoutes } from '@evo/contracts';
import { refreshRoute, routeKey } from '../api/queries';
import { useSocketEvents, type PushHandlers } from '../shell/socket';

/** What the social pushes change in the cache: someone followed the member, whose own counters change. */
export const socialPushes = (client: QueryClient, email: string): PushHandlers => ({
  'follow:new': () => void refreshRoute(client, socialRoutes.stats, { email }),
});

/**
 * After `me` followed or unfollowed `pseudo` here: every screen asking whether they follow them
 * (the profile's button, whether the composer opens) knows at once, without asking again.
 */
export function noteFollowing(client: QueryClient, me: string, pseudo: string, isFollowing: boolean): void {
  client.setQueryData(routeKey(socialRoutes.isFollowing, { followerEmail: me, pseudo }), { isFollowing });
}

/** Mounted once, by the shell, for the logged-in member. */
export function useSocialLive(email: string): void {
  useSocketEvents(socialPushes(useQueryClient(), email));
}
