import type { QueryClient } from '@tanstack/react-query';
import {
  FriendEntry,
  MessageAnswer,
  ProfileAnswer,
  PublicUser,
  SuggestedUser,
  UserStats,
  socialRoutes,
} from '@evo/contracts';
import { api } from '../api/http';
import { decode } from '../api/decode';
import { routeKey } from '../api/queries';

/** Follows and users calls (the product API calls, "Follows and users"); a picture is '' when none. */

export type { PublicUser, SuggestedUser, UserStats };
/** A member I follow, with their counters. */
export type Friend = FriendEntry;
export type Profile = ProfileAnswer;

/** POST /api/users/follows/follow {followerEmail, followingPseudo} → {message}. */
export async function followUser(followerEmail: string, followingPseudo: string): Promise<MessageAnswer> {
  return decode(MessageAnswer, await api.post('/api/users/follows/follow', { followerEmail, followingPseudo }));
}

/** POST /api/follows/follow {follower_email, following_email} (follow back from a notification). */
export async function followBack(followerEmail: string, followingEmail: string): Promise<MessageAnswer> {
  const body = { follower_email: followerEmail, following_email: followingEmail };
  return decode(MessageAnswer, await api.post('/api/follows/follow', body));
}

/** POST /api/follows/unfollow {followerEmail, followingPseudo}. */
export async function unfollowUser(followerEmail: string, followingPseudo: string): Promise<MessageAnswer> {
  return decode(MessageAnswer, await api.post('/api/follows/unfollow', { followerEmail, followingPseudo }));
}

/**
 * After `me` followed or unfollowed `pseudo` here: every screen asking whether they follow them
 * (the profile's button, whether the composer opens) knows at once, without asking again.
 */
export function noteFollowing(client: QueryClient, me: string, pseudo: string, isFollowing: boolean): void {
  client.setQueryData(routeKey(socialRoutes.isFollowing, { followerEmail: me, pseudo }), { isFollowing });
}
