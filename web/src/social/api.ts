import { z } from 'zod';
import { FriendEntry, MessageAnswer, ProfileAnswer, PublicUser, SuggestedUser, UserStats } from '@evo/contracts';
import { api } from '../api/http';
import { decode } from '../api/decode';

/** Follows and users calls (the product API calls, "Follows and users"); a picture is '' when none. */

export type { PublicUser, SuggestedUser, UserStats };
/** A member I follow, with their counters. */
export type Friend = FriendEntry;
export type Profile = ProfileAnswer;

const enc = encodeURIComponent;

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

/** GET /api/users/profile/:pseudo?page= → {user, videos, next_page}: one page of videos, newest first. */
export async function fetchProfile(pseudo: string, signal?: AbortSignal, page = 1): Promise<Profile> {
  const query = page > 1 ? `?page=${page}` : '';
  return decode(ProfileAnswer, await api.get(`/api/users/profile/${enc(pseudo)}${query}`, { signal }));
}

/** GET /api/users/stats/:email → {following, followers, total_likes}. */
export async function fetchStats(email: string, signal?: AbortSignal): Promise<UserStats> {
  return decode(UserStats, await api.get(`/api/users/stats/${enc(email)}`, { signal }));
}

/** GET /api/users/friends/:email → the users I follow, with their counters. */
export async function fetchFriends(email: string, signal?: AbortSignal): Promise<Friend[]> {
  return decode(z.array(FriendEntry), await api.get(`/api/users/friends/${enc(email)}`, { signal }));
}
