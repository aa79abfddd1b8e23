import { useCallback, useEffect, useRef, useState } from 'react';

/** the product business constants: success messages clear after 2 seconds. */
export const SUCCESS_CLEAR_MS = 2000;

export interface Flash {
  kind: 'success' | 'error';
  message: string;
  /** the server's own message, shown under an error */
  detail?: string;
}

/** An inline message of a form: successes clear after 2 s, errors stay until the next attempt. */
export function useFlash() {
  const [flash, setFlash] = useState<Flash | null>(null);
  const timer = useRef<number | undefined>(undefined);

  const clear = useCallback(() => {
    window.clearTimeout(timer.current);
    setFlash(null);
  }, []);

  const success = useCallback((message: string) => {
    window.clearTimeout(timer.current);
    setFlash({ kind: 'success', message });
    timer.current = window.setTimeout(() => setFlash(null), SUCCESS_CLEAR_MS);
  }, []);

  const error = useCallback((message: string, detail?: string) => {
    window.clearTimeout(timer.current);
    setFlash({ kind: 'error', message, detail: detail && detail !== message ? detail : undefined });
  }, []);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  return { flash, success, error, clear };
}
