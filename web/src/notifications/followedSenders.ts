import { useQuery, type QueryClient } from '@tanstack/react-query';
import { socialRoutes } from '@evo/contracts';
import { routeQuery } from '../api/queries';
import { noteFollowing } from '../social/api';

/**
 * Whether I already follow the sender of a follow notification, from the cache, shared by the
 * dropdown and /notifications so that "S'abonner en retour" is never offered for someone already
 * followed, nor again after a click in either list. Asked once per sender
 * (GET /api/users/is-following/:email/:targetEmail): a follow back sets it.
 */
const senderQuery = (me: string, sender: string) =>
  routeQuery(socialRoutes.isFollowingEmail, {
    email: me.trim().toLowerCase(),
    targetEmail: sender.trim().toLowerCase(),
  });

/** After a successful follow back (or follow) of `sender` (their email and pseudo) by `me`. */
export function markFollowed(client: QueryClient, me: string, sender: { email: string; pseudo: string }): void {
  client.setQueryData(senderQuery(me, sender.email).queryKey, { isFollowing: true });
  noteFollowing(client, me, sender.pseudo, true);
}

/** true, false, or null while unknown (not asked yet, or the answer failed: the button stays offered). */
export function useFollowsSender(me: string | null, sender: string, enabled: boolean): boolean | null {
  const known = useQuery({
    ...senderQuery(me ?? '', sender),
    enabled: enabled && Boolean(me && sender),
    staleTime: Infinity,
  });
  return known.data?.isFollowing ?? null;
}
