import { useLoad } from '../api/useLoad';
import { fetchIsFollowing } from '../social/api';

/**
 * May `me` write to `pseudo`? Only a member they follow (the product rules, "Private message"; the
 * server refuses the others anyway). `checking` until the first answer: the composer stays closed
 * meanwhile, rather than take a message the server would then refuse. A failed check closes
 * nothing (the server still decides). `me` or `pseudo` null: nothing is asked.
 */
export function useMessagePermission(me: string | null, pseudo: string | null) {
  const following = useLoad(me && pseudo ? `can-message:${me}:${pseudo}` : null, (signal) =>
    fetchIsFollowing(me ?? '', pseudo ?? '', signal),
  );
  return {
    mustFollow: following.data === false,
    checking: following.loading && following.data === undefined && following.error === undefined,
  };
}
