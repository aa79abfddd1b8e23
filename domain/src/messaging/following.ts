import type { DomainEvent } from '../shared/decider';

/**
 * Whom a member follows, folded from their `following-<id>` stream. Only UserFollowed and
 * UserUnfollowed count; anything else in the stream is ignored. Messaging decides from this fold,
 * never from a read model.
 */
export type FollowingState = ReadonlySet<string>;

export function evolveFollowing(state: FollowingState, event: DomainEvent): FollowingState {
  if (event.type !== 'UserFollowed' && event.type !== 'UserUnfollowed') return state;
  const { followeeId } = event.data as { followeeId: string };
  const next = new Set(state);
  if (event.type === 'UserFollowed') next.add(followeeId);
  else next.delete(followeeId);
  return next;
}

export const followingOf = (events: readonly DomainEvent[]): FollowingState =>
  events.reduce<FollowingState>(evolveFollowing, new Set<string>());
