import { useQuery } from '@tanstack/react-query';
import type { MyModerationAnswer, RestrictionScopeName } from '@evo/contracts';
import { useCurrentUser } from '../identity/sessionContext';
import { ApiError } from '../api/http';
import { queryClient } from '../shell/ServerState';
import { myModerationQuery, refreshMyModeration } from './live';

/** The logged-in member's decisions and restrictions, as a query (nothing is asked for a visitor). */
export function useMyModerationQuery() {
  const { user, isLoggedIn } = useCurrentUser();
  return useQuery({ ...myModerationQuery(), enabled: isLoggedIn && user !== null });
}

/** The logged-in member's moderation state, null until loaded (or for a visitor). */
export function useMyModeration(): MyModerationAnswer | null {
  const { isLoggedIn } = useCurrentUser();
  const { data } = useMyModerationQuery();
  return isLoggedIn ? (data ?? null) : null;
}

/** The French reason the member may not do this now (the server's own 403 text), or null. */
export function useRestriction(scope: RestrictionScopeName): string | null {
  return useMyModeration()?.blocked[scope] ?? null;
}

/**
 * After a refused action: a 403 may be a restriction taken meanwhile (the member was typing): ask
 * the member's state again (in the app's one cache: callers are event handlers, not hooks).
 */
export function refreshAfterRefusal(err: unknown): void {
  if (err instanceof ApiError && err.status === 403) void refreshMyModeration(queryClient);
}
