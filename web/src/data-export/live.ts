import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { dataExportRoutes } from '@evo/contracts';
import { refreshRoute } from '../api/queries';
import { useSocketEvents, type PushHandlers } from '../shell/socket';

/**
 * What the data-export pushes change in the cache: 'data-export:changed' (an archive progressed,
 * is ready or failed; to the member, and to the administrators) asks the member's own archives
 * again, and the back-office's list of that member's.
 */
export const dataExportPushes = (client: QueryClient): PushHandlers => ({
  'data-export:changed': ({ member_id }) => {
    void refreshRoute(client, dataExportRoutes.mine);
    void refreshRoute(client, dataExportRoutes.member, { id: member_id });
  },
});

/** Mounted once, by the shell, for the logged-in member. */
export function useDataExportsLive(): void {
  useSocketEvents(dataExportPushes(useQueryClient()));
}
