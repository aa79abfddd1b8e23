import { ApiError } from '../api/http';

/** The server's own French message (`{ error }`), or undefined (no answer, or none given). */
export function serverMessageOf(err: unknown): string | undefined {
  return err instanceof ApiError && !err.isNetworkError ? err.serverMessage : undefined;
}

/** True when the request got no answer at all. */
export function isNetworkFailure(err: unknown): boolean {
  return err instanceof ApiError && err.isNetworkError;
}
