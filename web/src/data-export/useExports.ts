import { useCallback, useEffect, useState } from 'react';
import type { DataExportsAnswer } from '@evo/contracts';
import { errorMessage } from '../api/http';
import { useSocketEvent } from '../shell/socket';

/** while a build runs, the list is asked again this often (the push may not reach a socket not yet connected) */
const POLL_MS = 3000;

/**
 * A list of archives, loaded at once, again on 'data-export:changed' (progress, ready, failed) for
 * `memberId`, and every few seconds while one is being built.
 */
export function useExports(load: (signal?: AbortSignal) => Promise<DataExportsAnswer>, memberId: string | null) {
  const [data, setData] = useState<DataExportsAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setData(await load());
      setError(null);
    } catch (err) {
      setError(errorMessage(err) ?? 'Impossible de charger tes archives.');
    }
  }, [load]);
  useEffect(() => {
    void reload();
  }, [reload]);
  useSocketEvent('data-export:changed', (p) => {
    if (!memberId || p.member_id === memberId) void reload();
  });
  const building = data?.exports.some((x) => x.status === 'en_preparation') ?? false;
  useEffect(() => {
    if (!building) return;
    const timer = setInterval(() => void reload(), POLL_MS);
    return () => clearInterval(timer);
  }, [building, reload]);
  return { data, error, reload };
}
