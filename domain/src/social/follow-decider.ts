import type { Decider } from '../shared/decider';
import { badRequest } from '../shared/errors';
import type { FollowEvent } from './events';
import { SOCIAL_MESSAGES } from './rules';

/**
 * Whom one member follows: stream `following-<followerId>`. The handler has already resolved the
 * followee (unknown member: 404) and made the session user the follower.
 */
export type FollowCommand =
  | { type: 'Follow'; followerId: string; followeeId: string }
  /** not following: answered without an event (200, no-op), like following twice */
  | { type: 'Unfollow'; followerId: string; followeeId: string };

export type FollowState = { following: ReadonlySet<string> };

export const followDecider: Decider<FollowCommand, FollowEvent, FollowState> = {
  initialState: () => ({ following: new Set() }),
  evolve(state, event) {
    const following = new Set(state.following);
    if (event.type === 'UserFollowed') following.add(event.data.followeeId);
    else following.delete(event.data.followeeId);
    return { following };
  },
  decide(command, state) {
    const { followerId, followeeId } = command;
    if (command.type === 'Follow') {
      if (followerId === followeeId) throw badRequest(SOCIAL_MESSAGES.selfFollow);
      return state.following.has(followeeId) ? [] : [{ type: 'UserFollowed', data: { followerId, followeeId } }];
    }
    return state.following.has(followeeId) ? [{ type: 'UserUnfollowed', data: { followerId, followeeId } }] : [];
  },
};
