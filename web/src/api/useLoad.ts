import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { isAbortError } from '../api/http';

/**
 * Loads data for a key (a URL, an email…) through `fetcher`, aborting the previous
 * call when the key changes or the component unmounts. `key === null` means "do not
 * load" (e.g. nobody is logged in). While a reload runs the previous data stays
 * visible; data fetched for another key is never returned.
 *
 *   const feed = useLoad(email && `feed:${email}`, (signal) => fetchFeed(email, signal));
 */

export interface Loaded<T> {
  /** Data for the current key, undefined until the first answer. */
  data: T | undefined;
  /** Error of the last attempt (cleared by the next success). */
  error: unknown;
  /** True while a request for the current key is running. */
  loading: boolean;
  /** Fetches again, keeping the current data on screen meanwhile. */
  reload: () => void;
  /** Local edit of the loaded data (optimistic updates, removals). */
  setData: (update: (current: T) => T) => void;
}

interface State<T> {
  key: string | null;
  data: T | undefined;
  error: unknown;
  loading: boolean;
}

export function useLoad<T>(key: string | null, fetcher: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const fetcherRef = useRef(fetcher);
  useLayoutEffect(() => {
    fetcherRef.current = fetcher;
  });
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<State<T>>({ key, data: undefined, error: undefined, loading: key !== null });

  useEffect(() => {
    if (key === null) {
      setState({ key, data: undefined, error: undefined, loading: false });
      return;
    }
    const controller = new AbortController();
    setState((current) =>
      current.key === key ? { ...current, loading: true } : { key, data: undefined, error: undefined, loading: true },
    );
    fetcherRef
      .current(controller.signal)
      .then((data) => {
        if (!controller.signal.aborted) setState({ key, data, error: undefined, loading: false });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        setState((current) => ({ key, data: current.key === key ? current.data : undefined, error, loading: false }));
      });
    return () => controller.abort();
  }, [key, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const setData = useCallback((update: (current: T) => T) => {
    setState((current) => (current.data === undefined ? current : { ...current, data: update(current.data) }));
  }, []);

  const sameKey = state.key === key;
  return {
    data: sameKey ? state.data : undefined,
    error: sameKey ? state.error : undefined,
    loading: sameKey ? state.loading : key !== null,
    reload,
    setData,
  };
}
