import { useState } from 'react';
import { useQuery, type UseQueryOptions, type UseQueryResult } from '@tanstack/react-query';
import { dataExportRoutes, type DataExportsAnswer } from '@evo/contracts';
import { errorMessage } from '../api/http';
import { routeQuery } from '../api/queries';
import { useToast } from '../shell/toast';

/** while a build runs, the list is asked again this often (the push may not reach a socket not yet connected) */
export const POLL_MS = 3000;

/** How often a list of archives is asked again: every few seconds while one is being built, else never. */
export const exportsPollMs = (data: DataExportsAnswer | undefined): number | false =>
  data?.exports.some((x) => x.status === 'en_preparation') ? POLL_MS : false;

/** A list of archives from the cache, kept live by 'data-export:changed' (data-export/live.ts) and the poll. */
function useExports(options: UseQueryOptions<DataExportsAnswer>) {
  return useQuery({ ...options, refetchInterval: (query) => exportsPollMs(query.state.data) });
}

/** The member's own archives (GET /api/me/data-exports). */
export const useMyExports = (enabled: boolean) => useExports({ ...routeQuery(dataExportRoutes.mine, {}), enabled });

/** A member's archives, as the back-office sees them (GET /api/admin/users/:id/data-exports). */
export const useMemberExports = (memberId: string) => useExports(routeQuery(dataExportRoutes.member, { id: memberId }));

/**
 * "Demander mon archive" / "Préparer l’archive": asks for a new archive (`request`), says how it went,
 * then asks the list again. `disabled` while it is asked, before the list is known, and while an
 * archive is being prepared.
 */
export function useExportRequest(
  exports: UseQueryResult<DataExportsAnswer>,
  request: () => Promise<{ message: string }>,
) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const ask = async () => {
    if (busy) return;
    setBusy(true);
    try {
      toast.success((await request()).message);
    } catch (err) {
      toast.error('Demande impossible', { detail: errorMessage(err) });
    } finally {
      await exports.refetch();
      setBusy(false);
    }
  };
  return { ask, disabled: busy || !exports.data || !exports.data.can_request };
}
