import { useEffect, useSyncExternalStore } from 'react';
import type { MyModerationAnswer, RestrictionScopeName } from '@evo/contracts';
import { useCurrentUser } from '../identity/sessionContext';
import { useSocketEvent } from '../shell/socket';
import { ApiError } from '../api/http';
import { fetchMyModeration } from './api';

/**
 * The member's decisions and restrictions, shared by every screen that shows them (one call for a
 * feed of comment panels): loaded once per member, again on 'moderation:changed' (a restriction
 * taken or lifted, an appeal answered), after a refusal that names a restriction, and when the
 * first restriction ends (they end by themselves: the screens unlock at that moment).
 */
type Snapshot = { owner: string | null; data: MyModerationAnswer | null };
let snapshot: Snapshot = { owner: null, data: null };
const listeners = new Set<() => void>();
let inFlight: Promise<void> | null = null;
let endTimer: ReturnType<typeof setTimeout> | undefined;

const publish = (next: Snapshot) => {
  snapshot = next;
  for (const l of listeners) l();
};

function scheduleEnd(data: MyModerationAnswer) {
  clearTimeout(endTimer);
  const ends = data.restrictions.flatMap((r) => (r.ends_at ? [new Date(r.ends_at).getTime()] : []));
  if (ends.length === 0) return;
  // a timer longer than about 24.8 days overflows: check again then
  const wait = Math.min(Math.max(0, Math.min(...ends) - Date.now()) + 500, 2_000_000_000);
  endTimer = setTimeout(() => void refreshMyModeration(), wait);
}

/** Load (again) the member's moderation state. */
export function refreshMyModeration(owner = snapshot.owner): Promise<void> {
  if (!owner) return Promise.resolve();
  if (inFlight) return inFlight;
  inFlight = fetchMyModeration()
    .then((data) => {
      if (snapshot.owner !== owner) return;
      publish({ owner, data });
      scheduleEnd(data);
    })
    .catch((err: unknown) => console.warn('Chargement des décisions de modération impossible', err))
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function useMyModeration(): MyModerationAnswer | null {
  const { user, isLoggedIn } = useCurrentUser();
  const owner = isLoggedIn && user ? user.email : null;
  const current = useSyncExternalStore(subscribe, () => snapshot);
  useEffect(() => {
    if (snapshot.owner === owner) return;
    clearTimeout(endTimer);
    publish({ owner, data: null });
    void refreshMyModeration(owner);
  }, [owner]);
  useSocketEvent('moderation:changed', () => void refreshMyModeration());
  return current.owner === owner ? current.data : null;
}

/** The French reason the member may not do this now (the server's own 403 text), or null. */
export function useRestriction(scope: RestrictionScopeName): string | null {
  return useMyModeration()?.blocked[scope] ?? null;
}

/** After a refused action: a 403 may be a restriction taken meanwhile (the member was typing): load it. */
export function refreshAfterRefusal(err: unknown): void {
  if (err instanceof ApiError && err.status === 403) void refreshMyModeration();
}
