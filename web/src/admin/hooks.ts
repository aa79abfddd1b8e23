import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { adminRoutes, coinRoutes, statsRoutes, type GetRoute, type StatsAnswer } from '@evo/contracts';
import { useCurrentUser } from '../identity/sessionContext';
import { useSocketEvent } from '../shell/socket';
import { useRouteQuery, type Search } from '../api/queries';
import { fetchRebuild, isRebuildElsewhere, startRebuild, type RebuildState, type StatsKind } from './api';

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

/** A value that follows `value` once it has not changed for `delayMs`. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

const POLL_MS = 2000;

export interface Rebuild {
  /** null until the first answer (GET or socket) */
  state: RebuildState | null;
  /**
   * Why the state could not be read at mount, undefined otherwise: a 409 (`isRebuildElsewhere`)
   * means the read models are rebuilt elsewhere, anything else that the state is unknown.
   */
  readError: unknown;
  /** True while the POST is on its way. */
  starting: boolean;
  /** POST /api/admin/projections/rebuild; resolves with the server's message. */
  start: () => Promise<string | undefined>;
}

/**
 * Rebuild of the projections: current state from GET at mount, live progress from the
 * 'rebuild:progress' socket event (sent to administrators), and a slow GET poll while a rebuild
 * runs in case the socket is not connected.
 */
export function useRebuild(): Rebuild {
  const [state, setState] = useState<RebuildState | null>(null);
  const [readError, setReadError] = useState<unknown>(undefined);
  const [starting, setStarting] = useState(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    const controller = new AbortController();
    fetchRebuild(controller.signal)
      .then((s) => setState((current) => current ?? s))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        if (!isRebuildElsewhere(err)) console.error('État de la reconstruction indisponible', err);
        setReadError(err);
      });
    return () => {
      mounted.current = false;
      controller.abort();
    };
  }, []);

  useSocketEvent('rebuild:progress', setState);

  const running = state?.status === 'running';
  useEffect(() => {
    if (!running) return;
    const controller = new AbortController();
    const timer = window.setInterval(() => {
      fetchRebuild(controller.signal)
        .then((s) => {
          // the socket may be ahead: only a terminal state or more progress replaces it
          setState((current) =>
            !current || s.status !== 'running' || current.status !== 'running' || s.done >= current.done ? s : current,
          );
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => {
      window.clearInterval(timer);
      controller.abort();
    };
  }, [running]);

  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  });

  const start = useCallback(async () => {
    const previous = stateRef.current;
    setStarting(true);
    // shown at once; the socket (or the poll) then reports the real progress
    if (previous?.status !== 'running')
      setState({
        status: 'running',
        startedAt: new Date().toISOString(),
        done: 0,
        rate: 0,
        etaSeconds: 0,
        fraction: 0,
      });
    try {
      const answer = await startRebuild();
      return answer.message;
    } catch (err) {
      if (mounted.current)
        setState((current) => (current?.status === 'running' && current.done === 0 ? previous : current));
      throw err;
    } finally {
      if (mounted.current) setStarting(false);
    }
  }, []);

  return { state, readError, starting, start };
}
