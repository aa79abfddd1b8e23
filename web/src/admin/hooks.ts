import { useCallback, useEffect, useState } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { adminRoutes, coinRoutes, statsRoutes, type GetRoute, type StatsAnswer } from '@evo/contracts';
import { useCurrentUser } from '../identity/sessionContext';
import { fetchRoute, routeKey, useRouteQuery, type Search } from '../api/queries';
import { isRebuildElsewhere, startRebuild, type RebuildState, type StatsKind } from './api';

/**
 * Data hooks of the admin screens, read through the query cache (live: admin/live.ts). Nothing is
 * fetched unless the current user is an administrator (the screen then shows 'Accès réservé aux
 * administrateurs.' instead).
 */
function useAdminQuery<R extends Parameters<typeof useRouteQuery>[0]>(
  route: R,
  params: Parameters<typeof useRouteQuery<R>>[1],
  search?: Search,
) {
  const { isAdmin } = useCurrentUser();
  return useRouteQuery(route, params, { search, enabled: isAdmin });
}

/** The reports to moderate (live: a new report or another administrator's decision). */
export const useReports = () => useAdminQuery(adminRoutes.reports, {});

/** The catalogue as administrators edit it (live: another administrator's edit). */
export const useAdminGifts = () => useAdminQuery(adminRoutes.gifts, {});

export const useAdminTransactions = () => useAdminQuery(coinRoutes.adminTransactions, {});

export const useReconciliation = () => useAdminQuery(coinRoutes.reconciliation, {});

export const useLedgerAudit = (email: string, asOf: string | null) =>
  useAdminQuery(coinRoutes.ledgerAudit, email ? { email } : null, { asOf });

export const useStats = <K extends StatsKind>(kind: K, asOf: string | null) =>
  useAdminQuery(statsRoutes[kind] as GetRoute<StatsAnswer<K>>, {}, { asOf });

export const useAdminUsers = (q: string, page: number, limit: number) =>
  useAdminQuery(adminRoutes.users, {}, { q: q.trim(), page, limit });

export const useAdminAudit = (page: number, limit: number) => useAdminQuery(adminRoutes.audit, {}, { page, limit });

/** Logs a failed load once per error (the product error catalogue: some admin failures are "console only"). */
export function useConsoleError(error: unknown, what: string): void {
  useEffect(() => {
    if (error) console.error(what, error);
  }, [error, what]);
}

/**
 * The "Données au" date of a stats or audit page, kept in the URL (`?asOf=<ISO>`) so that it
 * survives a reload and can be shared; null means now.
 */
export function useAsOf(): [string | null, (iso: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get('asOf');
  const asOf = raw && !Number.isNaN(Date.parse(raw)) ? raw : null;
  const setAsOf = useCallback(
    (iso: string | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (iso) next.set('asOf', iso);
          else next.delete('asOf');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [asOf, setAsOf];
}

/** while a rebuild runs, its state is asked again this often, in case the socket is not connected */
const POLL_MS = 2000;

export interface Rebuild {
  /** null until the first answer (GET or socket) */
  state: RebuildState | null;
  /**
   * Why the state could not be read, undefined otherwise: a 409 (`isRebuildElsewhere`) means the
   * read models are rebuilt elsewhere, anything else that the state is unknown.
   */
  readError: unknown;
  /** True while the POST is on its way. */
  starting: boolean;
  /** POST /api/admin/projections/rebuild; resolves with the server's message. */
  start: () => Promise<string | undefined>;
}

const rebuildKey = routeKey(adminRoutes.rebuild, {});

/**
 * The state to show when a GET answers while another is shown: the socket may be ahead of the GET,
 * so during the same run only more progress (or the run's end) replaces it.
 */
export function newerRebuild(shown: RebuildState | undefined, fetched: RebuildState): RebuildState {
  const sameRun = shown?.status === 'running' && fetched.status === 'running' && shown.startedAt === fetched.startedAt;
  return sameRun && fetched.done < shown.done ? shown : fetched;
}

/**
 * The rebuild's state from GET, held against what the cache shows once it answers (not when it
 * was sent): a 'rebuild:progress' push may have come in meanwhile.
 */
export async function fetchRebuild(client: QueryClient, signal?: AbortSignal): Promise<RebuildState> {
  const fetched = await fetchRoute(adminRoutes.rebuild, {}, undefined, signal);
  return newerRebuild(client.getQueryData<RebuildState>(rebuildKey), fetched);
}

/**
 * Rebuild of the projections, from the cache: its state from GET, its live progress from the
 * 'rebuild:progress' push (to administrators, applied in admin/live.ts), and a slow GET poll
 * while a rebuild runs in case the socket is not connected.
 */
export function useRebuild(): Rebuild {
  const client = useQueryClient();
  const { isAdmin } = useCurrentUser();
  const query = useQuery({
    queryKey: rebuildKey,
    queryFn: ({ signal }) => fetchRebuild(client, signal),
    refetchInterval: (q) => (q.state.data?.status === 'running' ? POLL_MS : false),
    enabled: isAdmin,
  });
  const state = query.data ?? null;
  const readError = state ? undefined : (query.error ?? undefined);
  useConsoleError(isRebuildElsewhere(readError) ? undefined : readError, 'État de la reconstruction indisponible');
  const [starting, setStarting] = useState(false);

  const start = useCallback(async () => {
    const previous = client.getQueryData<RebuildState>(rebuildKey);
    setStarting(true);
    // shown at once; the push (or the poll) then reports the real progress
    if (previous?.status !== 'running') {
      void client.cancelQueries({ queryKey: rebuildKey });
      const optimistic: RebuildState = {
        status: 'running',
        startedAt: new Date().toISOString(),
        done: 0,
        rate: 0,
        etaSeconds: 0,
        fraction: 0,
      };
      client.setQueryData(rebuildKey, optimistic);
    }
    try {
      return (await startRebuild()).message;
    } catch (err) {
      const shown = client.getQueryData<RebuildState>(rebuildKey);
      if (shown?.status === 'running' && shown.done === 0) {
        if (previous) client.setQueryData(rebuildKey, previous);
        else void client.resetQueries({ queryKey: rebuildKey, exact: true });
      }
      throw err;
    } finally {
      setStarting(false);
    }
  }, [client]);

  return { state, readError, starting, start };
}
