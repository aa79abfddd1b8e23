import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { adminRoutes } from '@evo/contracts';
import { refreshRoute, routeKey } from '../api/queries';
import { useSocketEvents, type PushHandlers } from '../shell/socket';

/**
 * What the administrators' pushes change in the cache (sent to the `admins` room only): a new
 * report, or another administrator's decision, asks the reports again; a catalogue edit the
 * catalogue as administrators edit it; a rebuild's progress is the state its card shows.
 */
export const adminPushes = (client: QueryClient): PushHandlers => ({
  'report:new': () => void refreshRoute(client, adminRoutes.reports),
  'report:updated': () => void refreshRoute(client, adminRoutes.reports),
  'catalogue:changed': () => void refreshRoute(client, adminRoutes.gifts),
  'rebuild:progress': (state) => client.setQueryData(routeKey(adminRoutes.rebuild, {}), state),
});

/** Mounted once, by the shell, for an administrator. */
export function useAdminLive(): void {
  useSocketEvents(adminPushes(useQueryClient()));
}
