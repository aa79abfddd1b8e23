import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { socialRoutes } from '@evo/contracts';
import { refreshRoute } from '../api/queries';
import { useSocketEvents, type PushHandlers } from '../shell/socket';

/**
 * What the social pushes change in the cache: someone followed the member, whose own counters change.
 * A follow made while the socket was away (or before its first connection, after the counters were
 * read) has no push of its own: the catch-up ('sync') after each connection asks the counters again.
 */
export const socialPushes = (client: QueryClient, email: string): PushHandlers => {
  const askCountersAgain = () => void refreshRoute(client, socialRoutes.stats, { email });
  return { 'follow:new': askCountersAgain, sync: askCountersAgain };
};

/** Mounted once, by the shell, for the logged-in member. */
export function useSocialLive(email: string): void {
  useSocketEvents(socialPushes(useQueryClient(), email));
}
