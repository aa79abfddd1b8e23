import { queryOptions, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { moderationRoutes, type MyModerationAnswer } from '@evo/contracts';
import { refreshRoute, routeQuery } from '../api/queries';
import { useSocketEvents, type PushHandlers } from '../shell/socket';

/**
 * The member's decisions and restrictions in the cache (GET /api/moderation/mine), one answer
 * shared by every screen that shows them (one call for a feed of comment panels, not one per
 * panel): fresh until a push says otherwise ('moderation:changed': a restriction taken or lifted,
 * an appeal answered), or until the first restriction ends (they end by themselves: the screens
 * unlock at that moment).
 */

/** a timer longer than about 24.8 days overflows: check again then */
const LONGEST_WAIT_MS = 2_000_000_000;

/** How long after `from` the member's first restriction ends (plus half a second), or undefined if none ends. */
export function untilFirstEnd(data: MyModerationAnswer | undefined, from = Date.now()): number | undefined {
  const ends = (data?.restrictions ?? []).flatMap((r) => (r.ends_at ? [new Date(r.ends_at).getTime()] : []));
  if (ends.length === 0) return undefined;
  return Math.min(Math.max(0, Math.min(...ends) - from) + 500, LONGEST_WAIT_MS);
}

/** The member's answer: fresh until its first restriction ends, and asked again at that moment while shown. */
export const myModerationQuery = () =>
  queryOptions({
    ...routeQuery(moderationRoutes.mine, {}),
    staleTime: (query) => untilFirstEnd(query.state.data, query.state.dataUpdatedAt) ?? Infinity,
    refetchInterval: (query) => untilFirstEnd(query.state.data) ?? false,
    refetchIntervalInBackground: true,
  });

/** Asks the member's moderation state again (a push, an appeal sent, a refusal). */
export const refreshMyModeration = (client: QueryClient) => refreshRoute(client, moderationRoutes.mine);

/** What the moderation pushes change in the cache. */
export const moderationPushes = (client: QueryClient): PushHandlers => ({
  'moderation:changed': () => void refreshMyModeration(client),
});

/** Mounted once, by the shell, for the logged-in member. */
export function useModerationLive(): void {
  useSocketEvents(moderationPushes(useQueryClient()));
}
