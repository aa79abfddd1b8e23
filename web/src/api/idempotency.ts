import { useCallback, useRef } from 'react';
import { ApiError } from './http';

/**
 * Idempotency keys for the calls that move coins (`Idempotency-Key` header, read by the
 * command API in command-api/src/http/context.ts).
 *
 * One fresh key per user action; when the action ends with a network error (no answer: the
 * server may or may not have done it), the key is kept, and the same action retried later
 * (same name, same body) goes out under the same key, so the server answers the first call's
 * result instead of doing it twice.
 */

/** A random UUID v4 (crypto.randomUUID, or getRandomValues outside secure contexts). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = c.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const idempotencyHeaders = (key: string) => ({ 'Idempotency-Key': key });

export type RunIdempotent = <T>(action: string, run: (key: string) => Promise<T>) => Promise<T>;

/**
 * `run('withdraw:50', (key) => withdrawCoins(email, 50, key))`: `action` names the action and its
 * body; the key lives as long as the component (a remounted screen starts afresh).
 */
export function useIdempotentAction(): RunIdempotent {
  const keys = useRef(new Map<string, string>());
  return useCallback(async <T>(action: string, run: (key: string) => Promise<T>): Promise<T> => {
    const key = keys.current.get(action) ?? newIdempotencyKey();
    keys.current.set(action, key);
    try {
      const result = await run(key);
      keys.current.delete(action);
      return result;
    } catch (err) {
      // kept only when the outcome is unknown; an answered failure is final, a new try is a new action
      if (!(err instanceof ApiError && err.isNetworkError)) keys.current.delete(action);
      throw err;
    }
  }, []);
}
