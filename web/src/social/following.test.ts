import { describe, expect, it } from 'vitest';
import { socialRoutes } from '@evo/contracts';
import { createQueryClient, routeKey } from '../api/queries';
import { markFollowed } from '../notifications/followedSenders';
import { noteFollowing } from './api';

const followsBob = (client: ReturnType<typeof createQueryClient>) =>
  client.getQueryData(routeKey(socialRoutes.isFollowing, { followerEmail: 'ana@x.fr', pseudo: 'Bob' }));

describe('a follow made here, in the cache', () => {
  it('answers at once whether I follow them, for the profile’s button and the message composer alike', () => {
    const client = createQueryClient();
    // the composer had asked before: not followed yet
    client.setQueryData(routeKey(socialRoutes.isFollowing, { followerEmail: 'ana@x.fr', pseudo: 'Bob' }), {
      isFollowing: false,
    });
    noteFollowing(client, 'ana@x.fr', 'Bob', true);
    expect(followsBob(client)).toEqual({ isFollowing: true });
    noteFollowing(client, 'ana@x.fr', 'Bob', false);
    expect(followsBob(client)).toEqual({ isFollowing: false });
  });

  it('a follow back from a notification is known by pseudo too, not only by email', () => {
    const client = createQueryClient();
    markFollowed(client, 'ana@x.fr', { email: 'bob@x.fr', pseudo: 'Bob' });
    expect(followsBob(client)).toEqual({ isFollowing: true });
    expect(
      client.getQueryData(routeKey(socialRoutes.isFollowingEmail, { email: 'ana@x.fr', targetEmail: 'bob@x.fr' })),
    ).toEqual({ isFollowing: true });
  });
});
