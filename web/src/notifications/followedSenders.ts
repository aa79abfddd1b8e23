import { useEffect, useSyncExternalStore } from 'react';
import { IsFollowingAnswer } from '@evo/contracts';
import { api } from '../api/http';
import { decode } from '../api/decode';

/**
 * Whether I already follow the sender of a follow notification, shared by the dropdown and
 * /notifications so that "S'abonner en retour" is never offered for someone already followed,
 * nor again after a click in either list. Asked once per sender (GET /api/users/is-following).
 */
type Known = boolean | 'asking';
const known = new Map<string, Known>();
const listeners = new Set<() => void>();
let version = 0;

const keyOf = (me: string, sender: string) => `${me.trim().toLowerCase()} ${sender.trim().toLowerCase()}`;

function set(key: string, value: Known) {
  known.set(key, value);
  version += 1;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** After a successful follow back (or follow) of `sender` by `me`. */
export function markFollowed(me: string, sender: string): void {
  set(keyOf(me, sender), true);
}

/** true, false, or null while unknown (not asked yet, or the answer failed). */
export function useFollowsSender(me: string | null, sender: string, enabled: boolean): boolean | null {
  const key = me && sender ? keyOf(me, sender) : null;
  useSyncExternalStore(subscribe, () => version);
  useEffect(() => {
    if (!enabled || !key || !me || known.has(key)) return;
    set(key, 'asking');
    api
      .get(`/api/users/is-following/${encodeURIComponent(me)}/${encodeURIComponent(sender)}`)
      .then((data) => {
        if (known.get(key) === 'asking') set(key, decode(IsFollowingAnswer, data).isFollowing);
      })
      .catch(() => {
        // unknown: the button stays offered (the server ignores a second follow)
        if (known.get(key) === 'asking') known.delete(key);
      });
  }, [enabled, key, me, sender]);
  const value = key ? known.get(key) : undefined;
  return typeof value === 'boolean' ? value : null;
}
