import { socialRoutes } from '@evo/contracts';
import { useRouteQuery } from '../api/queries';

/**
 * May `me` write to `pseudo`? Only a member they follow (the product rules, "Private message"; the
 * server refuses the others anyway). `checking` until the first answer: the composer stays closed
 * meanwhile, rather than take a message the server would then refuse. A failed check closes
 * nothing (the server still decides). `me` or `pseudo` null: nothing is asked.
 */
export function useMessagePermission(me: string | null, pseudo: string | null) {
  const following = useRouteQuery(socialRoutes.isFollowing, me && pseudo ? { followerEmail: me, pseudo } : null);
  return {
    mustFollow: following.data?.isFollowing === false,
    checking: following.isFetching && following.data === undefined && !following.error,
  };
}
