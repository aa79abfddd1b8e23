import type { Decider } from '../shared/decider';
import { invalid } from '../shared/errors';
import type { FollowEvent } from './events';
import { NOTIFICATION_WINDOW_MS, SOCIAL_MESSAGES, windowElapsed } from './rules';

/**
 * Whom one member follows: stream `following-<followerId>`. The handler has already resolved the
 * followee (unknown member: 404) and made the session user the follower. A follow notifies the
 * followee at most once per NOTIFICATION_WINDOW_MS (follow/unfollow loops: one).
 */
export type FollowCommand =
  | { type: 'Follow'; followerId: string; followeeId: string; now: Date }
  /** not following: answered without an event (200, no-op), like following twice */
  | { type: 'Unfollow'; followerId: string; followeeId: string; now: Date };

/** `notifiedAt`: followee → when a follow last notified them */
export type FollowState = { following: ReadonlySet<string>; notifiedAt: ReadonlyMap<string, string> };

export const followDecider: Decider<FollowCommand, FollowEvent, FollowState> = {
  initialState: () => ({ following: new Set(), notifiedAt: new Map() }),
  evolve(state, event) {
    const following = new Set(state.following);
    if (event.type === 'UserUnfollowed') {
      following.delete(event.data.followeeId);
      return { ...state, following };
    }
    following.add(event.data.followeeId);
    if (event.data.notify === false || event.data.at === undefined) return { ...state, following };
    const notifiedAt = new Map(state.notifiedAt);
    notifiedAt.set(event.data.followeeId, event.data.at);
    return { following, notifiedAt };
  },
  decide(command, state) {
    const { followerId, followeeId } = command;
    if (command.type === 'Follow') {
      if (followerId === followeeId) throw invalid(SOCIAL_MESSAGES.selfFollow);
      if (state.following.has(followeeId)) return [];
      const notify = windowElapsed(state.notifiedAt.get(followeeId) ?? null, command.now, NOTIFICATION_WINDOW_MS);
      return [{ type: 'UserFollowed', data: { followerId, followeeId, notify, at: command.now.toISOString() } }];
    }
    return state.following.has(followeeId) ? [{ type: 'UserUnfollowed', data: { followerId, followeeId } }] : [];
  },
};
